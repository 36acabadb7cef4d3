import type { Page } from "@playwright/test";
import {
  brandNames,
  expect,
  locales,
  marketsPath,
  saveShot,
  test,
  texts,
  type Locale,
} from "./fixtures.ts";

const MARKETING_ORIGIN = "https://marketing.example.test";
const MARKETING_SCRIPT_URL = `${MARKETING_ORIGIN}/chat.js`;

/** Answers the marketing script with a tiny one and counts the requests for it. */
async function fakeMarketingScript(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.route(`${MARKETING_ORIGIN}/**`, async (route) => {
    requested.push(route.request().url());
    await route.fulfill({ contentType: "text/javascript", body: "window.__marketing = true;" });
  });
  return requested;
}

const marketingRan = (page: Page) =>
  page.evaluate(() => (window as unknown as { __marketing?: boolean }).__marketing === true);

const consentBanner = (page: Page, locale: Locale) =>
  page.getByRole("dialog", { name: texts.weUseCookies[locale] });
const preferences = (page: Page, locale: Locale) =>
  page.getByRole("dialog", { name: texts.cookiePreferences[locale] });

test.describe("cookie consent", () => {
  for (const locale of locales) {
    test(`the banner asks for consent in ${locale}`, async ({ page, edition }) => {
      await page.goto(`/${locale}`);
      const banner = consentBanner(page, locale);
      await expect(banner).toBeVisible();
      await expect(page.locator("#cc-main")).toContainText(texts.weUseCookies[locale]);
      await expect(banner).toContainText(brandNames[edition]);
      await expect(banner.getByRole("button", { name: texts.acceptAll[locale] })).toBeVisible();
      await expect(banner.getByRole("button", { name: texts.rejectAll[locale] })).toBeVisible();
    });

    test(`the footer "${texts.cookieSettings[locale]}" button reopens the preferences`, async ({
      page,
      context,
      edition,
    }) => {
      await page.goto(marketsPath[locale]);
      await consentBanner(page, locale)
        .getByRole("button", { name: texts.rejectAll[locale] })
        .click();
      await expect(consentBanner(page, locale)).toBeHidden();
      await expect
        .poll(async () => (await context.cookies()).some((c) => c.name === `${edition}_consent`))
        .toBe(true);

      await page
        .getByRole("contentinfo")
        .getByRole("button", { name: texts.cookieSettings[locale] })
        .click();
      const dialog = preferences(page, locale);
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(texts.marketingAndChat[locale]);
      await expect(
        dialog.getByRole("button", { name: texts.savePreferences[locale] }),
      ).toBeVisible();
      await saveShot(page, `${edition}-cookie-preferences-${locale}`);
    });
  }

  test.describe("with a marketing script (ht)", () => {
    test.beforeEach(({ edition }) => {
      test.skip(edition !== "ht", "only the ht server is configured with a marketing script");
    });

    test("the page carries the marketing script URL", async ({ request }) => {
      const config = (await (await request.get("/api/config")).json()) as {
        marketingScriptUrl: string | null;
      };
      expect(config.marketingScriptUrl).toBe(MARKETING_SCRIPT_URL);
    });

    for (const locale of locales) {
      test(`the script is loaded only after "${texts.acceptAll[locale]}"`, async ({ page }) => {
        const requested = await fakeMarketingScript(page);
        await page.goto(`/${locale}`);
        await expect(consentBanner(page, locale)).toBeVisible();
        await page.waitForLoadState("networkidle");
        expect(requested).toEqual([]);
        expect(await marketingRan(page)).toBe(false);

        await consentBanner(page, locale)
          .getByRole("button", { name: texts.acceptAll[locale] })
          .click();
        await expect(consentBanner(page, locale)).toBeHidden();
        await expect.poll(() => requested).toEqual([MARKETING_SCRIPT_URL]);
        await expect.poll(() => marketingRan(page)).toBe(true);

        // The consent is remembered: the next page load loads it again, without asking.
        await page.reload();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading[locale]);
        await expect.poll(() => marketingRan(page)).toBe(true);
        await expect(consentBanner(page, locale)).toBeHidden();
        expect(requested).toHaveLength(2);
      });
    }

    test('"Reject all" never loads the script', async ({ page }) => {
      const requested = await fakeMarketingScript(page);
      await page.goto("/en");
      await consentBanner(page, "en").getByRole("button", { name: texts.rejectAll.en }).click();
      await expect(consentBanner(page, "en")).toBeHidden();
      await page.waitForLoadState("networkidle");

      await page.goto("/es/mercados");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.es);
      await page.waitForLoadState("networkidle");
      await expect(consentBanner(page, "es")).toBeHidden();
      expect(requested).toEqual([]);
      expect(await marketingRan(page)).toBe(false);
    });

    test("turning marketing on in the preferences loads the script", async ({ page }) => {
      const requested = await fakeMarketingScript(page);
      await page.goto("/en");
      await consentBanner(page, "en").getByRole("button", { name: texts.rejectAll.en }).click();
      await page.getByRole("button", { name: texts.cookieSettings.en }).click();
      const dialog = preferences(page, "en");
      await expect(dialog).toBeVisible();
      const toggle = dialog.getByRole("checkbox", { name: texts.marketingAndChat.en });
      await expect(toggle).not.toBeChecked();
      expect(requested).toEqual([]);
      await toggle.check({ force: true });
      await dialog.getByRole("button", { name: texts.savePreferences.en }).click();
      await expect(dialog).toBeHidden();
      await expect.poll(() => requested).toEqual([MARKETING_SCRIPT_URL]);
      await expect.poll(() => marketingRan(page)).toBe(true);
    });
  });

  test.describe("without a marketing script (tt)", () => {
    test.beforeEach(({ edition }) => {
      test.skip(edition !== "tt", "only the tt server runs without a marketing script");
    });

    test("the page carries no marketing script URL", async ({ request }) => {
      const config = (await (await request.get("/api/config")).json()) as {
        marketingScriptUrl: string | null;
      };
      expect(config.marketingScriptUrl).toBeNull();
    });

    test('"Accept all" loads nothing from other sites', async ({ page, baseURL }) => {
      const requested = await fakeMarketingScript(page);
      const external: string[] = [];
      page.on("request", (r) => {
        if (!r.url().startsWith(baseURL!) && !r.url().startsWith("data:")) external.push(r.url());
      });
      await page.goto("/es");
      await consentBanner(page, "es").getByRole("button", { name: texts.acceptAll.es }).click();
      await expect(consentBanner(page, "es")).toBeHidden();
      await page.waitForLoadState("networkidle");
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.es);
      await page.waitForLoadState("networkidle");
      expect(external).toEqual([]);
      expect(requested).toEqual([]);
      expect(await marketingRan(page)).toBe(false);
    });
  });
});
