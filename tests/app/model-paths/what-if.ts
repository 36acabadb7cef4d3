// The what-if (machines/what-if.machine.ts) on its scenarios and assessment screens.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import { signInThroughScreen } from "../../support/server-tab.tsx";
import { at, called, click, heading, openSavedPortfolio, type ScreenModel } from "./support.ts";

const words = {
  scenarios: { en: "What-if scenarios", es: "Escenarios ¿qué pasaría si?" },
  assessment: { en: "What-if assessment", es: "Valoración del escenario" },
  run: { en: "Run the what-if", es: "Calcular el escenario" },
  portfolio: { en: "On Model path: 3 assets", es: "Sobre Model path: 3 activos" },
} as const;

export const whatIf: ScreenModel = {
  machine: "whatIf",
  account: "all-advanced@demo.test",
  server: { workers: 1, marketDays: 2016 },
  async open(server, locale) {
    const tab = await signInThroughScreen(server, locale, this.account);
    await openSavedPortfolio(server, tab, locale);
    await tab.router.navigate(pathFor("what-if-scenarios", locale));
    return tab;
  },
  sees: {
    // The form on the portfolio just opened, with its five shocks and the run button.
    '"editing"': async (tab, locale) => {
      await at(tab, pathFor("what-if-scenarios", locale));
      await heading(words.scenarios[locale]);
      await waitFor(() =>
        expect(screen.getByTestId("what-if-portfolio").textContent).toContain(
          words.portfolio[locale],
        ),
      );
      expect(document.querySelectorAll("[data-shock]").length).toBe(5);
      expect(screen.getByRole("button", { name: words.run[locale] })).toBeTruthy();
    },
    // The run is being computed: the request was made (the in-process server may answer before
    // the progress can be seen).
    '"running"': async (tab) => {
      await called(tab, "POST /api/analytics/what-if");
    },
    // The assessment of the run: the portfolio's change under the shock, asset by asset.
    '"result"': async (tab, locale) => {
      await at(tab, pathFor("what-if-assessment", locale));
      await heading(words.assessment[locale]);
      expect((await screen.findAllByRole("row")).length).toBeGreaterThan(1);
    },
  },
  does: {
    // A fall of the stock markets (the first shock's slider), then the run.
    "whatIf.run": async (_tab, locale) => {
      const slider = document.querySelector('[data-shock="dRV"] input[type="range"]')!;
      fireEvent.change(slider, { target: { value: "-20" } });
      await click(words.run[locale]);
    },
    "xstate.done.actor.runWhatIf": async () => {},
  },
  noScreen: {},
  notPlayed: {
    '"locked"':
      "Reached from running only when the server answers 403 PLAN_FEATURE_LOCKED: the screen does not send a run its plan lacks (it is locked before), so the server's lock needs the plan to change on the server between the screen's check and the run.",
    '"failed"':
      "Reached when the server's what-if fails (an internal error, a portfolio with no prices): the real server answers a valid run of a demo portfolio; a failure needs a fault injected in it.",
  },
};
