// The Content-Security-Policy allows what the app needs and nothing breaks under it: the home page
// with the consent banner, accepting marketing (the edition's script loads from its origin), the
// sign-up form with its proof-of-work bot check (workers), in both languages. A violation the
// browser reports fails the test.
import type { Page } from "@playwright/test";
import { expect, locales, test, texts } from "./fixtures.ts";

const MARKETING_ORIGIN = "https://marketing.example.test";
const signUpPath = { en: "/en/sign-up", es: "/es/registro-de-usuario" } as const;

/** Collects the violations the page reports, from the start of every document. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const console: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) console.push(m.text());
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)),
  ];
}

test.describe("content security policy", () => {
  for (const locale of locales) {
    test(`the pages work under it, without violations (${locale})`, async ({ page, edition }) => {
      await page.route(`${MARKETING_ORIGIN}/**`, (route) =>
        route.fulfill({ contentType: "text/javascript", body: "window.__marketing = true;" }),
      );
      const violations = await watchViolations(page);
      const response = await page.goto(`/${locale}`);
      const csp = response!.headers()["content-security-policy"] ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      if (edition === "ht") {
        // The marketing script's origin is allowed, and the script runs after consent.
        expect(csp).toContain(MARKETING_ORIGIN);
        await page
          .getByRole("dialog", { name: texts.weUseCookies[locale] })
          .getByRole("button", { name: texts.acceptAll[locale] })
          .click();
        await expect
          .poll(() =>
            page.evaluate(() => (window as unknown as { __marketing?: boolean }).__marketing),
          )
          .toBe(true);
      }
      if (edition === "ht") {
        await page.goto(signUpPath[locale]);
        // The proof of work runs in its workers (blocked workers would never verify).
        await expect(page.locator("altcha-widget")).toBeAttached();
        await expect(page.locator('altcha-widget [data-state="verified"]')).toBeAttached({
          timeout: 15_000,
        });
      }
      expect(await violations()).toEqual([]);
    });
  }
});
