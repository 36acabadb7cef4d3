import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router-dom";
import { createCache } from "../client/cache.ts";
import { createHttpClient } from "../client/http.ts";
import { readRuntimeConfig } from "../client/runtime-config.ts";
import { createAppActor } from "./app-actor.ts";
import { App, appRoutes } from "./app.tsx";
import { watchFirstPageBanner } from "./consent.ts";
import { createDraftStore, restoreWhenSignedIn } from "./drafts.ts";
import { keepFirstPageInput } from "./first-page-input.ts";
import { activateLocale } from "./i18n.ts";
import { startInspector } from "./inspector.ts";
import { cookieLocale, preferredLocale } from "./locale.ts";
import { localeOfPath } from "./paths.ts";
import { PortfolioWorkspace } from "./portfolio-workspace.ts";
import { createProductStore } from "./product-store.ts";
import { Navigation } from "./route-follow.ts";
import { preloadScreen } from "./route-screen.tsx";
import { brandOf, type AppServices } from "./services.tsx";
import type { SessionActor } from "./session/session-actor.ts";
import { systemIds } from "../../machines/system-ids.ts";
import "../ui/styles.css";

watchFirstPageBanner();
const handOverFirstPageInput = keepFirstPageInput(document.getElementById("root"));
const config = readRuntimeConfig();
document.documentElement.dataset.edition = config.edition;
const products = createProductStore(sessionStorage);
const product = products.get;
const initialLocale = localeOfPath(location.pathname) ?? preferredLocale();
const pageLocale = () => localeOfPath(location.pathname) ?? cookieLocale();

void Promise.all([
  activateLocale(initialLocale),
  preloadScreen(location.pathname),
  import.meta.env.DEV ? startInspector() : null,
]).then(() => {
  const router = createBrowserRouter(appRoutes);
  const cache = createCache(sessionStorage);
  let session: SessionActor | null = null;
  const http = createHttpClient({
    baseURL: config.apiBase,
    edition: config.edition,
    locale: cookieLocale,
    product,
    onUnauthorized: () => session?.send({ type: "session.unauthorized" }),
  });
  // The work in progress of this tab, kept for a reload (src/app/drafts.ts).
  const drafts = createDraftStore(
    sessionStorage,
    () => session?.getSnapshot().context.client?.id ?? null,
  );
  const navigation = new Navigation();
  // The long-lived actors of the tab, children of one root (src/app/app-actor.ts).
  const app = createAppActor({
    http,
    drafts,
    follow: navigation.follow,
    saveFile: (blob, fileName) => {
      const url = URL.createObjectURL(blob);
      const link = Object.assign(document.createElement("a"), { href: url, download: fileName });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    // The session's own moves (index after signing out, sign-in after a 401) are drawn at once,
    // not in a transition: the page being left must not render the new session facts meanwhile
    // (its guard would send a person who just signed out to sign in).
    navigate: (to) => router.navigate(to, { flushSync: true }),
    locale: pageLocale,
    currentPath: () => location.pathname + location.search,
    clearUserState: () => {
      cache.clear();
      app.send({ type: "workspace.clear" });
      drafts.clear();
    },
  });
  session = app.getSnapshot().children[systemIds.session]!;
  const portfolios = new PortfolioWorkspace(app, { edition: config.edition, drafts });
  restoreWhenSignedIn(session, portfolios);
  const services: AppServices = {
    config,
    brand: brandOf(config),
    product,
    http,
    app,
    session,
    cache,
    portfolios,
    products,
    navigation,
  };
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App
        services={services}
        router={router}
        initialLocale={initialLocale}
        onMounted={handOverFirstPageInput}
      />
    </StrictMode>,
  );
});
