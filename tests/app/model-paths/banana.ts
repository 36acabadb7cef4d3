// The banana challenge (machines/banana.machine.ts): a region, stocks bought in whole shares for
// about 10,000, saved with the monkey drawn against them.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import type { BananaUniverse } from "../../../src/contract/banana.ts";
import {
  browserRequest,
  signInThroughScreen,
  type ServerTab,
  type TabServer,
} from "../../support/server-tab.tsx";
import { at, called, click, heading, type ScreenModel } from "./support.ts";

const words = {
  title: { en: "Banana challenge", es: "Banana challenge" },
  chooseRegion: { en: "Choose a region", es: "Elige una región" },
  /** The region each language plays in (English in Europe, Spanish in the USA). */
  region: { en: "Europe (EUR)", es: "EE. UU. (USD)" },
  stocks: { en: "Your stocks", es: "Tus acciones" },
  name: { en: "Name of the portfolio", es: "Nombre de la cartera" },
  save: { en: "Save and draw my monkey", es: "Guardar y sortear mi mono" },
  add: { en: "Add ", es: "Añadir " },
  shares: { en: "Shares of ", es: "Acciones de " },
  monkey: { en: "The monkey's holdings", es: "Las posiciones del mono" },
  internalError: {
    en: "Something went wrong on our side. Please try again.",
    es: "Algo ha fallado por nuestra parte. Inténtalo de nuevo.",
  },
  tryAgain: { en: "Try again", es: "Volver a intentarlo" },
} as const;

const servers = new WeakMap<ServerTab, TabServer>();

export const banana: ScreenModel = {
  machine: "banana",
  // Three portfolios a region at advanced: each language plays two creations in its own region.
  account: "all-advanced@demo.test",
  async open(server, locale) {
    const tab = await signInThroughScreen(server, locale, this.account);
    servers.set(tab, server);
    await tab.router.navigate(pathFor("banana-challenge", locale));
    return tab;
  },
  sees: {
    // The challenge's page, asking how many places are left in each region.
    '{"create":"loadingCapacity"}': async (tab, locale) => {
      await at(tab, pathFor("banana-challenge", locale));
      await heading(words.title[locale]);
    },
    // The regions, each a button; the one this language plays in has places left.
    '{"create":"choosingRegion"}': async (_tab, locale) => {
      expect(await screen.findByRole("heading", { name: words.chooseRegion[locale] })).toBeTruthy();
      const region = await screen.findByRole("button", {
        name: new RegExp(`^${words.region[locale].replace(/[()]/g, "\\$&")}`),
      });
      expect((region as HTMLButtonElement).disabled).toBe(false);
    },
    '{"create":"loadingUniverse"}': async (tab) => {
      await waitFor(
        () => expect(tab.calls.some((c) => c.startsWith("GET /api/banana/universe"))).toBe(true),
        { timeout: 10_000 },
      );
    },
    // The region's stocks to pick, the name and the button to save.
    '{"create":"picking"}': async (_tab, locale) => {
      expect(await screen.findByRole("heading", { name: words.stocks[locale] })).toBeTruthy();
      expect(screen.getByLabelText(words.name[locale])).toBeTruthy();
      expect(screen.getByRole("button", { name: words.save[locale] })).toBeTruthy();
    },
    '{"create":"creating"}': async (tab) => {
      await called(tab, "POST /api/banana/portfolios");
    },
    // The places left could not be read: the server's failure said, and a way to try again.
    '{"create":"loadFailed"}': async (_tab, locale) => {
      expect(
        (await screen.findByRole("alert", undefined, { timeout: 10_000 })).textContent,
      ).toContain(words.internalError[locale]);
      expect(screen.getByRole("button", { name: words.tryAgain[locale] })).toBeTruthy();
      expect(screen.queryByRole("heading", { name: words.chooseRegion[locale] })).toBeNull();
    },
    // The save failed: the server's failure said, the stocks and the name kept to save again.
    '{"create":"failed"}': async (_tab, locale) => {
      expect(
        (await screen.findByTestId("banana-error", undefined, { timeout: 10_000 })).textContent,
      ).toBe(words.internalError[locale]);
      expect((screen.getByLabelText(words.name[locale]) as HTMLInputElement).value).toBe(
        "Banana path",
      );
      expect(screen.getByRole("button", { name: words.save[locale] })).toBeTruthy();
    },
    // Saved: the monkey drawn against the person's stocks.
    '{"create":"saved"}': async (_tab, locale) => {
      expect(
        await screen.findByRole("heading", { name: words.monkey[locale] }, { timeout: 10_000 }),
      ).toBeTruthy();
    },
  },
  does: {
    "xstate.done.actor.loadCapacity": async () => {},
    "region.choose": async (_tab, locale) => {
      fireEvent.click(
        await screen.findByRole("button", {
          name: new RegExp(`^${words.region[locale].replace(/[()]/g, "\\$&")}`),
        }),
      );
    },
    "xstate.done.actor.loadUniverse": async () => {},
    // A name, and whole shares of the listed stocks for a total within the budget (the closes
    // the screen shows, as the server's universe gives them).
    save: async (tab, locale) => {
      fireEvent.change(screen.getByLabelText(words.name[locale]), {
        target: { value: "Banana path" },
      });
      const api = browserRequest(servers.get(tab)!, tab.browser);
      const universe = (await (
        await api(`/api/banana/universe?region=${locale === "en" ? "eu" : "usa"}`)
      ).json()) as BananaUniverse;
      const listed = new Set(
        screen
          .getAllByRole("button", { name: new RegExp(`^${words.add[locale]}`) })
          .map((b) => b.textContent!.slice(words.add[locale].length)),
      );
      const stocks = universe.stocks.filter((s) => listed.has(s.name) && s.close > 0);
      const { minInvestment: min, maxInvestment: max } = universe;
      // Two stocks whose whole shares cost within the budget (each close as the server has it).
      const pick = stocks
        .flatMap((a) => stocks.map((b) => [a, b] as const))
        .flatMap(([a, b]) =>
          Array.from({ length: Math.floor(max / a.close) }, (_, i) => i + 1).map((na) => {
            const nb = a === b ? 0 : Math.floor((max - na * a.close) / b.close);
            return { a, na, b, nb, total: na * a.close + nb * b.close };
          }),
        )
        .find((p) => p.total >= min && p.total <= max);
      expect(pick, "two stocks within the budget").toBeDefined();
      for (const [stock, shares] of [
        [pick!.a, pick!.na],
        [pick!.b, pick!.nb],
      ] as const) {
        if (shares === 0) continue;
        fireEvent.click(screen.getByRole("button", { name: `${words.add[locale]}${stock.name}` }));
        fireEvent.change(await screen.findByLabelText(`${words.shares[locale]}${stock.name}`), {
          target: { value: String(shares) },
        });
      }
      await click(words.save[locale]);
    },
    "xstate.done.actor.create": async () => {},
  },
  noScreen: {
    "edit.start":
      "No screen sends it: after saving, the challenge screen links to the portfolio's own screen, whose edit section starts a new banana actor in edit (banana-edit-section.tsx); the saved actor is never moved to edit. Its paths (the edit states) are therefore not played here.",
  },
  faults: {
    '{"create":"loadFailed"}': { call: "GET /api/banana/portfolios" },
    '{"create":"failed"}': { call: "POST /api/banana/portfolios" },
  },
};
