/** Changes of a plan in force without a payment: downgrades scheduled, cancellation, trials. */
import { and, eq, isNull } from "drizzle-orm";
import {
  type BillingOverview,
  type PaidTier,
  paidTiersOf,
  type Period,
  quotePlan,
  TRIAL_DAYS,
} from "../../contract/billing.ts";
import { type Product } from "../../contract/common.ts";
import { clients, subscriptionChanges, subscriptions } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { dropPendingChange, livePaidPlan, lockSubscription } from "./apply.ts";
import { dayMs, refuseChange, type BillingContext } from "./context.ts";

export function planChanges(
  ctx: BillingContext,
  overview: (clientId: number) => Promise<BillingOverview>,
) {
  const { db, deps, logger, billable, currentPlanOf, lockLivePlan } = ctx;
  return {
    async schedule(
      clientId: number,
      request: { product: Product; tier: PaidTier; period: Period },
    ): Promise<BillingOverview> {
      await billable(clientId);
      const now = deps.clock();
      await db.transaction(async (tx) => {
        const { sub, live } = await lockLivePlan(tx, clientId, request.product, now);
        if (sub.cancelled) throw new ApiFailure(409, "ALREADY_CANCELLED");
        const figures = quotePlan(request.product, currentPlanOf(sub, now), request, now);
        if (figures.change !== "downgrade") refuseChange(figures.change);
        await dropPendingChange(tx, sub.id, now);
        await tx.insert(subscriptionChanges).values({
          subscriptionId: sub.id,
          tier: request.tier,
          period: request.period,
          effectiveAt: sub.expiryDate ?? now,
        });
        logger.info("downgrade scheduled", { clientId, from: live, to: request });
      });
      return overview(clientId);
    },

    async cancelScheduled(clientId: number, product: Product): Promise<BillingOverview> {
      await billable(clientId);
      const now = deps.clock();
      await db.transaction(async (tx) => {
        const { sub } = await lockLivePlan(tx, clientId, product, now);
        const dropped = await dropPendingChange(tx, sub.id, now);
        if (dropped.length === 0) throw new ApiFailure(409, "NO_SCHEDULED_CHANGE");
      });
      return overview(clientId);
    },

    async cancel(clientId: number, product: Product): Promise<BillingOverview> {
      await billable(clientId);
      const now = deps.clock();
      await db.transaction(async (tx) => {
        const { sub } = await lockLivePlan(tx, clientId, product, now);
        if (sub.cancelled) throw new ApiFailure(409, "ALREADY_CANCELLED");
        await tx
          .update(subscriptions)
          .set({ cancelled: true, updatedAt: now })
          .where(eq(subscriptions.id, sub.id));
        await dropPendingChange(tx, sub.id, now);
      });
      return overview(clientId);
    },

    async reactivate(clientId: number, product: Product): Promise<BillingOverview> {
      await billable(clientId);
      const now = deps.clock();
      await db.transaction(async (tx) => {
        const { sub } = await lockLivePlan(tx, clientId, product, now);
        if (!sub.cancelled) throw new ApiFailure(409, "NOT_CANCELLED");
        await tx
          .update(subscriptions)
          .set({ cancelled: false, updatedAt: now })
          .where(eq(subscriptions.id, sub.id));
      });
      return overview(clientId);
    },

    async startTrial(clientId: number, product: Product): Promise<BillingOverview> {
      const client = await billable(clientId);
      const now = deps.clock();
      if (deps.edition !== "ht" || !paidTiersOf(product).includes("advanced"))
        throw new ApiFailure(409, "TRIAL_UNAVAILABLE");
      if (client.trialStartedAt) throw new ApiFailure(409, "TRIAL_USED");
      const endsAt = new Date(now.getTime() + TRIAL_DAYS * dayMs);
      await db.transaction(async (tx) => {
        const sub = await lockSubscription(tx, clientId, product);
        if (livePaidPlan(sub, now)) throw new ApiFailure(409, "TRIAL_UNAVAILABLE");
        // Conditional on no trial yet: two concurrent requests start one trial.
        const started = await tx
          .update(clients)
          .set({ trialStartedAt: now, trialEndsAt: endsAt, updatedAt: now })
          .where(and(eq(clients.id, clientId), isNull(clients.trialStartedAt)))
          .returning({ id: clients.id });
        if (started.length === 0) throw new ApiFailure(409, "TRIAL_USED");
        await tx
          .update(subscriptions)
          .set({
            tier: "advanced",
            period: "trial",
            planId: null,
            active: true,
            cancelled: false,
            periodStart: now,
            expiryDate: endsAt,
            renewalFailures: 0,
            nextRetryAt: null,
            updatedAt: now,
          })
          .where(eq(subscriptions.id, sub.id));
      });
      logger.info("trial started", { clientId, product });
      return overview(clientId);
    },
  };
}
