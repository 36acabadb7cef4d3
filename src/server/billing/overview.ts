/** The billing overview of a client: each product's plan, what comes next, balances and invoices. */
import { and, eq, inArray, isNull } from "drizzle-orm";
import {
  type BillingCurrency,
  type BillingOverview,
  type PaidTier,
  paidTiersOf,
  type Period,
  planPrice,
  type ProductBilling,
} from "../../contract/billing.ts";
import { products } from "../../contract/common.ts";
import { clientView } from "../accounts/client-view.ts";
import { subscriptionChanges, subscriptions } from "../db/schema.ts";
import { livePaidPlan } from "./apply.ts";
import { balancesOf, withBalanceUsed } from "./balance.ts";
import { clientInvoices } from "./invoices.ts";
import type { BillingContext } from "./context.ts";

export function billingOverview(ctx: BillingContext) {
  const { db, deps, clientRow } = ctx;
  const overview = async (clientId: number): Promise<BillingOverview> => {
    const now = deps.clock();
    const row = await clientRow(clientId);
    const view = await clientView(db, row, deps.policyVersion, now);
    const subs = await db.select().from(subscriptions).where(eq(subscriptions.clientId, clientId));
    const pending = subs.length
      ? await db
          .select()
          .from(subscriptionChanges)
          .where(
            and(
              inArray(
                subscriptionChanges.subscriptionId,
                subs.map((s) => s.id),
              ),
              isNull(subscriptionChanges.appliedAt),
              isNull(subscriptionChanges.cancelledAt),
            ),
          )
      : [];
    const trialAvailable =
      deps.edition === "ht" && row.kind !== "TT" && row.trialStartedAt === null;
    const productsView = products.map((product): ProductBilling => {
      const sub = subs.find((s) => s.product === product);
      const live = livePaidPlan(sub, now);
      const change = sub ? pending.find((c) => c.subscriptionId === sub.id) : undefined;
      const trial =
        sub?.period === "trial" && sub.active && sub.expiryDate !== null && sub.expiryDate > now;
      const state: ProductBilling["state"] = trial
        ? "trial"
        : !live
          ? "free"
          : sub!.nextRetryAt
            ? "pastDue"
            : sub!.cancelled
              ? "cancelled"
              : "active";
      const next: ProductBilling["next"] =
        state === "trial" || state === "cancelled"
          ? {
              event: "ends",
              date: sub!.expiryDate!.toISOString(),
              amountCents: null,
              balanceUsedCents: 0,
            }
          : state === "pastDue"
            ? {
                event: "retry",
                date: sub!.nextRetryAt!.toISOString(),
                amountCents: planPrice(product, live!.tier, live!.period),
                balanceUsedCents: 0,
              }
            : state === "active" && sub!.expiryDate
              ? {
                  event: change ? "change" : "renewal",
                  date: sub!.expiryDate.toISOString(),
                  amountCents: change
                    ? planPrice(product, change.tier, change.period as Period)
                    : planPrice(product, live!.tier, live!.period),
                  balanceUsedCents: 0,
                }
              : null;
      return {
        product,
        subscription: view.subscriptions[product],
        state,
        period: live ? live.period : null,
        currency: live ? ((sub!.currency as BillingCurrency | null) ?? "EUR") : null,
        periodStart: live && sub!.periodStart ? sub!.periodStart.toISOString() : null,
        next,
        scheduledChange:
          change && live
            ? {
                tier: change.tier as PaidTier,
                period: change.period as Period,
                effectiveAt: change.effectiveAt.toISOString(),
              }
            : null,
        renewalFailures: sub?.renewalFailures ?? 0,
        trialAvailable: trialAvailable && !live && paidTiersOf(product).includes("advanced"),
      };
    });
    const balances = await balancesOf(db, clientId);
    return {
      products: withBalanceUsed(productsView, balances),
      balances,
      invoices: await clientInvoices(db, clientId),
    };
  };
  return overview;
}
