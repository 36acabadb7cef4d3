import { assertEvent, assign, fromPromise, setup } from "xstate";
import type { InvoiceInfo } from "../src/contract/accounts.ts";
import {
  planIdFor,
  type BillingOverview,
  type CheckoutRequest,
  type CheckoutResponse,
  type InvoiceInfoUpdate,
  type Payment,
  type PlanChoice,
  type ProductRequest,
  type Quote,
  type ScheduleRequest,
} from "../src/contract/billing.ts";
import type { Edition, Product } from "../src/contract/common.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import type { Tier, TierChange } from "../src/contract/permissions.ts";
import type { AccountKind } from "./guards/access-facts.ts";
import {
  billingOf,
  canCancel,
  canReactivate,
  canStartTrial,
  currentPlanOf,
  hasScheduledChange,
  invoiceInfoComplete,
  mayBuy,
  planChangeOf,
  validChoice,
  type PlanSelection,
} from "./guards/billing-facts.ts";
import { SessionFailure } from "./session.machine.ts";

/** How often the payment-complete screen asks for the payment's result, and for how long. */
export const POLL_INTERVAL_MS = 1000;
export const POLL_TIMEOUT_MS = 60_000;

/**
 * A key for one confirmation (16-100 characters of [A-Za-z0-9_-]): the server answers a repeated
 * key with the first payment, so a retried request never charges twice.
 */
export const newIdempotencyKey = (): string => crypto.randomUUID().replaceAll("-", "");

const failureOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

/** What a successful change of the account did, for the screen to confirm in words. */
export type BillingDone = "cancelled" | "reactivated" | "changeUndone" | "trialStarted";

export type SubscriptionEvent =
  | { type: "plan.choose"; selection: PlanSelection }
  | { type: "plan.confirm" }
  | { type: "invoiceInfo.change"; info: Partial<InvoiceInfo> }
  | { type: "payment.retry" }
  | { type: "payment.cancel" }
  | { type: "payment.check" }
  | { type: "payment.authenticate" }
  | { type: "subscription.cancel"; product: Product }
  | { type: "cancel.confirm" }
  | { type: "cancel.keep" }
  | { type: "subscription.reactivate"; product: Product }
  | { type: "change.undo"; product: Product }
  | { type: "trial.start"; product: Product }
  | { type: "billing.retry" };

export interface SubscriptionInput {
  readonly edition: Edition;
  /** The signed-in account's kind; null for a guest. */
  readonly kind: AccountKind | null;
  /**
   * A plan asked for before the machine starts: compared with the current plan once billing loads.
   * The confirmation screen does not give it: it sends `plan.choose` once the machine is ready.
   */
  readonly selection?: PlanSelection | null;
  /** The payment the provider sent the browser back with (payment-complete). */
  readonly paymentId?: string | null;
  /** The tier held before the payment, to say what it unlocked. */
  readonly previousTier?: Tier | null;
}

export interface SubscriptionContext {
  readonly edition: Edition;
  readonly kind: AccountKind | null;
  readonly selection: PlanSelection | null;
  /** The selection once it names a plan on sale. */
  readonly choice: PlanChoice | null;
  /** Section 9: the plan id of the choice's product and currency. */
  readonly planId: number | null;
  readonly change: TierChange | null;
  readonly overview: BillingOverview | null;
  /** The invoice info as loaded, then as the user edits it. */
  readonly invoiceInfo: InvoiceInfo | null;
  readonly quote: Quote | null;
  /** Made once per confirmation; a retry of the same request keeps it. */
  readonly idempotencyKey: string | null;
  readonly paymentId: string | null;
  readonly payment: Payment | null;
  readonly previousTier: Tier | null;
  readonly done: BillingDone | null;
  readonly error: MsgCode | null;
  /** The product whose cancellation waits for the second question's answer. */
  readonly cancelling: Product | null;
}

export const emptyInvoiceInfo: InvoiceInfo = {
  name: "",
  country: "",
  tin: "",
  city: "",
  address: "",
  postalCode: "",
  companyName: "",
  company: false,
};

/** The PUT body of an invoice info draft: trimmed, the country in capitals. */
export function invoiceInfoUpdateOf(info: InvoiceInfo): InvoiceInfoUpdate {
  return {
    name: info.name.trim(),
    country: info.country.trim().toUpperCase(),
    tin: info.tin.trim(),
    city: info.city.trim(),
    address: info.address.trim(),
    postalCode: info.postalCode.trim(),
    companyName: info.company ? info.companyName.trim() : "",
    company: info.company,
  };
}

/** Name and country, and a company name for a company: what checkout needs (400 otherwise). */
export const invoiceInfoReady = (info: InvoiceInfo | null): boolean =>
  info !== null &&
  invoiceInfoComplete(invoiceInfoUpdateOf(info)) &&
  (!info.company || info.companyName.trim().length > 0);

const productOf = (event: SubscriptionEvent): Product | null =>
  "product" in event ? event.product : null;

/**
 * Plans, payments and billing (PRODUCT.md "Money", specification section 4): choose a product,
 * tier and period; compare it with the current plan (upgrade, downgrade, current, invalid); review
 * the quote with the invoice info; an upgrade pays at the provider's checkout page and the
 * payment-complete screen polls its result (with an authentication step, retry and cancel); a
 * downgrade is scheduled for the period end. Also cancel, reactivate, undo a scheduled change and
 * start the trial. Every call and the redirect are abstract: the app provides them.
 */
export const subscriptionMachine = setup({
  types: {
    input: {} as SubscriptionInput,
    context: {} as SubscriptionContext,
    events: {} as SubscriptionEvent,
  },
  actors: {
    /** GET /billing and GET /client/invoice-info. */
    loadBilling: fromPromise<{ overview: BillingOverview; invoiceInfo: InvoiceInfo }>(async () => {
      throw new Error("loadBilling must be provided");
    }),
    quote: fromPromise<Quote, PlanChoice>(async () => {
      throw new Error("quote must be provided");
    }),
    saveInvoiceInfo: fromPromise<InvoiceInfo, InvoiceInfoUpdate>(async () => {
      throw new Error("saveInvoiceInfo must be provided");
    }),
    checkout: fromPromise<CheckoutResponse, CheckoutRequest>(async () => {
      throw new Error("checkout must be provided");
    }),
    fetchPayment: fromPromise<Payment, { id: string }>(async () => {
      throw new Error("fetchPayment must be provided");
    }),
    scheduleChange: fromPromise<BillingOverview, ScheduleRequest>(async () => {
      throw new Error("scheduleChange must be provided");
    }),
    cancelScheduledChange: fromPromise<BillingOverview, ProductRequest>(async () => {
      throw new Error("cancelScheduledChange must be provided");
    }),
    cancelSubscription: fromPromise<BillingOverview, ProductRequest>(async () => {
      throw new Error("cancelSubscription must be provided");
    }),
    reactivateSubscription: fromPromise<BillingOverview, ProductRequest>(async () => {
      throw new Error("reactivateSubscription must be provided");
    }),
    startTrial: fromPromise<BillingOverview, ProductRequest>(async () => {
      throw new Error("startTrial must be provided");
    }),
  },
  delays: { pollInterval: POLL_INTERVAL_MS, pollTimeout: POLL_TIMEOUT_MS },
  actions: {
    /** Leaves the app for the provider's page (checkout or authentication step). */
    redirectToProvider: (
      _,
      _params: { url: string; paymentId: string; previousTier: Tier | null },
    ) => {
      throw new Error("redirectToProvider must be provided");
    },
    /** Reloads the session's client (GET /client) so that permissions change at once. */
    refreshClient: () => {
      throw new Error("refreshClient must be provided");
    },
    compareSelection: assign(({ context, event }) => {
      const selection =
        event.type === "plan.choose" ? event.selection : (context.selection as PlanSelection);
      const choice = validChoice(selection);
      return {
        selection,
        choice,
        planId: choice ? planIdFor(choice.product, choice.currency) : null,
        change: planChangeOf(selection, context.overview),
        quote: null,
        idempotencyKey: null,
        error: null,
        done: null,
      };
    }),
    reportConfirmProblem: assign({
      error: ({ context }): MsgCode =>
        mayBuy(context.kind) ? "INVOICE_INFO_REQUIRED" : "ACCOUNT_KIND_FORBIDDEN",
    }),
    keepQuote: assign((_, params: { quote: Quote }) => ({
      quote: params.quote,
      change: params.quote.change,
      // One key per confirmation: every try of this checkout repeats it.
      idempotencyKey: newIdempotencyKey(),
    })),
    editInvoiceInfo: assign({
      invoiceInfo: ({ context, event }) => {
        assertEvent(event, "invoiceInfo.change");
        return { ...(context.invoiceInfo ?? emptyInvoiceInfo), ...event.info };
      },
      error: null,
    }),
    reportError: assign({
      error: (_, params: { error: unknown }) => failureOf(params.error),
    }),
    keepOverview: assign({
      overview: (_, params: { overview: BillingOverview }) => params.overview,
      error: null,
    }),
  },
  guards: {
    isTtAccount: ({ context }) => context.kind === "TT",
    resumesPayment: ({ context }) => context.paymentId !== null,
    isSignedIn: ({ context }) => context.kind !== null,
    hasSelection: ({ context }) => context.selection !== null,
    isInvalidPlan: ({ context }) => context.change === "invalid",
    isCurrentPlan: ({ context }) => context.change === "current",
    isUpgradeQuote: (_, params: { quote: Quote }) => params.quote.change === "upgrade",
    isDowngradeQuote: (_, params: { quote: Quote }) =>
      params.quote.change === "downgrade" && params.quote.appliesAt === "periodEnd",
    isCurrentQuote: (_, params: { quote: Quote }) => params.quote.change === "current",
    /** The confirmed quote is older than 30 minutes: the new figure is shown and asked again. */
    isQuoteExpired: (_, params: { error: unknown }) => failureOf(params.error) === "QUOTE_EXPIRED",
    /** The confirm screen is stale: the plan was bought (or changed) meanwhile, e.g. in another tab. */
    isStaleChange: (_, params: { error: unknown }) => {
      const code = failureOf(params.error);
      return code === "PLAN_CURRENT" || code === "PLAN_IS_DOWNGRADE";
    },
    mayBuy: ({ context }) => mayBuy(context.kind),
    canCheckout: ({ context }) => mayBuy(context.kind) && invoiceInfoReady(context.invoiceInfo),
    needsRedirect: (_, params: { payment: Payment }) =>
      params.payment.redirectUrl !== null &&
      (params.payment.status === "pending" || params.payment.status === "requires_action"),
    paymentSucceeded: (_, params: { payment: Payment }) => params.payment.status === "succeeded",
    paymentNeedsAction: (_, params: { payment: Payment }) =>
      params.payment.status === "requires_action" && params.payment.redirectUrl !== null,
    paymentFailed: (_, params: { payment: Payment }) =>
      params.payment.status === "failed" || params.payment.status === "cancelled",
    mayRetry: ({ context }) => mayBuy(context.kind) && context.payment !== null,
    canCancel: ({ context, event }) => {
      const product = productOf(event);
      return product !== null && canCancel(billingOf(context.overview, product));
    },
    canReactivate: ({ context, event }) => {
      const product = productOf(event);
      return product !== null && canReactivate(billingOf(context.overview, product));
    },
    hasScheduledChange: ({ context, event }) => {
      const product = productOf(event);
      return product !== null && hasScheduledChange(billingOf(context.overview, product));
    },
    canStartTrial: ({ context, event }) => {
      const product = productOf(event);
      return (
        product !== null &&
        canStartTrial(context.edition, context.kind, billingOf(context.overview, product))
      );
    },
  },
}).createMachine({
  id: "subscription",
  description:
    "Plans, payments and billing (PRODUCT.md Money; specification section 4): choose, compare, confirm, pay, poll; downgrade, cancel, reactivate, trial.",
  context: ({ input }) => ({
    edition: input.edition,
    kind: input.kind,
    selection: input.selection ?? null,
    choice: null,
    planId: null,
    change: null,
    overview: null,
    invoiceInfo: null,
    quote: null,
    idempotencyKey: null,
    paymentId: input.paymentId ?? null,
    payment: null,
    previousTier: input.previousTier ?? null,
    done: null,
    error: null,
    cancelling: null,
  }),
  initial: "starting",
  states: {
    starting: {
      always: [
        // The route guards keep TT accounts out; should one get here, nothing is loaded or sold.
        {
          guard: "isTtAccount",
          target: "ready",
          actions: assign({ error: "ACCOUNT_KIND_FORBIDDEN" }),
        },
        { guard: "resumesPayment", target: "awaitingResult" },
        { guard: "isSignedIn", target: "loading" },
        { target: "ready" },
      ],
    },
    loading: {
      description: "The client's plans, invoices and invoice info.",
      invoke: {
        id: "loadBilling",
        src: "loadBilling",
        onDone: [
          {
            guard: "hasSelection",
            target: "comparing",
            actions: [
              assign(({ event }) => ({
                overview: event.output.overview,
                invoiceInfo: event.output.invoiceInfo,
              })),
              "compareSelection",
            ],
          },
          {
            target: "ready",
            actions: assign(({ event }) => ({
              overview: event.output.overview,
              invoiceInfo: event.output.invoiceInfo,
              error: null,
            })),
          },
        ],
        onError: {
          target: "unavailable",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    unavailable: {
      description: "Billing could not be loaded (or the quote failed): try again.",
      on: { "billing.retry": { target: "loading", actions: assign({ error: null }) } },
    },
    ready: {
      description: "The plans (and, signed in, the client's plan per product).",
      on: {
        "plan.choose": { target: "comparing", actions: "compareSelection" },
        "subscription.cancel": [
          {
            guard: "canCancel",
            target: "confirmingCancel",
            actions: assign({ error: null, done: null, cancelling: ({ event }) => event.product }),
          },
          { actions: assign({ error: "NOT_SUBSCRIBED" }) },
        ],
        "subscription.reactivate": [
          { guard: "canReactivate", target: "reactivating", actions: assign({ error: null }) },
          { actions: assign({ error: "NOT_CANCELLED" }) },
        ],
        "change.undo": [
          {
            guard: "hasScheduledChange",
            target: "undoingChange",
            actions: assign({ error: null }),
          },
          { actions: assign({ error: "NO_SCHEDULED_CHANGE" }) },
        ],
        "trial.start": [
          { guard: "canStartTrial", target: "startingTrial", actions: assign({ error: null }) },
          { actions: assign({ error: "TRIAL_UNAVAILABLE" }) },
        ],
      },
    },
    comparing: {
      always: [
        { guard: "isInvalidPlan", target: "invalid" },
        { guard: "isCurrentPlan", target: "current" },
        { target: "quoting" },
      ],
    },
    invalid: {
      description: "The tier, period or currency names no plan of the product.",
      on: { "plan.choose": { target: "comparing", actions: "compareSelection" } },
    },
    current: {
      description: "The client already has this plan.",
      on: { "plan.choose": { target: "comparing", actions: "compareSelection" } },
    },
    quoting: {
      description: "The proration preview: charged now, credit, VAT, and from the next renewal.",
      invoke: {
        id: "quote",
        src: "quote",
        input: ({ context }) => context.choice!,
        // The server's quote is the word on the change (a plan may have ended since it loaded).
        onDone: [
          {
            guard: { type: "isUpgradeQuote", params: ({ event }) => ({ quote: event.output }) },
            target: "reviewingUpgrade",
            actions: { type: "keepQuote", params: ({ event }) => ({ quote: event.output }) },
          },
          {
            guard: { type: "isDowngradeQuote", params: ({ event }) => ({ quote: event.output }) },
            target: "reviewingDowngrade",
            actions: { type: "keepQuote", params: ({ event }) => ({ quote: event.output }) },
          },
          {
            guard: { type: "isCurrentQuote", params: ({ event }) => ({ quote: event.output }) },
            target: "current",
            actions: { type: "keepQuote", params: ({ event }) => ({ quote: event.output }) },
          },
          {
            target: "invalid",
            actions: { type: "keepQuote", params: ({ event }) => ({ quote: event.output }) },
          },
        ],
        onError: {
          target: "unavailable",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    reviewingUpgrade: {
      description:
        "Charged now (prorated) and from the next renewal; the invoice info; confirming pays.",
      on: {
        "invoiceInfo.change": { actions: "editInvoiceInfo" },
        "plan.choose": { target: "comparing", actions: "compareSelection" },
        "plan.confirm": [
          { guard: "canCheckout", target: "savingInvoiceInfo", actions: assign({ error: null }) },
          { actions: "reportConfirmProblem" },
        ],
      },
    },
    reviewingDowngrade: {
      description:
        "What happens at the period end (and any saved portfolios over the new limit); confirming schedules it.",
      on: {
        "plan.choose": { target: "comparing", actions: "compareSelection" },
        "plan.confirm": [
          { guard: "mayBuy", target: "scheduling", actions: assign({ error: null }) },
          { actions: "reportConfirmProblem" },
        ],
      },
    },
    scheduling: {
      invoke: {
        id: "scheduleChange",
        src: "scheduleChange",
        input: ({ context }) => ({
          product: context.choice!.product,
          tier: context.choice!.tier,
          period: context.choice!.period,
        }),
        onDone: {
          target: "scheduled",
          actions: [
            { type: "keepOverview", params: ({ event }) => ({ overview: event.output }) },
            "refreshClient",
          ],
        },
        onError: {
          target: "reviewingDowngrade",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    scheduled: {
      description: "The downgrade waits for the end of the period; nothing is charged now.",
      on: { "plan.choose": { target: "comparing", actions: "compareSelection" } },
    },
    savingInvoiceInfo: {
      invoke: {
        id: "saveInvoiceInfo",
        src: "saveInvoiceInfo",
        input: ({ context }) => invoiceInfoUpdateOf(context.invoiceInfo!),
        onDone: {
          target: "checkingOut",
          actions: assign({ invoiceInfo: ({ event }) => event.output }),
        },
        onError: {
          target: "reviewingUpgrade",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    checkingOut: {
      description: "Creating the payment (idempotent: the same key never charges twice).",
      invoke: {
        id: "checkout",
        src: "checkout",
        input: ({ context }) => ({
          ...context.choice!,
          idempotencyKey: context.idempotencyKey!,
          // The quote shown is the one paid (honoured for 30 minutes).
          ...(context.quote?.quoteId ? { quoteId: context.quote.quoteId } : {}),
        }),
        onDone: [
          {
            guard: {
              type: "needsRedirect",
              params: ({ event }) => ({ payment: event.output.payment }),
            },
            target: "redirecting",
            actions: assign(({ event }) => ({
              payment: event.output.payment,
              paymentId: event.output.payment.id,
              quote: event.output.quote,
            })),
          },
          {
            target: "awaitingResult",
            actions: assign(({ event }) => ({
              payment: event.output.payment,
              paymentId: event.output.payment.id,
              quote: event.output.quote,
            })),
          },
        ],
        onError: [
          {
            // Older than 30 minutes: quoted again, the new figure shown with why, confirmed again.
            guard: { type: "isQuoteExpired", params: ({ event }) => ({ error: event.error }) },
            target: "quoting",
            actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
          },
          {
            // A stale confirm screen (the plan was bought meanwhile): what the person has, nothing to retry.
            guard: { type: "isStaleChange", params: ({ event }) => ({ error: event.error }) },
            target: "loading",
            actions: assign({ quote: null }),
          },
          {
            target: "checkoutFailed",
            actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    checkoutFailed: {
      description: "The payment could not be created; trying again repeats the same request.",
      on: {
        "payment.retry": { target: "checkingOut", actions: assign({ error: null }) },
        "payment.cancel": "cancelled",
      },
    },
    redirecting: {
      description: "Off to the provider's checkout page (outside the app).",
      entry: {
        type: "redirectToProvider",
        params: ({ context }) => ({
          url: context.payment!.redirectUrl!,
          paymentId: context.payment!.id,
          previousTier:
            context.previousTier ??
            (currentPlanOf(context.overview, context.choice!.product).tier as Tier),
        }),
      },
    },
    awaitingResult: {
      description: "Asking for the payment's result every second, for a minute at most.",
      initial: "fetching",
      after: { pollTimeout: "timedOut" },
      states: {
        fetching: {
          invoke: {
            id: "fetchPayment",
            src: "fetchPayment",
            input: ({ context }) => ({ id: context.paymentId! }),
            onDone: [
              {
                guard: {
                  type: "paymentSucceeded",
                  params: ({ event }) => ({ payment: event.output }),
                },
                target: "#subscription.complete",
                actions: assign({ payment: ({ event }) => event.output, error: null }),
              },
              {
                guard: {
                  type: "paymentNeedsAction",
                  params: ({ event }) => ({ payment: event.output }),
                },
                target: "#subscription.authenticating",
                actions: assign({ payment: ({ event }) => event.output, error: null }),
              },
              {
                guard: {
                  type: "paymentFailed",
                  params: ({ event }) => ({ payment: event.output }),
                },
                target: "#subscription.failed",
                actions: assign({ payment: ({ event }) => event.output, error: null }),
              },
              { target: "waiting", actions: assign({ payment: ({ event }) => event.output }) },
            ],
            // A poll that fails (e.g. offline for a moment) is tried again at the next tick.
            onError: {
              target: "waiting",
              actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        waiting: { after: { pollInterval: "fetching" } },
      },
    },
    timedOut: {
      description: "No result within the minute: the user may check again.",
      on: { "payment.check": { target: "awaitingResult", actions: assign({ error: null }) } },
    },
    authenticating: {
      description: "The card asks for an authentication step on the provider's challenge page.",
      on: {
        "payment.authenticate": {
          actions: {
            type: "redirectToProvider",
            params: ({ context }) => ({
              url: context.payment!.redirectUrl!,
              paymentId: context.payment!.id,
              previousTier: context.previousTier,
            }),
          },
        },
        "payment.check": "awaitingResult",
        "payment.cancel": "cancelled",
      },
    },
    complete: {
      description: "Paid: the new plan's permissions apply at once.",
      type: "final",
      entry: "refreshClient",
    },
    failed: {
      description: "Declined, insufficient funds, authentication failed or abandoned.",
      on: {
        "payment.retry": [
          {
            guard: "mayRetry",
            target: "checkingOut",
            // A new attempt is a new payment: a new key, for the same plan.
            actions: assign(({ context }) => ({
              choice: {
                product: context.payment!.product,
                tier: context.payment!.tier,
                period: context.payment!.period,
                currency: context.payment!.currency,
              },
              planId: planIdFor(context.payment!.product, context.payment!.currency),
              idempotencyKey: newIdempotencyKey(),
              error: null,
            })),
          },
          { actions: assign({ error: "ACCOUNT_KIND_FORBIDDEN" }) },
        ],
        "payment.cancel": "cancelled",
      },
    },
    cancelled: {
      description: "The user gave up this payment; nothing was charged.",
      type: "final",
    },
    confirmingCancel: {
      description:
        "The second question: you keep the plan until its date (cancel, or keep it); reactivation is offered beside.",
      on: {
        "cancel.confirm": "cancellingSubscription",
        "cancel.keep": { target: "ready", actions: assign({ cancelling: null }) },
      },
    },
    cancellingSubscription: {
      invoke: {
        id: "cancelSubscription",
        src: "cancelSubscription",
        input: ({ context }) => ({ product: context.cancelling! }),
        onDone: {
          target: "ready",
          actions: [
            { type: "keepOverview", params: ({ event }) => ({ overview: event.output }) },
            assign({ done: "cancelled", cancelling: null }),
            "refreshClient",
          ],
        },
        onError: {
          target: "ready",
          actions: [
            { type: "reportError", params: ({ event }) => ({ error: event.error }) },
            assign({ cancelling: null }),
          ],
        },
      },
    },
    reactivating: {
      invoke: {
        id: "reactivateSubscription",
        src: "reactivateSubscription",
        input: ({ event }) => {
          assertEvent(event, "subscription.reactivate");
          return { product: event.product };
        },
        onDone: {
          target: "ready",
          actions: [
            { type: "keepOverview", params: ({ event }) => ({ overview: event.output }) },
            assign({ done: "reactivated" }),
            "refreshClient",
          ],
        },
        onError: {
          target: "ready",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    undoingChange: {
      invoke: {
        id: "cancelScheduledChange",
        src: "cancelScheduledChange",
        input: ({ event }) => {
          assertEvent(event, "change.undo");
          return { product: event.product };
        },
        onDone: {
          target: "ready",
          actions: [
            { type: "keepOverview", params: ({ event }) => ({ overview: event.output }) },
            assign({ done: "changeUndone" }),
            "refreshClient",
          ],
        },
        onError: {
          target: "ready",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    startingTrial: {
      invoke: {
        id: "startTrial",
        src: "startTrial",
        input: ({ event }) => {
          assertEvent(event, "trial.start");
          return { product: event.product };
        },
        onDone: {
          target: "ready",
          actions: [
            { type: "keepOverview", params: ({ event }) => ({ overview: event.output }) },
            assign({ done: "trialStarted" }),
            "refreshClient",
          ],
        },
        onError: {
          target: "ready",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});
