import { brandNames, expect, locales, saveShot, test, texts } from "./fixtures.ts";

test.describe("home", () => {
  for (const locale of locales) {
    test(`/${locale} shows the home page in ${locale}`, async ({ page, edition }) => {
      await page.goto(`/${locale}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading[locale]);
      await expect(page.getByText(texts.homeLead[locale])).toHaveText(
        `${brandNames[edition]} ${texts.homeLead[locale]}`,
      );
      await expect(page).toHaveTitle(`${texts.homeTitle[locale]} · ${brandNames[edition]}`);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(
        page.getByRole("navigation", { name: texts.mainNavigation[locale] }),
      ).toBeVisible();
      await saveShot(page, `${edition}-home-${locale}`);
    });
  }

  test("/ shows English to a new English-speaking visitor", async ({ page, edition }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.en);
    await expect(page).toHaveTitle(new RegExp(brandNames[edition]));
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test.describe("with a Spanish browser", () => {
    test.use({ locale: "es-ES" });

    test("/ shows Spanish to a new visitor whose browser prefers it", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.es);
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
    });
  });

  test("the language of /es is remembered for a year and used by /", async ({ page, context }) => {
    await page.goto("/es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.es);

    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === "lang")?.value)
      .toBe("es");
    const cookie = (await context.cookies()).find((c) => c.name === "lang")!;
    const daysAhead = (cookie.expires - Date.now() / 1000) / 86_400;
    expect(daysAhead).toBeGreaterThan(364);
    expect(daysAhead).toBeLessThanOrEqual(365.01);
    expect(cookie.path).toBe("/");

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.es);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page).toHaveURL(/\/$/);
  });

  test("visiting /en after /es switches the remembered language back", async ({
    page,
    context,
  }) => {
    await page.goto("/es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.es);
    await page.goto("/en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.en);
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === "lang")?.value)
      .toBe("en");
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.en);
  });
});
