// @vitest-environment jsdom
// Tables on a phone and a new portfolio's monitoring, on the routes: the saved portfolio's holdings
// and the list of portfolios give every value its column's label (the cards of a phone read them),
// and a portfolio with fewer than two valuations shows, instead of charts of one dot, when its next
// valuation comes (the market day and the calendar day, through Intl), in both languages.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitFor as waitForActor } from "xstate";
import type { AnalysisResponse } from "../../src/contract/analytics.ts";
import type { Locale } from "../../src/contract/common.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import type { Portfolio, PortfolioHistory } from "../../src/contract/portfolios.ts";
import { demoClient } from "../support/clients.ts";
import { memberFacts, renderApp, testServices } from "../support/render-app.tsx";

const advanced = {
  id: 1,
  active: true,
  expiryDate: null,
  subscriptionText: "advanced",
  subscriptionTypeId: 6,
  tier: "advanced",
  cancelled: false,
} as const;
const client = demoClient({
  subscriptions: { ...demoClient().subscriptions, simAssets: advanced },
  permissions: { ...demoClient().permissions, simAssets: permissionsFor("simAssets", "advanced") },
});

const holding = (id: string, name: string, investedAmount: number, percentage: number) => ({
  id,
  name,
  investedAmount,
  percentage,
  volatilities: { 1: null, 2: null, 3: null, 4: null, 5: 0.3, 6: null },
  currency: "USD",
  stale: false,
});

const portfolio = {
  id: 12,
  name: "Test portfolio",
  product: "simAssets",
  currency: "USD",
  benchmark: 5,
  benchmarkSeries: null,
  assets: [
    {
      stockExchange: "NASDAQ",
      stockExchangeId: "NASDAQ",
      assetClass: null,
      assetClassId: null,
      position: 1,
      assets: [
        holding("NVDA", "Nvidia", 5533.99, 22.14),
        holding("AVGO", "Broadcom", 3645.97, 14.58),
      ],
    },
    {
      stockExchange: "NYSE",
      stockExchangeId: "NYSE",
      assetClass: null,
      assetClassId: null,
      position: 2,
      assets: [holding("XOM", "ExxonMobil", 15820.04, 63.28)],
    },
  ],
  totalInvested: 25000,
  initialInvested: 25000,
  maxAssetsLevel: 2,
  saved: true,
  remainingEditions: 20,
  monkeyRegion: null,
  answers: null,
  version: 1,
  createdAt: "2026-11-26T09:00:00.000Z",
  updatedAt: "2026-11-26T09:00:00.000Z",
  valuation: {
    date: "2026-11-20",
    value: 25000,
    return: 0,
    risk: 0.1,
    score: 55,
    communityPercentile: 50,
  },
} as unknown as Portfolio;

const daily = 0.2 / Math.sqrt(252);
const horizon = daily * Math.sqrt(21);
const varFigure = (method: string) => ({
  method,
  confidence: 0.95,
  horizonDays: 21,
  var: 0.1,
  cvar: 0.12,
  varAmount: 2500,
  cvarAmount: 3000,
});
const analysis = {
  currency: "USD",
  window: {
    benchmark: 5,
    observations: 756,
    from: "2023-11-20",
    to: "2026-11-20",
    horizonDays: 21,
    confidence: 0.95,
    covariance: "ledoit-wolf",
    shrinkage: 0.1,
    ridge: 0,
    limitedBy: [],
    simulated: false,
  },
  totalInvested: 25000,
  assets: portfolio.assets
    .flatMap((g) => g.assets)
    .map((a) => ({
      symbol: a.id,
      name: a.name,
      amount: a.investedAmount,
      weight: a.percentage / 100,
      standAlone: horizon,
      marginal: horizon,
      contribution: horizon / 3,
      percentage: 33,
      varContributionAmount: 800,
      expectedReturn: 0.08,
      historicalReturn: 0.1,
      beta: 1,
      requiredReturn: 0.07,
    })),
  volatility: { daily, horizon, annual: 0.2 },
  var: {
    parametric: varFigure("parametric"),
    historical: varFigure("historical"),
    monteCarlo: null,
  },
  diversification: {
    standAloneSum: horizon,
    portfolio: horizon,
    benefit: 0,
    reduction: 0,
    ratio: 1,
    standAloneVarSumAmount: 2500,
    portfolioVarAmount: 2500,
  },
  currencyRisk: null,
  expectedReturn: { portfolio: 0.08, shrinkage: 0.5 },
  requiredReturn: { portfolio: 0.07, riskFreeRate: 0.02, targetSharpe: 0.4 },
  scores: { marketRisk: 50, riskReturn: 50, diversification: 50, global: 55, communityGlobal: 50 },
  breakdown: {},
  distribution: [-0.1, -0.05, 0, 0.05, 0.1],
  locked: [],
} as unknown as AnalysisResponse;

/** A new portfolio: valued on its save day only; the next market day comes on 2 December. */
const newHistory: PortfolioHistory = {
  dates: ["2026-11-20"],
  values: [25000],
  returns: [0],
  risks: [0.1],
  scores: [55],
  nextValuation: { date: "2026-11-23", at: "2026-12-02T12:00:00.000Z" },
};

function fakeApi(history: PortfolioHistory) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    const route = `${request.method} ${url.pathname}`;
    if (route === "GET /api/client") return json(200, client);
    if (route === "GET /api/portfolios")
      return json(200, { portfolios: [portfolio], simulated: false });
    if (route === "GET /api/portfolios/12") return json(200, portfolio);
    if (route === "GET /api/portfolios/12/analysis") return json(200, analysis);
    if (route === "GET /api/portfolios/12/history") return json(200, history);
    if (route === "GET /api/portfolios-limit" || url.pathname.includes("limit"))
      return json(200, []);
    return json(404, { msgCode: "NOT_FOUND" });
  });
  return fetch as unknown as typeof globalThis.fetch;
}

async function signedIn(history: PortfolioHistory = newHistory) {
  const services = testServices("ht", fakeApi(history));
  await waitForActor(services.session!, (s) => s.matches("signedOut"), { timeout: 2000 });
  services.session!.send({
    type: "session.started",
    session: { expiry: new Date(Date.now() + 86_400_000).toISOString() },
  });
  await waitForActor(services.session!, (s) => s.matches("signedIn"), { timeout: 2000 });
  return services;
}

/** Text as a reader sees it: Intl puts no-break spaces in "10,00 €". */
const plain = (text: string | null | undefined) => (text ?? "").replace(/\u00a0|\u202f/g, " ");

/** Each value of a row of `table` with the label its card shows beside it. */
function labelled(row: HTMLElement) {
  return Object.fromEntries(
    within(row)
      .getAllByRole("cell")
      .map((cell) => [cell.dataset.label, plain(cell.textContent)]),
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.cookie = "auth=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  sessionStorage.clear();
});

const paths: Record<Locale, { portfolio: string; list: string }> = {
  en: { portfolio: "/en/my-account/portfolios/portfolio-12", list: "/en/my-account/portfolios" },
  es: { portfolio: "/es/mi-cuenta/carteras/cartera-12", list: "/es/mi-cuenta/carteras" },
};

describe("the saved portfolio's holdings as cards", () => {
  it.each([
    ["en", "Holdings", { "Amount (USD)": "$5,533.99", Weight: "22.14%" }],
    ["es", "Posiciones", { "Importe (USD)": "5533,99 US$", Peso: "22,14 %" }],
  ] as const)("label every value of a row with its column (%s)", async (locale, name, nvidia) => {
    const services = await signedIn();
    await renderApp(paths[locale].portfolio, { facts: memberFacts, services, locale });
    const table = await screen.findByRole("table", { name });
    const row = within(table)
      .getByRole("rowheader", { name: /Nvidia/ })
      .closest("tr")!;
    expect(labelled(row)).toEqual(nvidia);
    // Every value row (and the total) has a label for each of its values.
    const rows = within(table)
      .getAllByRole("row")
      .filter((r) => within(r).queryAllByRole("cell").length > 0);
    expect(rows).toHaveLength(4);
    for (const r of rows) expect(Object.keys(labelled(r))).toEqual(Object.keys(nvidia));
  });
});

describe("the list of portfolios as cards", () => {
  it.each([
    ["en", "Your saved portfolios", { Value: "$25,000.00", Return: "0.00%", Score: "55" }],
    [
      "es",
      "Tus carteras guardadas",
      { Valor: "25.000,00 US$", Rentabilidad: "0,00 %", Puntuación: "55" },
    ],
  ] as const)("labels each portfolio's figures (%s)", async (locale, name, figures) => {
    const services = await signedIn();
    await renderApp(paths[locale].list, { facts: memberFacts, services, locale });
    const table = await screen.findByRole("table", { name });
    const row = within(table).getByRole("rowheader", { name: "Test portfolio" }).closest("tr")!;
    expect(labelled(row)).toMatchObject(figures);
  });
});

describe("a new portfolio's monitoring", () => {
  it.each([
    [
      "en",
      "Next valuation: at the closes of November 23, 2026 (market date), ready on December 2, 2026.",
    ],
    [
      "es",
      "Próxima valoración: al cierre del 23 de noviembre de 2026 (fecha de mercado), lista el 2 de diciembre de 2026.",
    ],
  ] as const)(
    "says when its next valuation comes instead of charts of one dot (%s)",
    async (locale, next) => {
      const services = await signedIn();
      await renderApp(paths[locale].portfolio, { facts: memberFacts, services, locale });
      const empty = await screen.findByTestId("monitoring-empty", {}, { timeout: 5000 });
      expect(plain(empty.textContent)).toContain(next);
      const monitoring = empty.closest("section")!;
      expect(monitoring.querySelector("svg")).toBeNull();
    },
  );

  it("draws the charts once there are two valuations", async () => {
    const services = await signedIn({
      ...newHistory,
      dates: ["2026-11-20", "2026-11-23"],
      values: [25000, 25100],
      returns: [0, 0.004],
      risks: [0.1, 0.101],
      scores: [55, 56],
    });
    await renderApp(paths.en.portfolio, { facts: memberFacts, services, locale: "en" });
    await waitFor(() =>
      expect(document.querySelector('[data-block="monitoring"] svg')).not.toBeNull(),
    );
    expect(screen.queryByTestId("monitoring-empty")).toBeNull();
  });
});
