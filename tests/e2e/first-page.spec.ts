// The prerendered first page before the app takes over (src/app/first-page-input.ts): on a slow
// network the visitor types into the sign-in form the server sent; Enter then submits nothing
// natively (never the password in the address), and when the app's script arrives what was typed
// is still there, the focus too, and signing in works. The app's script is held back here until
// the fields are filled.
import { accountPaths, accountTexts, dismissCookieBannerWhenShown } from "./accounts-support.ts";
import { appMounted, expect, holdEntryScript, locales, mountMark, test } from "./fixtures.ts";

const DEMO_PASSWORD = "Demo-portfolio-2026";

for (const locale of locales) {
  test(`what is typed before the app takes over is kept, and nothing is sent natively (${locale})`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    // The cookie choice made first (the banner's buttons, too, wait for the app's script).
    await dismissCookieBannerWhenShown(page);
    await page.goto(accountPaths.home[locale]);
    await appMounted(page);
    await page
      .getByRole("button", { name: /^(Reject all|Rechazar todo)$/ })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    // The entry script (and only it) waits: the page stays the prerendered markup.
    const entry = await holdEntryScript(page);
    const signIn = accountPaths.signIn[locale];
    // A module script holds DOMContentLoaded back: the page is read as it arrives.
    await page.goto(signIn, { waitUntil: "commit" });
    const email = page.getByLabel(accountTexts.email[locale], { exact: true });
    const password = page.getByLabel(accountTexts.password[locale], { exact: true });
    await expect(password).toBeVisible();
    await expect.poll(entry.requested).toBe(true);
    expect(await mountMark(page).count()).toBe(0);

    await email.fill("assets-standard@demo.test");
    await password.fill(DEMO_PASSWORD);
    // Enter, and the prerendered button (which says it takes no click yet): no native submit (no
    // page is requested), the password never in an address.
    const requested: string[] = [];
    page.on("request", (r) => {
      if (r.isNavigationRequest()) requested.push(r.url());
    });
    // A submission would fire "submit" while the key or the click is dispatched, before either
    // returns: counted in the page, nothing is left to a wait.
    await page.evaluate(() => {
      const w = window as unknown as { __submits: number };
      w.__submits = 0;
      document.addEventListener("submit", () => (w.__submits += 1), true);
    });
    await password.press("Enter");
    const submit = page
      .getByRole("main")
      .getByRole("button", { name: locale === "es" ? "Acceder" : "Sign in", exact: true });
    await expect(submit).toBeDisabled();
    await submit.click({ force: true });
    expect(await page.evaluate(() => (window as unknown as { __submits: number }).__submits)).toBe(
      0,
    );
    expect(requested).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(signIn);
    expect(page.url()).not.toContain(DEMO_PASSWORD);
    expect(page.url()).not.toContain("demo.test");
    await password.focus();

    entry.release();
    await appMounted(page);
    // The app's own fields, with what was typed, and the focus where it was.
    await expect(email).toHaveValue("assets-standard@demo.test");
    await expect(password).toHaveValue(DEMO_PASSWORD);
    await expect(password).toBeFocused();
    // The app's state has it too: Enter signs in.
    await password.press("Enter");
    await page.waitForURL((url) => url.pathname !== signIn, { timeout: 15_000 });
    expect(page.url()).not.toContain(DEMO_PASSWORD);
    expect(
      requested.filter((url) => url.includes("password") || url.includes("demo.test")),
    ).toEqual([]);
  });
}

for (const locale of locales) {
  test(`the first page's cookie banner takes a choice once the app can keep it, and keeps it (${locale})`, async ({
    page,
    context,
    edition,
  }) => {
    const entry = await holdEntryScript(page);
    await page.goto(accountPaths.home[locale], { waitUntil: "commit" });
    const banner = page.getByRole("dialog", { name: /^(We use cookies|Usamos cookies)$/ });
    const reject = banner.getByRole("button", { name: /^(Reject all|Rechazar todo)$/ });
    // Painted with the page, but a click now would be lost: the button says it takes none.
    await expect(reject).toBeVisible();
    await expect(reject).toBeDisabled();
    entry.release();
    // As soon as the app's script runs (before the banner library has loaded) a click is kept.
    await reject.click();
    await expect(banner).toBeHidden();
    await appMounted(page);
    const consent = (await context.cookies()).find((c) => c.name === `${edition}_consent`);
    expect(consent, "the choice is stored").toBeDefined();
    const stored = JSON.parse(decodeURIComponent(consent!.value)) as { categories: string[] };
    expect(stored.categories).toEqual(["necessary"]);
  });
}
