// The creation wizard (machines/portfolio-wizard.machine.ts) on q1-q3 and the summary.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { draftKey } from "../../../src/app/drafts.ts";
import { pathFor } from "../../../src/app/paths.ts";
import { signInThroughScreen } from "../../support/server-tab.tsx";
import { at, click, heading, type ScreenModel } from "./support.ts";

const words = {
  q1: { en: "What do you want to invest in?", es: "¿En qué quieres invertir?" },
  q2: { en: "How much could you bear to lose?", es: "¿Cuánto podrías soportar perder?" },
  q3: { en: "What matters most to you?", es: "¿Qué es lo que más te importa?" },
  summary: { en: "Your proposed portfolio", es: "Tu cartera propuesta" },
  amount: { en: "Amount to invest", es: "Importe a invertir" },
  next: { en: "Next", es: "Siguiente" },
  build: { en: "Build my portfolio", es: "Construir mi cartera" },
  name: { en: "Name of the portfolio", es: "Nombre de la cartera" },
  save: { en: "Save the portfolio", es: "Guardar la cartera" },
  saved: {
    en: "Your portfolio “Model path” is saved.",
    es: "Tu cartera «Model path» está guardada.",
  },
  open: { en: "Open the portfolio", es: "Abrir la cartera" },
  discard: { en: "Discard this portfolio", es: "Descartar esta cartera" },
  discardYes: { en: "Yes, discard it", es: "Sí, descartarla" },
  myPortfolios: { en: "My portfolios", es: "Mis carteras" },
} as const;

/** The creation wizard (machines/portfolio-wizard.machine.ts) on q1-q3 and the summary. */
export const wizard: ScreenModel = {
  machine: "portfolioWizard",
  account: "assets-standard@demo.test",
  server: { workers: 1, marketDays: 2016 },
  async open(server, locale) {
    const tab = await signInThroughScreen(server, locale, this.account);
    await tab.router.navigate(pathFor("create-q1", locale));
    return tab;
  },
  sees: {
    '"q1"': async (tab, locale) => {
      await at(tab, pathFor("create-q1", locale));
      await heading(words.q1[locale]);
      expect(await screen.findByLabelText(words.amount[locale])).toBeTruthy();
    },
    '"q2"': async (tab, locale) => {
      await at(tab, pathFor("create-q2", locale));
      await heading(words.q2[locale]);
    },
    '"q3"': async (tab, locale) => {
      await at(tab, pathFor("create-q3", locale));
      await heading(words.q3[locale]);
    },
    // The proposal is being computed: q3's answers are sent and the person is taken on (the
    // in-process server may answer before a progress indicator can be seen).
    '"proposing"': async (tab, locale) => {
      await waitFor(
        () =>
          expect(
            tab.calls.includes("POST /api/portfolios/propose") &&
              tab.router.state.location.pathname !== pathFor("create-q3", locale),
          ).toBe(true),
        { timeout: 10_000 },
      );
    },
    '"summary"': async (tab, locale) => {
      await at(tab, pathFor("create-summary", locale));
      await heading(words.summary[locale]);
      // The proposal's holdings, each with its amount to change.
      expect((await screen.findAllByRole("row")).length).toBeGreaterThan(1);
      expect(await screen.findByLabelText(words.name[locale])).toBeTruthy();
    },
    '"done"': async (tab, locale) => {
      await waitFor(() => expect(screen.getByText(words.saved[locale])).toBeTruthy(), {
        timeout: 10_000,
      });
      const open = screen.getByRole("link", { name: words.open[locale] });
      expect(open.getAttribute("href")).toMatch(
        new RegExp(`^${pathFor("account-portfolios", locale)}/`),
      );
      expect(tab.calls).toContain("POST /api/portfolios");
    },
    // Discarded: the person is on my portfolios, and the creation kept for a reload is gone.
    '"cancelled"': async (tab, locale) => {
      await at(tab, pathFor("account-portfolios", locale));
      await heading(words.myPortfolios[locale]);
      expect(sessionStorage.getItem(draftKey("wizard"))).toBeNull();
      expect(screen.queryByRole("button", { name: words.discard[locale] })).toBeNull();
    },
  },
  does: {
    "step.next": async (_tab, locale, from) => {
      if (from === '"q1"')
        fireEvent.change(await screen.findByLabelText(words.amount[locale]), {
          target: { value: "10000" },
        });
      await click(from === '"q3"' ? words.build[locale] : words.next[locale]);
    },
    // The server's answer: nothing for the person to do.
    "xstate.done.actor.propose": async () => {},
    "portfolio.save": async (_tab, locale) => {
      fireEvent.change(await screen.findByLabelText(words.name[locale]), {
        target: { value: "Model path" },
      });
      await click(words.save[locale]);
    },
    // "Discard this portfolio", asked once more (the creation kept for a reload is there before).
    "creation.cancel": async (_tab, locale) => {
      expect(sessionStorage.getItem(draftKey("wizard"))).not.toBeNull();
      await click(words.discard[locale]);
      await click(words.discardYes[locale]);
    },
  },
  noScreen: {},
};
