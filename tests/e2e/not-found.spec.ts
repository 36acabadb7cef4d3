import { expect, test, texts, type Locale } from "./fixtures.ts";
import type { Page } from "@playwright/test";

async function expectNotFound(page: Page, locale: Locale) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Error 404");
  await expect(page.getByText(texts.pageNotFound[locale], { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: texts.goBack[locale] })).toBeVisible();
  // The empty-center layout: no site navigation, header or footer.
  await expect(page.getByRole("navigation")).toHaveCount(0);
  await expect(page.getByRole("link", { name: texts.signIn[locale] })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
}

// The 404 screen of every path that is not a route, in both editions, is checked at route level
// (tests/app/routes.test.tsx); here, what only a browser's own history shows.
test.describe("not found", () => {
  test('"Go back" returns to the previous page', async ({ page }) => {
    await page.goto("/en/markets");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.en);
    await page.goto("/en/does-not-exist");
    await expectNotFound(page, "en");
    await page.getByRole("button", { name: texts.goBack.en }).click();
    await expect(page).toHaveURL(/\/en\/markets$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.en);
  });

  test('"Volver" returns to the previous page', async ({ page }) => {
    await page.goto("/es/_health");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.systemStatus.es);
    await page.goto("/es/mi-cuenta/carteras/cartera-0");
    await expectNotFound(page, "es");
    await page.getByRole("button", { name: texts.goBack.es }).click();
    await expect(page).toHaveURL(/\/es\/_health$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.systemStatus.es);
  });

  test('"Go back" after an in-app link to a missing page returns to the page of the link', async ({
    page,
  }) => {
    await page.goto("/en/markets");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.en);
    // A client-side navigation (no page load), as a broken link in the app would do.
    await page.evaluate(() => {
      history.pushState(null, "", "/en/no-such-page");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await expectNotFound(page, "en");
    await page.getByRole("button", { name: texts.goBack.en }).click();
    await expect(page).toHaveURL(/\/en\/markets$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.en);
  });
});
