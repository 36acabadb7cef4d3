import type { Page } from "@playwright/test";
import { appMounted, expect, test, texts, type Locale } from "./fixtures.ts";
import { accountPaths, accountTexts, dismissCookieBannerWhenShown } from "./accounts-support.ts";

/**
 * The privacy-policy gate (PRODUCT.md, "People and their kinds"; docs/accounts.md): in the ht
 * edition a person who accepted an older policy must accept the current one before anything else,
 * then goes where they were going; the tt edition never asks; HT accounts accept by contract and
 * never see the page.
 */

const DEMO_PASSWORD = "Demo-portfolio-2026";
/** Accepted an old policy (README, "Demo accounts"). It can accept only once per run and edition. */
const POLICY = { email: "policy@demo.test", name: "Policy" };
const HT = "ht@demo.test";

const paths = accountPaths;

const t = accountTexts;

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

async function signIn(page: Page, locale: Locale, email: string, returnTo?: string) {
  const query = returnTo ? `?${new URLSearchParams({ returnTo })}` : "";
  await page.goto(`${paths.signIn[locale]}${query}`);
  // Typed into the app's form, not the prerendered one it replaces.
  await appMounted(page);
  await page.getByLabel(t.email[locale], { exact: true }).fill(email);
  await page.getByLabel(t.password[locale], { exact: true }).fill(DEMO_PASSWORD);
  await page
    .getByRole("main")
    .getByRole("button", { name: texts.signIn[locale], exact: true })
    .click();
}

/**
 * The accept page alone, in the empty-center layout: no site header, navigation or footer; the
 * only way out besides accepting is signing out, inside the card.
 */
async function expectOnAcceptPage(page: Page, locale: Locale, baseURL: string) {
  await expect(page).toHaveURL(`${baseURL}${paths.acceptPolicy[locale]}`);
  await expect(heading(page)).toHaveText(t.acceptPolicyTitle[locale]);
  await expect(page.getByRole("main")).toContainText(t.policyChanged[locale]);
  await expect(page.getByRole("button", { name: t.iAccept[locale] })).toBeEnabled();
  await expect(page.locator(".layout-empty-center")).toBeVisible();
  await expect(page.getByRole("navigation")).toHaveCount(0);
  await expect(page.getByRole("banner")).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expect(page.getByRole("main").getByRole("button", { name: t.signOut[locale] })).toHaveCount(
    1,
  );
}

/** Back on a page of the default layout, signed in, with the site navigation. */
async function expectOnSitePage(page: Page, locale: Locale, url: string, title: string) {
  await expect(page).toHaveURL(url);
  await expect(heading(page)).toHaveText(title);
  const nav = page.getByRole("navigation", { name: texts.mainNavigation[locale] });
  await expect(
    nav.getByRole("link", { name: `${t.yourProfile[locale]}${POLICY.name}` }),
  ).toBeVisible();
}

test.describe("privacy-policy gate", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  test("ht: an outdated policy must be accepted first, in English and in Spanish", async ({
    page,
    browser,
    baseURL,
    edition,
  }) => {
    test.skip(edition !== "ht", "the gate belongs to the ht edition");
    // One person, two browsers: the account can accept once per run, and each browser gets to
    // the page before either accepts.
    await signIn(page, "en", POLICY.email, paths.markets.en);
    await expectOnAcceptPage(page, "en", baseURL!);

    const spanish = await browser.newContext({ baseURL: baseURL!, locale: "es-ES" });
    try {
      const es = await spanish.newPage();
      await dismissCookieBannerWhenShown(es);
      await signIn(es, "es", POLICY.email, paths.markets.es);
      await expectOnAcceptPage(es, "es", baseURL!);
      // Any other route comes back to the page, in its own language.
      await es.goto(paths.profile.es);
      await expectOnAcceptPage(es, "es", baseURL!);
      await es.goto(paths.home.es);
      await expectOnAcceptPage(es, "es", baseURL!);
      await es.goto(paths.myPortfolios.en);
      await expectOnAcceptPage(es, "en", baseURL!);
      await es.goto(paths.markets.es);
      await expectOnAcceptPage(es, "es", baseURL!);

      // Accepting goes back where the person was going: the returnTo of the sign-in.
      await page.getByRole("button", { name: t.iAccept.en }).click();
      await expectOnSitePage(page, "en", `${baseURL}${paths.markets.en}`, texts.markets.en);
      await page.goto(paths.profile.en);
      await expectOnSitePage(page, "en", `${baseURL}${paths.profile.en}`, t.profile.en);

      // The Spanish browser still shows the page; accepting there too goes to the last route asked.
      await es.getByRole("button", { name: t.iAccept.es }).click();
      await expectOnSitePage(es, "es", `${baseURL}${paths.markets.es}`, texts.markets.es);
      await es.goto(paths.profile.es);
      await expectOnSitePage(es, "es", `${baseURL}${paths.profile.es}`, t.profile.es);
    } finally {
      await spanish.close();
    }
  });

  for (const locale of ["en", "es"] as const) {
    test(`tt: the same account is never sent to the accept page (${locale})`, async ({
      page,
      baseURL,
      edition,
    }) => {
      test.skip(edition !== "tt", "the tt edition has no gate");
      await signIn(page, locale, POLICY.email, paths.markets[locale]);
      await expectOnSitePage(
        page,
        locale,
        `${baseURL}${paths.markets[locale]}`,
        texts.markets[locale],
      );
      await page.goto(paths.profile[locale]);
      await expectOnSitePage(page, locale, `${baseURL}${paths.profile[locale]}`, t.profile[locale]);
    });

    test(`an HT account opening the accept page is sent home (${locale})`, async ({
      page,
      baseURL,
    }) => {
      await signIn(page, locale, HT);
      await expect(page).toHaveURL(`${baseURL}${paths.myPortfolios[locale]}`);
      await page.goto(paths.acceptPolicy[locale]);
      await expect(page).toHaveURL(`${baseURL}${paths.home[locale]}`);
      await expect(heading(page)).toHaveText(texts.homeHeading[locale]);
    });
  }
});
