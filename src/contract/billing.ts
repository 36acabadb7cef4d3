/**
 * Plans, payments and billing (docs/billing.md): the specification's plan rules (sections 4 and 9)
 * and PRODUCT.md's "Money" as pure functions shared by the subscription machine and the server,
 * and the schemas of every billing call. Money is in integer cents, VAT included.
 */
import { Schema } from "effect";
import { Product } from "./common.ts";
import { Subscription } from "./accounts.ts";
import { compareTiers, tiersByProduct, type TierChange } from "./permissions.ts";

export const Period = Schema.Literals(["monthly", "annual"]);
export type Period = typeof Period.Type;
export const periods: readonly Period[] = ["monthly", "annual"];

export const PaidTier = Schema.Literals(["standard", "advanced"]);
export type PaidTier = typeof PaidTier.Type;

export const BillingCurrency = Schema.Literals(["EUR", "USD"]);
export type BillingCurrency = typeof BillingCurrency.Type;

/** PRODUCT.md: prices in cents, VAT included; USD plans have the same figures. */
export const planPrices: {
  readonly [P in Product]: Partial<Record<PaidTier, Record<Period, number>>>;
} = {
  simAssets: {
    standard: { monthly: 990, annual: 9900 },
    advanced: { monthly: 1990, annual: 19900 },
  },
  simMonk: {
    standard: { monthly: 490, annual: 4900 },
    advanced: { monthly: 990, annual: 9900 },
  },
  simIndices: { advanced: { monthly: 1490, annual: 14900 } },
};

/** The VAT included in every price (Spain's general rate). */
export const VAT_RATE = 0.21;
export const TRIAL_DAYS = 14;
/** A trial-ending email goes this many days before the trial ends. */
export const TRIAL_WARNING_DAYS = 3;
/** Days after the renewal date on which a failed renewal is tried again; after the last, the plan ends. */
export const RENEWAL_RETRY_DAYS = [1, 3, 7] as const;

/** Section 9: plan id by product and currency; any other product gets 5. */
export function planIdFor(product: Product, currency: BillingCurrency): number {
  if (product === "simIndices") return currency === "USD" ? 8 : 7;
  if (product === "simAssets" || product === "simMonk") return currency === "USD" ? 6 : 5;
  return 5;
}

/** Section 9: region usa uses USD; eu uses EUR. */
export const currencyOfRegion = (region: "eu" | "usa"): BillingCurrency =>
  region === "usa" ? "USD" : "EUR";

/** The price of a plan in cents, or null when the product has no such paid tier. */
export function planPrice(product: Product, tier: string, period: Period): number | null {
  const prices = planPrices[product][tier as PaidTier];
  return prices ? prices[period] : null;
}

/** What an annual plan saves against twelve monthly payments, in cents. */
export function annualSaving(product: Product, tier: PaidTier): number {
  const prices = planPrices[product][tier];
  return prices ? prices.monthly * 12 - prices.annual : 0;
}

/** The paid tiers a product sells, in order. */
export const paidTiersOf = (product: Product): readonly PaidTier[] =>
  (tiersByProduct[product] as readonly string[]).filter(
    (t): t is PaidTier => t === "standard" || t === "advanced",
  );

export interface PlanRef {
  readonly tier: string;
  /** Null for the free tier and for a trial. */
  readonly period: Period | null;
}

/**
 * The specification's comparison (section 4) extended to periods (PRODUCT.md "Moments"): a higher
 * tier, or the same tier from monthly to annual, is an upgrade; a lower tier, or annual to monthly,
 * a downgrade; a tier the product does not sell (or the free tier as a target), invalid.
 */
export function comparePlans(product: Product, current: PlanRef, target: PlanRef): TierChange {
  if (target.period === null || planPrice(product, target.tier, target.period) === null)
    return "invalid";
  const byTier = compareTiers(product, current.tier, target.tier);
  if (byTier !== "current") return byTier;
  if (current.period === target.period) return "current";
  return target.period === "annual" ? "upgrade" : "downgrade";
}

/** A UTC calendar day, YYYY-MM-DD. */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/** Whole days from one UTC day to another. */
export const daysBetween = (from: string, to: string): number =>
  Math.round(dayNumber(to) - dayNumber(from));

/** The same time one period later; the 31st of a month ends on the last day of a shorter month. */
export function addPeriod(start: Date, period: Period, count = 1): Date {
  const months = period === "monthly" ? count : 12 * count;
  const d = new Date(start.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The paid plan a client holds now (free and trial hold none). */
export interface CurrentPlan {
  readonly tier: PaidTier;
  readonly period: Period;
  readonly priceCents: number;
  readonly periodStart: Date;
  readonly periodEnd: Date;
}

/** How long a quote is honoured from the confirm screen (PRODUCT.md "What is confirmed is charged"). */
export const QUOTE_VALIDITY_MS = 30 * 60 * 1000;

export interface QuoteFigures {
  readonly change: TierChange;
  readonly appliesAt: "now" | "periodEnd";
  /** Charged now on the card (VAT included): the new plan's part less the credit and the balance used. */
  readonly chargeNowCents: number;
  /** Credit for the unused time of the current plan. */
  readonly creditCents: number;
  /** The new plan's part of what is charged now. */
  readonly newPlanCents: number;
  /** Taken from the account balance before the card. */
  readonly balanceUsedCents: number;
  /** Credit above the new plan's part: never a negative charge, it goes to the account balance. */
  readonly balanceAddedCents: number;
  /** The plan applied now (for a change up in tier and down in period: the new tier, the current period). */
  readonly nowPlan: { readonly tier: PaidTier; readonly period: Period };
  /** A period change scheduled for the end of the current period (up in tier, down in period). */
  readonly then: { readonly tier: PaidTier; readonly period: Period; readonly at: Date } | null;
  /** The period the charge now pays for (or, for a scheduled change, the new plan's first one). */
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** What the new plan charges at each renewal, and the first of those dates. */
  readonly nextChargeCents: number;
  readonly nextChargeDate: Date;
  /** Elapsed-time proration: the unused seconds of the current period, and its length. */
  readonly remainingSeconds: number;
  readonly periodSeconds: number;
}

/** Whole seconds from one moment to another (never negative). */
const secondsBetween = (from: Date, to: Date): number =>
  Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));

/** A price's share for part of a period, in cents (rounded half up, as every prorated figure). */
export const prorate = (priceCents: number, remainingSeconds: number, periodSeconds: number) =>
  Math.round((priceCents * remainingSeconds) / periodSeconds);

/**
 * What changing to a plan costs (docs/billing.md, "Proration"). With r = unused seconds of the
 * current period / its seconds (elapsed time, so a quote read at 23:59 and paid at 00:00 differ
 * by a minute's worth, not a day's):
 * - buying (no paid plan): the new price, for a period starting now;
 * - upgrade in the same period length: round(new × r) − round(old × r), the period end kept;
 * - upgrade to another period length (monthly to annual): new price − round(old × r), a new
 *   period starting now;
 * - up in tier and down in period (standard annual to advanced monthly): the new tier on the
 *   current period at once (as the same-period upgrade), and the move to monthly scheduled for
 *   the period end;
 * - downgrade: nothing now; the new plan starts at the period end.
 * Never a negative charge: credit above the new plan's part goes to the account balance; a
 * balance (`balanceCents`, in the plan's currency) is used before the card.
 */
export function quotePlan(
  product: Product,
  current: CurrentPlan | null,
  target: { tier: PaidTier; period: Period },
  now: Date,
  balanceCents = 0,
): QuoteFigures {
  const newPrice = planPrice(product, target.tier, target.period);
  const live = current && current.periodEnd > now ? current : null;
  const change = comparePlans(product, live ?? { tier: "free", period: null }, target);
  if (newPrice === null || change === "invalid")
    return emptyQuote("invalid", target, now, newPrice ?? 0);
  const balance = Math.max(0, balanceCents);
  const pay = (newPlanCents: number, creditCents: number) => {
    const net = newPlanCents - creditCents;
    const balanceUsedCents = net > 0 ? Math.min(balance, net) : 0;
    return {
      creditCents,
      newPlanCents,
      balanceUsedCents,
      balanceAddedCents: net < 0 ? -net : 0,
      chargeNowCents: Math.max(0, net) - balanceUsedCents,
    };
  };
  if (!live) {
    const periodEnd = addPeriod(now, target.period);
    return {
      change: "upgrade",
      appliesAt: "now",
      ...pay(newPrice, 0),
      nowPlan: target,
      then: null,
      periodStart: now,
      periodEnd,
      nextChargeCents: newPrice,
      nextChargeDate: periodEnd,
      remainingSeconds: 0,
      periodSeconds: 0,
    };
  }
  const periodSeconds = Math.max(1, secondsBetween(live.periodStart, live.periodEnd));
  const remainingSeconds = Math.min(periodSeconds, secondsBetween(now, live.periodEnd));
  const timing = { remainingSeconds, periodSeconds };
  if (change === "current")
    return {
      ...emptyQuote("current", target, live.periodEnd, newPrice),
      periodStart: live.periodStart,
      periodEnd: live.periodEnd,
      ...timing,
    };
  if (change === "downgrade") {
    const periodEnd = addPeriod(live.periodEnd, target.period);
    return {
      change,
      appliesAt: "periodEnd",
      ...pay(0, 0),
      nowPlan: { tier: live.tier, period: live.period },
      then: null,
      periodStart: live.periodEnd,
      periodEnd,
      nextChargeCents: newPrice,
      nextChargeDate: live.periodEnd,
      ...timing,
    };
  }
  // Up in tier and down in period: the new tier now on the current period, monthly at its end.
  const split = live.period === "annual" && target.period === "monthly";
  const nowPlan = split ? { tier: target.tier, period: live.period } : target;
  const nowPrice = planPrice(product, nowPlan.tier, nowPlan.period)!;
  const creditCents = prorate(live.priceCents, remainingSeconds, periodSeconds);
  const samePeriod = live.period === nowPlan.period;
  const newPlanCents = samePeriod ? prorate(nowPrice, remainingSeconds, periodSeconds) : nowPrice;
  const periodEnd = samePeriod ? live.periodEnd : addPeriod(now, nowPlan.period);
  return {
    change,
    appliesAt: "now",
    ...pay(newPlanCents, creditCents),
    nowPlan,
    then: split ? { tier: target.tier, period: target.period, at: periodEnd } : null,
    periodStart: now,
    periodEnd,
    nextChargeCents: newPrice,
    nextChargeDate: periodEnd,
    ...timing,
  };
}

function emptyQuote(
  change: TierChange,
  target: { tier: PaidTier; period: Period },
  at: Date,
  price: number,
): QuoteFigures {
  return {
    change,
    appliesAt: "now",
    chargeNowCents: 0,
    creditCents: 0,
    newPlanCents: 0,
    balanceUsedCents: 0,
    balanceAddedCents: 0,
    nowPlan: target,
    then: null,
    periodStart: at,
    periodEnd: addPeriod(at, target.period),
    nextChargeCents: price,
    nextChargeDate: at,
    remainingSeconds: 0,
    periodSeconds: 0,
  };
}

/**
 * The lines of the invoice of a change or a purchase (docs/billing.md, "Invoices"): the new plan,
 * the credit for unused time, and the account balance used (negative) or credited (positive), so
 * the total is what the card paid, never negative.
 */
export function changeInvoiceLines(input: {
  product: Product;
  plan: { tier: PaidTier; period: Period; from: Date; to: Date; cents: number };
  credit: { tier: PaidTier; period: Period; from: Date; to: Date; cents: number } | null;
  balanceUsedCents: number;
  balanceAddedCents: number;
}): InvoiceLine[] {
  const { product, plan, credit } = input;
  const line = (
    kind: InvoiceLine["kind"],
    p: { tier: PaidTier; period: Period; from: Date; to: Date },
    amountCents: number,
  ): InvoiceLine => ({
    kind,
    product,
    tier: p.tier,
    period: p.period,
    from: p.from.toISOString(),
    to: p.to.toISOString(),
    amountCents,
  });
  const lines = [line("plan", plan, plan.cents)];
  if (credit && credit.cents > 0) lines.push(line("credit", credit, -credit.cents));
  if (input.balanceUsedCents > 0) lines.push(line("balanceUsed", plan, -input.balanceUsedCents));
  if (input.balanceAddedCents > 0) lines.push(line("balanceAdded", plan, input.balanceAddedCents));
  return lines;
}

/** The VAT share of a price that includes it, in cents. */
export const vatOf = (totalCents: number): number =>
  totalCents - Math.round(totalCents / (1 + VAT_RATE));

// ---------------------------------------------------------------------------------------------
// Schemas of the billing calls.

const Cents = Schema.Number.pipe(Schema.check(Schema.isInt()));
const IsoTime = Schema.String;

/** One plan on sale: a product's paid tier for a period, in a currency. */
export const PlanOffer = Schema.Struct({
  product: Product,
  tier: PaidTier,
  period: Period,
  currency: BillingCurrency,
  planId: Schema.Number,
  priceCents: Cents,
  /** Against twelve monthly payments (annual plans; 0 for monthly ones). */
  savingCents: Cents,
});
export type PlanOffer = typeof PlanOffer.Type;

export const PlanCatalog = Schema.Struct({
  currency: BillingCurrency,
  vatRate: Schema.Number,
  trialDays: Schema.Number,
  plans: Schema.Array(PlanOffer),
});
export type PlanCatalog = typeof PlanCatalog.Type;

export const PlanCatalogQuery = Schema.Struct({ currency: Schema.optional(BillingCurrency) });

/** The plan a client asks for. */
export const PlanChoice = Schema.Struct({
  product: Product,
  tier: PaidTier,
  period: Period,
  currency: BillingCurrency,
});
export type PlanChoice = typeof PlanChoice.Type;

/** What a downgrade below the lower tier's limits means for the client's data (nothing is deleted). */
export const DowngradeEffect = Schema.Struct({
  savedPortfolios: Schema.Number,
  saveLimit: Schema.Number,
});
export type DowngradeEffect = typeof DowngradeEffect.Type;

/** The proration preview shown before the user confirms. */
export const Quote = Schema.Struct({
  product: Product,
  tier: PaidTier,
  period: Period,
  currency: BillingCurrency,
  change: Schema.Literals(["upgrade", "downgrade", "current", "invalid"]),
  appliesAt: Schema.Literals(["now", "periodEnd"]),
  chargeNowCents: Cents,
  creditCents: Cents,
  newPlanCents: Cents,
  vatNowCents: Cents,
  periodStart: IsoTime,
  periodEnd: IsoTime,
  /** Taken from the account balance before the card, and credit carried to it (never a negative charge). */
  balanceUsedCents: Cents,
  balanceAddedCents: Cents,
  /** Up in tier and down in period: the period change scheduled for the end of the current period. */
  then: Schema.NullOr(Schema.Struct({ tier: PaidTier, period: Period, at: IsoTime })),
  nextChargeCents: Cents,
  nextChargeDate: IsoTime,
  remainingSeconds: Schema.Number,
  periodSeconds: Schema.Number,
  /** The quote honoured by a checkout that names it until validUntil (30 minutes). */
  quoteId: Schema.String,
  quotedAt: IsoTime,
  validUntil: IsoTime,
  /** Set when the new plan allows fewer saved portfolios than the client has. */
  overLimit: Schema.NullOr(DowngradeEffect),
});
export type Quote = typeof Quote.Type;

const QuoteId = Schema.String.pipe(Schema.check(Schema.isPattern(/^q_[A-Za-z0-9_-]{10,40}$/)));

const IdempotencyKey = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[A-Za-z0-9_-]{16,100}$/)),
);

export const CheckoutRequest = Schema.Struct({
  ...PlanChoice.fields,
  /** Made once per confirmation by the client; the same key never charges twice. */
  idempotencyKey: IdempotencyKey,
  /** The quote the client confirmed: honoured for 30 minutes, refused (QUOTE_EXPIRED) after. */
  quoteId: Schema.optional(QuoteId),
});
export type CheckoutRequest = typeof CheckoutRequest.Type;

export const PaymentStatus = Schema.Literals([
  "pending",
  "requires_action",
  "succeeded",
  "failed",
  "cancelled",
]);
export type PaymentStatus = typeof PaymentStatus.Type;

export const FailureCode = Schema.Literals([
  "card_declined",
  "insufficient_funds",
  "authentication_failed",
  "abandoned",
  "expired",
  "superseded",
]);
export type FailureCode = typeof FailureCode.Type;

export const PaymentKind = Schema.Literals(["purchase", "upgrade", "renewal"]);
export type PaymentKind = typeof PaymentKind.Type;

export const Payment = Schema.Struct({
  id: Schema.String,
  product: Product,
  tier: PaidTier,
  period: Period,
  currency: BillingCurrency,
  kind: PaymentKind,
  amountCents: Cents,
  status: PaymentStatus,
  failureCode: Schema.NullOr(FailureCode),
  /** Where the client continues: the provider's checkout or its authentication step. */
  redirectUrl: Schema.NullOr(Schema.String),
  invoiceNumber: Schema.NullOr(Schema.String),
  createdAt: IsoTime,
});
export type Payment = typeof Payment.Type;

export const CheckoutResponse = Schema.Struct({ payment: Payment, quote: Quote });
export type CheckoutResponse = typeof CheckoutResponse.Type;

export const ProductRequest = Schema.Struct({ product: Product });
export type ProductRequest = typeof ProductRequest.Type;

export const ScheduleRequest = Schema.Struct({
  product: Product,
  tier: PaidTier,
  period: Period,
});
export type ScheduleRequest = typeof ScheduleRequest.Type;

export const InvoiceLine = Schema.Struct({
  /** balanceUsed: paid from the account balance (negative); balanceAdded: credit carried to it (positive). */
  kind: Schema.Literals(["plan", "credit", "refund", "balanceUsed", "balanceAdded"]),
  product: Product,
  tier: PaidTier,
  period: Period,
  from: IsoTime,
  to: IsoTime,
  amountCents: Cents,
});
export type InvoiceLine = typeof InvoiceLine.Type;

export const Invoice = Schema.Struct({
  number: Schema.String,
  issuedAt: IsoTime,
  currency: BillingCurrency,
  lines: Schema.Array(InvoiceLine),
  totalCents: Cents,
  vatCents: Cents,
});
export type Invoice = typeof Invoice.Type;

export const SubscriptionState = Schema.Literals([
  "free",
  "trial",
  "active",
  "cancelled",
  "pastDue",
]);
export type SubscriptionState = typeof SubscriptionState.Type;

/** One product's plan as the billing page shows it. */
export const ProductBilling = Schema.Struct({
  product: Product,
  subscription: Subscription,
  state: SubscriptionState,
  period: Schema.NullOr(Period),
  currency: Schema.NullOr(BillingCurrency),
  periodStart: Schema.NullOr(IsoTime),
  /**
   * The next thing that happens and when: a renewal charge, a retry, a scheduled change, the end.
   * `amountCents` is the plan's price charged then; `balanceUsedCents` the part the account
   * balance pays (used before the card, charges in date order), so the card pays the rest.
   */
  next: Schema.NullOr(
    Schema.Struct({
      event: Schema.Literals(["renewal", "retry", "change", "ends"]),
      date: IsoTime,
      amountCents: Schema.NullOr(Cents),
      balanceUsedCents: Cents,
    }),
  ),
  scheduledChange: Schema.NullOr(
    Schema.Struct({ tier: PaidTier, period: Period, effectiveAt: IsoTime }),
  ),
  /** Failed renewal attempts so far (0 when none). */
  renewalFailures: Schema.Number,
  trialAvailable: Schema.Boolean,
});
export type ProductBilling = typeof ProductBilling.Type;

/** Money the client has on account, per currency (used before the card on the next charges). */
export const AccountBalance = Schema.Struct({ currency: BillingCurrency, cents: Cents });
export type AccountBalance = typeof AccountBalance.Type;

export const BillingOverview = Schema.Struct({
  products: Schema.Array(ProductBilling),
  balances: Schema.Array(AccountBalance),
  invoices: Schema.Array(Invoice),
});
export type BillingOverview = typeof BillingOverview.Type;

const Text = (max: number) =>
  Schema.String.pipe(Schema.check(Schema.isTrimmed(), Schema.isMaxLength(max)));

/** PUT /client/invoice-info: who the invoices are made out to. */
export const InvoiceInfoUpdate = Schema.Struct({
  name: Schema.String.pipe(
    Schema.check(Schema.isTrimmed(), Schema.isNonEmpty(), Schema.isMaxLength(120)),
  ),
  country: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Z]{2}$/))),
  tin: Text(32),
  city: Text(80),
  address: Text(200),
  postalCode: Text(16),
  companyName: Text(160),
  company: Schema.Boolean,
}).check(
  Schema.makeFilter((info) =>
    !info.company || info.companyName.length > 0
      ? undefined
      : { path: ["companyName"], issue: "A company needs its name" },
  ),
);
export type InvoiceInfoUpdate = typeof InvoiceInfoUpdate.Type;

/** True when invoices can be made out: a name and a country. */
export const invoiceInfoComplete = (info: { name: string; country: string }): boolean =>
  info.name.trim().length > 0 && /^[A-Z]{2}$/.test(info.country);

/** POST /billing/test-clock (sandbox with SANDBOX_TEST_CLOCK=true only): moves one account's billing clock forward. */
export const TestClockRequest = Schema.Struct({
  days: Schema.Number.pipe(Schema.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(800))),
});
export type TestClockRequest = typeof TestClockRequest.Type;

/**
 * POST /billing/test-credit (sandbox with SANDBOX_TEST_CLOCK=true only): a credit given by hand to
 * the account balance, as an operator would, so a walk can see a balance used on the next charges.
 */
export const TestCreditRequest = Schema.Struct({
  cents: Cents.pipe(Schema.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(100_000))),
  currency: BillingCurrency,
});
export type TestCreditRequest = typeof TestCreditRequest.Type;
