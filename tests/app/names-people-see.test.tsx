// @vitest-environment jsdom
// Internal words never reach a screen (PRODUCT.md "Names a person sees"), in both languages: the
// optimisation levels by what they do (o1, o2 and o3 stay in the URLs), the edits left of a
// portfolio, market series by their names (never "US10Y+US10Y_MONTHLY"), the markets widgets
// without a list of what the data lacks, the regions of a plan's limits, and no "-0.00".
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { routeTable } from "../../src/app/route-table.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { WhatIfResponse } from "../../src/contract/analytics.ts";
import { INFLATION_SERIES } from "../../src/contract/analytics.ts";
import { REGION_INDEX, type BananaPortfolio } from "../../src/contract/banana.ts";
import type { Locale } from "../../src/contract/common.ts";
import type { MarketOverview, MarketQuote } from "../../src/contract/market.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import { BananaEditSection } from "../../src/features/banana/banana-edit-section.tsx";
import { describeValue } from "../../src/features/billing/plan-features.ts";
import { WidgetsSection } from "../../src/features/markets/widgets-section.tsx";
import { LevelChoice } from "../../src/features/optimise/choose-screen.tsx";
import type { OptimiseActor } from "../../src/features/optimise/optimise-store.ts";
import { marketIndexName } from "../../src/features/portfolios/figure-notes.ts";
import { WhatIfResultView } from "../../src/features/what-if/result-view.tsx";
import { FACTOR_SOURCES } from "../../src/server/analytics/factors.ts";
import { hasSeriesName, seriesName } from "../../src/ui/series-names.ts";
import { testServices } from "../support/render-app.tsx";

afterEach(cleanup);

async function show(ui: React.ReactNode, locale: Locale) {
  await activateLocale(locale);
  return render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices("ht")}>
        <MemoryRouter>{ui}</MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
  );
}

/** No internal code in a text: o1/o2/o3, an id with an underscore, a joined series. */
const CODES = /\bo[123]\b|[A-Z0-9]+_[A-Z0-9_]+|\+[A-Z]/;

describe("the optimisation levels", () => {
  const levels = async (locale: Locale) => {
    await show(
      <LevelChoice
        actor={{ send: () => {} } as unknown as OptimiseActor}
        permissions={permissionsFor("simAssets", "advanced")}
        product="simAssets"
        locale={locale}
        lockedLevel={null}
      />,
      locale,
    );
    return {
      headings: screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent),
      // What the buttons are called (their accessible names: "Choose" and the level).
      buttons: screen
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-label") ?? b.textContent),
      text: document.body.textContent ?? "",
    };
  };

  it("are named by what they do, never o1, o2 or o3 (English)", async () => {
    const { headings, buttons, text } = await levels("en");
    expect(headings).toEqual([
      "Lower the risk of my assets",
      "Add new assets",
      "Choose how many assets",
    ]);
    expect(buttons).toEqual([
      "Choose: Lower the risk of my assets",
      "Choose: Add new assets",
      "Choose: Choose how many assets",
    ]);
    expect(text).not.toMatch(CODES);
  });

  it("and in Spanish", async () => {
    const { headings, text } = await levels("es");
    expect(headings).toEqual([
      "Reducir el riesgo de mis activos",
      "Añadir activos nuevos",
      "Elegir cuántos activos",
    ]);
    expect(text).not.toMatch(CODES);
  });

  it("name their pages by the same words", async () => {
    for (const locale of ["en", "es"] as const) {
      await activateLocale(locale);
      const titles = (["optimize-o1", "optimize-o2", "optimize-o3"] as const).map((id) => {
        const route = routeTable.find((r) => r.id === id)!;
        return `${i18n._(route.title)} ${i18n._(route.summary)}`;
      });
      for (const title of titles) expect(title).not.toMatch(/\bo[123]\b|Level|Nivel/);
      expect(titles[0]).toMatch(locale === "en" ? /^Lower the risk/ : /^Reducir el riesgo/);
    }
  });
});

describe("a banana portfolio's edits", () => {
  const portfolio: BananaPortfolio = {
    id: 7,
    name: "Bananas",
    region: "eu",
    currency: "EUR",
    version: 1,
    remainingEditions: 2,
    createdOn: "2026-11-02",
    pricedOn: "2026-11-20",
    totalInvested: 10_000,
    holdings: [],
    monkey: { seed: 1, holdings: [], totalInvested: 10_000 },
    figures: null,
    rank: null,
    window: { open: false, changesAt: "2099-01-01T10:00:00.000Z" },
  };

  it("are counted as edits left, in both languages", async () => {
    await show(
      <BananaEditSection portfolio={portfolio} locale="en" canEdit onSaved={() => {}} />,
      "en",
    );
    expect(screen.getByTestId("banana-editions-left").textContent).toBe("Edits left: 2");
    cleanup();
    await show(
      <BananaEditSection portfolio={portfolio} locale="es" canEdit onSaved={() => {}} />,
      "es",
    );
    expect(screen.getByTestId("banana-editions-left").textContent).toBe("Ediciones restantes: 2");
  });
});

describe("market series", () => {
  it("every series the server can answer with has a name", () => {
    const ids = new Set<string>([
      ...Object.values(INFLATION_SERIES),
      ...Object.values(REGION_INDEX),
    ]);
    for (const byFactor of Object.values(FACTOR_SOURCES))
      for (const candidates of Object.values(byFactor))
        for (const c of candidates) {
          ids.add(c.series);
          if (c.older) ids.add(`${c.series}+${c.older}`);
        }
    for (const id of ids) expect(hasSeriesName(id), id).toBe(true);
  });

  it("are read by their names, a joined series too, and an unknown one never by its id", async () => {
    await activateLocale("en");
    expect(seriesName(i18n, "US10Y+US10Y_MONTHLY")).toBe("US 10-year yield");
    expect(seriesName(i18n, "US_CPI")).toBe("US consumer prices");
    expect(seriesName(i18n, "STOXX50E_INDEX+GDAXI_INDEX")).toBe("EURO STOXX 50 (earlier: DAX)");
    expect(seriesName(i18n, "NEW_SERIES")).toBe("a series of our market data");
    expect(marketIndexName("NEW_INDEX", i18n)).toBe("market index");
    await activateLocale("es");
    expect(seriesName(i18n, "US10Y+US10Y_MONTHLY")).toBe(
      "Rentabilidad del bono a 10 años de EE. UU.",
    );
    expect(seriesName(i18n, "US_CPI")).toBe("Precios de consumo de EE. UU.");
  });

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
        betas: { market: 1.02, rates: -0.001, inflation: -0.004 },
        method: null,
      },
    ],
    shocks: { dRV: -0.01, dRF: null, dCrypto: null, dMMPP: null, inflation: null },
    sensitivities: {
      periods: 260,
      from: "2021-11-19",
      to: "2026-11-20",
      factors: ["market", "rates", "inflation"],
      excluded: [],
    },
    sources: [
      { factor: "market", series: "GSPC_INDEX" },
      { factor: "rates", series: "US10Y+US10Y_MONTHLY" },
      { factor: "inflation", series: "US_CPI" },
    ],
    ignored: [],
    simulated: false,
  };

  it("the what-if's factor series by their names and its betas without a negative zero (English)", async () => {
    await show(<WhatIfResultView result={custom} locale="en" />, "en");
    const text = document.body.textContent ?? "";
    expect(text).toContain(
      "Factor series: Stock market: S&P 500; Interest rates: US 10-year yield; Inflation: US consumer prices.",
    );
    expect(text).not.toMatch(CODES);
    expect(text).not.toMatch(/-0\.00(?!\d)/);
    // The betas to rates (-0.001) and inflation (-0.004) read 0.00.
    const cells = screen.getAllByRole("cell").map((c) => c.textContent);
    expect(cells.filter((c) => c === "0.00")).toHaveLength(2);
  });

  it("and in Spanish", async () => {
    await show(<WhatIfResultView result={custom} locale="es" />, "es");
    const text = document.body.textContent ?? "";
    expect(text).toContain("Rentabilidad del bono a 10 años de EE. UU.");
    expect(text).toContain("Precios de consumo de EE. UU.");
    expect(text).not.toMatch(CODES);
    expect(text).not.toMatch(/-0,00(?!\d)/);
  });
});

describe("the markets widgets", () => {
  const quote = (symbol: string, name: string, last: number): MarketQuote => ({
    symbol,
    name,
    kind: "index",
    currency: "USD",
    exchange: null,
    lastDate: "2026-11-20",
    last,
    changes: { day: 0.01, month: -0.02, ytd: 0.05, year: 0.1 },
    changeUnit: "relative",
    stale: false,
  });
  const series = { dates: ["2026-11-19", "2026-11-20"], closes: [1, 1.01] };
  const overview: MarketOverview = {
    today: "2026-11-20",
    source: "imported",
    simulated: false,
    widgets: [
      {
        id: "indices",
        items: [{ quote: quote("GSPC_INDEX", "S&P 500 Index", 6000), series }],
        missing: ["FTSEMIB_INDEX"],
      },
      { id: "crypto", items: [], missing: ["BTC-USD", "ETH-USD"] },
    ],
  };

  it("show what the data has, with a neutral footnote, never a list of what it lacks", async () => {
    await show(<WidgetsSection overview={overview} locale="en" />, "en");
    const text = document.body.textContent ?? "";
    expect(text).not.toContain("Not in this market data");
    expect(text).not.toContain("FTSE MIB");
    expect(text).not.toContain("Ether");
    expect(document.querySelector('[data-widget="crypto"]')).toBeNull();
    expect(screen.getByTestId("widgets-coverage").textContent).toBe(
      "Shown: the instruments in our price data.",
    );
    cleanup();
    await show(<WidgetsSection overview={overview} locale="es" />, "es");
    expect(screen.getByTestId("widgets-coverage").textContent).toBe(
      "Se muestran los instrumentos de nuestros datos de precios.",
    );
    expect(document.body.textContent).not.toContain("No están en estos datos");
  });
});

describe("a plan's limits per region", () => {
  it("name the regions for people", async () => {
    await activateLocale("en");
    expect(describeValue({ eu: 0, usa: 2 }, i18n, "en")).toBe(
      "0 in Europe, 2 in the United States",
    );
    await activateLocale("es");
    expect(describeValue({ eu: 0, usa: 2 }, i18n, "es")).toBe("0 en Europa, 2 en Estados Unidos");
  });
});
