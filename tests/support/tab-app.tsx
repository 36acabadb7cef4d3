// The app as one browser tab opens it: a real session (restored from the auth cookie, the client
// from a fake API), the real portfolio workspace with the tab's drafts in sessionStorage, the real
// route guards, in a memory router. Reloading the tab is unmounting it, resetting the modules
// (vi.resetModules) and opening it again with the same sessionStorage and cookies.
import { writeSessionCookie } from "../../src/app/session/session-actor.ts";
import type { Client } from "../../src/contract/accounts.ts";
import { defaultPermissions, type ProductPermissions } from "../../src/contract/permissions.ts";
import { demoClient } from "./clients.ts";
import { mountTab } from "./mount-tab.tsx";

const advanced = {
  id: 11,
  active: true,
  expiryDate: "2099-01-01",
  subscriptionText: "Advanced",
  subscriptionTypeId: 3,
  tier: "advanced",
  cancelled: false,
} as const;

const permissions: ProductPermissions = {
  ...defaultPermissions,
  construction: { ...defaultPermissions.construction, save: true, saveLimit: 5 },
  optimization: { portfolio: true, construction: true, constructionFixAssets: true },
  whatIf: { marketScenarios: true, realLifeScenarios: true, backTesting: true },
};

export const tabClient: Client = demoClient({
  level: 30,
  subscriptions: { ...demoClient().subscriptions, simAssets: advanced },
  permissions: { simAssets: permissions, simMonk: defaultPermissions, simIndices: permissions },
});

const asset = (symbol: string, name: string) => ({
  symbol,
  name,
  kind: "stock",
  universe: "simAssets",
  exchange: "BME",
  assetClass: null,
  region: "eu",
  country: "ES",
  currency: "EUR",
  sector: "Financials",
  firstDate: "2010-01-04",
  lastDate: "2024-05-31",
  stale: false,
});

export const proposal = {
  currency: "EUR",
  assets: [
    { symbol: "SAN.MC", name: "Banco Santander", investedAmount: 6000, percentage: 60 },
    { symbol: "ITX.MC", name: "Inditex", investedAmount: 4000, percentage: 40 },
  ],
  method: "equal",
  var95Amount: 640,
  cvar95Amount: 800,
  withinMaxToLose: null,
  minimumDesiredRiskAmount: 110,
  simulated: false,
};

/** The API calls the tab made, by method and path. */
export const calls: string[] = [];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** Answers of a test for calls the tab's own fake API leaves waiting (null: not this one). */
export type ExtraApi = (
  request: Request,
  path: string,
) => Response | null | Promise<Response | null>;

async function fakeApi(
  input: RequestInfo | URL,
  init?: RequestInit,
  extra?: ExtraApi,
): Promise<Response> {
  const request = input instanceof Request ? input : new Request(String(input), init);
  const path = new URL(request.url).pathname;
  calls.push(`${request.method} ${path}`);
  const answered = extra ? await extra(request, path) : null;
  if (answered) return answered;
  if (path === "/api/client") return json(200, tabClient);
  if (path === "/api/market/assets")
    return json(200, {
      assets: [
        asset("SAN.MC", "Banco Santander"),
        asset("ITX.MC", "Inditex"),
        asset("BBVA.MC", "BBVA"),
      ],
      simulated: false,
    });
  if (path === "/api/portfolios/propose") return json(200, proposal);
  // Answers that never come: the screens keep waiting for figures this test does not look at.
  return new Promise<Response>(() => {});
}

/** Signs the tab in (the app's auth cookie, as after a sign-in). */
export function signIn(): void {
  writeSessionCookie({ expiry: new Date(Date.now() + 86_400_000).toISOString() });
}

/** Opens the app at a path in this tab; `api` answers calls the fake API above leaves waiting. */
export function openTab(path: string, options: { api?: ExtraApi } = {}) {
  return mountTab({
    path,
    edition: "ht",
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      fakeApi(input, init, options.api)) as typeof fetch,
  });
}
