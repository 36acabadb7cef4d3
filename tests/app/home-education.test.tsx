// @vitest-environment jsdom
// The education section has an entry on the home page of both editions (issue 25, "Finding
// things"): what it holds and a link that opens it over the page on the edition's default tab. In
// tt it is the main entry, as in the header: the page's first action, the primary one. Both
// languages.
import { cleanup, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { pathFor } from "../../src/app/paths.ts";
import type { Edition, Locale } from "../../src/contract/common.ts";
import { renderApp, testServices } from "../support/render-app.tsx";

afterEach(cleanup);

const texts: Record<Edition, Record<Locale, { heading: string; open: string; start?: string }>> = {
  ht: {
    en: { heading: "Learn as you go with Hollypedia", open: "Open Hollypedia" },
    es: { heading: "Aprende sobre la marcha con Hollypedia", open: "Abrir Hollypedia" },
  },
  tt: {
    en: {
      heading: "Learn with the programme",
      open: "Open the programme",
      start: "Start the programme",
    },
    es: {
      heading: "Aprende con el programa",
      open: "Abrir el programa",
      start: "Empieza el programa",
    },
  },
};
const create = { en: "Create your portfolio", es: "Crea tu cartera" } as const;
const whatItHolds = { en: /dictionary of every term/, es: /diccionario de cada término/ } as const;

describe.each(["ht", "tt"] as const)("the home page of %s", (edition) => {
  const param = edition === "tt" ? "program=education" : "hollypedia=dictionary";

  it.each(["en", "es"] as const)("has the education section's entry (%s)", async (locale) => {
    const x = texts[edition][locale];
    const home = pathFor("index", locale);
    await renderApp(home, { services: testServices(edition), locale });
    const main = await screen.findByRole("main");
    const section = await within(main).findByRole("region", { name: x.heading });
    expect(within(section).getByText(whatItHolds[locale])).toBeTruthy();
    // It opens the section over the home page, on the edition's default tab.
    const open = within(section).getByRole("link", { name: x.open });
    expect(open.getAttribute("href")).toBe(`${home}?${param}&level=user`);

    const hero = within(main).getByRole("heading", { level: 1 }).closest("section")!;
    const actions = within(hero).getAllByRole("link");
    if (edition === "tt") {
      // The main entry: the first action of the page, the primary one; creating comes second.
      expect(actions[0]!.textContent).toBe(x.start);
      expect(actions[0]!.getAttribute("href")).toBe(`${home}?${param}&level=user`);
      expect(actions[0]!.className).toContain("primary");
      expect(actions[1]!.textContent).toBe(create[locale]);
      expect(actions[1]!.className).not.toContain("primary");
      // Right below the hero.
      expect(hero.nextElementSibling).toBe(section);
    } else {
      // In ht creating a portfolio stays the main action; the entry follows what the app does.
      expect(actions[0]!.textContent).toBe(create[locale]);
      expect(actions[0]!.className).toContain("primary");
      expect(within(hero).queryByRole("link", { name: x.open })).toBeNull();
    }
    // One primary action on the page.
    expect(main.querySelectorAll(".primary")).toHaveLength(1);
  });
});
