// The subscription (machines/subscription.machine.ts) on the billing screen of a subscribed
// account: its plans, and a plan cancelled at the end of its period; and, a plan chosen through
// the billing screen's "Change plan" and the plans screen, on the confirmation screen: the quote,
// the review with the invoice details, the checkout up to the provider's page, a downgrade
// scheduled. The confirmation screen starts its own machine, which loads the plans, rests in
// "ready" and is sent `plan.choose` with the plan of its address (use-subscription.ts): from
// there the path's states are that machine's.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import { confirmHref } from "../../../src/features/billing/billing-parts.tsx";
import { leaveApp } from "../../../src/features/billing/use-subscription.ts";
import { browserRequest, signInThroughScreen } from "../../support/server-tab.tsx";
import { at, called, click, heading, type ScreenModel } from "./support.ts";

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
  plans: { en: "Choose your plan", es: "Elige tu plan" },
  annual: { en: "Annual", es: "Anual" },
  toAdvancedAnnual: { en: "Change to Advanced (Annual)", es: "Cambiar a Avanzado (Anual)" },
  chooseStandard: { en: "Choose Standard", es: "Elegir Estándar" },
  confirmTitle: { en: "Confirm your subscription", es: "Confirma tu suscripción" },
  whatYouPay: { en: "What you pay", es: "Qué pagas" },
  whatHappens: { en: "What happens", es: "Qué pasará" },
  invoiceName: { en: "Name on the invoice", es: "Nombre en la factura" },
  country: { en: "Country", es: "País" },
  schedule: { en: "Schedule the change", es: "Programar el cambio" },
  scheduled: {
    en: "Your change is scheduled for the end of your current period.",
    es: "Tu cambio está programado para el final de tu periodo actual.",
  },
  planInvalid: {
    en: "That plan does not exist for this product.",
    es: "Ese plan no existe para este producto.",
  },
  toPayment: { en: "Taking you to the payment page…", es: "Te llevamos a la página de pago…" },
  cancelPayment: { en: "Cancel", es: "Cancelar" },
  nothingCharged: { en: "Nothing was charged.", es: "No se ha cobrado nada." },
} as const;

/** The plan the account holds for simIndices (seeded): advanced, monthly, in euros. */
const held = {
  product: "simIndices",
  tier: "advanced",
  period: "monthly",
  currency: "EUR",
} as const;

/** Paths whose plan chosen is a downgrade (the server quotes it so); the others choose an upgrade. */
const downgrades = new Set(['"reviewingDowngrade"', '"scheduling"', '"scheduled"']);

/** The provider's pages the confirmation screen sent the browser to (leaveApp, replaced here). */
const left: string[] = [];

/** The confirmation screen's submit button (pay, confirm or schedule). */
const submit = () =>
  screen.getByRole("form").querySelector<HTMLButtonElement>('button[type="submit"]')!;

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
    // Plans cancelled by an earlier path ("cancellingSubscription"), reactivated (refused when
    // they are not cancelled).
    await post("/api/reactivate-subscription", { product: "simAssets" });
    await post("/api/reactivate-subscription", { product: "simIndices" });
    await post("/api/cancel-subscription", { product: "simMonk" });
    // A second schedule of the same change is refused; the screen's undo button (seen in
    // "ready") shows that one is scheduled either way.
    await post("/api/billing/schedule", {
      product: "simAssets",
      tier: "standard",
      period: assets?.period ?? "monthly",
    });
    left.length = 0;
    leaveApp.assign = (url) => void left.push(url);
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
    // The confirmation screen of the plan chosen, its quote asked for.
    '"quoting"': async (tab, locale) => {
      await at(tab, pathFor("subscribe-confirm", locale));
      await heading(words.confirmTitle[locale]);
      await called(tab, "POST /api/billing/quote");
    },
    // The plan held: said so, nothing to pay.
    '"current"': async (_tab, locale) => {
      await heading(words.confirmTitle[locale]);
      expect(
        await screen.findByTestId("current-plan", undefined, { timeout: 10_000 }),
      ).toBeTruthy();
      expect(screen.queryByRole("form")).toBeNull();
    },
    // A plan not on sale: said so, nothing to confirm.
    '"invalid"': async (_tab, locale) => {
      await heading(words.confirmTitle[locale]);
      const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
      expect(alert.textContent).toContain(words.planInvalid[locale]);
      expect(screen.queryByRole("form")).toBeNull();
    },
    // The quote (charged now, from the next renewal), the invoice details, the pay button.
    '"reviewingUpgrade"': async (_tab, locale) => {
      expect(
        await screen.findByRole("heading", { name: words.whatYouPay[locale] }, { timeout: 10_000 }),
      ).toBeTruthy();
      expect(screen.getByTestId("charge-now")).toBeTruthy();
      expect(screen.getByLabelText(words.invoiceName[locale])).toBeTruthy();
      expect(submit().disabled).toBe(false);
    },
    // What happens at the period end, no invoice details, the schedule button.
    '"reviewingDowngrade"': async (_tab, locale) => {
      expect(
        await screen.findByRole(
          "heading",
          { name: words.whatHappens[locale] },
          { timeout: 10_000 },
        ),
      ).toBeTruthy();
      expect(screen.queryByLabelText(words.invoiceName[locale])).toBeNull();
      expect(screen.getByRole("button", { name: words.schedule[locale] })).toBeTruthy();
    },
    // Confirmed: the button held while the invoice details are saved (looked at at once: the
    // checkout follows as soon as they are).
    '"savingInvoiceInfo"': async () => {
      expect(submit().disabled).toBe(true);
    },
    // The payment asked for (its answer may already be on the screen: the provider's page, or
    // the failure with its retry).
    '"checkingOut"': async (tab) => {
      await called(tab, "POST /api/billing/checkout");
    },
    '"scheduling"': async (tab) => {
      expect(submit().disabled).toBe(true);
      await called(tab, "POST /api/billing/schedule");
    },
    '"scheduled"': async (_tab, locale) => {
      expect(
        await screen.findByText(words.scheduled[locale], undefined, { timeout: 10_000 }),
      ).toBeTruthy();
    },
    // Off to the sandbox provider's page: said, and the browser sent there.
    '"redirecting"': async (_tab, locale) => {
      expect(
        await screen.findByText(words.toPayment[locale], undefined, { timeout: 10_000 }),
      ).toBeTruthy();
      await waitFor(() => expect(left).toHaveLength(1));
      expect(left[0]).toMatch(/sandbox/);
    },
    // The payment could not be created: the failure said, try again or cancel.
    '"checkoutFailed"': async (_tab, locale) => {
      const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
      expect(alert.textContent).toContain(words.internalError[locale]);
      expect(screen.getByRole("button", { name: words.tryAgain[locale] })).toBeTruthy();
      expect(screen.getByRole("button", { name: words.cancelPayment[locale] })).toBeTruthy();
    },
    '"cancelled"': async (_tab, locale) => {
      expect(await screen.findByText(words.nothingCharged[locale])).toBeTruthy();
      expect(left).toEqual([]);
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
    // As a person does: the billing screen's "Change plan" of a product, then on the plans screen,
    // annual: an upgrade (simIndices, advanced) or a downgrade (simAssets, standard; its change
    // to standard monthly scheduled is replaced by the one to standard annual). The plan held and a plan not on
    // sale no screen offers: their confirmation address is opened as kept (a confirmation screen
    // left open, an old or edited link).
    "plan.choose": async (tab, locale, _from, to, goal) => {
      if (to === '"current"' || to === '"invalid"') {
        const selection = to === '"current"' ? held : { ...held, tier: "gold" };
        await tab.router.navigate(confirmHref(selection, locale));
        return;
      }
      const downgrade = downgrades.has(goal);
      const product = downgrade ? "simAssets" : "simIndices";
      const links = await screen.findAllByRole("link", { name: words.changePlan[locale] });
      const link = links.find((l) => l.getAttribute("href")?.includes(`product=${product}`));
      expect(link).toBeDefined();
      fireEvent.click(link!);
      await heading(words.plans[locale]);
      await click(words.annual[locale]);
      const name = downgrade ? words.chooseStandard : words.toAdvancedAnnual;
      fireEvent.click(await screen.findByRole("link", { name: name[locale] }, { timeout: 10_000 }));
    },
    "xstate.done.actor.quote": async () => {},
    "xstate.done.actor.saveInvoiceInfo": async () => {},
    "xstate.done.actor.checkout": async () => {},
    "xstate.done.actor.scheduleChange": async () => {},
    // The invoice details filled in when the account has none yet, then the confirm button.
    "plan.confirm": async (_tab, locale) => {
      const name = screen.queryByLabelText<HTMLInputElement>(words.invoiceName[locale]);
      if (name && name.value.trim() === "") {
        fireEvent.change(name, { target: { value: "Model Path" } });
        fireEvent.change(screen.getByLabelText(words.country[locale]), {
          target: { value: "ES" },
        });
      }
      fireEvent.click(submit());
    },
    "payment.cancel": async (_tab, locale) => {
      await click(words.cancelPayment[locale]);
    },
  },
  noScreen: {},
  faults: {
    '"unavailable"': { call: "GET /api/billing" },
    '"checkoutFailed"': { call: "POST /api/billing/checkout" },
  },
  notPlayed: {
    '"startingTrial"':
      "Needs an account with a trial available (never subscribed), whose billing screen has no plan to cancel: another model's account.",
    ...Object.fromEntries(
      [
        '{"awaitingResult":"fetching"}',
        '{"awaitingResult":"waiting"}',
        '"complete"',
        '"authenticating"',
        '"failed"',
        '"timedOut"',
      ].map((state) => [
        state,
        "Reached from the checkout only by a payment created without the provider's page (none to pay there); the sandbox answers this account's checkout with its page (redirecting). The payment-complete screen, where the provider sends the browser back, starts its own machine in awaitingResult (input paymentId), not on this path.",
      ]),
    ),
  },
};
