import { expect, test, texts } from "./fixtures.ts";

test.describe("language switch", () => {
  test('"Español" on /en/markets opens /es/mercados', async ({ page }) => {
    await page.goto("/en/markets");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.en);
    const link = page.getByRole("link", { name: "Español", exact: true });
    await expect(link).toHaveAttribute("href", "/es/mercados");
    await expect(link).toHaveAttribute("hreflang", "es");
    await link.click();
    await expect(page).toHaveURL(/\/es\/mercados$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.es);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    // The rest of the page follows the language too.
    await expect(page.getByRole("link", { name: texts.signIn.es, exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "English", exact: true })).toHaveAttribute(
      "href",
      "/en/markets",
    );
  });

  test('"English" on /es/_health opens /en/_health', async ({ page }) => {
    await page.goto("/es/_health");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.systemStatus.es);
    await page.getByRole("link", { name: "English", exact: true }).click();
    await expect(page).toHaveURL(/\/en\/_health$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.systemStatus.en);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("the query string and hash are kept", async ({ page }) => {
    await page.goto("/en/markets?x=1#top");
    await page.getByRole("link", { name: "Español", exact: true }).click();
    await expect(page).toHaveURL(/\/es\/mercados\?x=1#top$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.es);
  });

  test("the switch remembers the new language for /", async ({ page }) => {
    await page.goto("/en/markets");
    await page.getByRole("link", { name: "Español", exact: true }).click();
    // The app keeps the English page up until the Spanish catalogue has loaded: on a busy CI host
    // that took over the default 5 s once (seen as a retry).
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.es, {
      timeout: 15_000,
    });
    // The Spanish heading can be the prerendered page's, before the app has taken over and
    // remembered the language: wait for the remembering itself (the `lang` cookie).
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === "lang")?.value)
      .toBe("es");
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.es);
  });
});
