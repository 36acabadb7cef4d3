// The banana challenge (machines/banana.machine.ts): a region, stocks bought in whole shares for
// about 10,000, saved with the monkey drawn against them.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import type { BananaUniverse } from "../../../src/contract/banana.ts";
import { clients, portfolios } from "../../../src/server/db/schema.ts";
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
  change: { en: "Change the stocks", es: "Cambiar las acciones" },
  saveChanges: { en: "Save the changes", es: "Guardar los cambios" },
  changed: {
    en: "Saved: your stocks changed at the day's closes.",
    es: "Guardado: tus acciones han cambiado a los cierres del día.",
  },
  windowClosed: {
    en: "Banana portfolios can only be changed between 10:00 and 22:00 UTC.",
    es: "Las carteras banana solo se pueden cambiar entre las 10:00 y las 22:00 UTC.",
  },
} as const;

/** The portfolio's update: PUT of its id. */
const update = /^PUT \/api\/banana\/portfolios\/\d+$/;

/** The editor over the held stocks: its heading, the shares of each and the save. */
async function seesEditor(locale: "en" | "es") {
  expect(await screen.findByRole("heading", { name: words.change[locale] })).toBeTruthy();
  expect(
    await screen.findByRole("button", { name: words.saveChanges[locale] }, { timeout: 10_000 }),
  ).toBeTruthy();
  expect(screen.getAllByLabelText(new RegExp(`^${words.shares[locale]}`)).length).toBeGreaterThan(
    0,
  );
}

const servers = new WeakMap<ServerTab, TabServer>();

export const banana: ScreenModel = {
  machine: "banana",
  // Three portfolios a region at advanced: each language plays two creations in its own region.
  account: "all-advanced@demo.test",
  async open(server, locale) {
    // Each path starts with the places of the plan free: the portfolios of earlier paths go.
    const db = server.market.database.db;
    const [me] = await db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.email, this.account));
    await db
      .delete(portfolios)
      .where(and(eq(portfolios.clientId, me!.id), eq(portfolios.product, "simMonk")));
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
    // Saved: the monkey drawn against the person's stocks, and the stocks can be changed at once.
    '{"create":"saved"}': async (_tab, locale) => {
      expect(
        await screen.findByRole("heading", { name: words.monkey[locale] }, { timeout: 10_000 }),
      ).toBeTruthy();
      expect(screen.getByRole("button", { name: words.change[locale] })).toBeTruthy();
    },
    // Changing the portfolio just saved: the region's stocks of the day asked for again.
    '{"edit":"loadingUniverse"}': async (tab, locale) => {
      expect(await screen.findByRole("heading", { name: words.change[locale] })).toBeTruthy();
      await waitFor(
        () =>
          expect(
            tab.calls.filter((c) => c === "GET /api/banana/universe").length,
          ).toBeGreaterThanOrEqual(2),
        { timeout: 10_000 },
      );
    },
    '{"edit":"picking"}': async (_tab, locale) => seesEditor(locale),
    '{"edit":"loadFailed"}': async (_tab, locale) => {
      expect(await screen.findByRole("heading", { name: words.change[locale] })).toBeTruthy();
      const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
      expect(alert.textContent).toContain(words.internalError[locale]);
      expect(screen.getByRole("button", { name: words.tryAgain[locale] })).toBeTruthy();
    },
    '{"edit":"updating"}': async (tab) => {
      await waitFor(() => expect(tab.calls.some((c) => update.test(c))).toBe(true), {
        timeout: 10_000,
      });
    },
    '{"edit":"saved"}': async (_tab, locale) => {
      expect(
        (await screen.findByTestId("banana-edit-saved", undefined, { timeout: 10_000 }))
          .textContent,
      ).toBe(words.changed[locale]);
    },
    // Changed elsewhere meanwhile: the portfolio is read again and the change starts over from it.
    '{"edit":"conflict"}': async (tab, locale) => {
      await waitFor(
        () =>
          expect(tab.calls.some((c) => /^GET \/api\/banana\/portfolios\/\d+$/.test(c))).toBe(true),
        { timeout: 10_000 },
      );
      await seesEditor(locale);
    },
    // The server's clock says the window closed: said, and no editor.
    '{"edit":"windowClosed"}': async (_tab, locale) => {
      expect(
        (await screen.findByTestId("banana-edit-closed", undefined, { timeout: 10_000 }))
          .textContent,
      ).toContain(words.windowClosed[locale]);
      expect(screen.queryByRole("button", { name: words.saveChanges[locale] })).toBeNull();
    },
    // The change failed on the server: said, the editor kept to save again.
    '{"edit":"failed"}': async (_tab, locale) => {
      const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
      expect(alert.textContent).toContain(words.internalError[locale]);
      await seesEditor(locale);
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
    "portfolio.save": async (tab, locale, from) => {
      // A change: the held stocks bought again at the day's closes, as they are.
      if (from === '{"edit":"picking"}') {
        await click(words.saveChanges[locale]);
        return;
      }
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
    "edit.start": async (_tab, locale) => {
      await click(words.change[locale]);
    },
    "xstate.done.actor.loadEditUniverse": async () => {},
    "xstate.done.actor.update": async () => {},
  },
  noScreen: {},
  faults: {
    '{"create":"loadFailed"}': { call: "GET /api/banana/portfolios" },
    '{"create":"failed"}': { call: "POST /api/banana/portfolios" },
    '{"edit":"loadFailed"}': { call: "GET /api/banana/universe" },
    '{"edit":"conflict"}': { call: update, status: 412, msgCode: "PORTFOLIO_CONFLICT" },
    '{"edit":"windowClosed"}': { call: update, status: 403, msgCode: "BANANA_WINDOW_CLOSED" },
    '{"edit":"failed"}': { call: update },
  },
};
