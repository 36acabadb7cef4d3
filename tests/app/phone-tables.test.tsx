// @vitest-environment jsdom
// Tables on a phone and a new portfolio's monitoring, on the routes: the saved portfolio's holdings
// and the list of portfolios, the what-if's results, an asset's volatilities and a banana
// portfolio's holdings give every value its column's label (the cards of a phone read them), and a
// portfolio with fewer than two valuations shows, instead of charts of one dot, when its next
// valuation comes (the market day and the calendar day, through Intl), in both languages.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitFor as waitForActor } from "xstate";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { AnalysisResponse, WhatIfResponse } from "../../src/contract/analytics.ts";
import type { AssetView } from "../../src/contract/market.ts";
import type { Locale } from "../../src/contract/common.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import type { Portfolio, PortfolioHistory } from "../../src/contract/portfolios.ts";
import { HoldingsTable } from "../../src/features/banana/banana-portfolio-screen.tsx";
import { WhatIfResultView } from "../../src/features/what-if/result-view.tsx";
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
      investedAmount: a.investedAmount,
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

// The asset's price chart draws on a canvas, which jsdom has not: a chart that draws nothing (these
// tests read the tables beside it).
vi.mock("lightweight-charts", () => {
  const series = { setData: () => {} };
  return {
    ColorType: { Solid: "solid" },
    AreaSeries: {},
    createChart: () => ({
      addSeries: () => series,
      timeScale: () => ({ fitContent: () => {} }),
      subscribeCrosshairMove: () => {},
      setCrosshairPosition: () => {},
      remove: () => {},
    }),
  };
});

/** Every value row of a card table: each cell labelled, the labels the column headings. */
function expectCards(table: HTMLElement) {
  expect(table.classList.contains("card-table")).toBe(true);
  const headings = within(table)
    .getAllByRole("columnheader")
    .map((h) => plain(h.textContent))
    .slice(1);
  const rows = within(table)
    .getAllByRole("row")
    .filter((r) => within(r).queryAllByRole("rowheader").length > 0);
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) {
    const cells = within(r).getAllByRole("cell");
    const labels = cells.map((c) => c.dataset.label);
    // A total row leaves out the columns it has no total of (no empty line on its card).
    if (r.classList.contains("total-row"))
      cells.forEach((c, i) =>
        expect(c.dataset.label ?? null).toBe(plain(c.textContent) ? headings[i] : null),
      );
    else expect(labels).toEqual(headings);
  }
  return rows;
}

/** A component of a screen, in a language, with the app's providers. */
async function show(node: ReactNode, locale: Locale) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices("ht")}>
        <MemoryRouter>{node}</MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
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

  it.each([
    [
      "en",
      "Compared with SPDR S&P 500 ETF, the benchmark chosen for this portfolio: its return since the first valuation, in the portfolio's currency.",
      "1.25%",
    ],
    [
      "es",
      "Comparada con SPDR S&P 500 ETF, el índice de referencia elegido para esta cartera: su rentabilidad desde la primera valoración, en la divisa de la cartera.",
      "1,25 %",
    ],
  ] as const)(
    "draws the stored benchmark's return beside the portfolio's, by its name (issue 27, %s)",
    async (locale, sentence, last) => {
      const services = await signedIn({
        ...newHistory,
        dates: ["2026-11-20", "2026-11-23", "2026-11-24"],
        values: [25000, 25100, 25200],
        returns: [0, 0.004, 0.008],
        risks: [0.1, 0.101, 0.1],
        scores: [55, 56, 56],
        benchmark: {
          series: "SPY",
          name: "SPDR S&P 500 ETF",
          chosen: true,
          returns: [0, 0.005, 0.0125],
        },
      });
      await renderApp(paths[locale].portfolio, { facts: memberFacts, services, locale });
      const note = await screen.findByTestId("monitoring-benchmark", {}, { timeout: 5000 });
      expect(plain(note.textContent)).toBe(plain(sentence));
      // The return chart's table (its text alternative) has the benchmark's column, in Intl's form.
      const block = document.querySelector('[data-block="monitoring"]')!;
      const headers = Array.from(block.querySelectorAll("th"), (h) => h.textContent);
      expect(headers).toContain("SPDR S&P 500 ETF");
      const cells = Array.from(block.querySelectorAll("td"), (c) => plain(c.textContent));
      expect(cells).toContain(plain(last));
    },
  );
});

const scenario: WhatIfResponse = {
  kind: "scenario",
  currency: "USD",
  scenario: { type: 1, id: "pandemic-2020", start: "2020-02-19", end: "2020-03-23" },
  totalInvested: 10_000,
  totalChange: -3_390,
  totalReturn: -0.339,
  assets: [
    {
      symbol: "SPY",
      name: "SPDR S&P 500 ETF",
      investedAmount: 6_000,
      return: -0.339,
      change: -2_034,
      betas: {},
      method: "history",
    },
    {
      symbol: "TLT",
      name: "iShares 20+ Year Treasury Bond ETF",
      investedAmount: 4_000,
      return: -0.339,
      change: -1_356,
      betas: {},
      method: "proxy",
    },
  ],
  factorMoves: { market: -0.339, rates: -0.81 },
  missingFactors: [],
  sensitivities: null,
  sources: [
    { factor: "market", series: "GSPC_INDEX" },
    { factor: "rates", series: "US10Y+US10Y_MONTHLY" },
  ],
  simulated: false,
};

const custom: WhatIfResponse = {
  kind: "custom",
  currency: "USD",
  totalInvested: 10_000,
  totalChange: -120,
  totalReturn: -0.012,
  assets: [
    {
      symbol: "SPY",
      name: "SPDR S&P 500 ETF",
      investedAmount: 10_000,
      return: -0.012,
      change: -120,
      betas: { market: 1.02, rates: -0.5 },
      method: null,
    },
  ],
  shocks: { dRV: -0.01, dRF: null, dCrypto: null, dMMPP: null, inflation: null },
  sensitivities: {
    periods: 260,
    from: "2021-11-19",
    to: "2026-11-20",
    factors: ["market", "rates"],
    excluded: [],
  },
  sources: [
    { factor: "market", series: "GSPC_INDEX" },
    { factor: "rates", series: "US10Y+US10Y_MONTHLY" },
  ],
  ignored: [],
  simulated: false,
};

const performance = {
  totalReturn: 0.5,
  annualizedReturn: 0.08,
  volatility: 0.2,
  maxDrawdown: 0.3,
  sharpe: 0.9,
};
const backtest: WhatIfResponse = {
  kind: "backtest",
  currency: "USD",
  backTesting: "5y",
  rebalancing: "none",
  rebalances: 0,
  from: "2019-05-31",
  to: "2024-05-31",
  totalInvested: 10_000,
  dates: ["2019-05-31", "2021-05-28", "2024-05-31"],
  values: [10_000, 12_000, 15_000],
  performance,
  benchmark: {
    series: "SP500_INDEX",
    values: [10_000, 11_000, 14_000],
    performance: { ...performance, totalReturn: 0.4 },
    excessReturn: 0.1,
    trackingError: 0.05,
  },
  limitedBy: [],
  simulated: false,
};

describe("the what-if's results as cards", () => {
  it.each([
    [
      "en",
      {
        assets: "Each asset",
        moves: "How the markets moved over the scenario",
        spy: { Amount: "$6,000.00", Return: "-33.90%", "Gain or loss": "-$2,034.00" },
        measured: "Measured with",
        total: { Amount: "$10,000.00", Return: "-33.90%", "Gain or loss": "-$3,390.00" },
        market: { Move: "-33.90%" },
      },
    ],
    [
      "es",
      {
        assets: "Cada activo",
        moves: "Cómo se movieron los mercados durante el escenario",
        spy: {
          Importe: "6000,00 US$",
          Rentabilidad: "-33,90 %",
          "Ganancia o pérdida": "-2034,00 US$",
        },
        measured: "Medido con",
        total: {
          Importe: "10.000,00 US$",
          Rentabilidad: "-33,90 %",
          "Ganancia o pérdida": "-3390,00 US$",
        },
        market: { Movimiento: "-33,90 %" },
      },
    ],
  ] as const)("label every value of a scenario's tables (%s)", async (locale, x) => {
    await show(<WhatIfResultView result={scenario} locale={locale} />, locale);
    const assets = screen.getByRole("table", { name: x.assets });
    const rows = expectCards(assets);
    // Two assets and the total; the total has no "measured with".
    expect(rows).toHaveLength(3);
    expect(labelled(rows[0]!)).toMatchObject(x.spy);
    expect(labelled(rows[0]!)[x.measured]).toBeTruthy();
    // The total's card: its figures, no empty "measured with" line.
    expect(labelled(rows[2]!)).toEqual({ ...x.total, undefined: "" });
    const moves = expectCards(screen.getByRole("table", { name: x.moves }));
    expect(labelled(moves[0]!)).toEqual(x.market);
  });

  it.each([
    [
      "en",
      "Each asset",
      ["Amount", "Return", "Gain or loss", "Beta: Stock market", "Beta: Interest rates"],
    ],
    [
      "es",
      "Cada activo",
      ["Importe", "Rentabilidad", "Ganancia o pérdida", "Beta: Bolsa", "Beta: Tipos de interés"],
    ],
  ] as const)("label each beta of custom shocks (%s)", async (locale, name, columns) => {
    await show(<WhatIfResultView result={custom} locale={locale} />, locale);
    const rows = expectCards(screen.getByRole("table", { name }));
    expect(Object.keys(labelled(rows[0]!))).toEqual(columns);
  });

  it.each([
    ["en", "Performance against the benchmark", "Sharpe ratio", { Portfolio: "0.90" }],
    ["es", "Resultados frente al índice de referencia", "Ratio de Sharpe", { Cartera: "0,90" }],
  ] as const)("label a backtest's performance (%s)", async (locale, name, sharpe, figures) => {
    await show(<WhatIfResultView result={backtest} locale={locale} />, locale);
    const table = screen.getByRole("table", { name });
    const rows = expectCards(table);
    expect(rows).toHaveLength(5);
    const row = within(table).getByRole("rowheader", { name: sharpe }).closest("tr")!;
    expect(labelled(row)).toMatchObject(figures);
    // The benchmark's column is labelled with its name.
    expect(Object.keys(labelled(row))).toHaveLength(2);
  });
});

describe("a banana portfolio's holdings as cards", () => {
  it.each([
    [
      "en",
      { Shares: "12", "Price bought": "€10.50", Invested: "€126.00" },
      { Invested: "€226.00" },
    ],
    [
      "es",
      { Acciones: "12", "Precio de compra": "10,50 €", Invertido: "126,00 €" },
      { Invertido: "226,00 €" },
    ],
  ] as const)("label each value, the total only its amount (%s)", async (locale, row, total) => {
    await show(
      <HoldingsTable
        caption="Holdings"
        currency="EUR"
        locale={locale}
        total={226}
        holdings={[
          {
            symbol: "SAN.MC",
            name: "Banco Santander",
            exchange: "BME",
            shares: 12,
            price: 10.5,
            investedAmount: 126,
          },
          {
            symbol: "ITX.MC",
            name: "Inditex",
            exchange: "BME",
            shares: 2,
            price: 50,
            investedAmount: 100,
          },
        ]}
      />,
      locale,
    );
    const rows = expectCards(screen.getByRole("table", { name: "Holdings" }));
    expect(rows).toHaveLength(3);
    expect(labelled(rows[0]!)).toEqual(row);
    // The total's card shows its amount, not empty lines for the shares and the price.
    expect(labelled(rows[2]!)).toEqual({ ...total, undefined: "" });
  });
});

const spyView: AssetView = {
  asset: {
    symbol: "SPY",
    name: "SPDR S&P 500 ETF",
    kind: "fund",
    universe: "market",
    exchange: "NYSE Arca",
    assetClass: null,
    region: null,
    country: null,
    currency: "USD",
    sector: null,
    firstDate: "2010-01-04",
    lastDate: "2024-05-31",
    stale: false,
  },
  history: { dates: ["2024-05-30", "2024-05-31"], closes: [520, 527] },
  volatilities: { 1: 0.12, 2: 0.13, 3: 0.14, 4: 0.15, 5: 0.18, 6: null },
  simulated: false,
  today: "2024-05-31",
  source: "imported",
  quote: {
    symbol: "SPY",
    name: "SPDR S&P 500 ETF",
    kind: "fund",
    currency: "USD",
    exchange: "NYSE Arca",
    lastDate: "2024-05-31",
    last: 527,
    changes: { day: 0.01, month: 0.02, ytd: 0.1, year: 0.25 },
    changeUnit: "relative",
    stale: false,
  },
} as unknown as AssetView;

describe("an asset's volatilities as cards", () => {
  it.each([
    [
      "en",
      "/en/markets?asset=SPY",
      "Volatility (annualised, daily log returns)",
      ["1 month", { Volatility: "12.0%" }],
      ["5 years", { Volatility: "Not enough prices" }],
    ],
    [
      "es",
      "/es/mercados?asset=SPY",
      "Volatilidad (anualizada, rentabilidades logarítmicas diarias)",
      ["1 mes", { Volatilidad: "12,0 %" }],
      ["5 años", { Volatilidad: "No hay suficientes precios" }],
    ],
  ] as const)("label each window's figure (%s)", async (locale, path, name, first, last) => {
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const body = url.pathname === "/api/market/assets/SPY" ? spyView : { msgCode: "NOT_FOUND" };
      return new Response(JSON.stringify(body), {
        status: url.pathname === "/api/market/assets/SPY" ? 200 : 404,
        headers: { "Content-Type": "application/json" },
      });
    });
    await renderApp(path, {
      services: testServices("ht", fetch as unknown as typeof globalThis.fetch),
      locale,
    });
    const table = await screen.findByRole("table", { name }, { timeout: 5000 });
    const rows = expectCards(table);
    expect(rows).toHaveLength(6);
    expect(plain(within(rows[0]!).getByRole("rowheader").textContent)).toBe(first[0]);
    expect(labelled(rows[0]!)).toEqual(first[1]);
    expect(plain(within(rows[5]!).getByRole("rowheader").textContent)).toBe(last[0]);
    expect(labelled(rows[5]!)).toEqual(last[1]);
  });
});
