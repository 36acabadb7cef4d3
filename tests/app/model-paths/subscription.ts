// The subscription (machines/subscription.machine.ts) on the billing screen of a subscribed
// account: its plans, and a plan cancelled at the end of its period.
import { screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import { browserRequest, signInThroughScreen } from "../../support/server-tab.tsx";
import { at, click, heading, type ScreenModel } from "./support.ts";

const words = {
  title: { en: "Billing and subscription", es: "Facturación y suscripción" },
  cancel: { en: "Cancel the plan", es: "Cancelar el plan" },
  confirm: {
    en: "Yes, cancel at the end of the period",
    es: "Sí, cancelar al final del periodo",
  },
  keep: { en: "Keep my plan", es: "Mantener mi plan" },
  changePlan: { en: "Change plan", es: "Cambiar de plan" },
  internalError: {
    en: "Something went wrong on our side. Please try again.",
    es: "Algo ha fallado por nuestra parte. Inténtalo de nuevo.",
  },
  tryAgain: { en: "Try again", es: "Volver a intentarlo" },
  reactivate: { en: "Reactivate", es: "Reactivar" },
  undo: { en: "Undo the scheduled change", es: "Deshacer el cambio programado" },
} as const;

export const subscription: ScreenModel = {
  machine: "subscription",
  // Every product at advanced, paid: each can be cancelled. A cancellation stays on the server,
  // so each language has its own server.
  account: "all-advanced@demo.test",
  serverPerLanguage: true,
  // The account as it comes to the billing screen: simMonk cancelled at the end of its period
  // (it can be reactivated) and simAssets with a change to standard scheduled (it can be undone);
  // simIndices as seeded, cancellable. Each path starts so (an earlier path may have undone them).
  async open(server, locale) {
    const tab = await signInThroughScreen(server, locale, this.account);
    const api = browserRequest(server, tab.browser);
    const post = (path: string, body: unknown) =>
      api(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const overview = (await (await api("/api/billing")).json()) as {
      products: { product: string; period: string | null }[];
    };
    // (Unread when the path fails the billing's load: the seeded plan is monthly.)
    const assets = overview.products?.find((p) => p.product === "simAssets");
    await post("/api/cancel-subscription", { product: "simMonk" });
    // A second schedule of the same change is refused; the screen's undo button (seen in
    // "ready") shows that one is scheduled either way.
    await post("/api/billing/schedule", {
      product: "simAssets",
      tier: "standard",
      period: assets?.period ?? "monthly",
    });
    await tab.router.navigate(pathFor("account-billing", locale));
    return tab;
  },
  sees: {
    '"loading"': async (tab, locale) => {
      await at(tab, pathFor("account-billing", locale));
      await heading(words.title[locale]);
    },
    // The plans, each with its change and cancel buttons (the cancelled one with its reactivation,
    // the one with a change scheduled with its undo).
    '"ready"': async (_tab, locale) => {
      expect(
        await screen.findByRole("button", { name: words.reactivate[locale] }, { timeout: 10_000 }),
      ).toBeTruthy();
      expect(screen.getByRole("button", { name: words.undo[locale] })).toBeTruthy();
      expect(
        (await screen.findAllByRole("button", { name: words.cancel[locale] })).length,
      ).toBeGreaterThan(0);
      expect(
        screen.getAllByRole("link", { name: words.changePlan[locale] }).length,
      ).toBeGreaterThan(0);
    },
    // The question before cancelling: cancel at the end of the period, or keep the plan.
    '"confirmingCancel"': async (_tab, locale) => {
      expect(await screen.findByRole("button", { name: words.confirm[locale] })).toBeTruthy();
      expect(screen.getByRole("button", { name: words.keep[locale] })).toBeTruthy();
    },
    // The plans could not be read: the server's failure said, a way to try again, no plan shown.
    '"unavailable"': async (_tab, locale) => {
      const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
      expect(alert.textContent).toContain(words.internalError[locale]);
      expect(screen.getByRole("button", { name: words.tryAgain[locale] })).toBeTruthy();
      expect(screen.queryByRole("button", { name: words.cancel[locale] })).toBeNull();
    },
    '"reactivating"': async (tab) => {
      await waitFor(() => expect(tab.calls).toContain("POST /api/reactivate-subscription"), {
        timeout: 10_000,
      });
    },
    '"undoingChange"': async (tab) => {
      await waitFor(() => expect(tab.calls).toContain("POST /api/billing/schedule/cancel"), {
        timeout: 10_000,
      });
    },
    '"cancellingSubscription"': async (tab) => {
      await waitFor(
        () => expect(tab.calls.some((c) => c === "POST /api/cancel-subscription")).toBe(true),
        { timeout: 10_000 },
      );
    },
  },
  does: {
    "xstate.done.actor.loadBilling": async () => {},
    "subscription.cancel": async (_tab, locale) => {
      const [first] = await screen.findAllByRole("button", { name: words.cancel[locale] });
      first!.click();
    },
    "cancel.confirm": async (_tab, locale) => {
      await click(words.confirm[locale]);
    },
    "subscription.reactivate": async (_tab, locale) => {
      await click(words.reactivate[locale]);
    },
    "change.undo": async (_tab, locale) => {
      await click(words.undo[locale]);
    },
  },
  noScreen: {
    "plan.choose":
      "No screen sends it: the plan chosen arrives in the confirmation screen's address (subscribe-confirm-screen.tsx reads it from the query and gives it to the machine as input), so the quote, review, invoice details, checkout and payment states are not reached by this event from the billing screen.",
  },
  faults: { '"unavailable"': { call: "GET /api/billing" } },
  notPlayed: {
    '"startingTrial"':
      "Needs an account with a trial available (never subscribed), whose billing screen has no plan to cancel: another model's account.",
  },
};
