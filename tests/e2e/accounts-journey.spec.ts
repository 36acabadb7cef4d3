import type { BrowserContext, Page } from "@playwright/test";
import { brandNames, expect, test, texts, type Locale } from "./fixtures.ts";
import {
  accountPaths,
  accountTexts,
  dismissCookieBannerWhenShown,
  linkInNewestEmail,
  sessionCookieOf,
} from "./accounts-support.ts";

/**
 * A new person's whole way through the accounts: sign up (with the proof-of-work check), confirm
 * the email from the link the server sent, edit the profile, change the password, sign out and
 * sign in again. Once in English and once in Spanish, on both editions.
 */

const paths = accountPaths;

const t = accountTexts;

const header = (page: Page, locale: Locale) =>
  page.getByRole("navigation", { name: texts.mainNavigation[locale] });

async function expectSignedInAs(page: Page, locale: Locale, name: string) {
  const nav = header(page, locale);
  await expect(nav.getByRole("link", { name: `${t.yourProfile[locale]}${name}` })).toHaveText(name);
  await expect(nav.getByRole("button", { name: t.signOut[locale], exact: true })).toBeVisible();
}

const authCookie = async (context: BrowserContext) =>
  (await context.cookies()).find((c) => c.name === "auth");

async function signIn(page: Page, locale: Locale, email: string, password: string) {
  await page.getByLabel(t.email[locale], { exact: true }).fill(email);
  await page.getByLabel(t.password[locale], { exact: true }).fill(password);
  await page
    .getByRole("main")
    .getByRole("button", { name: texts.signIn[locale], exact: true })
    .click();
}

const people: Record<Locale, { name: string; city: string }> = {
  en: { name: "Ada", city: "Manchester" },
  es: { name: "Clara", city: "Salamanca" },
};

test.describe("accounts journey", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  for (const locale of ["en", "es"] as const) {
    test(`sign up, confirm, edit the profile, sign out and in again (${locale})`, async ({
      page,
      context,
      request,
      baseURL,
      edition,
    }) => {
      const { name, city } = people[locale];
      const email = `journey-${edition}-${locale}-${Date.now()}@example.com`;
      const password = "Analytical-Engine-1843";
      const newPassword = "Difference-Engine-1822";

      // Sign up.
      await page.goto(paths.signUp[locale]);
      await page.getByLabel(t.name[locale], { exact: true }).fill(name);
      await page.getByLabel(t.surname[locale], { exact: true }).fill("Lovelace");
      await page.getByLabel(t.email[locale], { exact: true }).fill(email);
      await page.getByLabel(t.password[locale], { exact: true }).fill(password);
      await page.getByLabel(t.confirmPassword[locale], { exact: true }).fill(password);
      await page.getByLabel(t.acceptPolicy[locale]).check();
      await expect(page.getByText(t.verified[locale], { exact: true })).toBeVisible();
      await page.getByRole("button", { name: t.createMyAccount[locale] }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.checkYourEmail[locale]);
      await expect(page.getByRole("status")).toContainText(email);

      // The confirmation email, in the person's language, links to this server.
      const link = await linkInNewestEmail(
        request,
        email,
        `${t.confirmSubject[locale]} ${brandNames[edition]}`,
      );
      expect(link.startsWith(`${baseURL}${paths.confirmEmail[locale]}?`), link).toBe(true);
      await page.goto(link);
      await expect(page.getByRole("status")).toHaveText(t.emailConfirmed[locale]);
      await expectSignedInAs(page, locale, name);
      // The server set the session in an HttpOnly cookie for the API; the app's own auth cookie
      // holds only the expiry, never the token.
      const session = await sessionCookieOf(context);
      expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api" });
      const auth = await authCookie(context);
      expect(auth).toBeDefined();
      expect(Object.keys(JSON.parse(decodeURIComponent(auth!.value)) as object)).toEqual([
        "expiry",
      ]);
      expect(await page.evaluate(() => document.cookie)).not.toContain(session!.value);

      // Edit the profile (reached from the name in the header) and save.
      await header(page, locale)
        .getByRole("link", { name: `${t.yourProfile[locale]}${name}` })
        .click();
      await expect(page).toHaveURL(`${baseURL}${paths.profile[locale]}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.profile[locale]);
      await page.getByLabel(t.city[locale], { exact: true }).fill(city);
      await page.getByLabel(t.newsletter[locale]).check();
      await page.getByRole("button", { name: t.saveDetails[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.profileSaved[locale]);

      // It is kept: a reload reads it back from the server.
      await page.reload();
      await expect(page.getByLabel(t.city[locale], { exact: true })).toHaveValue(city);
      await expect(page.getByLabel(t.newsletter[locale])).toBeChecked();
      await expectSignedInAs(page, locale, name);

      // Change the password: this device stays signed in with a new token.
      await page.getByLabel(t.currentPassword[locale], { exact: true }).fill(password);
      await page.getByLabel(t.newPassword[locale], { exact: true }).fill(newPassword);
      await page.getByLabel(t.confirmPassword[locale], { exact: true }).fill(newPassword);
      await page.getByRole("button", { name: t.changePassword[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.passwordChanged[locale]);
      await page.reload();
      await expectSignedInAs(page, locale, name);

      // Sign out: home, the header offers to sign in again, the auth cookie is gone.
      await header(page, locale).getByRole("button", { name: t.signOut[locale] }).click();
      await expect(page).toHaveURL(`${baseURL}${paths.home[locale]}`);
      await expect(
        header(page, locale).getByRole("link", { name: texts.signIn[locale], exact: true }),
      ).toBeVisible();
      await expect(header(page, locale).getByRole("link", { name })).toHaveCount(0);
      expect(await authCookie(context)).toBeUndefined();
      // Logout's answer removed the server's cookie.
      await expect.poll(() => sessionCookieOf(context)).toBeUndefined();

      // The old password no longer works; the new one does.
      await page.goto(paths.signIn[locale]);
      await signIn(page, locale, email, password);
      await expect(page.getByRole("alert")).toHaveText(t.wrongCredentials[locale]);
      await signIn(page, locale, email, newPassword);
      await expect(page).toHaveURL(`${baseURL}${paths.myPortfolios[locale]}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.myPortfolios[locale]);
      await expectSignedInAs(page, locale, name);
      expect(await authCookie(context)).toBeDefined();
    });
  }
});
