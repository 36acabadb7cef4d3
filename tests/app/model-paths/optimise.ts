// The optimisation (machines/optimise.machine.ts) of a saved portfolio: the levels, a level's
// options, the optimised portfolio and its adoption as an edit of the portfolio.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import { signInThroughScreen, type ServerTab } from "../../support/server-tab.tsx";
import { at, called, click, heading, openSavedPortfolio, type ScreenModel } from "./support.ts";

const levels = {
  o1: { en: "Lower the risk of my assets", es: "Reducir el riesgo de mis activos" },
  o2: { en: "Add new assets", es: "Añadir activos nuevos" },
  o3: { en: "Choose how many assets", es: "Elegir cuántos activos" },
} as const;

const words = {
  choose: { en: "Optimise your portfolio", es: "Optimiza tu cartera" },
  chooseLevel: { en: "Choose: ", es: "Elegir: " },
  run: { en: "Run the optimisation", es: "Calcular la optimización" },
  summary: { en: "Optimised portfolio", es: "Cartera optimizada" },
  adopt: {
    en: "Adopt: save it as an edit of this portfolio",
    es: "Adoptarla: guardarla como una edición de esta cartera",
  },
  edit: { en: "Edit", es: "Editar" },
  optimiseIt: { en: "Optimise it", es: "Optimízala" },
} as const;

/** The saved portfolio each tab optimises. */
const savedIds = new WeakMap<ServerTab, number>();

export const optimise: ScreenModel = {
  machine: "optimise",
  account: "all-advanced@demo.test",
  server: { workers: 1, marketDays: 2016 },
  async open(server, locale) {
    const tab = await signInThroughScreen(server, locale, this.account);
    savedIds.set(tab, await openSavedPortfolio(server, tab, locale, "Optimise path"));
    // Optimising a saved portfolio starts an edition of it: the portfolio's own link.
    fireEvent.click(await screen.findByRole("link", { name: words.optimiseIt[locale] }));
    return tab;
  },
  sees: {
    // The three levels, each with its button (the account's plan allows them all).
    '"choose"': async (tab, locale) => {
      await at(tab, pathFor("optimize-choose", locale));
      await heading(words.choose[locale]);
      for (const level of Object.values(levels))
        expect(
          await screen.findByRole("button", {
            name: `${words.chooseLevel[locale]}${level[locale]}`,
          }),
        ).toBeTruthy();
    },
    ...Object.fromEntries(
      (["o1", "o2", "o3"] as const).map((level) => [
        JSON.stringify({ options: level }),
        async (tab: ServerTab, locale: "en" | "es") => {
          await at(tab, pathFor(`optimize-${level}`, locale));
          await heading(levels[level][locale]);
          expect(screen.getByRole("button", { name: words.run[locale] })).toBeTruthy();
        },
      ]),
    ),
    '"optimising"': async (tab) => {
      await called(tab, "POST /api/analytics/optimise");
    },
    // The portfolio before and after, and the button to adopt it.
    '"summary"': async (tab, locale) => {
      await at(tab, pathFor("optimize-summary", locale));
      await heading(words.summary[locale]);
      const adopt = await screen.findByRole("button", { name: words.adopt[locale] });
      expect((adopt as HTMLButtonElement).disabled).toBe(false);
      expect(screen.queryByTestId("optimise-stale")).toBeNull();
    },
    // The portfolio changed since: the result is outdated and cannot be adopted.
    '"stale"': async (tab, locale) => {
      await at(tab, pathFor("optimize-summary", locale));
      expect(await screen.findByTestId("optimise-stale")).toBeTruthy();
      expect(
        (screen.getByRole("button", { name: words.adopt[locale] }) as HTMLButtonElement).disabled,
      ).toBe(true);
    },
    // Adopting is the portfolio's update with the optimised amounts.
    '"adopting"': async (tab) => {
      await waitFor(
        () => expect(tab.calls.some((c) => /^PUT \/api\/portfolios\/\d+$/.test(c))).toBe(true),
        { timeout: 10_000 },
      );
    },
    // Adopted: the person is on the portfolio, saved with the optimised amounts.
    '"adopted"': async (tab, locale) => {
      await at(tab, pathFor("account-portfolio", locale, { id: String(savedIds.get(tab)) }));
      await heading("Optimise path");
    },
  },
  does: {
    "level.choose": async (_tab, locale, _from, to) => {
      const level = (JSON.parse(to) as { options: keyof typeof levels }).options;
      await click(`${words.chooseLevel[locale]}${levels[level][locale]}`);
    },
    // The maximum loss the person accepts (the saved portfolio has no answer to q2), then the run.
    "optimisation.run": async (_tab, locale) => {
      fireEvent.change(document.querySelector('input[name="maxToLose95"]')!, {
        target: { value: "3000" },
      });
      await click(words.run[locale]);
    },
    "xstate.done.actor.optimise": async () => {},
    "result.adopt": async (_tab, locale) => {
      await click(words.adopt[locale]);
    },
    "xstate.done.actor.adopt": async () => {},
    // The person edits an amount of the portfolio, then comes back to the optimised one.
    "portfolio.change": async (tab, locale) => {
      await tab.router.navigate(
        pathFor("account-portfolio", locale, { id: String(savedIds.get(tab)) }),
      );
      const edit = screen.queryByRole("button", { name: words.edit[locale] });
      if (edit) fireEvent.click(edit);
      const amount = await waitFor(() => {
        const input = document.querySelector<HTMLInputElement>("tr[data-asset] input");
        expect(input).not.toBeNull();
        return input!;
      });
      fireEvent.change(amount, { target: { value: "5000" } });
      fireEvent.blur(amount);
      await tab.router.navigate(pathFor("optimize-summary", locale));
    },
  },
  noScreen: {},
};
