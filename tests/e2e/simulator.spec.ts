// Investment simulator (issue "Markets and the investment simulator", the simulator half), in both
// languages and both editions: a registered user simulates a saved portfolio with contributions,
// a goal and the inflation adjustment, and sees the fan chart with its table; the figures on
// screen equal the API's for the same inputs; the phone width has no horizontal overflow. Issue
// 24: the assumptions are printed above the chart (equilibrium by default), the person can type
// their own, and no random seed is on screen.
import type { Page } from "@playwright/test";
import { dismissCookieBannerWhenShown, signInAs } from "./accounts-support.ts";
import { expect, saveShot, test, type Locale } from "./fixtures.ts";

const paths = {
  simulator: { en: "/en/investment-simulator", es: "/es/simulador-de-inversion" },
} as const;

/** Texts of the screen (English source, Spanish from locales/es/messages.po). */
const t = {
  title: { en: "Investment simulator", es: "Simulador de inversión" },
  saved: { en: "One of my saved portfolios", es: "Una de mis carteras guardadas" },
  portfolio: { en: "Portfolio", es: "Cartera" },
  continue: { en: "Continue", es: "Continuar" },
  initial: { en: "Initial amount (EUR)", es: "Importe inicial (EUR)" },
  initialGiven: { en: "10,000.00", es: "10.000,00" },
  monthly: { en: "Monthly contribution (EUR)", es: "Aportación mensual (EUR)" },
  years: { en: "Horizon (years)", es: "Plazo (años)" },
  goal: {
    en: "Goal at the horizon (EUR, optional)",
    es: "Objetivo al final del plazo (EUR, opcional)",
  },
  inflation: {
    en: "Adjust for inflation (figures in today's money)",
    es: "Ajustar por inflación (cifras en dinero de hoy)",
  },
  seed: { en: "Seed of the random numbers", es: "Semilla de los números aleatorios" },
  equilibrium: { en: "Equilibrium (CAPM)", es: "Equilibrio (CAPM)" },
  own: { en: "My own", es: "Las mías" },
  ownReturn: { en: "Expected annual return (%)", es: "Rentabilidad anual esperada (%)" },
  ownVolatility: { en: "Annual volatility (%)", es: "Volatilidad anual (%)" },
  hicp: {
    en: "Euro area consumer prices",
    es: "Precios de consumo de la zona euro",
  },
  simulate: { en: "Simulate", es: "Simula" },
  chart: {
    en: "Value of the plan month by month: percentiles of 10,000 simulated paths",
    es: "Valor del plan mes a mes: percentiles de 10.000 trayectorias simuladas",
  },
  table: { en: "The figures year by year (table)", es: "Las cifras año a año (tabla)" },
  tableRegion: { en: "The figures year by year", es: "Las cifras año a año" },
  stale: {
    en: "The inputs changed: these figures are for the previous inputs.",
    es: "Los datos han cambiado: estas cifras son de los datos anteriores.",
  },
  method: {
    en: "Method: Monte Carlo, 10,000 paths",
    es: "Método: Monte Carlo, 10.000 trayectorias",
  },
  tooLong: { en: "Out of the allowed range.", es: "Fuera del rango permitido." },
} as const satisfies Record<string, Record<Locale, string>>;

const intl = { en: "en-US", es: "es-ES" } as const;
const money = (v: number, locale: Locale) =>
  new Intl.NumberFormat(intl[locale], { style: "currency", currency: "EUR" }).format(v);
const percent1 = (v: number, locale: Locale) =>
  new Intl.NumberFormat(intl[locale], {
    style: "percent",
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(v);

const portfolioAssets = [
  { id: "SAN.MC", investedAmount: 6000 },
  { id: "ITX.MC", investedAmount: 4000 },
];

/** Saves a portfolio through the API, as the signed-in user. */
async function savePortfolio(page: Page, token: string, name: string): Promise<number> {
  const response = await page.request.post("/api/portfolios", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, currency: "EUR", benchmark: 5, assets: portfolioAssets },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { id: number }).id;
}

interface Simulation {
  months: number;
  invested: number[];
  percentiles: { percentile: number; values: number[] }[];
  historical: { months: number; values: number[] };
  goal: { amount: number; probability: number } | null;
  inflation: { series: string; annualRate: number } | null;
  paths: number;
  seed: number;
  assumptions: { mode: string; annualReturn: number; annualVolatility: number };
}

test.describe("investment simulator", () => {
  for (const locale of ["en", "es"] as const) {
    test(`a saved portfolio with contributions, a goal and inflation: the fan chart shows the API's figures (${locale})`, async ({
      page,
      edition,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: 390, height: 844 });
      await dismissCookieBannerWhenShown(page);
      const token = await signInAs(page, "assets-standard@demo.test");
      const name = `Plan ${edition} ${locale} ${Date.now()}`;
      const id = await savePortfolio(page, token, name);

      await page.goto(paths.simulator[locale]);
      await expect(page.getByRole("heading", { level: 1, name: t.title[locale] })).toBeVisible({
        timeout: 30_000,
      });
      await page.getByLabel(t.saved[locale]).check();
      await page.getByLabel(t.portfolio[locale], { exact: true }).selectOption(String(id));
      await page.getByRole("button", { name: t.continue[locale], exact: true }).click();
      await expect(page.getByLabel(t.initial[locale])).toBeVisible();
      // The portfolio's amount, as money: two decimals in the language's format.
      await expect(page.getByLabel(t.initial[locale])).toHaveValue(t.initialGiven[locale]);

      // The rules are the server's: 41 years is refused before any call.
      await page.getByLabel(t.years[locale]).fill("41");
      await page.getByRole("button", { name: t.simulate[locale], exact: true }).click();
      await expect(page.getByText(t.tooLong[locale])).toBeVisible();

      await page.getByLabel(t.initial[locale]).fill("10000");
      await page.getByLabel(t.monthly[locale]).fill("300");
      await page.getByLabel(t.years[locale]).fill("15");
      await page.getByLabel(t.goal[locale]).fill("80000");
      await page.getByLabel(t.inflation[locale]).check();
      // Random seeds are for tests and QA, not for screens (PRODUCT.md "Names a person sees").
      await expect(page.getByLabel(t.seed[locale])).toHaveCount(0);
      await expect(page.getByLabel(t.equilibrium[locale])).toBeChecked();
      await page.getByRole("button", { name: t.simulate[locale], exact: true }).click();

      const chart = page.getByRole("img", { name: t.chart[locale] });
      await expect(chart).toBeVisible({ timeout: 60_000 });
      await expect(page.getByText(t.method[locale])).toBeVisible();

      // The same inputs through the API.
      const response = await page.request.post("/api/analytics/simulate", {
        headers: { Authorization: `Bearer ${token}` },
        data: {
          currency: "EUR",
          benchmark: 5,
          assets: portfolioAssets.map((a) => ({ symbol: a.id, investedAmount: a.investedAmount })),
          initialAmount: 10000,
          monthlyContribution: 300,
          years: 15,
          paths: 10000,
          inflation: true,
          goal: 80000,
        },
      });
      expect(response.status()).toBe(200);
      const api = (await response.json()) as Simulation;
      expect(api.months).toBe(180);
      expect(api.inflation?.series).toBe("EA_HICP");
      const at = (p: number) => api.percentiles.find((q) => q.percentile === p)!.values[180]!;
      await expect(page.locator('[data-figure="median"]')).toHaveText(money(at(50), locale));
      await expect(page.locator('[data-figure="range"]')).toHaveText(
        `${money(at(5), locale)} – ${money(at(95), locale)}`,
      );
      await expect(page.locator('[data-figure="invested"]')).toHaveText(
        money(api.invested[180]!, locale),
      );
      await expect(page.locator('[data-figure="goal-probability"]')).toHaveText(
        percent1(api.goal!.probability, locale),
      );
      await expect(page.locator('[data-figure="historical"]')).toHaveText(
        money(api.historical.values[api.historical.months]!, locale),
      );
      await expect(page.locator('[data-figure="inflation"]')).toContainText(t.hicp[locale]);
      // The assumptions the figures follow from, printed above the chart.
      expect(api.assumptions.mode).toBe("equilibrium");
      await expect(page.locator('[data-figure="mode"]')).toHaveText(t.equilibrium[locale]);
      await expect(page.locator('[data-figure="annual-return"]')).toHaveText(
        percent1(api.assumptions.annualReturn, locale),
      );
      await expect(page.locator('[data-figure="annual-volatility"]')).toHaveText(
        percent1(api.assumptions.annualVolatility, locale),
      );

      // The table alternative: year 15's median is the API's.
      await page.getByText(t.table[locale]).click();
      const table = page.getByRole("region", { name: t.tableRegion[locale] });
      const lastRow = table.getByRole("row").last();
      await expect(lastRow.getByRole("rowheader")).toHaveText("15");
      await expect(lastRow.getByRole("cell").nth(3)).toHaveText(money(at(50), locale));

      // Phone width: nothing wider than the screen.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await saveShot(page, `simulator-${edition}-${locale}`);

      // A change marks the result out of date until the next run.
      await page.getByLabel(t.monthly[locale]).fill("400");
      await expect(page.getByText(t.stale[locale])).toBeVisible();
      await page.getByRole("button", { name: /Simulate again|Volver a simular/ }).click();
      await expect(page.getByText(t.stale[locale])).toBeHidden({ timeout: 60_000 });
      await expect(page.locator('[data-figure="invested"]')).not.toHaveText(
        money(api.invested[180]!, locale),
      );

      // My own assumptions: typed, sent, printed.
      await page.getByLabel(t.own[locale], { exact: true }).check();
      await page.getByLabel(t.ownReturn[locale]).fill("5");
      await page.getByLabel(t.ownVolatility[locale]).fill("12");
      await page.getByRole("button", { name: /Simulate again|Volver a simular/ }).click();
      await expect(page.locator('[data-figure="mode"]')).toHaveText(t.own[locale], {
        timeout: 60_000,
      });
      await expect(page.locator('[data-figure="annual-return"]')).toHaveText(
        percent1(0.05, locale),
      );
      await expect(page.locator('[data-figure="annual-volatility"]')).toHaveText(
        percent1(0.12, locale),
      );
    });
  }
});
