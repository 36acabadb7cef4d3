import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { SessionFailure } from "../../machines/session.machine.ts";
import {
  invoiceInfoUpdateOf,
  subscriptionMachine,
  type SubscriptionInput,
} from "../../machines/subscription.machine.ts";
import {
  activePlan,
  demoInvoiceInfo,
  demoOverview,
  demoPayment,
  demoProductBilling,
  demoQuote,
  downgradeQuote,
  upgradeSelection,
} from "../../machines/subscription.fixtures.ts";
import type { InvoiceInfo } from "../../src/contract/accounts.ts";
import type {
  BillingOverview,
  CheckoutRequest,
  Payment,
  PlanChoice,
  Quote,
} from "../../src/contract/billing.ts";

interface Fakes {
  overview?: BillingOverview;
  invoiceInfo?: InvoiceInfo;
  quote?: (choice: PlanChoice) => Promise<Quote>;
  checkout?: (request: CheckoutRequest) => Promise<{ payment: Payment; quote: Quote }>;
  payments?: Payment[];
  /** The first load of billing fails with this. */
  loadError?: unknown;
}

function start(input: Partial<SubscriptionInput> = {}, fakes: Fakes = {}) {
  let loadError = fakes.loadError;
  const load = vi.fn(async () => {
    if (loadError) {
      const error = loadError;
      loadError = undefined;
      throw error;
    }
    return {
      overview: fakes.overview ?? demoOverview,
      invoiceInfo: fakes.invoiceInfo ?? demoInvoiceInfo,
    };
  });
  const quote = vi.fn(fakes.quote ?? (async () => demoQuote()));
  const saveInvoiceInfo = vi.fn(async (info: InvoiceInfo) => info);
  const checkout = vi.fn(
    fakes.checkout ?? (async () => ({ payment: demoPayment(), quote: demoQuote() })),
  );
  const payments = [...(fakes.payments ?? [demoPayment({ status: "succeeded" })])];
  const fetchPayment = vi.fn(async () => (payments.length > 1 ? payments.shift()! : payments[0]!));
  const overviewCall = vi.fn(async () => fakes.overview ?? demoOverview);
  const redirect = vi.fn();
  const refreshClient = vi.fn();
  const actor = createActor(
    subscriptionMachine.provide({
      actors: {
        loadBilling: fromPromise(load),
        quote: fromPromise(({ input }) => quote(input)),
        saveInvoiceInfo: fromPromise(({ input }) => saveInvoiceInfo(input as InvoiceInfo)),
        checkout: fromPromise(({ input }) => checkout(input)),
        fetchPayment: fromPromise(fetchPayment),
        scheduleChange: fromPromise(overviewCall),
        cancelScheduledChange: fromPromise(overviewCall),
        cancelSubscription: fromPromise(overviewCall),
        reactivateSubscription: fromPromise(overviewCall),
        startTrial: fromPromise(overviewCall),
      },
      actions: {
        redirectToProvider: (_, params) => redirect(params),
        refreshClient: () => refreshClient(),
      },
      delays: { pollInterval: 5, pollTimeout: 60 },
    }),
    { input: { edition: "ht", kind: "standard", ...input } },
  ).start();
  return {
    actor,
    load,
    quote,
    saveInvoiceInfo,
    checkout,
    fetchPayment,
    overviewCall,
    redirect,
    refreshClient,
  };
}

const settled = (actor: ReturnType<typeof start>["actor"], state: string) =>
  waitFor(actor, (s) => s.matches(state as never), { timeout: 1000 });

describe("subscriptionMachine starting", () => {
  it("never loads or sells anything to a TT account (isTtAccount)", () => {
    const s = start({ kind: "TT", selection: upgradeSelection });
    expect(s.actor.getSnapshot().value).toBe("ready");
    expect(s.actor.getSnapshot().context.error).toBe("ACCOUNT_KIND_FORBIDDEN");
    expect(s.load).not.toHaveBeenCalled();
  });

  it("shows a guest the plans without loading billing (isSignedIn)", () => {
    const s = start({ kind: null });
    expect(s.actor.getSnapshot().value).toBe("ready");
    expect(s.load).not.toHaveBeenCalled();
  });

  it("loads a signed-in client's billing and invoice info", async () => {
    const s = start();
    await settled(s.actor, "ready");
    expect(s.load).toHaveBeenCalledTimes(1);
    expect(s.actor.getSnapshot().context.overview).toEqual(demoOverview);
    expect(s.actor.getSnapshot().context.invoiceInfo).toEqual(demoInvoiceInfo);
  });

  it("polls the payment the provider sent the browser back with (resumesPayment)", async () => {
    const s = start({ paymentId: "pay_0001" });
    await settled(s.actor, "complete");
    expect(s.fetchPayment).toHaveBeenCalledWith(
      expect.objectContaining({ input: { id: "pay_0001" } }),
    );
    expect(s.load).not.toHaveBeenCalled();
  });

  it("compares the plan of the query string once billing is loaded (hasSelection)", async () => {
    const s = start({ selection: upgradeSelection });
    await settled(s.actor, "reviewingUpgrade");
    expect(s.quote).toHaveBeenCalledTimes(1);
    expect(s.quote.mock.calls[0]![0]).toEqual(upgradeSelection);
    expect(s.actor.getSnapshot().context.planId).toBe(5);
  });

  it("goes to unavailable when billing cannot be loaded, and tries again", async () => {
    const s = start({}, { loadError: new SessionFailure("NETWORK_ERROR") });
    await settled(s.actor, "unavailable");
    expect(s.actor.getSnapshot().context.error).toBe("NETWORK_ERROR");
    s.actor.send({ type: "billing.retry" });
    await settled(s.actor, "ready");
    expect(s.load).toHaveBeenCalledTimes(2);
    expect(s.actor.getSnapshot().context.error).toBeNull();
  });
});

describe("subscriptionMachine comparing (specification section 4)", () => {
  it.each([
    ["simIndices has no standard tier", { product: "simIndices", tier: "standard" }],
    ["free is not a plan on sale", { tier: "free" }],
    ["an unknown tier", { tier: "premium" }],
    ["an unknown period", { period: "weekly" }],
    ["an unknown currency", { currency: "GBP" }],
  ] as const)("calls %s invalid without asking for a quote (isInvalidPlan)", async (_, over) => {
    const s = start();
    await settled(s.actor, "ready");
    s.actor.send({ type: "plan.choose", selection: { ...upgradeSelection, ...over } });
    expect(s.actor.getSnapshot().value).toBe("invalid");
    expect(s.actor.getSnapshot().context.change).toBe("invalid");
    expect(s.quote).not.toHaveBeenCalled();
  });

  it("calls the plan held now current (isCurrentPlan)", async () => {
    const s = start();
    await settled(s.actor, "ready");
    s.actor.send({
      type: "plan.choose",
      selection: { ...upgradeSelection, tier: "standard", period: "annual" },
    });
    expect(s.actor.getSnapshot().value).toBe("current");
    expect(s.quote).not.toHaveBeenCalled();
  });

  it("takes the plan id by product and currency (planIdFor, section 9)", async () => {
    const s = start();
    await settled(s.actor, "ready");
    s.actor.send({
      type: "plan.choose",
      selection: { product: "simIndices", tier: "advanced", period: "monthly", currency: "USD" },
    });
    expect(s.actor.getSnapshot().context.planId).toBe(8);
    expect(s.actor.getSnapshot().context.change).toBe("upgrade");
  });

  it("reviews an upgrade, a downgrade, or the current plan as the server's quote says", async () => {
    const cases = [
      [demoQuote(), "reviewingUpgrade"],
      [downgradeQuote, "reviewingDowngrade"],
      [demoQuote({ change: "current" }), "current"],
      [demoQuote({ change: "invalid" }), "invalid"],
    ] as const;
    for (const [quote, state] of cases) {
      const s = start({ selection: upgradeSelection }, { quote: async () => quote });
      await settled(s.actor, state);
      expect(s.actor.getSnapshot().context.quote).toEqual(quote);
      s.actor.stop();
    }
  });

  it("sends a failed quote to unavailable; trying again reloads and quotes again", async () => {
    const quote = vi
      .fn<() => Promise<Quote>>()
      .mockRejectedValueOnce(new SessionFailure("NETWORK_ERROR"))
      .mockResolvedValue(demoQuote());
    const s = start({ selection: upgradeSelection }, { quote });
    await settled(s.actor, "unavailable");
    expect(s.actor.getSnapshot().context.error).toBe("NETWORK_ERROR");
    s.actor.send({ type: "billing.retry" });
    await settled(s.actor, "reviewingUpgrade");
    expect(s.load).toHaveBeenCalledTimes(2);
  });
});

describe("subscriptionMachine paying an upgrade", () => {
  it("refuses to pay without a name and a country (canCheckout): INVOICE_INFO_REQUIRED", async () => {
    const s = start(
      { selection: upgradeSelection },
      { invoiceInfo: { ...demoInvoiceInfo, name: " ", country: "" } },
    );
    await settled(s.actor, "reviewingUpgrade");
    s.actor.send({ type: "plan.confirm" });
    expect(s.actor.getSnapshot().value).toBe("reviewingUpgrade");
    expect(s.actor.getSnapshot().context.error).toBe("INVOICE_INFO_REQUIRED");
    expect(s.saveInvoiceInfo).not.toHaveBeenCalled();

    s.actor.send({ type: "invoiceInfo.change", info: { name: "Ada", country: "es" } });
    expect(s.actor.getSnapshot().context.error).toBeNull();
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "redirecting");
    expect(s.saveInvoiceInfo.mock.calls[0]![0]).toMatchObject({ name: "Ada", country: "ES" });
  });

  it("refuses a company without its name", async () => {
    const s = start(
      { selection: upgradeSelection },
      { invoiceInfo: { ...demoInvoiceInfo, company: true, companyName: "" } },
    );
    await settled(s.actor, "reviewingUpgrade");
    s.actor.send({ type: "plan.confirm" });
    expect(s.actor.getSnapshot().context.error).toBe("INVOICE_INFO_REQUIRED");
  });

  it("saves the invoice info, checks out with one key and goes to the provider (needsRedirect)", async () => {
    const s = start({ selection: upgradeSelection });
    await settled(s.actor, "reviewingUpgrade");
    const key = s.actor.getSnapshot().context.idempotencyKey!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{16,100}$/);
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "redirecting");
    expect(s.saveInvoiceInfo).toHaveBeenCalledWith(invoiceInfoUpdateOf(demoInvoiceInfo));
    // The quote shown is named, so the checkout pays its figures (honoured for 30 minutes).
    expect(s.checkout.mock.calls[0]![0]).toEqual({
      ...upgradeSelection,
      idempotencyKey: key,
      quoteId: "q_demo0000000001",
    });
    expect(s.redirect).toHaveBeenCalledWith({
      url: demoPayment().redirectUrl,
      paymentId: "pay_0001",
      previousTier: "standard",
    });
  });

  it("polls at once when the payment names no page to go to", async () => {
    const s = start(
      { selection: upgradeSelection },
      {
        checkout: async () => ({ payment: demoPayment({ redirectUrl: null }), quote: demoQuote() }),
      },
    );
    await settled(s.actor, "reviewingUpgrade");
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "complete");
    expect(s.redirect).not.toHaveBeenCalled();
    expect(s.fetchPayment).toHaveBeenCalled();
  });

  it("retries a failed checkout with the same key (the same request)", async () => {
    const checkout = vi
      .fn<(r: CheckoutRequest) => Promise<{ payment: Payment; quote: Quote }>>()
      .mockRejectedValueOnce(new SessionFailure("NETWORK_ERROR"))
      .mockResolvedValue({ payment: demoPayment(), quote: demoQuote() });
    const s = start({ selection: upgradeSelection }, { checkout });
    await settled(s.actor, "reviewingUpgrade");
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "checkoutFailed");
    expect(s.actor.getSnapshot().context.error).toBe("NETWORK_ERROR");
    s.actor.send({ type: "payment.retry" });
    await settled(s.actor, "redirecting");
    const keys = checkout.mock.calls.map(([r]) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it("quotes again and asks again when the confirmed quote is older than 30 minutes (isQuoteExpired)", async () => {
    const checkout = vi
      .fn<(r: CheckoutRequest) => Promise<{ payment: Payment; quote: Quote }>>()
      .mockRejectedValueOnce(new SessionFailure("QUOTE_EXPIRED"))
      .mockResolvedValue({ payment: demoPayment(), quote: demoQuote() });
    const quotes = [demoQuote(), demoQuote({ chargeNowCents: 1003, quoteId: "q_demo0000000002" })];
    const s = start(
      { selection: upgradeSelection },
      { checkout, quote: async () => quotes.shift() ?? demoQuote() },
    );
    await settled(s.actor, "reviewingUpgrade");
    const firstKey = s.actor.getSnapshot().context.idempotencyKey;
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "reviewingUpgrade");
    // The new figure is shown with why, and nothing is paid until it is confirmed again.
    const context = s.actor.getSnapshot().context;
    expect([context.error, context.quote?.chargeNowCents]).toEqual(["QUOTE_EXPIRED", 1003]);
    expect(context.idempotencyKey).not.toBe(firstKey);
    expect(checkout).toHaveBeenCalledTimes(1);
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "redirecting");
    expect(checkout.mock.calls[1]![0].quoteId).toBe("q_demo0000000002");
  });

  it("shows the plan held, with nothing to retry, when the confirm screen is stale (isStaleChange)", async () => {
    const s = start(
      { selection: upgradeSelection },
      { checkout: async () => Promise.reject(new SessionFailure("PLAN_CURRENT")) },
    );
    await settled(s.actor, "reviewingUpgrade");
    s.load.mockResolvedValueOnce({
      overview: {
        ...demoOverview,
        products: demoOverview.products.map((p) =>
          p.product === "simAssets"
            ? {
                ...p,
                subscription: { ...p.subscription, tier: "advanced" as const },
                period: "monthly" as const,
              }
            : p,
        ),
      },
      invoiceInfo: demoInvoiceInfo,
    });
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "current");
    expect(s.actor.getSnapshot().context.quote).toBeNull();
    expect(s.actor.getSnapshot().can({ type: "payment.retry" })).toBe(false);
  });

  it("cancels after a failed checkout", async () => {
    const s = start(
      { selection: upgradeSelection },
      { checkout: async () => Promise.reject(new SessionFailure("PAYMENT_IN_PROGRESS")) },
    );
    await settled(s.actor, "reviewingUpgrade");
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "checkoutFailed");
    s.actor.send({ type: "payment.cancel" });
    expect(s.actor.getSnapshot().value).toBe("cancelled");
  });
});

describe("subscriptionMachine payment result (payment-complete)", () => {
  it("completes on success and reloads the client's permissions (paymentSucceeded)", async () => {
    const s = start(
      { paymentId: "pay_0001" },
      {
        payments: [
          demoPayment(),
          demoPayment({ status: "succeeded", invoiceNumber: "2026-000002" }),
        ],
      },
    );
    expect(s.actor.getSnapshot().matches("awaitingResult")).toBe(true);
    await settled(s.actor, "complete");
    expect(s.fetchPayment).toHaveBeenCalledTimes(2);
    expect(s.refreshClient).toHaveBeenCalledTimes(1);
    expect(s.actor.getSnapshot().context.payment?.invoiceNumber).toBe("2026-000002");
  });

  it("asks for the authentication step (paymentNeedsAction) and goes to the challenge", async () => {
    const challenge = "/api/billing/sandbox/challenge/pay_0001";
    const s = start(
      { paymentId: "pay_0001", previousTier: "free" },
      { payments: [demoPayment({ status: "requires_action", redirectUrl: challenge })] },
    );
    await settled(s.actor, "authenticating");
    s.actor.send({ type: "payment.authenticate" });
    expect(s.redirect).toHaveBeenCalledWith({
      url: challenge,
      paymentId: "pay_0001",
      previousTier: "free",
    });
    s.actor.send({ type: "payment.cancel" });
    expect(s.actor.getSnapshot().value).toBe("cancelled");
  });

  it.each(["failed", "cancelled"] as const)(
    "fails on a %s payment (paymentFailed) and retries the same plan with a new key (mayRetry)",
    async (status) => {
      const s = start(
        { paymentId: "pay_0001" },
        { payments: [demoPayment({ status, failureCode: "card_declined", redirectUrl: null })] },
      );
      await settled(s.actor, "failed");
      expect(s.refreshClient).not.toHaveBeenCalled();
      s.actor.send({ type: "payment.retry" });
      await settled(s.actor, "redirecting");
      const request = s.checkout.mock.calls[0]![0];
      expect(request).toMatchObject({
        product: "simAssets",
        tier: "advanced",
        period: "monthly",
        currency: "EUR",
      });
      expect(request.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{16,100}$/);

      // A second failure and a second retry: another new key.
      const first = request.idempotencyKey;
      s.actor.stop();
      const again = start(
        { paymentId: "pay_0001" },
        { payments: [demoPayment({ status, redirectUrl: null })] },
      );
      await settled(again.actor, "failed");
      again.actor.send({ type: "payment.retry" });
      await settled(again.actor, "redirecting");
      expect(again.checkout.mock.calls[0]![0].idempotencyKey).not.toBe(first);
    },
  );

  it("stops polling after the time limit, and checks again on request", async () => {
    const s = start({ paymentId: "pay_0001" }, { payments: [demoPayment()] });
    await settled(s.actor, "timedOut");
    const polls = s.fetchPayment.mock.calls.length;
    expect(polls).toBeGreaterThan(1);
    s.actor.send({ type: "payment.check" });
    expect(s.actor.getSnapshot().matches("awaitingResult")).toBe(true);
    await settled(s.actor, "timedOut");
    expect(s.fetchPayment.mock.calls.length).toBeGreaterThan(polls);
  });

  it("keeps polling through a failed poll", async () => {
    const s = start({ paymentId: "pay_0001" });
    s.fetchPayment.mockRejectedValueOnce(new SessionFailure("NETWORK_ERROR"));
    await settled(s.actor, "complete");
  });
});

describe("subscriptionMachine downgrades", () => {
  it("schedules a downgrade for the period end, nothing paid (isDowngradeQuote, mayBuy)", async () => {
    const s = start(
      { selection: { ...upgradeSelection, tier: "standard", period: "monthly" } },
      { quote: async () => downgradeQuote },
    );
    await settled(s.actor, "reviewingDowngrade");
    s.actor.send({ type: "plan.confirm" });
    await settled(s.actor, "scheduled");
    expect(s.overviewCall).toHaveBeenCalledWith(
      expect.objectContaining({
        input: { product: "simAssets", tier: "standard", period: "monthly" },
      }),
    );
    expect(s.checkout).not.toHaveBeenCalled();
    expect(s.saveInvoiceInfo).not.toHaveBeenCalled();
  });
});

describe("subscriptionMachine account actions", () => {
  const overview: BillingOverview = {
    products: [
      activePlan("simAssets", "standard"),
      activePlan("simMonk", "advanced", {
        subscription: { ...activePlan("simMonk", "advanced").subscription, cancelled: true },
        state: "cancelled",
      }),
      demoProductBilling("simIndices"),
    ],
    balances: [],
    invoices: [],
  };

  it("cancels a renewing plan (canCancel) and refuses a free one", async () => {
    const s = start({}, { overview });
    await settled(s.actor, "ready");
    s.actor.send({ type: "subscription.cancel", product: "simIndices" });
    expect(s.actor.getSnapshot().context.error).toBe("NOT_SUBSCRIBED");
    s.actor.send({ type: "subscription.cancel", product: "simMonk" });
    expect(s.actor.getSnapshot().context.error).toBe("NOT_SUBSCRIBED");
    expect(s.overviewCall).not.toHaveBeenCalled();
    // The second question first: keeping the plan changes nothing.
    s.actor.send({ type: "subscription.cancel", product: "simAssets" });
    expect(s.actor.getSnapshot().value).toBe("confirmingCancel");
    s.actor.send({ type: "cancel.keep" });
    expect(s.actor.getSnapshot().value).toBe("ready");
    expect(s.overviewCall).not.toHaveBeenCalled();
    s.actor.send({ type: "subscription.cancel", product: "simAssets" });
    s.actor.send({ type: "cancel.confirm" });
    expect(s.actor.getSnapshot().value).toBe("cancellingSubscription");
    await settled(s.actor, "ready");
    expect(s.overviewCall).toHaveBeenCalledTimes(1);
    expect(s.actor.getSnapshot().context.done).toBe("cancelled");
    expect(s.refreshClient).toHaveBeenCalled();
  });

  it("reactivates a cancelled plan (canReactivate) and refuses a renewing one", async () => {
    const s = start({}, { overview });
    await settled(s.actor, "ready");
    s.actor.send({ type: "subscription.reactivate", product: "simAssets" });
    expect(s.actor.getSnapshot().context.error).toBe("NOT_CANCELLED");
    s.actor.send({ type: "subscription.reactivate", product: "simMonk" });
    expect(s.actor.getSnapshot().value).toBe("reactivating");
    await settled(s.actor, "ready");
    expect(s.actor.getSnapshot().context.done).toBe("reactivated");
  });

  it("undoes a scheduled change (hasScheduledChange) and refuses when there is none", async () => {
    const s = start();
    await settled(s.actor, "ready");
    s.actor.send({ type: "change.undo", product: "simMonk" });
    expect(s.actor.getSnapshot().context.error).toBe("NO_SCHEDULED_CHANGE");
    s.actor.send({ type: "change.undo", product: "simAssets" });
    expect(s.actor.getSnapshot().value).toBe("undoingChange");
    await settled(s.actor, "ready");
    expect(s.actor.getSnapshot().context.done).toBe("changeUndone");
  });

  it("starts the trial of a free product in ht (canStartTrial)", async () => {
    const s = start({}, { overview });
    await settled(s.actor, "ready");
    s.actor.send({ type: "trial.start", product: "simAssets" });
    expect(s.actor.getSnapshot().context.error).toBe("TRIAL_UNAVAILABLE");
    s.actor.send({ type: "trial.start", product: "simIndices" });
    expect(s.actor.getSnapshot().value).toBe("startingTrial");
    await settled(s.actor, "ready");
    expect(s.actor.getSnapshot().context.done).toBe("trialStarted");
    expect(s.refreshClient).toHaveBeenCalled();
  });

  it("offers no trial in tt, nor once it is used", async () => {
    const tt = start({ edition: "tt" }, { overview });
    await settled(tt.actor, "ready");
    tt.actor.send({ type: "trial.start", product: "simIndices" });
    expect(tt.actor.getSnapshot().context.error).toBe("TRIAL_UNAVAILABLE");

    const used = start(
      {},
      {
        overview: {
          ...overview,
          products: [demoProductBilling("simIndices", { trialAvailable: false })],
        },
      },
    );
    await settled(used.actor, "ready");
    used.actor.send({ type: "trial.start", product: "simIndices" });
    expect(used.actor.getSnapshot().context.error).toBe("TRIAL_UNAVAILABLE");
    expect(used.overviewCall).not.toHaveBeenCalled();
  });

  it("keeps the plan as it was when a call fails", async () => {
    const s = start({}, { overview });
    await settled(s.actor, "ready");
    s.overviewCall.mockRejectedValueOnce(new SessionFailure("ALREADY_CANCELLED"));
    s.actor.send({ type: "subscription.cancel", product: "simAssets" });
    s.actor.send({ type: "cancel.confirm" });
    await settled(s.actor, "ready");
    expect(s.actor.getSnapshot().context.error).toBe("ALREADY_CANCELLED");
    expect(s.actor.getSnapshot().context.overview).toEqual(overview);
  });
});
