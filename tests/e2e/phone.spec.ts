import type { Page } from "@playwright/test";
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
