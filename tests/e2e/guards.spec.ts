import { expect, test, texts, type Locale } from "./fixtures.ts";

const cases: readonly { from: string; to: string; locale: Locale }[] = [
  {
    from: "/en/my-account/portfolios",
    to: "/en/sign-in?returnTo=%2Fen%2Fmy-account%2Fportfolios",
    locale: "en",
  },
  {
    from: "/es/mi-cuenta/carteras",
    to: "/es/acceso-de-usuario?returnTo=%2Fes%2Fmi-cuenta%2Fcarteras",
    locale: "es",
  },
  // auth-registered is checked before portfolio-creation: sign-in, not question 1.
  {
    from: "/en/create-portfolio/q2",
    to: "/en/sign-in?returnTo=%2Fen%2Fcreate-portfolio%2Fq2",
    locale: "en",
  },
  {
    from: "/es/crear-cartera/p2",
    to: "/es/acceso-de-usuario?returnTo=%2Fes%2Fcrear-cartera%2Fp2",
    locale: "es",
  },
  // A valid portfolio id: the guards run (no 404), and the query string is kept in returnTo.
  {
    from: "/en/my-account/portfolios/portfolio-12?tab=risk",
    to: "/en/sign-in?returnTo=%2Fen%2Fmy-account%2Fportfolios%2Fportfolio-12%3Ftab%3Drisk",
    locale: "en",
  },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test.describe("route guards for a guest", () => {
  for (const { from, to, locale } of cases) {
    test(`${from} redirects to sign-in`, async ({ page }) => {
      await page.goto(from);
      await expect(page).toHaveURL(new RegExp(`${escape(to)}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.signIn[locale]);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
    });
  }

  test("the redirect replaces the guarded page in the history", async ({ page }) => {
    await page.goto("/en/markets");
    await page.goto("/en/my-account/portfolios");
    await expect(page).toHaveURL(/\/en\/sign-in\?/);
    await page.goBack();
    await expect(page).toHaveURL(/\/en\/markets$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.markets.en);
  });
});
