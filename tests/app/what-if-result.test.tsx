// @vitest-environment jsdom
// A real scenario's answer on screen (issue 24): each factor's move over the window is shown, in
// the person's language and unit (a return in percent, a yield in percentage points), also when
// every asset was measured on its own prices.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { WhatIfResponse } from "../../src/contract/analytics.ts";
import type { Locale } from "../../src/contract/common.ts";
import { WhatIfResultView } from "../../src/features/what-if/result-view.tsx";
import { testServices } from "../support/render-app.tsx";

afterEach(cleanup);

const pandemic: WhatIfResponse = {
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
      investedAmount: 10_000,
      return: -0.339,
      change: -3_390,
      betas: {},
      method: "history",
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

async function show(locale: Locale) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices("ht")}>
        {/* The result links its figures to the dictionary (term links read the location). */}
        <MemoryRouter>
          <WhatIfResultView result={pandemic} locale={locale} />
        </MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
  );
  const table = screen.getByTestId("whatif-factor-moves");
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.textContent?.replace(/\s+/g, " "));
}

describe("a real scenario's factor moves", () => {
  it("are listed with their unit when no asset needed a proxy (English)", async () => {
    const rows = await show("en");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^Stock market-33\.90\s?%$/);
    expect(rows[1]).toMatch(/-0\.81 pp$/);
  });

  it("and in Spanish", async () => {
    const rows = await show("es");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^Bolsa-33,90\s?%$/);
    expect(rows[1]).toMatch(/-0,81 /);
  });
});

/** A one-year backtest compared with the fund the person chose for the saved portfolio (issue 27). */
const backtestAgainstSpy: WhatIfResponse = {
  kind: "backtest",
  currency: "EUR",
  backTesting: "1y",
  rebalancing: "none",
  rebalances: 0,
  from: "2023-11-20",
  to: "2023-11-24",
  totalInvested: 10_000,
  dates: ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-23", "2023-11-24"],
  values: [10_000, 10_100, 10_050, 10_200, 10_300],
  performance: {
    totalReturn: 0.03,
    annualizedReturn: 0.2,
    volatility: 0.12,
    maxDrawdown: 0.005,
    sharpe: 1.5,
  },
  benchmark: {
    series: "SPY",
    name: "SPDR S&P 500 ETF",
    chosen: true,
    values: [10_000, 10_020, 10_040, 10_060, 10_125],
    performance: {
      totalReturn: 0.0125,
      annualizedReturn: 0.1,
      volatility: 0.1,
      maxDrawdown: 0.001,
      sharpe: 0.9,
    },
    excessReturn: 0.0175,
    trackingError: 0.04,
  },
  limitedBy: [],
  simulated: false,
};

async function showBacktest(locale: Locale, result: WhatIfResponse) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices("ht")}>
        <MemoryRouter>
          <WhatIfResultView result={result} locale={locale} />
        </MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
  );
}

describe("a backtest against the portfolio's benchmark (issue 27)", () => {
  it("names the chosen fund and gives its growth beside the portfolio's (English)", async () => {
    await showBacktest("en", backtestAgainstSpy);
    expect(screen.getByTestId("bt-benchmark-choice").textContent).toBe(
      "Benchmark: SPDR S&P 500 ETF, the one chosen for this portfolio.",
    );
    expect(screen.getByTestId("bt-total-return").textContent).toMatch(/3\.00\s?%/);
    const bench = screen.getByTestId("bt-benchmark-total-return");
    expect(bench.textContent).toMatch(/1\.25\s?%/);
    expect(bench.closest("div")!.textContent).toContain("Total return of SPDR S&P 500 ETF");
    // Both lines of the chart: the portfolio and the fund, by its name.
    expect(screen.getAllByText("SPDR S&P 500 ETF").length).toBeGreaterThan(0);
  });

  it("and in Spanish; without a choice, the market of the currency by its name", async () => {
    await showBacktest("es", backtestAgainstSpy);
    expect(screen.getByTestId("bt-benchmark-choice").textContent).toBe(
      "Índice de referencia: SPDR S&P 500 ETF, el elegido para esta cartera.",
    );
    expect(screen.getByTestId("bt-benchmark-total-return").textContent).toMatch(/1,25\s?%/);
    cleanup();
    await showBacktest("es", {
      ...backtestAgainstSpy,
      benchmark: { ...backtestAgainstSpy.benchmark!, series: "STOXX50E_INDEX", chosen: false },
    });
    expect(screen.getByTestId("bt-benchmark-choice").textContent).toBe(
      "Índice de referencia: EURO STOXX 50, el mercado de la divisa de la cartera.",
    );
  });
});
