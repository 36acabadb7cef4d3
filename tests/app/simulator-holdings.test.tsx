// @vitest-environment jsdom
// Issue 24's leftovers on the investment simulator, in both languages:
// - composing on the spot offers only what a portfolio in the chosen currency can hold (the API
//   refuses yields and currencies it cannot convert: FTSE_INDEX in GBP, N225_INDEX in JPY, US10Y);
// - the historical path of the plan is a backtest of today's assets: it carries the hindsight
//   caution, with its dictionary entry.
import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { demoSimulation } from "../../machines/investment-simulator.machine.ts";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { pathFor } from "../../src/app/paths.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { Locale } from "../../src/contract/common.ts";
import type { AssetSummary } from "../../src/contract/market.ts";
import { SimulationResult } from "../../src/features/simulator/simulator-result.tsx";
import { healthyResponse, memberFacts, renderApp, testServices } from "../support/render-app.tsx";

afterEach(cleanup);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const asset = (symbol: string, kind: string, currency: string): AssetSummary => ({
  symbol,
  name: `${symbol} name`,
  kind,
  universe: "market",
  exchange: null,
  assetClass: null,
  region: null,
  country: null,
  currency,
  sector: null,
  firstDate: "2010-01-04",
  lastDate: "2024-05-31",
  stale: false,
});

const everything = [
  asset("SAN.MC", "stock", "EUR"),
  asset("SPY", "fund", "USD"),
  asset("FTSE_INDEX", "index", "GBP"),
  asset("N225_INDEX", "index", "JPY"),
  asset("US10Y", "rate", "USD"),
];
/** What the server answers per portfolio currency (here as if SAN.MC could not reach dollars). */
const holdable: Record<string, AssetSummary[]> = {
  EUR: [everything[0]!, everything[1]!],
  USD: [everything[1]!],
};

/** An API with no saved portfolio and the assets list as the server filters it. */
function services() {
  const asked: string[] = [];
  return {
    asked,
    services: testServices("ht", async (input) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      if (url.pathname === "/api/portfolios") return json({ portfolios: [], simulated: false });
      if (url.pathname === "/api/market/assets") {
        const currency = url.searchParams.get("currency");
        asked.push(currency ?? "none");
        return json({
          assets: currency ? (holdable[currency] ?? []) : everything,
          simulated: false,
        });
      }
      if (url.pathname === "/api/market/today")
        return json({ today: "2024-05-31", source: "imported", assets: 5 });
      return json(healthyResponse);
    }),
  };
}

const offered = () =>
  [...document.querySelectorAll("datalist option")].map((o) => o.getAttribute("value"));

describe("the simulator's assets chosen on the spot", () => {
  for (const [locale, texts] of [
    ["en", { go: "Continue", currency: "Currency of the portfolio" }],
    ["es", { go: "Continuar", currency: "Divisa de la cartera" }],
  ] as const)
    it(`offers only what a portfolio in the chosen currency can hold (${locale})`, async () => {
      const api = services();
      await renderApp(pathFor("investment-simulator", locale), {
        facts: memberFacts,
        services: api.services,
      });
      fireEvent.click(await screen.findByRole("button", { name: texts.go }));
      const currency = await screen.findByLabelText(texts.currency);
      expect(api.asked.sort()).toEqual(["EUR", "USD"]);
      expect(offered()).toEqual(["SAN.MC", "SPY"]);
      fireEvent.change(currency, { target: { value: "USD" } });
      await waitFor(() => expect(offered()).toEqual(["SPY"]));
      for (const refused of ["FTSE_INDEX", "N225_INDEX", "US10Y"])
        expect(offered()).not.toContain(refused);
    });
});

async function showResult(locale: Locale, marketToday: string | null) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices("ht")}>
        <MemoryRouter>
          <SimulationResult
            result={demoSimulation}
            stale={false}
            locale={locale}
            marketToday={marketToday}
          />
        </MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
  );
  return screen.getByTestId("hindsight-caution");
}

describe("the simulator's historical path", () => {
  it("carries the hindsight caution: today's assets over a past they were chosen after", async () => {
    const caution = await showResult("en", "2024-05-31");
    expect(caution.dataset.kind).toBe("backtest");
    expect(caution.textContent).toContain("Chosen with hindsight.");
    expect(caution.textContent).toContain(
      "assets chosen as of May 31, 2024 (market date), knowing how they did since May 17, 2023",
    );
    const link = within(caution).getByRole("link", {
      name: "Hindsight and survivorship bias: what it means",
    });
    expect(link.dataset.term).toBe("hindsight-bias");
  });

  it("in Spanish, before the market's today has arrived (the path's last day stands in)", async () => {
    const caution = await showResult("es", null);
    expect(caution.textContent).toContain("Elegida a posteriori.");
    expect(caution.textContent).toContain("a fecha de 17 de mayo de 2024 (fecha de mercado)");
    expect(caution.textContent).toContain("desde el 17 de mayo de 2023");
  });

  it("is not there without a historical path", async () => {
    await activateLocale("en");
    render(
      <I18nProvider i18n={i18n}>
        <ServicesProvider services={testServices("ht")}>
          <MemoryRouter>
            <SimulationResult
              result={{
                ...demoSimulation,
                historical: { months: 0, values: [10_000], from: null, to: null },
              }}
              stale={false}
              locale="en"
            />
          </MemoryRouter>
        </ServicesProvider>
      </I18nProvider>,
    );
    expect(screen.queryByTestId("hindsight-caution")).toBeNull();
  });
});
