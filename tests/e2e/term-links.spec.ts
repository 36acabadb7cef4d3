// Technical words on the product's screens link to their dictionary entries (issue 14): the
// markets page (open to guests) and the banana challenge's rules, in both languages and both
// editions. A link opens the education section over the page at the term; Escape closes it.
import type { Page } from "@playwright/test";
import { dismissCookieBannerWhenShown, signInAs } from "./accounts-support.ts";
import { expect, test, type Edition, type Locale } from "./fixtures.ts";

const section = (page: Page, edition: Edition, locale: Locale) =>
  page.getByRole("dialog", {
    name: { ht: "Hollypedia", tt: locale === "es" ? "Programa" : "Programme" }[edition],
  });

async function opensEntry(
  page: Page,
  edition: Edition,
  locale: Locale,
  link: string,
  term: string,
  heading: string,
) {
  await page.locator(".term-links").getByRole("link", { name: link, exact: true }).first().click();
  const dialog = section(page, edition, locale);
  await expect(dialog.getByRole("heading", { name: heading })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`term=${term}`));
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

test.describe("dictionary links on the screens", () => {
  for (const locale of ["en", "es"] as const) {
    test(`markets: a sector links to its entry (${locale})`, async ({ page, edition }) => {
      await dismissCookieBannerWhenShown(page);
      await page.goto(locale === "es" ? "/es/mercados" : "/en/markets");
      await expect(page.locator(".term-links").first()).toBeVisible({ timeout: 30_000 });
      await opensEntry(page, edition, locale, "Sector", "sector", "Sector");
    });

    test(`banana challenge: the monkey links to random portfolios (${locale})`, async ({
      page,
      edition,
    }) => {
      await dismissCookieBannerWhenShown(page);
      await signInAs(page, "all-advanced@demo.test");
      await page.goto(`/${locale}/banana-challenge`);
      await opensEntry(
        page,
        edition,
        locale,
        locale === "es" ? "Cartera aleatoria" : "Random portfolio",
        "random-portfolio",
        locale === "es" ? "Cartera aleatoria (el mono)" : "Random portfolio (the monkey)",
      );
    });
  }
});
