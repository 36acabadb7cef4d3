import type { Locator } from "@playwright/test";
import { expect, locales, test, texts } from "./fixtures.ts";

const signUp = { en: "Sign up", es: "Regístrate" } as const;

/** The space between a button's border box and its label, as a person sees it. */
async function labelInsets(button: Locator) {
  return button.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    return {
      left: Math.round(text.left - box.left),
      right: Math.round(box.right - text.right),
      top: Math.round(text.top - box.top),
      bottom: Math.round(box.bottom - text.bottom),
    };
  });
}

async function expectRoomyCentredLabel(button: Locator) {
  await expect(button).toBeVisible();
  const insets = await labelInsets(button);
  expect(insets.left, "space left of the label").toBeGreaterThanOrEqual(8);
  expect(insets.right, "space right of the label").toBeGreaterThanOrEqual(8);
  expect(Math.abs(insets.left - insets.right), "label centred horizontally").toBeLessThanOrEqual(2);
  expect(Math.abs(insets.top - insets.bottom), "label centred vertically").toBeLessThanOrEqual(2);
}

test.describe("header buttons", () => {
  for (const locale of locales) {
    test(`the sign-in and sign-up buttons have centred labels in ${locale}`, async ({ page }) => {
      await page.goto(`/${locale}`);
      const nav = page.getByRole("navigation", { name: texts.mainNavigation[locale] });
      await expectRoomyCentredLabel(
        nav.getByRole("link", { name: texts.signIn[locale], exact: true }),
      );
      await expectRoomyCentredLabel(nav.getByRole("link", { name: signUp[locale], exact: true }));
    });
  }

  test.describe("at phone width", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the buttons in the open menu have centred labels", async ({ page }) => {
      await page.goto("/es");
      await page.getByRole("button", { name: texts.menu.es, exact: true }).click();
      const nav = page.getByRole("navigation", { name: texts.mainNavigation.es });
      await expectRoomyCentredLabel(nav.getByRole("link", { name: texts.signIn.es, exact: true }));
      await expectRoomyCentredLabel(nav.getByRole("link", { name: signUp.es, exact: true }));
    });
  });
});
