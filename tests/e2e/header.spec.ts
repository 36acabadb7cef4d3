import type { Locator } from "@playwright/test";
import {
  appMounted,
  expect,
  holdEntryScript,
  locales,
  mountMark,
  test,
  texts,
} from "./fixtures.ts";

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
      // As the page is painted (the prerendered markup, before the app's script runs) and once the
      // app has taken over: the labels are measured on each, never across the swap.
      const entry = await holdEntryScript(page);
      await page.goto(`/${locale}`, { waitUntil: "commit" });
      const nav = page.getByRole("navigation", { name: texts.mainNavigation[locale] });
      const signIn = nav.getByRole("link", { name: texts.signIn[locale], exact: true });
      const signUpLink = nav.getByRole("link", { name: signUp[locale], exact: true });
      const expectBothCentred = async () => {
        await expectRoomyCentredLabel(signIn);
        await expectRoomyCentredLabel(signUpLink);
      };
      await expect(signIn).toBeVisible();
      expect(await mountMark(page).count(), "still the first paint").toBe(0);
      await test.step("prerendered", expectBothCentred);
      entry.release();
      await appMounted(page);
      await test.step("app", expectBothCentred);
    });
  }

  test.describe("at phone width", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the menu says it is not ready until the app takes over, then opens; its buttons have centred labels", async ({
      page,
    }) => {
      const entry = await holdEntryScript(page);
      await page.goto("/es", { waitUntil: "commit" });
      const menu = page.getByRole("button", { name: texts.menu.es, exact: true });
      // A tap on the painted copy would be lost: the button takes none until the app is there.
      await expect(menu).toBeVisible();
      await expect(menu).toBeDisabled();
      entry.release();
      await appMounted(page);
      await menu.click();
      await expect(menu).toHaveAttribute("aria-expanded", "true");
      const nav = page.getByRole("navigation", { name: texts.mainNavigation.es });
      await expectRoomyCentredLabel(nav.getByRole("link", { name: texts.signIn.es, exact: true }));
      await expectRoomyCentredLabel(nav.getByRole("link", { name: signUp.es, exact: true }));
    });
  });
});
