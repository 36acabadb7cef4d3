// @vitest-environment jsdom
// Honest framing (issue 24): one headline risk figure with its horizon on the analysis, every other
// risk figure named by horizon and method, every chart axis titled, in both languages.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { AnalysisResponse } from "../../src/contract/analytics.ts";
import type { Locale } from "../../src/contract/common.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import type { PortfolioHistory } from "../../src/contract/portfolios.ts";
import { AnalysisView } from "../../src/features/portfolios/analysis-view.tsx";
import { testServices } from "../support/render-app.tsx";

afterEach(cleanup);

// The case: 22.62 % a year is 6.53 % over 21 trading days (× √(21/252)), and the
// parametric VaR 95 over a month about 1.645 × 6.53 % = 10.7 %.
const daily = 0.2262 / Math.sqrt(252);
const horizon = daily * Math.sqrt(21);
const asset = {
  symbol: "NVDA",
  name: "Nvidia",
  investedAmount: 25000,
  weight: 1,
  standAlone: horizon,
  marginal: horizon,
  contribution: horizon,
  percentage: 100,
  varContributionAmount: 2500,
  expectedReturn: 0.2266,
  historicalReturn: 0.3,
  beta: 1.2,
  requiredReturn: 0.1,
};
const varFigure = { var: 0.1, cvar: 0.12, varAmount: 2500, cvarAmount: 3000 };
const analysis = {
  currency: "USD",
  window: {
    benchmark: 5,
    observations: 756,
    from: "2021-05-28",
    to: "2024-05-31",
    horizonDays: 21,
    confidence: 0.95,
    covariance: "ledoit-wolf",
    shrinkage: 0.1,
    ridge: 0,
    limitedBy: [],
    simulated: false,
  },
  totalInvested: 25000,
  assets: [asset],
  volatility: { daily, horizon, annual: 0.2262 },
  var: { parametric: varFigure, historical: varFigure, monteCarlo: null },
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
  expectedReturn: { portfolio: 0.2266, shrinkage: 0.5 },
  requiredReturn: { portfolio: 0.1, riskFreeRate: 0.02, targetSharpe: 0.4 },
  scores: { marketRisk: 50, riskReturn: 50, diversification: 50, global: 50, communityGlobal: 50 },
  breakdown: {},
  distribution: [-0.1, -0.05, 0, 0.05, 0.1],
  locked: [],
} as unknown as AnalysisResponse;
const history = {
  dates: ["2024-05-30", "2024-05-31"],
  values: [25000, 25100],
  returns: [0, 0.004],
  risks: [0.107, 0.1075],
  scores: [50, 51],
} as unknown as PortfolioHistory;

async function show(locale: Locale) {
  await activateLocale(locale);
  return render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices()}>
        <MemoryRouter>
          <AnalysisView
            analysis={analysis}
            permissions={permissionsFor("simAssets", "advanced")}
            product="simAssets"
            locale={locale}
            history={history}
          />
        </MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
  );
}

const axisTitles = (img: Element) =>
  Array.from(img.querySelectorAll("text.chart-axis-title")).map((t) => t.textContent);

describe("the risk figures of an analysis", () => {
  it("lead with one headline figure and its horizon, the annual one reconciled with it", async () => {
    await show("en");
    const headline = screen.getByRole("region", {
      name: "Risk: volatility over 21 trading days (one month)",
    });
    expect(within(headline).getByTestId("headline-risk").textContent).toBe("6.53%");
    expect(headline.textContent).toContain("The same volatility over a year is 22.62% (× √12)");
    expect(screen.getByText("Portfolio volatility (1 month)")).toBeTruthy();
    expect(screen.queryByText("Portfolio risk")).toBeNull();
    // Risk over time: the parametric VaR over a month, both axes titled.
    const risk = screen.getByRole("img", {
      name: "Risk over time: VaR 95 over one month (parametric)",
    });
    expect(axisTitles(risk)).toEqual(["VaR 95, one month (% of value)", "Market date"]);
    const losses = screen.getByRole("img", { name: "Gains and losses over one month" });
    expect(axisTitles(losses)).toEqual([
      "Number of months",
      "Gain or loss over one month (USD), historical",
    ]);
  });

  it("say the same in Spanish", async () => {
    await show("es");
    const headline = screen.getByRole("region", {
      name: "Riesgo: volatilidad en 21 sesiones (un mes)",
    });
    // Intl puts a no-break space before the percent sign in Spanish.
    expect(within(headline).getByTestId("headline-risk").textContent).toMatch(/^6,53\s%$/);
    expect(headline.textContent).toMatch(/22,62\s% \(× √12\)/);
    expect(screen.getByText("Volatilidad de la cartera (1 mes)")).toBeTruthy();
    const risk = screen.getByRole("img", {
      name: "Riesgo a lo largo del tiempo: VaR 95 a un mes (paramétrico)",
    });
    expect(axisTitles(risk)).toEqual(["VaR 95, un mes (% del valor)", "Fecha de mercado"]);
  });
});
