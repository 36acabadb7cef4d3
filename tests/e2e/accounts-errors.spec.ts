import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect, test, texts, type Locale } from "./fixtures.ts";
import {
  bearerOf,
  accountPaths,
  accountTexts,
  dismissCookieBannerWhenShown,
  linkInNewestEmail,
} from "./accounts-support.ts";

/**
 * What the accounts screens say when something is wrong, in both languages: a wrong password, a
 * sign-up refused before anything is sent, links that are not valid any more, and a session the
 * server has ended (401).
 */

const DEMO_PASSWORD = "Demo-portfolio-2026";

/**
 * Demo accounts (README, "Demo accounts") that no other e2e file signs in with: failed sign-ins,
 * password recovery and revoked sessions here do not disturb tests running beside these.
 */
const accounts = {
  wrongPassword: "indices-advanced@demo.test",
  unconfirmed: "unconfirmed@demo.test",
  recover: "assets-advanced@demo.test",
  revoked: { email: "all-advanced@demo.test", name: "Complete" },
} as const;

const paths = accountPaths;

const t = accountTexts;

const header = (page: Page, locale: Locale) =>
  page.getByRole("navigation", { name: texts.mainNavigation[locale] });

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

/** Ends the browser's session on the server, as signing out elsewhere would. */
async function revokeSession(request: APIRequestContext, context: BrowserContext) {
  const token = await bearerOf(context);
  const response = await request.post("/api/auth/logout", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
}

test.describe("account errors", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  for (const locale of ["en", "es"] as const) {
    test(`a wrong password is refused (${locale})`, async ({ page, context, baseURL }) => {
      await page.goto(paths.signIn[locale]);
      await signIn(page, locale, accounts.wrongPassword, "Not-the-password-2026");
      await expect(page.getByRole("alert")).toHaveText(t.wrongCredentials[locale]);
      await expect(page).toHaveURL(`${baseURL}${paths.signIn[locale]}`);
      await expect(
        header(page, locale).getByRole("link", { name: texts.signIn[locale], exact: true }),
      ).toBeVisible();
      expect(await authCookie(context)).toBeUndefined();
    });

    test(`sign-up refuses a weak or mismatched password without calling the API (${locale})`, async ({
      page,
    }) => {
      const register: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).pathname === "/api/auth/register") register.push(r.method());
      });
      await page.goto(paths.signUp[locale]);
      await page.getByLabel(t.name[locale], { exact: true }).fill("Grace");
      await page.getByLabel(t.surname[locale], { exact: true }).fill("Hopper");
      await page
        .getByLabel(t.email[locale], { exact: true })
        .fill(`errors-${locale}-${Date.now()}@example.com`);
      await page.getByLabel(t.acceptPolicy[locale]).check();
      // The proof of work is done: from here on, only the form's own checks hold the request back.
      await expect(page.getByText(t.verified[locale], { exact: true })).toBeVisible();
      const password = page.getByLabel(t.password[locale], { exact: true });
      const confirmation = page.getByLabel(t.confirmPassword[locale], { exact: true });
      const submit = page.getByRole("button", { name: t.createMyAccount[locale] });

      // One kind of character: weak, shown as the person types and refused on submit.
      await password.fill("abcdefghij");
      await confirmation.fill("abcdefghij");
      await expect(password).toHaveAccessibleDescription(t.weak[locale]);
      await submit.click();
      await expect(page.getByRole("alert")).toHaveText(t.tooWeak[locale]);

      // A strong password with a different confirmation.
      await password.fill("Analytical-Engine-1843");
      await confirmation.fill("Analytical-Engine-1844");
      await expect(password).toHaveAccessibleDescription(t.strong[locale]);
      await submit.click();
      await expect(confirmation).toHaveAccessibleDescription(t.passwordsDontMatch[locale]);
      await expect(page.getByRole("alert")).toHaveText(t.passwordsDontMatch[locale]);
      expect(register, "requests to /api/auth/register").toEqual([]);

      // Once both agree the form is sent (so the listener above does see requests).
      await confirmation.fill("Analytical-Engine-1843");
      await expect(page.getByText(t.passwordsDontMatch[locale])).toHaveCount(0);
      await submit.click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.checkYourEmail[locale]);
      expect(register).toEqual(["POST"]);
    });

    test(`a confirmation link with a wrong token is refused (${locale})`, async ({ page }) => {
      const query = new URLSearchParams({ email: "nobody@example.com", token: "not-a-token" });
      await page.goto(`${paths.confirmEmail[locale]}?${query}`);
      await expect(page.getByRole("alert")).toHaveText(t.invalidLink[locale]);
    });

    test(`a password-recovery link with a wrong token is refused (${locale})`, async ({ page }) => {
      // Without a token the screen says so at once.
      await page.goto(paths.recoverPassword[locale]);
      await expect(page.getByRole("alert")).toHaveText(t.invalidLink[locale]);

      const query = new URLSearchParams({ email: accounts.recover, token: "not-a-token" });
      await page.goto(`${paths.recoverPassword[locale]}?${query}`);
      await page.getByLabel(t.newPassword[locale], { exact: true }).fill("Babbage-Lovelace-1843");
      await page
        .getByLabel(t.confirmPassword[locale], { exact: true })
        .fill("Babbage-Lovelace-1843");
      await page.getByRole("button", { name: t.saveNewPassword[locale] }).click();
      await expect(page.getByRole("alert")).toHaveText(t.invalidLink[locale]);
    });

    test(`a session ended on the server (401) sends the person to sign in (${locale})`, async ({
      page,
      context,
      request,
      baseURL,
    }) => {
      const { email, name } = accounts.revoked;
      const returnTo = new URLSearchParams({ returnTo: paths.profile[locale] });
      const signInUrl = `${baseURL}${paths.signIn[locale]}?${returnTo}`;
      const expectSignedOutAtSignIn = async () => {
        await expect(page).toHaveURL(signInUrl);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.signIn[locale]);
        await expect(
          header(page, locale).getByRole("link", { name: texts.signIn[locale], exact: true }),
        ).toBeVisible();
        await expect(header(page, locale).getByRole("link", { name })).toHaveCount(0);
        expect(await authCookie(context)).toBeUndefined();
      };
      const signInToProfile = async () => {
        await signIn(page, locale, email, DEMO_PASSWORD);
        await expect(page).toHaveURL(`${baseURL}${paths.profile[locale]}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.profile[locale]);
        await expect(
          header(page, locale).getByRole("button", { name: t.signOut[locale] }),
        ).toBeVisible();
      };

      await page.goto(`${paths.signIn[locale]}?${returnTo}`);
      await signInToProfile();

      // An API call of the page gets 401: saving the profile.
      await revokeSession(request, context);
      await page.getByLabel(t.city[locale], { exact: true }).fill("Bletchley");
      await page.getByRole("button", { name: t.saveDetails[locale] }).click();
      await expectSignedOutAtSignIn();

      // Signing in again goes back to the profile; a reload after the session ended gets 401 too.
      await signInToProfile();
      await revokeSession(request, context);
      await page.reload();
      await expectSignedOutAtSignIn();
    });
  }

  test("a confirmation link works once only (en)", async ({ page, request, baseURL }) => {
    await page.goto(paths.confirmEmail.en);
    await page.getByLabel(t.email.en, { exact: true }).fill(accounts.unconfirmed);
    await page.getByRole("button", { name: t.sendLinkAgain.en }).click();
    await expect(page.getByRole("status")).toHaveText(t.linkOnItsWay.en);
    const link = await linkInNewestEmail(request, accounts.unconfirmed, t.confirmSubject.en);
    expect(link.startsWith(`${baseURL}${paths.confirmEmail.en}?`), link).toBe(true);

    await page.goto(link);
    await expect(page.getByRole("status")).toHaveText(t.emailConfirmed.en);
    await page.goto(link);
    await expect(page.getByRole("alert")).toHaveText(t.invalidLink.en);
  });

  test("a password-recovery link works once only (es)", async ({ page, request, baseURL }) => {
    await page.goto(paths.forgotPassword.es);
    await page.getByLabel(t.email.es, { exact: true }).fill(accounts.recover);
    await page.getByRole("button", { name: t.sendMeTheLink.es }).click();
    await expect(page.getByRole("status")).toHaveText(t.recoverLinkOnItsWay.es);
    const link = await linkInNewestEmail(request, accounts.recover, t.recoverSubject.es);
    expect(link.startsWith(`${baseURL}${paths.recoverPassword.es}?`), link).toBe(true);

    const choose = async () => {
      // The demo password again, so the account stays as the README describes it.
      await page.getByLabel(t.newPassword.es, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByLabel(t.confirmPassword.es, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: t.saveNewPassword.es }).click();
    };
    await page.goto(link);
    await choose();
    await expect(page.getByRole("status")).toHaveText(t.passwordRecovered.es);
    await page.goto(link);
    await choose();
    await expect(page.getByRole("alert")).toHaveText(t.invalidLink.es);
  });
});
