/**
 * Demo data of the subscription machine: the registry's path exploration and the machine tests
 * use it, so that the registry itself stays readable at a glance (docs/decisions.md).
 */
import type { InvoiceInfo, Subscription } from "../src/contract/accounts.ts";
import type { BillingOverview, Payment, ProductBilling, Quote } from "../src/contract/billing.ts";
import type { Product } from "../src/contract/common.ts";
import type { Tier } from "../src/contract/permissions.ts";
import type { PlanSelection } from "./guards/billing-facts.ts";
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { subscriptionMachine } from "./subscription.machine.ts";

const subscription = (tier: Tier, over: Partial<Subscription> = {}): Subscription => ({
  id: tier === "free" ? null : 1,
  active: tier !== "free",
  expiryDate: tier === "free" ? null : "2026-12-21T10:00:00.000Z",
  subscriptionText: tier,
  subscriptionTypeId: tier === "free" ? null : 5,
  tier,
  cancelled: false,
  ...over,
});

export function demoProductBilling(
  product: Product,
  over: Partial<ProductBilling> = {},
): ProductBilling {
  return {
    product,
    subscription: subscription("free"),
    state: "free",
    period: null,
    currency: null,
    periodStart: null,
    next: null,
    scheduledChange: null,
    renewalFailures: 0,
    trialAvailable: true,
    ...over,
  };
}

/** A paid, renewing plan. */
export const activePlan = (
  product: Product,
  tier: "standard" | "advanced",
  over: Partial<ProductBilling> = {},
): ProductBilling =>
  demoProductBilling(product, {
    subscription: subscription(tier),
    state: "active",
    period: "monthly",
    currency: "EUR",
    periodStart: "2026-11-21T10:00:00.000Z",
    next: {
      event: "renewal",
      date: "2026-12-21T10:00:00.000Z",
      amountCents: 990,
      balanceUsedCents: 0,
    },
    trialAvailable: false,
    ...over,
  });

/**
 * hollytools standard annual with a change to monthly scheduled for its renewal, simMonk advanced cancelled (it stays
 * until its expiry date), simIndices free with its trial available.
 */
export const demoOverview: BillingOverview = {
  products: [
    activePlan("simAssets", "standard", {
      period: "annual",
      periodStart: "2025-12-21T10:00:00.000Z",
      next: {
        event: "change",
        date: "2026-12-21T10:00:00.000Z",
        amountCents: 990,
        balanceUsedCents: 0,
      },
      scheduledChange: {
        tier: "standard",
        period: "monthly",
        effectiveAt: "2026-12-21T10:00:00.000Z",
      },
    }),
    activePlan("simMonk", "advanced", {
      subscription: subscription("advanced", { cancelled: true }),
      state: "cancelled",
      next: {
        event: "ends",
        date: "2026-12-21T10:00:00.000Z",
        amountCents: null,
        balanceUsedCents: 0,
      },
    }),
    demoProductBilling("simIndices"),
  ],
  balances: [],
  invoices: [
    {
      number: "2026-000001",
      issuedAt: "2026-11-21T10:00:00.000Z",
      currency: "EUR",
      lines: [
        {
          kind: "plan",
          product: "simAssets",
          tier: "standard",
          period: "monthly",
          from: "2026-11-21T10:00:00.000Z",
          to: "2026-12-21T10:00:00.000Z",
          amountCents: 990,
        },
      ],
      totalCents: 990,
      vatCents: 172,
    },
  ],
};

export const demoInvoiceInfo: InvoiceInfo = {
  name: "Ada Lovelace",
  country: "ES",
  tin: "",
  city: "Madrid",
  address: "Calle Mayor 1",
  postalCode: "28013",
  companyName: "",
  company: false,
};

export const upgradeSelection: PlanSelection = {
  product: "simAssets",
  tier: "advanced",
  period: "monthly",
  currency: "EUR",
};

export function demoQuote(over: Partial<Quote> = {}): Quote {
  return {
    product: "simAssets",
    tier: "advanced",
    period: "monthly",
    currency: "EUR",
    change: "upgrade",
    appliesAt: "now",
    chargeNowCents: 1000,
    creditCents: 990,
    newPlanCents: 1990,
    vatNowCents: 174,
    periodStart: "2026-11-21T10:00:00.000Z",
    periodEnd: "2026-12-21T10:00:00.000Z",
    nextChargeCents: 1990,
    nextChargeDate: "2026-12-21T10:00:00.000Z",
    balanceUsedCents: 0,
    balanceAddedCents: 0,
    then: null,
    remainingSeconds: 2_592_000,
    periodSeconds: 2_592_000,
    quoteId: "q_demo0000000001",
    quotedAt: "2026-11-21T10:00:00.000Z",
    validUntil: "2026-11-21T10:30:00.000Z",
    overLimit: null,
    ...over,
  };
}

export const downgradeQuote = demoQuote({
  tier: "standard",
  change: "downgrade",
  appliesAt: "periodEnd",
  chargeNowCents: 0,
  creditCents: 0,
  newPlanCents: 0,
  vatNowCents: 0,
  nextChargeCents: 990,
  overLimit: { savedPortfolios: 8, saveLimit: 5 },
});

export function demoPayment(over: Partial<Payment> = {}): Payment {
  return {
    id: "pay_0001",
    product: "simAssets",
    tier: "advanced",
    period: "monthly",
    currency: "EUR",
    kind: "upgrade",
    amountCents: 1000,
    status: "pending",
    failureCode: null,
    redirectUrl: "/api/billing/sandbox/checkout/pay_0001",
    invoiceNumber: null,
    createdAt: "2026-11-21T10:00:00.000Z",
    ...over,
  };
}

/** The subscription machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const subscriptionEntry: MachineEntry = {
  machine: subscriptionMachine,
  title: "Plans, payments and billing",
  guards: {
    isTtAccount:
      "TT accounts never choose plans, subscribe or pay (PRODUCT.md, People); the route guards keep them out, and nothing is loaded or sold should one get here.",
    resumesPayment:
      "The provider sent the browser back to payment-complete with ?payment={id}: its result is polled.",
    isSignedIn: "Only a signed-in client has plans and invoices; guests see the plans on sale.",
    hasSelection:
      "subscribe/confirm: a product, tier, period and currency came in the query string.",
    isInvalidPlan:
      "Section 4: a tier the product does not sell (paid tiers standard and advanced; simIndices has no standard), a period other than monthly or annual, or a currency other than EUR or USD is invalid.",
    isCurrentPlan: "Section 4: the same tier and period as the current paid plan.",
    isUpgradeQuote:
      "The server's quote says upgrade: a higher tier (tiers in order per product), or monthly to annual; paid now, prorated.",
    isDowngradeQuote:
      "The server's quote says downgrade: a lower tier, or annual to monthly; scheduled for the end of the period, nothing charged now.",
    isCurrentQuote: "The server's quote says it is the current plan.",
    isQuoteExpired:
      "PRODUCT.md What is confirmed is charged: the checkout names a quote older than 30 minutes (QUOTE_EXPIRED); the new figure is quoted and shown, and confirmed again.",
    isStaleChange:
      "The confirm screen is stale (PLAN_CURRENT or PLAN_IS_DOWNGRADE: the plan was bought meanwhile, e.g. in another tab): billing is reloaded and the plan the person has is shown, with nothing to retry.",
    mayBuy: "Not a TT account (PRODUCT.md, People and their kinds).",
    canCheckout:
      "Not a TT account, and the invoice info has a name and an ISO country (and a company name for a company); otherwise INVOICE_INFO_REQUIRED.",
    needsRedirect:
      "The payment is pending or asks for authentication and names the provider's page: the browser goes there.",
    paymentSucceeded: "The payment succeeded: the plan and its permissions apply at once.",
    paymentNeedsAction:
      "requires_action: the card asks for the sandbox challenge page (approve or fail).",
    paymentFailed:
      "failed or cancelled: declined, insufficient funds, authentication failed, abandoned, expired or superseded.",
    mayRetry:
      "A failed payment may be tried again for the same plan, with a new idempotency key (a new attempt).",
    canCancel: "A paid plan that renews (active or past due, not cancelled) can be cancelled.",
    canReactivate: "A cancelled plan can be reactivated before its expiry date.",
    hasScheduledChange: "A downgrade is scheduled for the period end: it can be undone.",
    canStartTrial:
      "PRODUCT.md Trial: ht edition, a product on the free tier, and the account's one 14-day trial still available.",
  },
  input: { edition: "ht", kind: "standard" },
  pathEvents: [
    {
      type: "xstate.done.actor.loadBilling",
      output: { overview: demoOverview, invoiceInfo: demoInvoiceInfo },
    },
    { type: "xstate.error.actor.loadBilling", error: new SessionFailure("NETWORK_ERROR") },
    { type: "billing.retry" },
    { type: "plan.choose", selection: upgradeSelection },
    {
      type: "plan.choose",
      selection: { ...upgradeSelection, tier: "standard", period: "annual" },
    },
    { type: "plan.choose", selection: { ...upgradeSelection, tier: "premium" } },
    { type: "xstate.done.actor.quote", output: demoQuote() },
    { type: "xstate.done.actor.quote", output: downgradeQuote },
    { type: "xstate.done.actor.quote", output: demoQuote({ change: "current" }) },
    { type: "xstate.done.actor.quote", output: demoQuote({ change: "invalid" }) },
    { type: "invoiceInfo.change", info: { name: "Ada Lovelace" } },
    { type: "plan.confirm" },
    { type: "xstate.done.actor.scheduleChange", output: demoOverview },
    { type: "xstate.done.actor.saveInvoiceInfo", output: demoInvoiceInfo },
    {
      type: "xstate.done.actor.checkout",
      output: { payment: demoPayment(), quote: demoQuote() },
    },
    {
      type: "xstate.done.actor.checkout",
      output: { payment: demoPayment({ redirectUrl: null }), quote: demoQuote() },
    },
    { type: "xstate.error.actor.checkout", error: new SessionFailure("PAYMENT_IN_PROGRESS") },
    { type: "xstate.error.actor.checkout", error: new SessionFailure("QUOTE_EXPIRED") },
    { type: "xstate.error.actor.checkout", error: new SessionFailure("PLAN_CURRENT") },
    { type: "xstate.done.actor.fetchPayment", output: demoPayment() },
    {
      type: "xstate.done.actor.fetchPayment",
      output: demoPayment({
        status: "succeeded",
        redirectUrl: null,
        invoiceNumber: "2026-000002",
      }),
    },
    {
      type: "xstate.done.actor.fetchPayment",
      output: demoPayment({
        status: "requires_action",
        redirectUrl: "/api/billing/sandbox/challenge/pay_0001",
      }),
    },
    {
      type: "xstate.done.actor.fetchPayment",
      output: demoPayment({ status: "failed", failureCode: "card_declined", redirectUrl: null }),
    },
    { type: "xstate.after.pollInterval.subscription.awaitingResult.waiting" },
    { type: "xstate.after.pollTimeout.subscription.awaitingResult" },
    { type: "payment.check" },
    { type: "payment.authenticate" },
    { type: "payment.retry" },
    { type: "payment.cancel" },
    { type: "subscription.cancel", product: "simAssets" },
    { type: "cancel.keep" },
    { type: "cancel.confirm" },
    { type: "xstate.done.actor.cancelSubscription", output: demoOverview },
    { type: "subscription.reactivate", product: "simMonk" },
    { type: "xstate.done.actor.reactivateSubscription", output: demoOverview },
    { type: "change.undo", product: "simAssets" },
    { type: "xstate.done.actor.cancelScheduledChange", output: demoOverview },
    { type: "trial.start", product: "simIndices" },
    { type: "xstate.done.actor.startTrial", output: demoOverview },
  ],
};
