// A portfolio's life (machines/portfolio-lifecycle.machine.ts): saved from the wizard's summary,
// then edited, exported or deleted on its own screen.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import type { Locale } from "../../../src/contract/common.ts";
import { signInThroughScreen, type ServerTab } from "../../support/server-tab.tsx";
import { at, click, heading, type ScreenModel } from "./support.ts";

const words = {
  summary: { en: "Your proposed portfolio", es: "Tu cartera propuesta" },
  amount: { en: "Amount to invest", es: "Importe a invertir" },
  next: { en: "Next", es: "Siguiente" },
  build: { en: "Build my portfolio", es: "Construir mi cartera" },
  name: { en: "Name of the portfolio", es: "Nombre de la cartera" },
  save: { en: "Save the portfolio", es: "Guardar la cartera" },
  saved: {
    en: "Your portfolio “Lifecycle path” is saved.",
    es: "Tu cartera «Lifecycle path» está guardada.",
  },
  open: { en: "Open the portfolio", es: "Abrir la cartera" },
  edit: { en: "Edit", es: "Editar" },
  editTitle: { en: "Edit the portfolio", es: "Editar la cartera" },
  saveChanges: { en: "Save the changes", es: "Guardar los cambios" },
  exportCsv: { en: "Export CSV", es: "Exportar CSV" },
  delete: { en: "Delete", es: "Borrar" },
  yesDelete: { en: "Yes, delete it", es: "Sí, borrarla" },
  holdings: { en: "Holdings", es: "Posiciones" },
  conflict: {
    en: "This portfolio was changed in another window. Reload it to see the latest version before editing again.",
    es: "Esta cartera se cambió en otra ventana. Recárgala para ver la última versión antes de volver a editarla.",
  },
  reload: { en: "Reload and edit again", es: "Recargar y volver a editar" },
  discard: { en: "Discard my changes", es: "Descartar mis cambios" },
} as const;

/** The portfolio's update: PUT of its id. */
const update = /^PUT \/api\/portfolios\/\d+$/;

/** How many calls the tab had made when the person asked to reload. */
const reloadedAt = new WeakMap<ServerTab, number>();

const NAME = "Lifecycle path";

/** The portfolio's own screen: from the summary, the person follows the link to it. */
async function onPortfolioScreen(tab: ServerTab, locale: Locale) {
  const prefix = `${pathFor("account-portfolios", locale)}/`;
  if (!tab.router.state.location.pathname.startsWith(prefix))
    fireEvent.click(await screen.findByRole("link", { name: words.open[locale] }));
  await waitFor(() => expect(tab.router.state.location.pathname.startsWith(prefix)).toBe(true), {
    timeout: 10_000,
  });
  await heading(NAME);
}

export const portfolioLifecycle: ScreenModel = {
  machine: "portfolioLifecycle",
  account: "all-advanced@demo.test",
  server: { workers: 1, marketDays: 2016 },
  // The wizard's answers to its summary: a composed portfolio not saved yet.
  async open(server, locale) {
    const tab = await signInThroughScreen(server, locale, this.account);
    await tab.router.navigate(pathFor("create-q1", locale));
    fireEvent.change(await screen.findByLabelText(words.amount[locale]), {
      target: { value: "10000" },
    });
    await click(words.next[locale]);
    await at(tab, pathFor("create-q2", locale));
    await click(words.next[locale]);
    await at(tab, pathFor("create-q3", locale));
    await click(words.build[locale]);
    return tab;
  },
  sees: {
    // The proposal with a name to give it and the button to save it.
    '"unsaved"': async (tab, locale) => {
      await at(tab, pathFor("create-summary", locale));
      await heading(words.summary[locale]);
      expect(await screen.findByLabelText(words.name[locale])).toBeTruthy();
      expect(screen.getByRole("button", { name: words.save[locale] })).toBeTruthy();
    },
    '"saving"': async (tab) => {
      await waitFor(() => expect(tab.calls).toContain("POST /api/portfolios"), {
        timeout: 10_000,
      });
    },
    // Saved: the summary says so and links to it; on its own screen, its holdings and actions.
    '"saved"': async (tab, locale) => {
      if (tab.router.state.location.pathname === pathFor("create-summary", locale)) {
        await waitFor(() => expect(screen.getByText(words.saved[locale])).toBeTruthy(), {
          timeout: 10_000,
        });
        expect(screen.getByRole("link", { name: words.open[locale] })).toBeTruthy();
        return;
      }
      await heading(NAME);
      expect(await screen.findByRole("table", { name: words.holdings[locale] })).toBeTruthy();
      expect(screen.getByRole("button", { name: words.edit[locale] })).toBeTruthy();
    },
    // The editor of the amounts, with the button to save the changes.
    '"editing"': async (_tab, locale) => {
      expect(await screen.findByRole("heading", { name: words.editTitle[locale] })).toBeTruthy();
      expect(screen.getByRole("button", { name: words.saveChanges[locale] })).toBeTruthy();
    },
    '"updating"': async (tab) => {
      await waitFor(
        () => expect(tab.calls.some((c) => /^PUT \/api\/portfolios\/\d+$/.test(c))).toBe(true),
        { timeout: 10_000 },
      );
    },
    '"exporting"': async (tab) => {
      await waitFor(
        () =>
          expect(tab.calls.some((c) => /^GET \/api\/portfolios\/\d+\/export/.test(c))).toBe(true),
        { timeout: 10_000 },
      );
    },
    '"deleting"': async (tab) => {
      await waitFor(
        () => expect(tab.calls.some((c) => /^DELETE \/api\/portfolios\/\d+$/.test(c))).toBe(true),
        { timeout: 10_000 },
      );
    },
    // The server refused the change (the portfolio changed elsewhere): said, with a reload of the
    // portfolio to edit again, or the changes discarded.
    '"conflict"': async (_tab, locale) => {
      await waitFor(
        () =>
          expect(
            screen
              .getAllByRole("alert")
              .some((a) => a.textContent?.includes(words.conflict[locale])),
          ).toBe(true),
        { timeout: 10_000 },
      );
      expect(screen.getByRole("button", { name: words.reload[locale] })).toBeTruthy();
      expect(screen.getByRole("button", { name: words.discard[locale] })).toBeTruthy();
    },
    // The portfolio read again, and its editor open on the version the server has.
    '"reloading"': async (tab, locale) => {
      await waitFor(
        () =>
          expect(
            tab.calls
              .slice(reloadedAt.get(tab))
              .some((c) => /^GET \/api\/portfolios\/\d+$/.test(c)),
          ).toBe(true),
        { timeout: 10_000 },
      );
      expect(await screen.findByRole("heading", { name: words.editTitle[locale] })).toBeTruthy();
    },
    // Deleted: the person is back on the list of their portfolios.
    '"deleted"': async (tab, locale) => {
      await at(tab, pathFor("account-portfolios", locale));
    },
  },
  does: {
    "portfolio.save": async (_tab, locale) => {
      fireEvent.change(await screen.findByLabelText(words.name[locale]), {
        target: { value: NAME },
      });
      await click(words.save[locale]);
    },
    "xstate.done.actor.savePortfolio": async () => {},
    "edit.start": async (tab, locale) => {
      await onPortfolioScreen(tab, locale);
      await click(words.edit[locale]);
    },
    "portfolio.export": async (tab, locale) => {
      await onPortfolioScreen(tab, locale);
      await click(words.exportCsv[locale]);
    },
    "portfolio.delete": async (tab, locale) => {
      await onPortfolioScreen(tab, locale);
      await click(words.delete[locale]);
      await click(words.yesDelete[locale]);
    },
    "edit.submit": async (_tab, locale) => {
      await click(words.saveChanges[locale]);
    },
    "xstate.done.actor.deletePortfolio": async () => {},
    "conflict.reload": async (tab, locale) => {
      reloadedAt.set(tab, tab.calls.length);
      await click(words.reload[locale]);
    },
  },
  noScreen: {},
  faults: { '"conflict"': { call: update, status: 412, msgCode: "PORTFOLIO_CONFLICT" } },
};
