import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { accountTexts, readyContext } from "./accounts-support.ts";
import {
  appMounted,
  expect,
  holdEntryScript,
  locales,
  mountMark,
  test,
  texts,
  type Edition,
  type Locale,
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

/** The education section's entry: hollypedia in ht, the programme in tt (src/ui/editions.ts). */
const educationEntry: Record<Edition, Record<Locale, string>> = {
  ht: { en: "Hollypedia", es: "Hollypedia" },
  tt: { en: "Programme", es: "Programa" },
};
const languageSwitch: Record<Locale, string> = { en: "Español", es: "English" };

/**
 * Every link and button the header shows, as boxes: one row means they all share a horizontal
 * band (the lowest top is above the highest bottom). Also what breaks a row less visibly: an item
 * past the right edge or text smaller than 14 px.
 */
async function headerRow(page: Page) {
  return page.locator(".site-header").evaluate((header) => {
    const items = [...header.querySelectorAll<HTMLElement>("a, button")]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const box = el.getBoundingClientRect();
        return {
          text: (el.textContent ?? "").trim(),
          top: box.top,
          bottom: box.bottom,
          right: box.right,
          fontSize: parseFloat(getComputedStyle(el).fontSize),
        };
      });
    return {
      items,
      lowestTop: Math.max(...items.map((i) => i.top)),
      highestBottom: Math.min(...items.map((i) => i.bottom)),
      height: header.getBoundingClientRect().height,
      viewport: document.documentElement.clientWidth,
    };
  });
}

async function expectOneRow(page: Page, label: string) {
  const row = await headerRow(page);
  const where = `${label}: ${JSON.stringify(row.items.map((i) => [i.text, Math.round(i.top)]))}`;
  expect(row.items.length, where).toBeGreaterThanOrEqual(5);
  expect(row.lowestTop, `one row, ${where}`).toBeLessThan(row.highestBottom);
  expect(row.height, `header height, ${where}`).toBeLessThan(90);
  for (const item of row.items) {
    expect(item.right, `"${item.text}" inside the page, ${label}`).toBeLessThanOrEqual(
      row.viewport,
    );
    expect(item.fontSize, `"${item.text}" text size, ${label}`).toBeGreaterThanOrEqual(14);
  }
}

/** The header alone, when E2E_SHOTS_DIR is set (for looking at it by eye). */
async function headerShot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const height = Math.ceil(
    await page.evaluate(() => {
      const nav = document.querySelector<HTMLElement>("#primary-nav");
      const header = document.querySelector<HTMLElement>(".site-header")!;
      const bottom = Math.max(
        header.getBoundingClientRect().bottom,
        nav?.getBoundingClientRect().bottom ?? 0,
        ...[...header.querySelectorAll(".nav-group-list")].map(
          (l) => l.getBoundingClientRect().bottom,
        ),
      );
      return bottom + 8;
    }),
  );
  const width = page.viewportSize()!.width;
  await page.screenshot({
    path: path.join(dir, `${name}.png`),
    clip: { x: 0, y: 0, width, height: Math.min(height, 900) },
  });
}

// One page per person and edition: the language is switched in the page (the header's switch) and
// the window resized, never reloaded.
test.describe("the header is one row from 1024 px, the menu below", () => {
  const people = [
    { who: "a visitor", email: () => null },
    {
      who: "a signed-in person",
      // ht: a trial user, the longest row (two links lead to the plan page and carry its lock);
      // tt: a student (a TT account).
      email: (edition: Edition) => (edition === "tt" ? "tt@demo.test" : "trial@demo.test"),
    },
  ] as const;
  for (const { who, email } of people) {
    test(`for ${who}, in English and Spanish, at 1280, 1024 and 390 px`, async ({
      browser,
      baseURL,
      edition,
    }) => {
      test.setTimeout(90_000);
      const signedIn = email(edition);
      const { context } = await readyContext(browser, baseURL!, signedIn);
      const page = await context.newPage();
      try {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto("/en");
        await appMounted(page);
        const person = signedIn ? "signed-in" : "guest";
        for (const locale of locales) {
          if (locale !== "en") {
            await page.setViewportSize({ width: 1280, height: 800 });
            await page
              .getByRole("navigation", { name: texts.mainNavigation.en })
              .getByRole("link", { name: languageSwitch.en, exact: true })
              .click();
            // Generous: the other language's catalogue loads on a machine other runs share.
            await expect(page.locator("html")).toHaveAttribute("lang", locale, { timeout: 20_000 });
          }
          const nav = page.getByRole("navigation", { name: texts.mainNavigation[locale] });
          // The session is known: the header shows its final items.
          await expect(
            signedIn
              ? nav.getByRole("button", { name: accountTexts.signOut[locale], exact: true })
              : nav.getByRole("link", { name: texts.signIn[locale], exact: true }),
          ).toBeVisible();
          for (const width of [1280, 1024]) {
            await page.setViewportSize({ width, height: 800 });
            await expect(page.getByRole("button", { name: texts.menu[locale] })).toBeHidden();
            await expectOneRow(page, `${edition} ${person} ${locale} ${width} px`);
            await expect(
              nav.getByRole("link", { name: educationEntry[edition][locale] }),
            ).toBeVisible();
            await headerShot(page, `${edition}-header-${person}-${locale}-${width}`);
          }
          // Below 1024 px the menu takes over, with the same links (the education entry too).
          await page.setViewportSize({ width: 390, height: 844 });
          const menu = page.getByRole("button", { name: texts.menu[locale], exact: true });
          await expect(menu).toBeVisible();
          await expect(nav).toBeHidden();
          await menu.click();
          await expect(
            nav.getByRole("link", { name: educationEntry[edition][locale] }),
          ).toBeVisible();
          await headerShot(page, `${edition}-header-${person}-${locale}-390-menu`);
          await menu.click();
          await expect(nav).toBeHidden();
        }
        if (signedIn) {
          // A long name is cut short, in Spanish (the longer texts) at 1024 px.
          await page.setViewportSize({ width: 1024, height: 800 });
          await page.locator(".user-name").evaluate((el) => {
            el.textContent = "Maximiliana Fernández-Villalobos";
          });
          await expectOneRow(page, `${edition} ${person} es 1024 px, a long name`);
          await headerShot(page, `${edition}-header-${person}-es-1024-long-name`);
        }
      } finally {
        await context.close();
      }
    });
  }
});
