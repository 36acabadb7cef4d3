// Optimisation (issue "What-if and optimisation screens", the optimisation half), in both languages
// and both editions: a subscribed user runs o1, o3 and o2 on a saved portfolio, sees the efficient
// frontier with both portfolios marked, adopts the o2 result and finds it saved (one edition
// spent); the figures on screen equal the API's for the same inputs; a plan without a level shows
// it locked with the plan that unlocks it, and the API refuses it too.
import type { Page } from "@playwright/test";
import { dismissCookieBannerWhenShown, signInAs, bearerOf, goInApp } from "./accounts-support.ts";
import { expect, saveShot, test, type Locale } from "./fixtures.ts";

const paths = {
  q1: { en: "/en/create-portfolio/q1", es: "/es/crear-cartera/p1" },
  q2: { en: "/en/create-portfolio/q2", es: "/es/crear-cartera/p2" },
  q3: { en: "/en/create-portfolio/q3", es: "/es/crear-cartera/p3" },
  summary: { en: "/en/create-portfolio/summary", es: "/es/crear-cartera/resumen" },
  portfolio: { en: "/en/my-account/portfolios/portfolio-", es: "/es/mi-cuenta/carteras/cartera-" },
  choose: { en: "/en/optimize/choose", es: "/es/optimizar/seleccionar" },
  o1: { en: "/en/optimize/o1", es: "/es/optimizar/o1" },
  o2: { en: "/en/optimize/o2", es: "/es/optimizar/o2" },
  o3: { en: "/en/optimize/o3", es: "/es/optimizar/o3" },
  result: { en: "/en/optimize/summary", es: "/es/optimizar/resumen" },
  full: {
    en: "/en/analysis/optimized-portfolio-full-analysis",
    es: "/es/analisis/analisis-completo-cartera-optimizada",
  },
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
  optimiseIt: { en: "Optimise it", es: "Optimízala" },
  chooseTitle: { en: "Optimise your portfolio", es: "Optimiza tu cartera" },
  o1: {
    en: "Choose: Lower the risk of my assets",
    es: "Elegir: Reducir el riesgo de mis activos",
  },
  o2: { en: "Choose: Add new assets", es: "Elegir: Añadir activos nuevos" },
  o3: { en: "Choose: Choose how many assets", es: "Elegir: Elegir cuántos activos" },
  maxLossGiven: { en: "900.00", es: "900,00" },
  maxLoss: {
    en: "Maximum loss at 95% over a month (EUR)",
    es: "Pérdida máxima al 95 % en un mes (EUR)",
  },
  optimise: { en: "Run the optimisation", es: "Calcular la optimización" },
  addAsset: { en: "Add an asset from the market", es: "Añadir un activo del mercado" },
  add: { en: "Add", es: "Añadir" },
  desired: { en: "Number of assets you want", es: "Número de activos que quieres" },
  resultTitle: { en: "Optimised portfolio", es: "Cartera optimizada" },
  frontier: { en: "Efficient frontier", es: "Frontera eficiente" },
  holdings: { en: "Holdings", es: "Activos de la cartera" },
  startAgain: { en: "Start again", es: "Empezar de nuevo" },
  adopt: {
    en: "Adopt: save it as an edit of this portfolio",
    es: "Adoptarla: guardarla como una edición de esta cartera",
  },
  fullAnalysis: {
    en: "Full analysis of the optimised portfolio",
    es: "Análisis completo de la cartera optimizada",
  },
  blocked: { en: "Optimisation is blocked:", es: "La optimización está bloqueada:" },
  belowMinimum: {
    en: "must reach the minimum desired risk",
    es: "debe alcanzar el riesgo mínimo deseado",
  },
  remove: { en: "Remove", es: "Quitar" },
  advancedPlan: { en: "Included in the Advanced plan.", es: "Incluido en el plan Avanzado." },
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
  await expect(page.getByRole("region", { name: t.yourAssets[locale] })).toBeVisible();
  // One asset fewer than q3's number (5), so that o2 can add one.
  const removes = page
    .getByRole("region", { name: t.yourAssets[locale] })
    .getByRole("button", { name: t.remove[locale] });
  const before = await removes.count();
  await expect(async () => {
    if ((await removes.count()) === before) await removes.last().click();
    await expect(removes).toHaveCount(before - 1, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

interface Saved {
  benchmark: number;
  remainingEditions: number | null;
  assets: { symbol: string; investedAmount: number }[];
}

async function savedPortfolio(page: Page, token: string, id: number): Promise<Saved> {
  const saved = await (
    await page.request.get(`/api/portfolios/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json();
  return {
    benchmark: saved.benchmark,
    remainingEditions: saved.remainingEditions,
    assets: (saved.assets as { assets: { id: string; investedAmount: number }[] }[])
      .flatMap((g) => g.assets)
      .map((a) => ({ symbol: a.id, investedAmount: a.investedAmount })),
  };
}

async function optimiseApi(page: Page, token: string, body: Record<string, unknown>) {
  const response = await page.request.post("/api/analytics/optimise", {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  return { status: response.status(), json: await response.json() };
}

interface Answer {
  status: string;
  assets: { symbol: string; weight: number; investedAmount: number; currentWeight: number }[];
  volatility: number;
  var95: number;
  var95Amount: number;
  cvar95: number;
  cvar95Amount: number;
  expectedReturn: number;
  current: Omit<Answer, "status" | "assets" | "current" | "frontier">;
  frontier: unknown[];
}

/** The summary shows the API's figures for the same inputs, current and optimised. */
async function expectFigures(page: Page, locale: Locale, a: Answer) {
  for (const [side, f] of [
    ["optimised", a],
    ["current", a.current],
  ] as const) {
    await expect(page.getByTestId(`${side}-volatility`)).toHaveText(pct(f.volatility, locale));
    await expect(page.getByTestId(`${side}-var95`)).toHaveText(
      `${money(f.var95Amount, locale)} (${pct(f.var95, locale)})`,
    );
    await expect(page.getByTestId(`${side}-cvar95`)).toHaveText(
      `${money(f.cvar95Amount, locale)} (${pct(f.cvar95, locale)})`,
    );
    await expect(page.getByTestId(`${side}-expected`)).toHaveText(pct(f.expectedReturn, locale));
  }
  for (const asset of a.assets)
    await expect(page.getByTestId(`weight-${asset.symbol}`)).toHaveText(pct(asset.weight, locale));
}

/** Optimises on the screen and returns the answer the screen received. */
async function optimiseOnScreen(page: Page, locale: Locale) {
  const answered = page.waitForResponse(
    (r) => r.url().includes("/api/analytics/optimise") && r.request().method() === "POST",
  );
  await page.getByRole("button", { name: t.optimise[locale], exact: true }).click();
  const response = await answered;
  const request = response.request().postDataJSON() as Record<string, unknown>;
  await expect(page).toHaveURL(new RegExp(`${paths.result[locale]}$`), { timeout: 60_000 });
  await expect(page.getByRole("heading", { level: 1, name: t.resultTitle[locale] })).toBeVisible();
  return request;
}

test.describe("optimisation", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  for (const locale of ["en", "es"] as const) {
    test(`o1, o3 and o2 on a saved portfolio as the API answers, the frontier, and the o2 result adopted and saved (${locale})`, async ({
      page,
      context,
      edition,
    }) => {
      test.setTimeout(180_000);
      await signInAs(page, "assets-advanced@demo.test");
      await buildPortfolio(page, locale);
      const name = `Optimise ${edition} ${locale} ${Date.now()}`;
      await page.getByLabel(t.name[locale]).fill(name);
      await page.getByRole("button", { name: t.save[locale] }).click();
      await page.getByRole("link", { name: t.open[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.portfolio[locale]}\\d+$`));
      const id = Number(/(\d+)$/.exec(page.url())![1]);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      const token = await bearerOf(context);
      const saved = await savedPortfolio(page, token, id);

      // The portfolio page's link: optimising a saved portfolio starts an edition of it.
      await page.getByRole("link", { name: t.optimiseIt[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.choose[locale]}$`));

      // o1: the same assets, minimum risk within the maximum loss given at q2 (900).
      await expect(
        page.getByRole("heading", { level: 1, name: t.chooseTitle[locale] }),
      ).toBeVisible();
      await page.getByRole("button", { name: t.o1[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.o1[locale]}$`));
      // A money field: two decimals in the language's format.
      await expect(page.getByLabel(t.maxLoss[locale])).toHaveValue(t.maxLossGiven[locale]);
      // Below the minimum desired risk (1.1% of what is invested, over 5,000 here): blocked, with
      // the reason.
      await page.getByLabel(t.maxLoss[locale]).fill("10");
      await page.getByRole("button", { name: t.optimise[locale], exact: true }).click();
      // The reason is the field's own: described by it, the field invalid, nothing above the form.
      await expect(page.getByLabel(t.maxLoss[locale])).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel(t.maxLoss[locale])).toHaveAccessibleDescription(
        new RegExp(t.belowMinimum[locale]),
      );
      await expect(page.getByText(t.blocked[locale])).toHaveCount(0);
      await page.getByLabel(t.maxLoss[locale]).fill("900");
      const o1Request = await optimiseOnScreen(page, locale);
      expect(o1Request).toMatchObject({
        currency: "EUR",
        level: 1,
        maxToLose95: 900,
        objective: "minimum-risk",
        assets: saved.assets,
      });
      const o1 = await optimiseApi(page, token, o1Request);
      expect(o1.status).toBe(200);
      expect(o1.json.status).toBe("optimal");
      await expectFigures(page, locale, o1.json);
      await expect(page.getByRole("figure", { name: t.frontier[locale] })).toBeVisible();
      // Each holding is a point beside the portfolios (issue 27): its symbol on the chart, a row
      // of the table, the legend naming them.
      const held = (o1.json as Answer).assets.filter((a) => a.currentWeight > 0 || a.weight > 1e-6);
      expect(held.length).toBeGreaterThan(0);
      await expect(page.getByTestId("frontier-table").locator("tbody tr")).toHaveCount(
        o1.json.frontier.length + 2 + held.length,
      );
      for (const a of held)
        await expect(
          page.locator(`.chart-frontier g.frontier-holding[data-symbol="${a.symbol}"] text`),
        ).toHaveText(a.symbol);
      await expect(
        page.locator(".chart-frontier .chart-legend-label", { hasText: t.holdings[locale] }),
      ).toBeVisible();
      await saveShot(page, `optimise-summary-o1-${edition}-${locale}`);
      // At phone width nothing overflows.
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      await saveShot(page, `optimise-summary-phone-${edition}-${locale}`);
      await page.setViewportSize({ width: 1280, height: 900 });

      // o3: three assets out of the portfolio and one new asset.
      await page.getByRole("button", { name: t.startAgain[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.choose[locale]}$`));
      await page.getByRole("button", { name: t.o3[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.o3[locale]}$`));
      const newForO3 = await page.locator("datalist option").first().getAttribute("value");
      await page.getByLabel(t.addAsset[locale]).fill(newForO3!);
      await page.getByRole("button", { name: t.add[locale], exact: true }).click();
      await page.getByLabel(t.desired[locale]).fill("3");
      const o3Request = await optimiseOnScreen(page, locale);
      expect(o3Request).toMatchObject({ level: 3, desiredAssetsAmount: 3 });
      expect((o3Request.assets as { symbol: string; investedAmount: number }[]).at(-1)).toEqual({
        symbol: newForO3,
        investedAmount: 0,
      });
      const o3 = await optimiseApi(page, token, o3Request);
      expect(o3.json.status).toBe("optimal");
      expect(
        o3.json.assets.filter((a: { weight: number }) => a.weight > 1e-9).length,
      ).toBeLessThanOrEqual(3);
      await expectFigures(page, locale, o3.json);

      // o2: a new asset, and the first asset kept between 10% and 40%.
      await page.getByRole("button", { name: t.startAgain[locale] }).click();
      await page.getByRole("button", { name: t.o2[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.o2[locale]}$`));
      // The new asset chosen for o3 is still offered: o2 starts from the portfolio alone.
      await expect(page.locator(`li[data-symbol="${saved.assets[0]!.symbol}"]`)).toBeVisible();
      const newAssetButtons = page.locator("li.optimise-asset").getByRole("button");
      while ((await newAssetButtons.count()) > 0) await newAssetButtons.first().click();
      const added = await page.locator("datalist option").first().getAttribute("value");
      await page.getByLabel(t.addAsset[locale]).fill(added!);
      await page.getByRole("button", { name: t.add[locale], exact: true }).click();
      const first = saved.assets[0]!.symbol;
      const row = page.locator(`li[data-symbol="${first}"]`);
      await row.getByRole("checkbox").check();
      await row.getByLabel(locale === "es" ? "mín. %" : "min %").fill("10");
      await row.getByLabel(locale === "es" ? "mín. %" : "min %").blur();
      await row.getByLabel(locale === "es" ? "máx. %" : "max %").fill("40");
      await row.getByLabel(locale === "es" ? "máx. %" : "max %").blur();
      const o2Request = await optimiseOnScreen(page, locale);
      expect(o2Request).toMatchObject({ level: 2 });
      expect((o2Request.assets as { symbol: string }[]).map((a) => a.symbol)).toContain(added);
      expect((o2Request.assets as Record<string, unknown>[])[0]).toMatchObject({
        symbol: first,
        keep: true,
        minWeight: 0.1,
        maxWeight: 0.4,
      });
      const o2 = await optimiseApi(page, token, o2Request);
      expect(o2.json.status).toBe("optimal");
      await expectFigures(page, locale, o2.json);
      const kept = o2.json.assets.find((a: { symbol: string }) => a.symbol === first);
      expect(kept.weight).toBeGreaterThanOrEqual(0.1 - 1e-9);
      expect(kept.weight).toBeLessThanOrEqual(0.4 + 1e-9);

      // The optimised portfolio's full analysis.
      await page.getByRole("link", { name: t.fullAnalysis[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.full[locale]}$`));
      await expect(
        page.getByRole("heading", { level: 1, name: t.fullAnalysis[locale] }),
      ).toBeVisible();
      await expect(page.getByTestId("expected-return")).toBeVisible({ timeout: 30_000 });
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`${paths.result[locale]}$`));

      // Adopt: an edition of the saved portfolio, with the o2 amounts.
      await page.getByRole("button", { name: t.adopt[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.portfolio[locale]}${id}$`), {
        timeout: 30_000,
      });
      const after = await savedPortfolio(page, token, id);
      const expected = (o2.json.assets as { symbol: string; investedAmount: number }[])
        .filter((a) => a.investedAmount >= 0.01)
        .map((a) => ({
          symbol: a.symbol,
          investedAmount: Math.round(a.investedAmount * 100) / 100,
        }));
      expect(
        [...after.assets]
          .sort((a, b) => a.symbol.localeCompare(b.symbol))
          .map((a) => [a.symbol, a.investedAmount]),
      ).toEqual(
        expected
          .sort((a, b) => a.symbol.localeCompare(b.symbol))
          .map((a) => [a.symbol, a.investedAmount]),
      );
      if (saved.remainingEditions !== null)
        expect(after.remainingEditions).toBe(saved.remainingEditions - 1);
      await saveShot(page, `optimise-adopted-${edition}-${locale}`);
    });

    test(`a plan without o2 and o3 sees them locked with the plan that unlocks them, and the API refuses them (${locale})`, async ({
      page,
      context,
      edition,
    }) => {
      test.setTimeout(120_000);
      await signInAs(page, "assets-standard@demo.test");
      await buildPortfolio(page, locale);
      await goInApp(page, paths.choose[locale]);
      await expect(
        page.getByRole("heading", { level: 1, name: t.chooseTitle[locale] }),
      ).toBeVisible();
      await expect(page.getByRole("button", { name: t.o1[locale] })).toBeVisible();
      for (const level of [2, 3]) {
        const card = page.locator(`li[data-level="${level}"]`);
        await expect(card).toHaveAttribute("data-locked", "true");
        await expect(card).toContainText(t.advancedPlan[locale]);
        await expect(card.getByRole("button")).toHaveCount(0);
      }
      await saveShot(page, `optimise-locked-${edition}-${locale}`);
      // o1 runs, and what the plan gates is left out by the server and shown locked: the optimised
      // portfolio's expected return and the frontier (expectedReturnsOptimPortfolio, Advanced).
      await page.getByRole("button", { name: t.o1[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.o1[locale]}$`));
      const answered = page.waitForResponse(
        (r) => r.url().includes("/api/analytics/optimise") && r.request().method() === "POST",
      );
      await optimiseOnScreen(page, locale);
      const answer = (await (await answered).json()) as {
        expectedReturn: number | null;
        frontier: unknown[];
      };
      expect(answer.expectedReturn).toBeNull();
      expect(answer.frontier).toEqual([]);
      await expect(page.getByTestId("optimised-expected")).toContainText(t.advancedPlan[locale]);
      await expect(page.getByTestId("frontier-locked")).toContainText(t.advancedPlan[locale]);
      await expect(page.getByRole("figure", { name: t.frontier[locale] })).toHaveCount(0);
      const token = await bearerOf(context);
      const body = {
        currency: "EUR",
        assets: [
          { symbol: "SAN.MC", investedAmount: 6000 },
          { symbol: "ITX.MC", investedAmount: 4000 },
        ],
        maxToLose95: 900,
      };
      expect((await optimiseApi(page, token, body)).status).toBe(200);
      for (const extra of [
        { level: 2 },
        { assets: [...body.assets, { symbol: "TLT", investedAmount: 0 }] },
        { level: 3, desiredAssetsAmount: 1 },
      ]) {
        const refused = await optimiseApi(page, token, { ...body, ...extra });
        expect([refused.status, refused.json.msgCode]).toEqual([403, "PLAN_FEATURE_LOCKED"]);
      }
    });
  }
});
