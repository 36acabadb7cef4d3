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
      amount: 10_000,
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
