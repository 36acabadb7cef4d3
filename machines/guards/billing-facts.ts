import type { AccountKind } from "./access-facts.ts";
import type { Edition, Product } from "../../src/contract/common.ts";
import {
  comparePlans,
  invoiceInfoComplete,
  periods,
  type BillingCurrency,
  type BillingOverview,
  type PaidTier,
  type Period,
  type PlanChoice,
  type PlanRef,
  type ProductBilling,
} from "../../src/contract/billing.ts";
import type { TierChange } from "../../src/contract/permissions.ts";

/**
 * A plan as the user asked for it (from the plan page or the query string): not yet checked, so
 * tier, period and currency are plain strings until `validChoice` says they name a plan on sale.
 */
export interface PlanSelection {
  readonly product: Product;
  readonly tier: string;
  readonly period: string;
  readonly currency: string;
}

const currencies: readonly string[] = ["EUR", "USD"];

/** The product's billing in an overview, or null (a guest, or not loaded yet). */
export const billingOf = (
  overview: BillingOverview | null,
  product: Product,
): ProductBilling | null => overview?.products.find((p) => p.product === product) ?? null;

/**
 * The paid plan the client holds for a product, as comparePlans reads it: free and trial hold none
 * (a trial gives the advanced tier's permissions but is not a paid plan, PRODUCT.md "Trial").
 */
export function currentPlanOf(overview: BillingOverview | null, product: Product): PlanRef {
  const billing = billingOf(overview, product);
  if (!billing || billing.state === "free" || billing.state === "trial" || !billing.period)
    return { tier: "free", period: null };
  return { tier: billing.subscription.tier, period: billing.period };
}

/**
 * The selection as a plan on sale: a paid tier (standard or advanced) the product sells, a period
 * (monthly or annual) and a billing currency (EUR or USD); null otherwise.
 */
export function validChoice(selection: PlanSelection): PlanChoice | null {
  if (!currencies.includes(selection.currency)) return null;
  if (!(periods as readonly string[]).includes(selection.period)) return null;
  const target = { tier: selection.tier, period: selection.period as Period };
  if (comparePlans(selection.product, { tier: "free", period: null }, target) === "invalid")
    return null;
  return {
    product: selection.product,
    tier: selection.tier as PaidTier,
    period: selection.period as Period,
    currency: selection.currency as BillingCurrency,
  };
}

/** Section 4 (tiers in order per product) extended to periods: upgrade, downgrade, current or invalid. */
export function planChangeOf(
  selection: PlanSelection,
  overview: BillingOverview | null,
): TierChange {
  const choice = validChoice(selection);
  if (!choice) return "invalid";
  return comparePlans(choice.product, currentPlanOf(overview, choice.product), choice);
}

/** TT accounts never choose plans, subscribe or pay (PRODUCT.md, "People and their kinds"). */
export const mayBuy = (kind: AccountKind | null): boolean => kind !== null && kind !== "TT";

/** A paid plan that renews can be cancelled; it stays until its expiry date. */
export const canCancel = (billing: ProductBilling | null): boolean =>
  billing !== null &&
  (billing.state === "active" || billing.state === "pastDue") &&
  !billing.subscription.cancelled;

/** A cancelled plan can be reactivated before its expiry date (the state is `cancelled` until then). */
export const canReactivate = (billing: ProductBilling | null): boolean =>
  billing !== null && billing.state === "cancelled" && billing.subscription.cancelled;

export const hasScheduledChange = (billing: ProductBilling | null): boolean =>
  billing?.scheduledChange != null;

/**
 * PRODUCT.md "Trial": the ht edition only, an account that may buy, a product on the free tier
 * whose one trial is still available (the server says so: once per account).
 */
export const canStartTrial = (
  edition: Edition,
  kind: AccountKind | null,
  billing: ProductBilling | null,
): boolean =>
  edition === "ht" &&
  mayBuy(kind) &&
  billing !== null &&
  billing.state === "free" &&
  billing.trialAvailable;

export { invoiceInfoComplete };
