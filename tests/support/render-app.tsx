import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import type { AccessFacts, AccountFacts } from "../../machines/guards/access-facts.ts";
import { AccessFactsProvider } from "../../src/app/access-facts.tsx";
import { appRoutes } from "../../src/app/app.tsx";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { PortfolioWorkspace } from "../../src/app/portfolio-workspace.ts";
import { Navigation } from "../../src/app/route-follow.ts";
import { ServicesProvider, brandOf, type AppServices } from "../../src/app/services.tsx";
import { I18nProvider } from "@lingui/react";
import { createHttpClient } from "../../src/client/http.ts";
import type { Edition, Locale } from "../../src/contract/common.ts";
import type { RuntimeConfig } from "../../src/contract/runtime-config.ts";
import type { SessionActor } from "../../src/app/session/session-actor.ts";
import { createAppActor } from "../../src/app/app-actor.ts";
import { systemIds } from "../../machines/system-ids.ts";

export const healthyResponse = {
  status: "ok",
  version: "0.1.0",
  edition: "ht",
  uptimeSeconds: 5,
  time: "2026-11-21T10:00:00.000Z",
  database: { status: "up", driver: "pglite", latencyMs: 1.2, migrations: 1 },
};

export function testServices(edition: Edition = "ht", fetchImpl?: typeof fetch): AppServices {
  let session: SessionActor | null = null;
  const config: RuntimeConfig = {
    edition,
    apiBase: "/api",
    marketingScriptUrl: null,
    recaptchaSiteKey: null,
    outboxPage: false,
  };
  const fetcher =
    fetchImpl ??
    (async () =>
      new Response(JSON.stringify(healthyResponse), {
        status: 200,
        headers: { "Content-Type": "application/json" },
      }));
  const http = createHttpClient({
    baseURL: "http://localhost/api",
    edition,
    locale: () => "en",
    product: () => "simAssets",
    onUnauthorized: () => session?.send({ type: "session.unauthorized" }),
    fetch: fetcher,
    retryDelayMs: 0,
  });
  const navigation = new Navigation();
  const app = createAppActor({
    http,
    saveFile: () => {},
    follow: navigation.follow,
    navigate: () => {},
    locale: () => "en",
    currentPath: () => "/",
    clearUserState: () => {},
  });
  session = app.getSnapshot().children[systemIds.session]!;
  const portfolios = new PortfolioWorkspace(app, { edition });
  return {
    config,
    brand: brandOf(config),
    product: () => "simAssets",
    app,
    session,
    cache: null,
    http,
    portfolios,
    products: null,
    navigation,
  };
}

export const memberAccount: AccountFacts = {
  kind: "standard",
  trial: false,
  subscribedProducts: ["simAssets", "simIndices", "simMonk"],
  bananaPermission: true,
  policiesAccepted: true,
};

/** Facts that pass every guard but auth-guest: a subscribed member with a portfolio under way. */
export const memberFacts: AccessFacts = {
  edition: "ht",
  product: "simAssets",
  session: "signedIn",
  account: memberAccount,
  creationInProgress: true,
  portfolioLoaded: true,
};

export const guestFacts: AccessFacts = {
  ...memberFacts,
  session: "signedOut",
  account: null,
  creationInProgress: false,
  portfolioLoaded: false,
};

/** Renders the whole app at a path, in a memory router, with the given access facts. */
export async function renderApp(
  path: string,
  options: { facts?: AccessFacts; services?: AppServices; locale?: Locale } = {},
) {
  const locale = options.locale ?? (path.startsWith("/es") ? "es" : "en");
  await activateLocale(locale);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const services = options.services ?? testServices();
  const utils = render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={services}>
        <AccessFactsProvider facts={options.facts ?? guestFacts}>
          <RouterProvider router={router} />
        </AccessFactsProvider>
      </ServicesProvider>
    </I18nProvider>,
  );
  return { ...utils, router };
}
