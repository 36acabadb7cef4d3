// @vitest-environment jsdom
// The site header's links, as each person sees them: the education section's entry (hollypedia in
// ht, the programme in tt, first there) in the header, its menu and the footer; links a person
// cannot use in the edition left out (the banana challenge for a TT student, whom the plan page
// would send home); links the person's plan does not include marked with the plan that unlocks
// them. Both languages, both editions.
import { cleanup, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { AccessFacts, AccountFacts } from "../../machines/guards/access-facts.ts";
import { linkAccess, routeLinkAccess } from "../../src/app/link-access.ts";
import { routeById } from "../../src/app/route-table.ts";
import type { Edition, Locale } from "../../src/contract/common.ts";
import { guestFacts, memberFacts, renderApp, testServices } from "../support/render-app.tsx";

afterEach(() => {
  cleanup();
  document.cookie = "lang=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
});

const healthPath = { en: "/en/_health", es: "/es/_health" } as const;
const mainNavigation = { en: "Main", es: "Principal" } as const;
const menu = { en: "Menu", es: "Menú" } as const;
const educationEntry: Record<Edition, Record<Locale, string>> = {
  ht: { en: "Hollypedia", es: "Hollypedia" },
  tt: { en: "Programme", es: "Programa" },
};
const banana = { en: "Banana challenge", es: "Banana challenge" } as const;
const needsStandard = { en: "Needs the Standard plan", es: "Requiere el plan Estándar" } as const;

const account = (over: Partial<AccountFacts>): AccountFacts => ({
  kind: "standard",
  trial: false,
  subscribedProducts: [],
  bananaPermission: false,
  policiesAccepted: true,
  ...over,
});
const signedIn = (edition: Edition, a: AccountFacts): AccessFacts => ({
  ...memberFacts,
  edition,
  account: a,
  creationInProgress: false,
  portfolioLoaded: false,
});
/** A free account: no paid plan, no banana permission. */
const freeAccount = account({});
/** A TT student: the programme's plan, no banana permission, and no plan page to buy one. */
const student = account({ kind: "TT", subscribedProducts: ["simAssets"] });

async function header(edition: Edition, locale: Locale, facts: AccessFacts = guestFacts) {
  await renderApp(healthPath[locale], { facts, services: testServices(edition), locale });
  return screen.findByRole("navigation", { name: mainNavigation[locale] });
}

describe("the education section's entry", () => {
  for (const edition of ["ht", "tt"] as const) {
    for (const locale of ["en", "es"] as const) {
      it(`is in the ${edition} header, its menu and the footer, in ${locale}`, async () => {
        const nav = await header(edition, locale);
        const entry = within(nav).getByRole("link", { name: educationEntry[edition][locale] });
        // It opens the section over the current page, on the edition's default tab.
        const param = edition === "tt" ? "program=education" : "hollypedia=dictionary";
        expect(entry.getAttribute("href")).toBe(`${healthPath[locale]}?${param}&level=user`);
        // The phone menu is this same navigation, shown by the menu button.
        const toggle = screen.getByRole("button", { name: menu[locale] });
        expect(toggle.getAttribute("aria-controls")).toBe(nav.id);
        const footer = screen.getByRole("contentinfo");
        expect(
          within(footer).getByRole("link", { name: educationEntry[edition][locale] }),
        ).toBeTruthy();
        // In tt it is the main entry: the header's first link.
        const first = within(nav).getAllByRole("link")[0]!;
        if (edition === "tt") expect(first).toBe(entry);
        else expect(first).not.toBe(entry);
      });
    }
  }
});

describe("the banana challenge link in the tt edition", () => {
  for (const locale of ["en", "es"] as const) {
    it(`is left out for a TT student, who would be sent home, in ${locale}`, async () => {
      const nav = await header("tt", locale, signedIn("tt", student));
      expect(within(nav).queryByRole("link", { name: new RegExp(banana[locale]) })).toBeNull();
      // The rest of the header is there.
      expect(within(nav).getByRole("link", { name: educationEntry.tt[locale] })).toBeTruthy();
    });
  }

  it("is offered to a student who holds the banana permission, and to a visitor", async () => {
    let nav = await header("tt", "en", signedIn("tt", { ...student, bananaPermission: true }));
    expect(within(nav).getByRole("link", { name: banana.en })).toBeTruthy();
    cleanup();
    nav = await header("tt", "en");
    expect(within(nav).getByRole("link", { name: banana.en })).toBeTruthy();
  });
});

describe("links to paid screens", () => {
  for (const locale of ["en", "es"] as const) {
    it(`carry a lock naming the plan that unlocks them for a free account, in ${locale}`, async () => {
      const nav = await header("ht", locale, signedIn("ht", freeAccount));
      const link = within(nav).getByRole("link", { name: new RegExp(`^${banana[locale]}`) });
      const badge = within(link).getByRole("img", { name: needsStandard[locale] });
      expect(badge.textContent).toBe(locale === "es" ? "Estándar" : "Standard");
      // The lock is drawn, not a font glyph that may be missing.
      expect(badge.querySelector("svg[aria-hidden='true']")).not.toBeNull();
      expect(link.textContent).not.toMatch(/\u{1F512}/u);
      // Links the free plan includes carry none.
      const locked = within(nav).getAllByRole("img", { name: needsStandard[locale] });
      expect(locked).toHaveLength(1);
    });
  }

  it("carry no lock for a visitor or for a holder of the plan", async () => {
    let nav = await header("ht", "en");
    expect(within(nav).queryAllByRole("img", { name: /plan/ })).toHaveLength(0);
    cleanup();
    nav = await header("ht", "en", memberFacts);
    expect(within(nav).queryAllByRole("img", { name: /plan/ })).toHaveLength(0);
    expect(within(nav).getByRole("link", { name: banana.en })).toBeTruthy();
  });
});

describe("linkAccess follows the route guards", () => {
  it("is open for a visitor (sign-in comes first) and while the session is unknown", () => {
    expect(routeLinkAccess("banana-challenge", guestFacts)).toEqual({ kind: "open" });
    expect(routeLinkAccess("banana-challenge", { ...guestFacts, session: "unknown" })).toEqual({
      kind: "open",
    });
  });

  it("names simMonk's lowest plan with the banana permission for the banana challenge", () => {
    expect(routeLinkAccess("banana-challenge", signedIn("ht", freeAccount))).toEqual({
      kind: "locked",
      product: "simMonk",
      tier: "standard",
    });
  });

  it("names the current product's lowest paid plan for a trial user creating a portfolio", () => {
    const trial = signedIn("ht", account({ trial: true }));
    expect(routeLinkAccess("create-q1", trial)).toEqual({
      kind: "locked",
      product: "simAssets",
      tier: "standard",
    });
    // simIndices has no standard tier: its lowest paid plan is the advanced one.
    expect(
      linkAccess(routeById("analysis-full").guards, { ...trial, product: "simIndices" }),
    ).toEqual({ kind: "locked", product: "simIndices", tier: "advanced" });
  });

  it("hides what ends on home: a TT student's banana challenge and plan page", () => {
    expect(routeLinkAccess("banana-challenge", signedIn("tt", student))).toEqual({
      kind: "hidden",
    });
    expect(routeLinkAccess("choose-your-plan", signedIn("tt", student))).toEqual({
      kind: "hidden",
    });
    expect(routeLinkAccess("markets", signedIn("tt", student))).toEqual({ kind: "open" });
  });
});
