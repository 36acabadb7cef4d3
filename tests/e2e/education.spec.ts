// The education section (issue "Education", docs/education.md) in both languages on each edition:
// it opens over a page from its query parameters (hollypedia in ht, program in tt) with back,
// forward, Escape and focus working; the dictionary's search ignores accents; a case study's
// figure on screen is the API's (which the server tests check against an independent computation
// from the closes); a course section passed before signing out is still passed after signing in
// again; a free user sees which plan unlocks the video tutorials and the courses.
import type { Page } from "@playwright/test";
import {
  accountPaths,
  accountTexts,
  answerConsent,
  signInAs,
  signInThroughScreen,
} from "./accounts-support.ts";
import {
  expect as baseExpect,
  locales,
  test,
  texts,
  type Edition,
  type Locale,
} from "./fixtures.ts";

// The section loads its chunk and its content on first use; a busy machine needs more than 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

const sectionName = (edition: Edition) => (edition === "tt" ? "program" : "hollypedia");
const title = {
  ht: { en: "Hollypedia", es: "Hollypedia" },
  tt: { en: "Programme", es: "Programa" },
};

const words = {
  search: { en: "Search the dictionary", es: "Buscar en el diccionario" },
  check: { en: "Check my answers", es: "Comprobar mis respuestas" },
  passed: { en: "Section passed.", es: "Sección superada." },
  includedStandard: { en: "Included in the Standard plan.", es: "Incluido en el plan Estándar." },
  includedAdvanced: { en: "Included in the Advanced plan.", es: "Incluido en el plan Avanzado." },
  videoTab: { en: "Video tutorials", es: "Videotutoriales" },
  coursesTab: { en: "Courses", es: "Cursos" },
  dictionaryTab: { en: "Dictionary", es: "Diccionario" },
};

/** A page with the section's parameters added to its query string. */
const withSection = (edition: Edition, path: string, params: Record<string, string>, tab: string) =>
  `${path}?${new URLSearchParams({ [sectionName(edition)]: tab, ...params })}`;

const dialog = (page: Page, edition: Edition, locale: Locale) =>
  page.getByRole("dialog", { name: title[edition][locale] });

/**
 * The section is a modal dialog: what lies under it, the cookie banner too, cannot be clicked
 * while it is open. The banner is answered before the first page (consent.spec.ts walks it). The
 * section opens over the home page, the lightest one (it opens the same over any page).
 */
test.beforeEach(async ({ context, baseURL }) => {
  test.setTimeout(120_000);
  await answerConsent(context, baseURL!);
});

for (const locale of locales) {
  test(`opens at a term from a deep link, moves with back and forward, closes with Escape (${locale})`, async ({
    page,
    edition,
  }) => {
    const term = locale === "es" ? "valor-en-riesgo" : "value-at-risk";
    await page.goto(
      withSection(edition, accountPaths.home[locale], { level: "user", term }, "dictionary"),
    );
    const section = dialog(page, edition, locale);
    await expect(section).toBeVisible();
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(
      locale === "es" ? "Valor en riesgo (VaR)" : "Value at risk (VaR)",
    );
    // Focus is inside the dialog, on its heading.
    await expect(section.getByRole("heading", { level: 2 })).toBeFocused();
    await section
      .getByRole("radio", { name: locale === "es" ? "Profesional" : "Professional" })
      .check();
    await expect(page).toHaveURL(/level=pro/);
    await expect(
      section.getByRole("heading", { name: locale === "es" ? "Fórmula" : "Formula" }),
    ).toBeVisible();
    const related = locale === "es" ? "Volatilidad" : "Volatility";
    await section.getByRole("button", { name: related, exact: true }).click();
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(related);
    await expect(page).toHaveURL(new RegExp(`term=${related.toLowerCase()}|term=volat`));
    await page.goBack();
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(/VaR/);
    await page.goForward();
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(related);
    await page.keyboard.press("Escape");
    await expect(section).toBeHidden();
    expect(new URL(page.url()).searchParams.has(sectionName(edition))).toBe(false);
  });

  test(`opens on the edition's default tab without one (${locale})`, async ({ page, edition }) => {
    await page.goto(`${accountPaths.home[locale]}?${sectionName(edition)}=`);
    const section = dialog(page, edition, locale);
    const selected = section.getByRole("tab", { selected: true });
    await expect(selected).toContainText(
      edition === "tt" ? words.coursesTab[locale] : words.dictionaryTab[locale],
    );
  });

  test(`searches the dictionary with accents ignored (${locale})`, async ({ page, edition }) => {
    await page.goto(withSection(edition, accountPaths.home[locale], {}, "dictionary"));
    const section = dialog(page, edition, locale);
    const search = section.getByLabel(words.search[locale]);
    await expect(search).toBeVisible();
    const cases =
      locale === "es"
        ? [
            ["volatilidad", "Volatilidad"],
            ["VOLATILIDÁD", "Volatilidad"],
            ["maxima caida", "Máxima caída (drawdown)"],
          ]
        : [
            ["volatility", "Volatility"],
            ["sharpe", "Sharpe ratio"],
          ];
    for (const [typed, found] of cases) {
      await search.fill(typed!);
      await expect(section.getByRole("button", { name: found, exact: true })).toBeVisible();
    }
    await search.fill(cases[0]![0]!);
    await section.getByRole("button", { name: cases[0]![1], exact: true }).click();
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(cases[0]![1]!);
  });

  test(`shows a case study's figures as the API computes them (${locale})`, async ({
    page,
    edition,
    request,
  }) => {
    const api = await request.get(`/api/case-studies/list?lang=${locale}&ctx=${edition}`);
    expect(api.ok()).toBe(true);
    expect(api.headers()["cache-control"]).toMatch(/max-age/);
    const list = (await api.json()) as {
      caseStudies: {
        id: string;
        slug: string;
        data: { source: string; from: string; to: string };
        portfolios: { key: string; performance: Record<string, number> }[];
      }[];
    };
    const study = list.caseStudies.find((c) => c.id === "bonds-in-2022")!;
    await page.goto(
      withSection(edition, accountPaths.home[locale], { section: study.slug }, "casestudies"),
    );
    const section = dialog(page, edition, locale);
    const pct = (x: number) =>
      new Intl.NumberFormat(locale === "es" ? "es-ES" : "en-GB", {
        style: "percent",
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
      }).format(x);
    for (const p of study.portfolios) {
      const row = section.locator(`tr[data-portfolio="${p.key}"]`);
      await expect(row.locator('[data-figure="totalReturn"]')).toHaveText(
        pct(p.performance.totalReturn!),
      );
      await expect(row.locator('[data-figure="volatility"]')).toHaveText(
        pct(p.performance.volatility!),
      );
    }
    // It says which data the figures come from.
    await expect(section.getByTestId("case-study-data")).toContainText(
      locale === "es" ? "simulados" : "simulated",
    );
    // Its headers keep their words whole ("Rentabilidad", never "Rentabilida" over "d"), on a
    // laptop and on a phone (where the table scrolls in its region).
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const broken = await section.locator("table.case-figures thead th").evaluateAll((cells) =>
        cells.flatMap((cell) => {
          const split: string[] = [];
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode())
            for (const word of (node.textContent ?? "").matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, word.index);
              range.setEnd(node, word.index + word[0].length);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              if (lines.size > 1) split.push(word[0]);
            }
          return split;
        }),
      );
      expect(broken, `words broken at ${width} px`).toEqual([]);
    }
  });

  test(`shows a free user which plan unlocks the video tutorials and the courses (${locale})`, async ({
    page,
    edition,
  }) => {
    await signInAs(page, "free@demo.test");
    await page.goto(withSection(edition, accountPaths.home[locale], {}, "videotutorials"));
    const section = dialog(page, edition, locale);
    await expect(section.getByText(words.includedStandard[locale])).toBeVisible();
    await section.getByRole("tab", { name: new RegExp(`^${words.coursesTab[locale]}`) }).click();
    await expect(section.getByText(words.includedAdvanced[locale])).toBeVisible();
  });

  test(`keeps a course's progress across signing out and in (${locale})`, async ({
    page,
    edition,
  }) => {
    // ht: a client of the advanced plan; tt: a student, whose programme includes the courses.
    const email = edition === "tt" ? "tt@demo.test" : "assets-advanced@demo.test";
    const part = locale === "es" ? "value-at-risk" : "volatility";
    const questions = locale === "es" ? ["one-in-twenty", "cvar"] : ["meaning", "compare"];
    // The first sign-in through the API; the one after signing out through the screen.
    await signInAs(page, email);
    await page.goto(
      withSection(
        edition,
        accountPaths.home[locale],
        { section: `risk-basics/${part}` },
        "education",
      ),
    );
    const section = dialog(page, edition, locale);
    for (const q of questions)
      await section.locator(`[data-question="${q}"] input[type="radio"]`).nth(1).check();
    await section.getByRole("button", { name: words.check[locale] }).click();
    await expect(section.getByTestId("quiz-score")).toContainText(words.passed[locale]);
    await page.keyboard.press("Escape");
    // The logout call is held: signing out does not wait for it (specification section 4's
    // order: everything local goes first, then logout, then index).
    let answerLogout: () => void = () => undefined;
    const logoutHeld = new Promise<void>((resolve) => (answerLogout = resolve));
    // The session goes in the server's HttpOnly cookie (docs/decisions.md, "Sessions in an
    // HttpOnly cookie"): logout carries it, and no bearer header.
    const logoutCalls: { cookie: string; authorization: string | undefined }[] = [];
    await page.route("**/api/auth/logout*", async (route) => {
      const headers = await route.request().allHeaders();
      logoutCalls.push({ cookie: headers.cookie ?? "", authorization: headers.authorization });
      await logoutHeld;
      await route.continue();
    });
    await page
      .getByRole("navigation", { name: texts.mainNavigation[locale] })
      .getByRole("button", { name: accountTexts.signOut[locale] })
      .click();
    await expect(page).toHaveURL(new RegExp(`${accountPaths.home[locale]}$`));
    await expect(
      page.getByRole("navigation", { name: texts.mainNavigation[locale] }),
    ).not.toContainText(accountTexts.signOut[locale]);
    await expect.poll(() => logoutCalls.length).toBe(1);
    expect(logoutCalls[0]!.cookie, "logout ends the session that was signed out").toMatch(
      /(^|; )session=[\w-]+/,
    );
    expect(logoutCalls[0]!.authorization).toBeUndefined();
    expect(await page.evaluate(() => sessionStorage.length), "cleared before logout answers").toBe(
      0,
    );
    answerLogout();

    await signInThroughScreen(page, locale, email);
    await page.goto(
      withSection(edition, accountPaths.home[locale], { section: "risk-basics" }, "education"),
    );
    const sectionTitle =
      locale === "es"
        ? "Valor en riesgo: un mes malo en dinero"
        : "Volatility: how much a portfolio moves";
    const item = dialog(page, edition, locale)
      .getByRole("listitem")
      .filter({ hasText: sectionTitle });
    await expect(item).toContainText(locale === "es" ? "Superada (2 de 2)" : "Passed (2 of 2)");
  });
}
