/** The plans on sale (specification section 9), written to the database and shown to clients. */
import { sql } from "drizzle-orm";
import {
  annualSaving,
  type BillingCurrency,
  paidTiersOf,
  periods,
  type PlanCatalog,
  planIdFor,
  planPrice,
  TRIAL_DAYS,
} from "../../contract/billing.ts";
import { products } from "../../contract/common.ts";
import type { Db } from "../db/database.ts";
import { plans } from "../db/schema.ts";

/** Writes the plans on sale from the contract (idempotent; run at start). */
export async function syncPlans(db: Db): Promise<void> {
  const rows = products.flatMap((product) =>
    paidTiersOf(product).flatMap((tier) =>
      periods.flatMap((period) =>
        (["EUR", "USD"] as const).map((currency) => ({
          id: `${product}-${tier}-${period}-${currency}`,
          product,
          tier,
          period,
          currency,
          planId: planIdFor(product, currency),
          priceCents: planPrice(product, tier, period)!,
        })),
      ),
    ),
  );
  await db
    .insert(plans)
    .values(rows)
    .onConflictDoUpdate({
      target: plans.id,
      set: { priceCents: sql`excluded.price_cents`, planId: sql`excluded.plan_id` },
    });
}

export function planCatalog(currency: BillingCurrency): PlanCatalog {
  return {
    currency,
    vatRate: 0.21,
    trialDays: TRIAL_DAYS,
    plans: products.flatMap((product) =>
      paidTiersOf(product).flatMap((tier) =>
        periods.map((period) => ({
          product,
          tier,
          period,
          currency,
          planId: planIdFor(product, currency),
          priceCents: planPrice(product, tier, period)!,
          savingCents: period === "annual" ? annualSaving(product, tier) : 0,
        })),
      ),
    ),
  };
}
