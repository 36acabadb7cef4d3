// What-if (issue "What-if and optimisation screens", the what-if half), in both languages and both
// editions: a subscribed user stress-tests a saved portfolio with a backtest, a real scenario and
// custom shocks; the specification's priority holds when several are given; the figures on screen
// equal the API's for the same inputs; a result on a portfolio edited since says so and runs
// again; a plan without a kind shows the lock and what unlocks it, and the API refuses it too.
import type { Page } from "@playwright/test";
import { dismissCookieBannerWhenShown, signInAs, bearerOf, goInApp } from "./accounts-support.ts";
import { expect as baseExpect, saveShot, test, type Locale } from "./fixtures.ts";

// Every step waits on the server's analytics (proposal, what-if) or a lazy screen: on a busy
// machine these take longer than the default 5 s, so each wait allows 20 s.
const expect = baseExpect.configure({ timeout: 20_000 });

const paths = {
  q1: { en: "/en/create-portfolio/q1", es: "/es/crear-cartera/p1" },
  q2: { en: "/en/create-portfolio/q2", es: "/es/crear-cartera/p2" },
  q3: { en: "/en/create-portfolio/q3", es: "/es/crear-cartera/p3" },
  summary: { en: "/en/create-portfolio/summary", es: "/es/crear-cartera/resumen" },
  portfolio: { en: "/en/my-account/portfolios/portfolio-", es: "/es/mi-cuenta/carteras/cartera-" },
  scenarios: { en: "/en/what-if/scenarios", es: "/es/que-pasaria-si/escenarios" },
  assessment: { en: "/en/what-if/assessment", es: "/es/que-pasaria/valoracion" },
} as const;

/** Texts of the screens (English source, Spanish from locales/es/messages.po). */
const t = {
  amountToInvest: { en: "Amount to invest", es: "Importe a invertir" },
  next: { en: "Next", es: "Siguiente" },
  lossInAmount: { en: "Loss you could bear, in EUR", es: "Pérdida que podrías soportar, en EUR" },
  build: { en: "Build my portfolio", es: "Construir mi cartera" },
  yourAssets: { en: "Your assets", es: "Tus activos" },
  name: { en: "Name of the portfolio", es: "Nombre de la cartera" },
  save: { en: "Save the portfolio", es: "Guardar la cartera" },
  open: { en: "Open the portfolio", es: "Abrir la cartera" },
  edit: { en: "Edit", es: "Editar" },
  amountIn: { en: "Amount in ", es: "Importe en " },
  saveChanges: { en: "Save the changes", es: "Guardar los cambios" },
  scenariosTitle: { en: "What-if scenarios", es: "Escenarios ¿qué pasaría si?" },
  stockMarket: { en: "Stock market (%)", es: "Bolsa (%)" },
  rates: {
    en: "Interest rates (10-year yield) (pp)",
    es: "Tipos de interés (rentabilidad a 10 años) (p. p.)",
  },
  oneYear: { en: "1 year", es: "1 año" },
  noBacktest: { en: "No backtest", es: "Sin backtest" },
  pandemic: { en: "The 2020 pandemic crash", es: "El desplome de la pandemia de 2020" },
  noScenario: { en: "No real scenario", es: "Sin escenario real" },
  run: { en: "Run the what-if", es: "Calcular el escenario" },
  changeWhatIf: { en: "Change the what-if", es: "Cambiar el escenario" },
  stale: {
    en: "Your portfolio has changed since this run",
    es: "Tu cartera ha cambiado desde este cálculo",
  },
  runAgain: {
    en: "Run it again on the portfolio as it is now",
    es: "Volver a calcularlo con la cartera tal como está ahora",
  },
  advancedPlan: { en: "Included in the Advanced plan.", es: "Incluido en el plan Avanzado." },
  pandemicDates: {
    en: "From February 19, 2020 to March 23, 2020.",
    es: "Del 19 de febrero de 2020 al 23 de marzo de 2020.",
  },
} as const satisfies Record<string, Record<Locale, string>>;

const intl = { en: "en-US", es: "es-ES" } as const;
const money = (v: number, locale: Locale) =>
  new Intl.NumberFormat(intl[locale], { style: "currency", currency: "EUR" }).format(v);
const pct = (v: number, locale: Locale) =>
  new Intl.NumberFormat(intl[locale], {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(v);
const num = (v: number, locale: Locale) =>
  new Intl.NumberFormat(intl[locale], {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(v);

async function expectNoOverflow(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
}

/** The three questions with their defaults (stocks, EUR, balanced, 5 assets), to the summary. */
async function buildPortfolio(page: Page, locale: Locale) {
  await page.goto(paths.q1[locale]);
  await page.getByLabel(t.amountToInvest[locale]).fill("10000");
  await page.getByRole("button", { name: t.next[locale], exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${paths.q2[locale]}$`));
  await page.getByLabel(t.lossInAmount[locale]).fill("900");
  await page.getByRole("button", { name: t.next[locale], exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${paths.q3[locale]}$`));
  await page.getByRole("button", { name: t.build[locale] }).click();
  await expect(page).toHaveURL(new RegExp(`${paths.summary[locale]}$`));
  await expect(page.getByRole("table", { name: t.yourAssets[locale] })).toBeVisible({
    timeout: 30_000,
  });
}

interface Saved {
  id: number;
  benchmark: number;
  assets: { symbol: string; investedAmount: number }[];
}

async function savedPortfolio(page: Page, token: string, id: number): Promise<Saved> {
  const saved = await (
    await page.request.get(`/api/portfolios/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json();
  return {
    id,
    benchmark: saved.benchmark,
    assets: (saved.assets as { assets: { id: string; investedAmount: number }[] }[])
      .flatMap((g) => g.assets)
      .map((a) => ({ symbol: a.id, investedAmount: a.investedAmount })),
  };
}

async function whatIfApi(page: Page, token: string, body: Record<string, unknown>) {
  const response = await page.request.post("/api/analytics/what-if", {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  return { status: response.status(), json: await response.json() };
}

async function runAndWait(page: Page, locale: Locale, kind: string) {
  await expect(page.getByTestId("what-if-kind")).toHaveAttribute("data-kind", kind);
  await page.getByRole("button", { name: t.run[locale] }).click();
  await expect(page).toHaveURL(new RegExp(`${paths.assessment[locale]}$`), { timeout: 30_000 });
  await expect(page.getByTestId("what-if-ran")).toHaveAttribute("data-kind", kind, {
    timeout: 20_000,
  });
}

test.describe("what-if", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  for (const locale of ["en", "es"] as const) {
    test(`backtest, real scenario and custom shocks on a saved portfolio, by priority, as the API answers (${locale})`, async ({
      page,
      context,
      edition,
    }) => {
      test.setTimeout(300_000);
      await signInAs(page, "assets-advanced@demo.test");
      await buildPortfolio(page, locale);
      const name = `What-if ${edition} ${locale} ${Date.now()}`;
      await page.getByLabel(t.name[locale]).fill(name);
      await page.getByRole("button", { name: t.save[locale] }).click();
      await page.getByRole("link", { name: t.open[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.portfolio[locale]}\\d+$`));
      const id = Number(/(\d+)$/.exec(page.url())![1]);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      const token = await bearerOf(context);
      const saved = await savedPortfolio(page, token, id);
      const base = { currency: "EUR", benchmark: saved.benchmark, assets: saved.assets };

      await goInApp(page, paths.scenarios[locale]);
      await expect(
        page.getByRole("heading", { level: 1, name: t.scenariosTitle[locale] }),
      ).toBeVisible();
      await expect(page.getByTestId("what-if-portfolio")).toContainText(name);
      await expect(page.getByText(t.pandemicDates[locale])).toBeVisible();

      // All three given: the backtest runs (specification section 4).
      const shocks = { dRV: -0.2, dRF: 1.5, dCrypto: null, dMMPP: null, inflation: null };
      await page.getByRole("textbox", { name: t.stockMarket[locale] }).fill("-20");
      await page
        .getByRole("textbox", { name: t.rates[locale] })
        .fill(locale === "es" ? "1,5" : "1.5");
      await page.getByRole("radio", { name: t.pandemic[locale] }).check();
      await page.getByRole("radio", { name: t.oneYear[locale], exact: true }).check();
      await saveShot(page, `what-if-scenarios-${edition}-${locale}`);
      await runAndWait(page, locale, "backtest");
      const backtest = await whatIfApi(page, token, {
        ...base,
        backTesting: "1y",
        rebalancing: "none",
      });
      expect(backtest.status).toBe(200);
      // The server applies the same priority to a request naming all three.
      const all = await whatIfApi(page, token, {
        ...base,
        backTesting: "1y",
        scenarioType: 1,
        shocks,
      });
      expect(all.json.kind).toBe("backtest");
      expect(all.json.performance).toEqual(backtest.json.performance);
      const bt = backtest.json;
      for (const k of ["totalReturn", "annualizedReturn", "volatility", "maxDrawdown"] as const) {
        await expect(page.getByTestId(`bt-portfolio-${k}`)).toHaveText(
          pct(bt.performance[k], locale),
        );
        await expect(page.getByTestId(`bt-benchmark-${k}`)).toHaveText(
          pct(bt.benchmark.performance[k], locale),
        );
      }
      await expect(page.getByTestId("bt-portfolio-sharpe")).toHaveText(
        num(bt.performance.sharpe, locale),
      );
      await expect(page.getByTestId("bt-benchmark-sharpe")).toHaveText(
        num(bt.benchmark.performance.sharpe, locale),
      );
      await expect(page.getByTestId("bt-end-value")).toHaveText(money(bt.values.at(-1), locale));
      await expect(page.getByTestId("bt-tracking-error")).toHaveText(
        pct(bt.benchmark.trackingError, locale),
      );
      await saveShot(page, `what-if-backtest-${edition}-${locale}`);

      // Without the backtest, the real scenario runs even though shocks are given.
      await page.getByRole("link", { name: t.changeWhatIf[locale] }).click();
      await page.getByRole("radio", { name: t.noBacktest[locale] }).check();
      await runAndWait(page, locale, "scenario");
      const scenario = (await whatIfApi(page, token, { ...base, scenarioType: 1 })).json;
      expect(scenario.kind).toBe("scenario");
      await expect(page.getByTestId("whatif-total-change")).toHaveText(
        money(scenario.totalChange, locale),
      );
      await expect(page.getByTestId("whatif-total-return")).toHaveText(
        pct(scenario.totalReturn, locale),
      );
      // The scenario's value path: its lowest point as the API's.
      const lowest = Math.min(...(scenario.path.values as number[]));
      await expect(page.getByTestId("whatif-path-low")).toHaveText(money(lowest, locale));
      const firstScenario = scenario.assets[0];
      await expect(
        page.getByTestId("whatif-assets").locator(`tr[data-symbol="${firstScenario.symbol}"]`),
      ).toContainText(money(firstScenario.change, locale));
      await saveShot(page, `what-if-scenario-${edition}-${locale}`);

      // Neither: the custom shocks run.
      await page.getByRole("link", { name: t.changeWhatIf[locale] }).click();
      await page.getByRole("radio", { name: t.noScenario[locale] }).check();
      await runAndWait(page, locale, "custom");
      const custom = (await whatIfApi(page, token, { ...base, shocks })).json;
      expect(custom.kind).toBe("custom");
      await expect(page.getByTestId("whatif-total-change")).toHaveText(
        money(custom.totalChange, locale),
      );
      await expect(page.getByTestId("whatif-total-return")).toHaveText(
        pct(custom.totalReturn, locale),
      );
      for (const a of custom.assets as { symbol: string; change: number; return: number }[]) {
        const row = page.getByTestId("whatif-assets").locator(`tr[data-symbol="${a.symbol}"]`);
        await expect(row).toContainText(money(a.change, locale));
        await expect(row).toContainText(pct(a.return, locale));
      }
      await saveShot(page, `what-if-custom-${edition}-${locale}`);

      // The portfolio is edited: the result says it is stale, and runs again on the new amounts.
      await goInApp(page, `${paths.portfolio[locale]}${id}`);
      await page.getByRole("button", { name: t.edit[locale], exact: true }).click();
      const amount = page
        .getByRole("textbox", { name: new RegExp(`^${t.amountIn[locale]}`) })
        .first();
      await amount.fill("5000");
      await amount.press("Enter");
      await page.getByRole("button", { name: t.saveChanges[locale] }).click();
      await expect(page.getByRole("button", { name: t.edit[locale], exact: true })).toBeVisible();
      await goInApp(page, paths.assessment[locale]);
      await expect(page.getByTestId("what-if-stale")).toContainText(t.stale[locale]);
      await expect(page.getByTestId("whatif-total-change")).toHaveText(
        money(custom.totalChange, locale),
      );
      await page.getByRole("button", { name: t.runAgain[locale] }).click();
      await expect(page.getByTestId("what-if-stale")).toHaveCount(0);
      const edited = await savedPortfolio(page, token, id);
      expect(edited.assets).not.toEqual(saved.assets);
      const again = (await whatIfApi(page, token, { ...base, assets: edited.assets, shocks })).json;
      await expect(page.getByTestId("whatif-total-change")).toHaveText(
        money(again.totalChange, locale),
      );
    });

    test(`a plan without real scenarios and backtests shows what unlocks them, and the API refuses them (${locale})`, async ({
      page,
      context,
      edition,
    }) => {
      test.setTimeout(180_000);
      await signInAs(page, "assets-standard@demo.test");
      await buildPortfolio(page, locale);
      await goInApp(page, paths.scenarios[locale]);
      await expect(
        page.getByRole("heading", { level: 1, name: t.scenariosTitle[locale] }),
      ).toBeVisible();
      for (const kind of ["backtest", "scenario"]) {
        const lock = page.locator(`[data-lock="${kind}"]`);
        await expect(lock).toContainText(t.advancedPlan[locale]);
      }
      await expect(page.locator('[data-lock="custom"]')).toHaveCount(0);
      await expect(page.getByRole("radio", { name: t.pandemic[locale] })).toBeDisabled();
      await expect(
        page.getByRole("radio", { name: t.oneYear[locale], exact: true }),
      ).toBeDisabled();
      // A 390 px phone: nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoOverflow(page);
      await saveShot(page, `what-if-locked-${edition}-${locale}`);

      // The server is the authority: the same request is refused with the plan lock.
      const token = await bearerOf(context);
      const body = { currency: "EUR", assets: [{ symbol: "SAN.MC", investedAmount: 1000 }] };
      for (const extra of [{ backTesting: "1y" }, { scenarioType: 0 }]) {
        const refused = await whatIfApi(page, token, { ...body, ...extra });
        expect(refused.status).toBe(403);
        expect(refused.json.msgCode).toBe("PLAN_FEATURE_LOCKED");
      }

      // The custom shocks the plan includes run.
      await page.getByRole("textbox", { name: t.stockMarket[locale] }).fill("-10");
      await runAndWait(page, locale, "custom");
      await expect(page.getByTestId("whatif-total-change")).toBeVisible();
      await expectNoOverflow(page);
      await saveShot(page, `what-if-phone-result-${edition}-${locale}`);
    });
  }
});
