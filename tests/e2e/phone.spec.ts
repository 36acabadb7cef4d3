import type { Page } from "@playwright/test";
import { bearerOf, dismissCookieBannerWhenShown, goInApp, signInAs } from "./accounts-support.ts";
import { expect, locales, marketsPath, saveShot, test, texts } from "./fixtures.ts";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const noHorizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth);

test.describe("phone width", () => {
  for (const locale of locales) {
    test(`the header menu opens and closes in ${locale}`, async ({ page, edition }) => {
      await page.goto(`/${locale}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading[locale]);
      const menu = page.getByRole("button", { name: texts.menu[locale], exact: true });
      await expect(menu).toBeVisible();
      await expect(menu).toHaveAttribute("aria-expanded", "false");
      const marketsLink = page.getByRole("link", { name: texts.markets[locale], exact: true });
      await expect(marketsLink).toBeHidden();
      expect(await noHorizontalOverflow(page)).toBeLessThanOrEqual(390);
      await saveShot(page, `${edition}-phone-home-${locale}`);

      await menu.click();
      await expect(menu).toHaveAttribute("aria-expanded", "true");
      const nav = page.getByRole("navigation", { name: texts.mainNavigation[locale] });
      await expect(nav).toBeVisible();
      await expect(marketsLink).toBeVisible();
      await expect(
        nav.getByRole("link", { name: texts.signIn[locale], exact: true }),
      ).toBeVisible();
      await expect(
        nav.getByRole("link", { name: locale === "en" ? "Español" : "English" }),
      ).toBeVisible();
      expect(await noHorizontalOverflow(page)).toBeLessThanOrEqual(390);
      await saveShot(page, `${edition}-phone-menu-${locale}`);

      // Following a link closes the menu.
      await marketsLink.click();
      await expect(page).toHaveURL(new RegExp(`${marketsPath[locale]}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets[locale]);
      await expect(menu).toHaveAttribute("aria-expanded", "false");
      await expect(marketsLink).toBeHidden();
    });
  }

  for (const path of ["/en/_health", "/es/no-existe", "/es/acceso-de-usuario"]) {
    test(`${path} fits the phone width`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await noHorizontalOverflow(page)).toBeLessThanOrEqual(390);
    });
  }
});

/** The saved portfolio's page and the list of portfolios: nothing past 390 px. */
const portfolioTexts = {
  list: { en: "/en/my-account/portfolios", es: "/es/mi-cuenta/carteras" },
  portfolio: { en: "/en/my-account/portfolios/portfolio-", es: "/es/mi-cuenta/carteras/cartera-" },
  holdings: { en: "Holdings", es: "Posiciones" },
  weight: { en: "Weight", es: "Peso" },
  nothingYet: { en: "Nothing to chart yet.", es: "Aún no hay nada que representar." },
} as const;

test.describe("portfolios at phone width", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  for (const locale of locales) {
    test(`a saved portfolio and the list of portfolios fit 390 px (${locale})`, async ({
      page,
      context,
      edition,
    }) => {
      test.setTimeout(180_000);
      await signInAs(page, "assets-advanced@demo.test");
      const token = await bearerOf(context);
      const headers = { Authorization: `Bearer ${token}` };
      // Ten stocks with the longest names, as a person's portfolio may hold.
      const list = (await (
        await page.request.get("/api/market/assets?product=simAssets&currency=USD", { headers })
      ).json()) as { assets: { symbol: string; name: string }[] };
      const assets = list.assets.toSorted((a, b) => b.name.length - a.name.length).slice(0, 10);
      const saved = await page.request.post("/api/portfolios", {
        headers,
        data: {
          name: `Cartera de prueba ñ ${locale} ${Date.now()}`,
          currency: "USD",
          maxAssetsLevel: 2,
          assets: assets.map((a, i) => ({ id: a.symbol, investedAmount: 1250 + i * 517.31 })),
        },
      });
      expect(saved.status()).toBe(201);
      const id = ((await saved.json()) as { id: number }).id;

      await page.goto(`${portfolioTexts.portfolio[locale]}${id}`);
      const holdings = page.getByRole("table", {
        name: portfolioTexts.holdings[locale],
        exact: true,
      });
      await expect(holdings).toBeVisible({ timeout: 30_000 });
      // A new portfolio: no charts of one dot, but when its next valuation comes.
      await expect(page.getByTestId("monitoring-empty")).toContainText(
        portfolioTexts.nothingYet[locale],
      );
      // Every row a card: its weight in view, beside its label.
      const weight = holdings.locator(`td[data-label="${portfolioTexts.weight[locale]}"]`).first();
      await expect(weight).toBeInViewport();
      const box = (await weight.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await noHorizontalOverflow(page)).toBeLessThanOrEqual(390);
      await saveShot(page, `${edition}-phone-portfolio-${locale}`);

      await goInApp(page, portfolioTexts.list[locale]);
      await expect(page.getByTestId("portfolio-list")).toBeVisible();
      expect(await noHorizontalOverflow(page)).toBeLessThanOrEqual(390);
      await saveShot(page, `${edition}-phone-portfolio-list-${locale}`);

      await page.setViewportSize({ width: 1280, height: 900 });
      await saveShot(page, `${edition}-wide-portfolio-list-${locale}`);
      await goInApp(page, `${portfolioTexts.portfolio[locale]}${id}`);
      await expect(page.getByTestId("monitoring-empty")).toBeVisible();
      await saveShot(page, `${edition}-wide-portfolio-${locale}`);
    });
  }
});
