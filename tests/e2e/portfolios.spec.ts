// The portfolio journey (issue "Portfolios"), in both languages and both editions: q1-q3, an amount
// changed on the summary with its effect on risk, save, my portfolios, the full analysis and the
// risk assessment, edits until remainingEditions runs out, export; locked blocks; the figures on
// screen equal the engine's (the analytics API) for the same inputs.
import type { Page } from "@playwright/test";
import { accountPaths, dismissCookieBannerWhenShown, signInAs } from "./accounts-support.ts";
import { expect, saveShot, test, type Locale } from "./fixtures.ts";

const paths = {
  q1: { en: "/en/create-portfolio/q1", es: "/es/crear-cartera/p1" },
  q2: { en: "/en/create-portfolio/q2", es: "/es/crear-cartera/p2" },
  q3: { en: "/en/create-portfolio/q3", es: "/es/crear-cartera/p3" },
  summary: { en: "/en/create-portfolio/summary", es: "/es/crear-cartera/resumen" },
  portfolio: { en: "/en/my-account/portfolios/portfolio-", es: "/es/mi-cuenta/carteras/cartera-" },
  assess: { en: "/en/assess-risk/assessment", es: "/es/medir-riesgo/valoracion" },
  fullAnalysis: { en: "/en/analysis/full-analysis", es: "/es/analisis/analisis-completo" },
} as const;

/** Texts of the portfolio screens (English source, Spanish from locales/es/messages.po). */
const t = {
  amountToInvest: { en: "Amount to invest", es: "Importe a invertir" },
  next: { en: "Next", es: "Siguiente" },
  lossInAmount: { en: "Loss you could bear, in EUR", es: "Pérdida que podrías soportar, en EUR" },
  build: { en: "Build my portfolio", es: "Construir mi cartera" },
  yourAssets: { en: "Your assets", es: "Tus activos" },
  amountIn: { en: "Amount in ", es: "Importe en " },
  raised: { en: "Your last change raised it by", es: "Tu último cambio lo ha subido en" },
  lowered: { en: "Your last change lowered it by", es: "Tu último cambio lo ha bajado en" },
  name: { en: "Name of the portfolio", es: "Nombre de la cartera" },
  save: { en: "Save the portfolio", es: "Guardar la cartera" },
  open: { en: "Open the portfolio", es: "Abrir la cartera" },
  edit: { en: "Edit", es: "Editar" },
  saveChanges: { en: "Save the changes", es: "Guardar los cambios" },
  noEditionsLeft: {
    en: "This portfolio has no edits left.",
    es: "A esta cartera no le quedan ediciones.",
  },
  exportCsv: { en: "Export CSV", es: "Exportar CSV" },
  assess: { en: "Assess its risk", es: "Medir su riesgo" },
  inOneMonth: { en: "In one month out of twenty", es: "Uno de cada veinte meses" },
  varBlock: { en: "Value at risk (VaR) and CVaR", es: "Valor en riesgo (VaR) y CVaR" },
  currencyRisk: { en: "Currency risk", es: "Riesgo de divisa" },
  advancedPlan: { en: "Included in the Advanced plan.", es: "Incluido en el plan Avanzado." },
  savingIsPaid: {
    en: "Saving portfolios is part of the paid plans.",
    es: "Guardar carteras forma parte de los planes de pago.",
  },
  myPortfolios: { en: "My portfolios", es: "Mis carteras" },
  seeFullAnalysis: { en: "See the full analysis", es: "Ver el análisis completo" },
  varMeaning: {
    en: "Value at risk (VaR) and CVaR: what it means",
    es: "Valor en riesgo (VaR) y CVaR: qué significa",
  },
  varEntry: { en: "Value at risk (VaR)", es: "Valor en riesgo (VaR)" },
  indexFunds: {
    en: "Index funds, chosen by asset class",
    es: "Fondos indexados, elegidos por clase de activo",
  },
  lazyLegend: { en: "Or start from a lazy portfolio", es: "O parte de una cartera perezosa" },
  allWeather: { en: "All weather", es: "Todo tiempo" },
  lazyMethod: {
    en: "The weights of the lazy portfolio you chose.",
    es: "Los pesos de la cartera perezosa que elegiste.",
  },
} as const satisfies Record<string, Record<Locale, string>>;

const savedAssets = [
  { id: "SAN.MC", investedAmount: 6000 },
  { id: "ITX.MC", investedAmount: 4000 },
];

/**
 * Saves a portfolio through the API as the signed-in person, with the answers of the questions
 * (the loss they could bear: 900 EUR), so that a test starts at its own screen.
 */
async function savePortfolio(page: Page, token: string, name: string): Promise<number> {
  const response = await page.request.post("/api/portfolios", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name,
      currency: "EUR",
      benchmark: 5,
      answers: {
        universe: [],
        amount: 10_000,
        maxToLose95: 900,
        ordering: "balanced",
        maxAssetsLevel: 2,
      },
      assets: savedAssets,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { id: number }).id;
}

/**
 * Deletes a portfolio through the API: the standard plan saves five, and other specs save with the
 * same account, so each test gives its place back.
 */
async function deletePortfolio(page: Page, token: string, id: number): Promise<void> {
  const response = await page.request.delete(`/api/portfolios/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The three questions with their defaults (stocks, EUR, balanced, 5 assets). */
async function answerTheQuestions(page: Page, locale: Locale, amount: string, loss: string) {
  await page.goto(paths.q1[locale]);
  await page.getByLabel(t.amountToInvest[locale]).fill(amount);
  await page.getByRole("button", { name: t.next[locale], exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${paths.q2[locale]}$`));
  await page.getByLabel(t.lossInAmount[locale]).fill(loss);
  await page.getByRole("button", { name: t.next[locale], exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${paths.q3[locale]}$`));
  await page.getByRole("button", { name: t.build[locale] }).click();
  await expect(page).toHaveURL(new RegExp(`${paths.summary[locale]}$`));
  await expect(page.getByRole("table", { name: t.yourAssets[locale] })).toBeVisible();
}

test.describe("portfolios journey", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  // Nothing lost on reload (docs/decisions.md): the summary of the portfolio being created is the
  // same after the browser reloads it; a new tab at the same address says why it cannot show it.
  test("the summary being created survives a reload of the page (en)", async ({ page }) => {
    test.setTimeout(60_000);
    await signInAs(page, "assets-standard@demo.test");
    await answerTheQuestions(page, "en", "10,000", "900");
    const table = page.getByRole("table", { name: t.yourAssets.en });
    const before = await table.locator("tbody tr").allTextContents();
    expect(before.length).toBeGreaterThan(0);

    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${paths.summary.en}$`));
    await expect(table).toBeVisible();
    expect(await table.locator("tbody tr").allTextContents()).toEqual(before);

    // Another tab has its own drafts: the summary there says why it is not shown.
    const other = await page.context().newPage();
    await other.goto(paths.summary.en);
    await expect(other).toHaveURL(new RegExp(`${paths.q1.en}$`));
    await expect(other.getByTestId("unavailable-notice")).toContainText(
      "“Your proposed portfolio” could not be shown",
    );
    await other.close();
  });

  for (const locale of ["en", "es"] as const) {
    test(`create, change an amount, see the full analysis, save (${locale})`, async ({
      page,
      edition,
    }) => {
      test.setTimeout(90_000);
      const token = await signInAs(page, "assets-standard@demo.test");
      await answerTheQuestions(page, locale, locale === "en" ? "10,000" : "10.000", "900");
      await saveShot(page, `summary-${edition}-${locale}`);

      // Change an amount: the loss at 95% is measured again and the change is reported.
      await expect(page.getByTestId("live-var")).toBeVisible();
      const before = await page.getByTestId("live-var").textContent();
      const first = page
        .getByRole("textbox", { name: new RegExp(`^${t.amountIn[locale]}`) })
        .first();
      await first.fill("6000");
      await first.press("Enter");
      await expect(page.getByTestId("live-delta")).toContainText(
        new RegExp(`${t.raised[locale]}|${t.lowered[locale]}`),
      );
      expect(await page.getByTestId("live-var").textContent()).not.toBe(before);

      // The full analysis of the portfolio being created (creation in progress), then back.
      await page.getByRole("link", { name: t.seeFullAnalysis[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.fullAnalysis[locale]}$`));
      await expect(
        page.locator('[data-block="var"]').getByRole("heading", { name: t.varBlock[locale] }),
      ).toBeVisible();
      await saveShot(page, `full-analysis-${edition}-${locale}`);
      await page.goBack();
      await expect(page.getByRole("table", { name: t.yourAssets[locale] })).toBeVisible();

      // Save, and open it.
      const name = `Journey ${edition} ${locale} ${Date.now()}`;
      await page.getByLabel(t.name[locale]).fill(name);
      await page.getByRole("button", { name: t.save[locale] }).click();
      await page.getByRole("link", { name: t.open[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.portfolio[locale]}\\d+$`));
      const id = Number(/(\d+)$/.exec(page.url())![1]);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

      // The full analysis: a standard plan sees the VaR block; currency risk is locked.
      const varBlock = page.locator('[data-block="var"]');
      await expect(varBlock.getByRole("heading", { name: t.varBlock[locale] })).toBeVisible();
      await expect(page.locator('[data-block="currency-risk"]')).toContainText(
        t.advancedPlan[locale],
      );
      await saveShot(page, `portfolio-${edition}-${locale}`);
      await deletePortfolio(page, token, id);
    });

    test(`a saved portfolio: the engine's figure on screen, its dictionary entry, my portfolios, the risk assessment (${locale})`, async ({
      page,
      edition,
    }) => {
      // An advanced plan: nothing here is the standard plan's, whose five places other tests use.
      const token = await signInAs(page, "assets-advanced@demo.test");
      const name = `Assessed ${edition} ${locale} ${Date.now()}`;
      const id = await savePortfolio(page, token, name);
      await page.goto(`${paths.portfolio[locale]}${id}`);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

      // The figure on screen is the engine's for the same inputs.
      const engine = await (
        await page.request.post("/api/analytics/analyse", {
          headers: { Authorization: `Bearer ${token}` },
          data: {
            currency: "EUR",
            benchmark: 5,
            assets: savedAssets.map((a) => ({ symbol: a.id, investedAmount: a.investedAmount })),
          },
        })
      ).json();
      const expected = new Intl.NumberFormat(locale === "en" ? "en-US" : "es-ES", {
        style: "currency",
        currency: "EUR",
      }).format(engine.var.historical.varAmount);
      await expect(page.getByTestId("var-historical")).toHaveText(expected);

      // The VaR figure links to its dictionary entry, which opens over the page.
      await page
        .locator('[data-block="var"]')
        .getByRole("link", { name: t.varMeaning[locale] })
        .click();
      const section = page.getByRole("dialog", {
        name: { ht: "Hollypedia", tt: locale === "es" ? "Programa" : "Programme" }[edition],
      });
      await expect(section.getByRole("heading", { name: t.varEntry[locale] })).toBeVisible();
      await expect(page).toHaveURL(/term=value-at-risk/);
      await page.keyboard.press("Escape");
      await expect(section).toBeHidden();

      // My portfolios lists it; from there, the risk assessment against the 900 the person said
      // they could bear.
      await page.goto(accountPaths.myPortfolios[locale]);
      await page.getByRole("link", { name }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await page.getByRole("link", { name: t.assess[locale] }).click();
      await expect(page).toHaveURL(new RegExp(`${paths.assess[locale]}$`));
      await expect(page.getByTestId("assessment-words")).toContainText(t.inOneMonth[locale]);
      await saveShot(page, `assessment-${edition}-${locale}`);
    });

    test(`a saved portfolio edited until no edits are left, then exported (${locale})`, async ({
      page,
      edition,
    }) => {
      const token = await signInAs(page, "assets-standard@demo.test");
      const name = `Edited ${edition} ${locale} ${Date.now()}`;
      const id = await savePortfolio(page, token, name);
      await page.goto(`${paths.portfolio[locale]}${id}`);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

      // Edit until remainingEditions (3 on the standard plan) runs out.
      for (const left of ["2", "1", "0"]) {
        await page.getByRole("button", { name: t.edit[locale], exact: true }).click();
        const amount = page
          .getByRole("textbox", { name: new RegExp(`^${t.amountIn[locale]}`) })
          .first();
        await amount.fill(String(5000 + Number(left) * 100));
        await amount.press("Enter");
        await page.getByRole("button", { name: t.saveChanges[locale] }).click();
        await expect(page.getByTestId("remaining-editions")).toHaveText(left);
      }
      await expect(page.getByRole("button", { name: t.edit[locale], exact: true })).toHaveCount(0);
      await expect(page.getByText(t.noEditionsLeft[locale])).toBeVisible();

      // Export as CSV.
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: t.exportCsv[locale] }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`portfolio-${id}.csv`);
      await deletePortfolio(page, token, id);
    });

    test(`lazy portfolios of index funds only in the tt edition (${locale})`, async ({
      page,
      edition,
    }) => {
      await signInAs(page, "indices-advanced@demo.test");
      await page.goto(paths.q1[locale]);
      await page.getByRole("radio", { name: t.indexFunds[locale] }).check();
      if (edition === "ht") {
        await expect(page.getByText(t.lazyLegend[locale])).toHaveCount(0);
        return;
      }
      await page.getByRole("radio", { name: new RegExp(`^${t.allWeather[locale]}`) }).check();
      await page.getByLabel(t.amountToInvest[locale]).fill("20000");
      await page.getByRole("button", { name: t.next[locale], exact: true }).click();
      // Straight to the summary: q2 and q3 are skipped.
      await expect(page).toHaveURL(new RegExp(`${paths.summary[locale]}$`));
      await expect(page.getByText(t.lazyMethod[locale])).toBeVisible();
      const rows = page.getByRole("table", { name: t.yourAssets[locale] }).locator("tbody tr");
      await expect(rows).toHaveCount(5);
      await saveShot(page, `lazy-summary-${edition}-${locale}`);
    });

    test(`a free account builds a portfolio but cannot save it (${locale})`, async ({ page }) => {
      await signInAs(page, "free@demo.test");
      await answerTheQuestions(page, locale, "5000", "400");
      await expect(page.getByText(t.savingIsPaid[locale])).toBeVisible();
    });
  }
});
