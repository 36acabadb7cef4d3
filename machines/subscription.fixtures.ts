/**
 * Demo data of the subscription machine: the registry's path exploration and the machine tests
 * use it, so that the registry itself stays readable at a glance (docs/decisions.md).
 */
import type { InvoiceInfo, Subscription } from "../src/contract/accounts.ts";
import type { BillingOverview, Payment, ProductBilling, Quote } from "../src/contract/billing.ts";
import type { Product } from "../src/contract/common.ts";
import type { Tier } from "../src/contract/permissions.ts";
import type { PlanSelection } from "./guards/billing-facts.ts";

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
