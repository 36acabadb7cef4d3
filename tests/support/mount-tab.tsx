// One browser tab of the app for route-level tests: the route table in a memory router, the real
// app root actor (its session and portfolio children) (the tab's drafts in sessionStorage), the app's providers,
// and an HTTP client over the `fetch` the test gives (a fake API, or the real server in-process).
// The language follows the address, as in the app.
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { AppProviders, appRoutes } from "../../src/app/app.tsx";
import { createDraftStore, restoreWhenSignedIn } from "../../src/app/drafts.ts";
import { activateLocale } from "../../src/app/i18n.ts";
import { PortfolioWorkspace } from "../../src/app/portfolio-workspace.ts";
import { Navigation } from "../../src/app/route-follow.ts";
import { brandOf, type AppServices } from "../../src/app/services.tsx";
import type { SessionActor } from "../../src/app/session/session-actor.ts";
import { createAppActor } from "../../src/app/app-actor.ts";
import { systemIds } from "../../machines/system-ids.ts";
import { createHttpClient } from "../../src/client/http.ts";
import type { Edition, Locale } from "../../src/contract/common.ts";
import type { RuntimeConfig } from "../../src/contract/runtime-config.ts";

export async function mountTab(options: {
  readonly path: string;
  readonly edition: Edition;
  readonly fetch: typeof fetch;
}) {
  const localeOf = (path: string): Locale => (path.startsWith("/es") ? "es" : "en");
  await activateLocale(localeOf(options.path));
  const config: RuntimeConfig = {
    edition: options.edition,
    apiBase: "/api",
    marketingScriptUrl: null,
    recaptchaSiteKey: null,
    outboxPage: false,
  };
  const router = createMemoryRouter(appRoutes, { initialEntries: [options.path] });
  const locale = () => localeOf(router.state.location.pathname);
  let session: SessionActor | null = null;
  const http = createHttpClient({
    baseURL: "http://localhost/api",
    edition: options.edition,
    locale,
    product: () => "simAssets",
    onUnauthorized: () => session?.send({ type: "session.unauthorized" }),
    fetch: options.fetch,
    retryDelayMs: 0,
  });
  const drafts = createDraftStore(
    sessionStorage,
    () => session?.getSnapshot().context.client?.id ?? null,
  );
  const navigation = new Navigation();
  const app = createAppActor({
    http,
    saveFile: () => {},
    drafts,
    follow: navigation.follow,
    navigate: (to) => router.navigate(to),
    locale,
    currentPath: () => router.state.location.pathname,
    clearUserState: () => {
      app.send({ type: "workspace.clear" });
      drafts.clear();
    },
  });
  session = app.getSnapshot().children[systemIds.session]!;
  const portfolios = new PortfolioWorkspace(app, { edition: options.edition, drafts });
  restoreWhenSignedIn(session, portfolios);
  const services: AppServices = {
    config,
    brand: brandOf(config),
    product: () => "simAssets",
    http,
    app,
    session,
    cache: null,
    portfolios,
    products: null,
    navigation,
  };
  const utils = render(
    <AppProviders services={services}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, app, session, portfolios };
}
