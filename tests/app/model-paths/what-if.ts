// The what-if (machines/what-if.machine.ts) on its scenarios and assessment screens.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { systemIds } from "../../../machines/system-ids.ts";
import { pathFor } from "../../../src/app/paths.ts";
import { signInThroughScreen } from "../../support/server-tab.tsx";
import { at, called, click, heading, openSavedPortfolio, type ScreenModel } from "./support.ts";

const words = {
  scenarios: { en: "What-if scenarios", es: "Escenarios ¿qué pasaría si?" },
  assessment: { en: "What-if assessment", es: "Valoración del escenario" },
  run: { en: "Run the what-if", es: "Calcular el escenario" },
  portfolio: { en: "On Model path: 3 assets", es: "Sobre Model path: 3 activos" },
  locked: {
    en: "Your plan does not include this kind of what-if (Your own shocks).",
    es: "Tu plan no incluye este tipo de escenario (Tus propios shocks).",
  },
  internalError: {
    en: "Something went wrong on our side. Please try again.",
    es: "Algo ha fallado por nuestra parte. Inténtalo de nuevo.",
  },
  tryAgain: { en: "Try again", es: "Volver a intentarlo" },
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
    // The server said the plan does not include the kind: which plan does, on the same page.
    '"locked"': async (tab, locale) => {
      const note = await waitFor(
        () => {
          const lock = document.querySelector<HTMLElement>('[data-lock="custom"]');
          expect(lock).not.toBeNull();
          return lock!;
        },
        { timeout: 10_000 },
      );
      expect(note.textContent).toContain(words.locked[locale]);
      expect(tab.router.state.location.pathname).toBe(pathFor("what-if-scenarios", locale));
    },
    // The run failed on the server: said, with a way to try again, on the same page.
    '"failed"': async (tab, locale) => {
      const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
      expect(alert.textContent).toContain(words.internalError[locale]);
      expect(screen.getByRole("button", { name: words.tryAgain[locale] })).toBeTruthy();
      expect(tab.router.state.location.pathname).toBe(pathFor("what-if-scenarios", locale));
    },
    // The assessment of the run: the portfolio's change under the shock, asset by asset.
    '"result"': async (tab, locale) => {
      await at(tab, pathFor("what-if-assessment", locale));
      await heading(words.assessment[locale]);
      expect((await screen.findAllByRole("row")).length).toBeGreaterThan(1);
      // The assessment tells the machine it is the page open (a run started there stays there).
      const whatIf = tab.app.getSnapshot().children[systemIds.whatIf];
      await waitFor(() => expect(whatIf?.getSnapshot().context.page).toBe("assessment"));
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
  faults: {
    '"locked"': {
      call: "POST /api/analytics/what-if",
      status: 403,
      msgCode: "PLAN_FEATURE_LOCKED",
    },
    '"failed"': { call: "POST /api/analytics/what-if" },
  },
};
