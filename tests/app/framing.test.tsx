// @vitest-environment jsdom
// Honest framing and one clock (issue 24): the market clock's notice on pages with market figures
// in replay mode, and the hindsight caution on backtests and crisis replays, in both languages.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { marketFigureRoutes } from "../../src/app/route-table.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { WhatIfResponse } from "../../src/contract/analytics.ts";
import type { Locale } from "../../src/contract/common.ts";
import type { MarketToday } from "../../src/contract/market.ts";
import { chosenWithHindsight } from "../../src/app/hindsight-caution.tsx";
import { WhatIfResultView } from "../../src/features/what-if/result-view.tsx";
import { healthyResponse, renderApp, testServices } from "../support/render-app.tsx";

afterEach(cleanup);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** Services whose API answers the market's today, and nothing useful for any other call. */
function servicesWith(market: MarketToday) {
  const calls: string[] = [];
  const services = testServices("ht", async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    calls.push(new URL(url).pathname);
    return url.includes("/market/today") ? json(market) : json(healthyResponse);
  });
  return { services, calls };
}

const replay: MarketToday = { today: "2024-05-31", source: "imported", assets: 227 };

describe("the market clock's notice", () => {
  it("says, on the markets page, that the data is a replay and which market day it stands on", async () => {
    const { services } = servicesWith(replay);
    await renderApp("/en/markets", { services });
    const notice = await screen.findByTestId("market-clock-notice");
    expect(notice.getAttribute("aria-label")).toBe("Market clock");
    expect(notice.dataset.marketDate).toBe("2024-05-31");
    expect(notice.textContent).toContain("Historical data, replayed: market date May 31, 2024.");
    expect(notice.textContent).toContain("calendar dates");
  });

  it("says it in Spanish on the Spanish page", async () => {
    const { services } = servicesWith(replay);
    await renderApp("/es/mercados", { services });
    const notice = await screen.findByTestId("market-clock-notice");
    expect(notice.getAttribute("aria-label")).toBe("Reloj del mercado");
    expect(notice.textContent).toContain(
      "Datos históricos reproducidos: fecha de mercado 31 de mayo de 2024.",
    );
    expect(notice.textContent).toContain("fechas del calendario");
  });

  it("stays away from simulated prices, and from pages without market figures", async () => {
    const simulated = servicesWith({ ...replay, source: "simulated" });
    await renderApp("/en/markets", { services: simulated.services });
    await waitFor(() => expect(simulated.calls).toContain("/api/market/today"));
    await screen.findByRole("heading", { level: 1, name: "Markets" });
    expect(screen.queryByTestId("market-clock-notice")).toBeNull();
    cleanup();
    const home = servicesWith(replay);
    await renderApp("/", { services: home.services });
    await screen.findByRole("heading", { level: 1 });
    expect(home.calls).not.toContain("/api/market/today");
    expect(screen.queryByTestId("market-clock-notice")).toBeNull();
  });

  it("is placed on every screen with market figures", () => {
    for (const id of [
      "markets",
      "account-portfolio",
      "analysis-full",
      "what-if-assessment",
      "banana-challenge",
      "account-banana-portfolio",
      "investment-simulator",
      "optimize-summary",
    ] as const)
      expect(marketFigureRoutes.has(id), id).toBe(true);
    for (const id of ["index", "account-profile", "account-billing"] as const)
      expect(marketFigureRoutes.has(id), id).toBe(false);
  });
});

const performance = {
  totalReturn: 5.88,
  annualizedReturn: 0.47,
  volatility: 0.3,
  maxDrawdown: 0.35,
  sharpe: 1.4,
};

const backtest: WhatIfResponse = {
  kind: "backtest",
  currency: "USD",
  backTesting: "5y",
  rebalancing: "none",
  rebalances: 0,
  from: "2019-05-31",
  to: "2024-05-31",
  totalInvested: 25000,
  dates: ["2019-05-31", "2021-05-28", "2024-05-31"],
  values: [25000, 60000, 172000],
  performance,
  benchmark: {
    series: "SP500_INDEX",
    values: [25000, 35000, 47250],
    performance: { ...performance, totalReturn: 0.89 },
    excessReturn: 4.99,
    trackingError: 0.2,
  },
  limitedBy: [],
  simulated: false,
};

const crisis: WhatIfResponse = {
  kind: "scenario",
  currency: "USD",
  scenario: { type: 1, id: "covid", start: "2020-02-19", end: "2020-03-23" },
  totalInvested: 25000,
  totalChange: -6000,
  totalReturn: -0.24,
  assets: [
    {
      symbol: "NVDA",
      name: "Nvidia",
      investedAmount: 25000,
      return: -0.24,
      change: -6000,
      betas: {},
      method: "history",
    },
  ],
  factorMoves: { market: -0.34 },
  missingFactors: [],
  path: { dates: ["2020-02-19", "2020-03-23"], values: [25000, 19000] },
  sensitivities: null,
  sources: [],
  simulated: false,
};

async function showResult(result: WhatIfResponse, locale: Locale, marketToday: string | null) {
  await activateLocale(locale);
  return render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices()}>
        <MemoryRouter>
          <WhatIfResultView result={result} locale={locale} marketToday={marketToday} />
        </MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
  );
}

describe("the hindsight caution", () => {
  it("applies when the window starts before the market day the assets stand chosen on", () => {
    expect(chosenWithHindsight("2019-05-31", "2024-05-31")).toBe(true);
    expect(chosenWithHindsight("2024-05-30", "2024-05-31")).toBe(true);
    // A window wholly after the choice is out of sample: no caution.
    expect(chosenWithHindsight("2024-05-31", "2024-05-31")).toBe(false);
    expect(chosenWithHindsight("2024-06-03", "2024-05-31")).toBe(false);
  });

  it("heads a backtest of today's assets, with its dictionary entry", async () => {
    await showResult(backtest, "en", "2024-05-31");
    const caution = screen.getByTestId("hindsight-caution");
    expect(caution.dataset.kind).toBe("backtest");
    expect(caution.textContent).toContain("Chosen with hindsight.");
    expect(caution.textContent).toContain(
      "assets chosen as of May 31, 2024 (market date), knowing how they did since May 31, 2019",
    );
    expect(caution.textContent).toContain("It is not a forecast.");
    const link = within(caution).getByRole("link", {
      name: "Hindsight and survivorship bias: what it means",
    });
    expect(link.dataset.term).toBe("hindsight-bias");
    // Before the figures: read first.
    const total = screen.getByTestId("bt-total-return");
    expect(caution.compareDocumentPosition(total) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("heads a crisis replay, in Spanish, even before the market's today has arrived", async () => {
    await showResult(crisis, "es", null);
    const caution = screen.getByTestId("hindsight-caution");
    expect(caution.dataset.kind).toBe("scenario");
    expect(caution.textContent).toContain("Elegida a posteriori.");
    expect(caution.textContent).toContain("después de esta crisis");
    expect(caution.textContent).toContain("antes del 19 de febrero de 2020");
    expect(
      within(caution).getByRole("link", {
        name: "Sesgo de retrospectiva y de supervivencia: qué significa",
      }).dataset.term,
    ).toBe("hindsight-bias");
  });

  it("titles the axes of the result's charts by market date and value", async () => {
    await showResult(backtest, "es", "2024-05-31");
    const img = screen.getByRole("img", {
      name: "Valor de la cartera y de su índice de referencia",
    });
    const titles = Array.from(img.querySelectorAll("text.chart-axis-title")).map(
      (t) => t.textContent,
    );
    expect(titles).toEqual(["Valor (USD)", "Fecha de mercado"]);
  });
});
