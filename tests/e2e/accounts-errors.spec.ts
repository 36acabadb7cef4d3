import { expect, test, type Locale } from "./fixtures.ts";
import { accountPaths, accountTexts, dismissCookieBannerWhenShown } from "./accounts-support.ts";

/**
 * The sign-up form's refusals in both languages: a weak or mismatched password is refused before
 * anything is sent. It needs a browser: the form waits for its proof of work, which runs in the
 * page. The other account errors (a wrong password, links not valid any more or used twice, a
 * session the server has ended) are route-level tests: tests/app/account-errors.test.tsx.
 */

const paths = accountPaths;

const t = accountTexts;

test.describe("account errors", () => {
  test.beforeEach(async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
  });

  for (const locale of ["en", "es"] as const satisfies readonly Locale[]) {
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
  }
});
