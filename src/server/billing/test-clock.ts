/**
 * The sandbox's test clock (PRODUCT.md "A test clock for the sandbox", docs/billing.md): with the
 * sandbox provider and SANDBOX_TEST_CLOCK=true only, one account's billing clock moves forward.
 *
 * Moving an account's clock forward by d is done by moving every billing date of that account
 * back by d (its periods, renewal retries, scheduled changes, trial, payments and quotes) and
 * then running the billing job: to that account, d has passed; every other account, and every
 * screen and permission check, keeps the real clock, so what a browser shows stays consistent.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import {
  billingQuotes,
  clients,
  payments,
  subscriptionChanges,
  subscriptions,
} from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { type BillingRun, runBillingJobs } from "./jobs.ts";
import type { BillingDeps } from "./context.ts";
import type { BillingService } from "./service.ts";

const back = (column: unknown, ms: number) => sql`${column} - (${ms} * interval '1 millisecond')`;

/** Moves one account's billing dates back by `days`: its clock, as the job sees it, forward. */
export async function shiftAccountClock(db: Db, clientId: number, days: number): Promise<void> {
  const seconds = Math.round(days * 86_400);
  const ms = seconds * 1000;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from clients where id = ${clientId} for update`);
    // A renewal being charged keeps its key (made of its period end): moving now would make another.
    const open = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.clientId, clientId),
          eq(payments.kind, "renewal"),
          inArray(payments.status, ["pending", "requires_action"]),
        ),
      );
    if (open.length > 0) throw new ApiFailure(409, "PAYMENT_IN_PROGRESS");
    const subs = await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.clientId, clientId))
      .for("update");
    await tx
      .update(subscriptions)
      .set({
        expiryDate: back(subscriptions.expiryDate, ms),
        periodStart: back(subscriptions.periodStart, ms),
        nextRetryAt: back(subscriptions.nextRetryAt, ms),
      })
      .where(eq(subscriptions.clientId, clientId));
    if (subs.length > 0)
      await tx
        .update(subscriptionChanges)
        .set({ effectiveAt: back(subscriptionChanges.effectiveAt, ms) })
        .where(
          inArray(
            subscriptionChanges.subscriptionId,
            subs.map((s) => s.id),
          ),
        );
    await tx
      .update(clients)
      .set({
        trialStartedAt: back(clients.trialStartedAt, ms),
        trialEndsAt: back(clients.trialEndsAt, ms),
        trialWarnedAt: back(clients.trialWarnedAt, ms),
        billingClockOffsetSeconds: sql`${clients.billingClockOffsetSeconds} + ${seconds}`,
      })
      .where(eq(clients.id, clientId));
    await tx
      .update(payments)
      .set({
        periodStart: back(payments.periodStart, ms),
        periodEnd: back(payments.periodEnd, ms),
        quotedAt: back(payments.quotedAt, ms),
        createdAt: back(payments.createdAt, ms),
        updatedAt: back(payments.updatedAt, ms),
      })
      .where(eq(payments.clientId, clientId));
    await tx
      .update(billingQuotes)
      .set({ quotedAt: back(billingQuotes.quotedAt, ms) })
      .where(eq(billingQuotes.clientId, clientId));
  });
}

/** The test clock's call: moves the account forward, then runs the billing job at once. */
export async function moveTestClock(
  deps: BillingDeps,
  service: BillingService,
  clientId: number,
  days: number,
): Promise<BillingRun> {
  await shiftAccountClock(deps.db, clientId, days);
  return runBillingJobs(deps, service);
}
