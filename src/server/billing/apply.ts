/**
 * Applying a payment's outcome (docs/billing.md, "Exactly once"). Every path that learns an
 * outcome (the provider's event, the answer of a renewal charge, reconciliation) goes through
 * applyOutcome, which runs in one transaction with the payment row locked:
 * - a payment moves only forward (pending -> requires_action -> succeeded | failed | cancelled),
 *   so a replayed or late event changes nothing;
 * - an event id is stored once, so the same event delivered twice is recognised;
 * - what a success grants (the plan, its invoice) is written in the same transaction.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  addPeriod,
  changeInvoiceLines,
  comparePlans,
  type BillingCurrency,
  type FailureCode,
  type InvoiceLine,
  type PaidTier,
  type Period,
  planIdFor,
  RENEWAL_RETRY_DAYS,
} from "../../contract/billing.ts";
import type { Locale, Product } from "../../contract/common.ts";
import type { Db } from "../db/database.ts";
import {
  billingEvents,
  clients,
  payments,
  refunds,
  subscriptionChanges,
  subscriptions,
} from "../db/schema.ts";
import { recordBalance } from "./balance.ts";
import { issueInvoice } from "./invoices.ts";
import type { ProviderPayment } from "./provider.ts";

export type PaymentRow = typeof payments.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** What happened, for the emails sent once the transaction has committed. */
export type Effect =
  | { kind: "receipt"; clientId: number; paymentId: string; invoice: string }
  | { kind: "renewalFailed"; clientId: number; paymentId: string; retryAt: Date | null }
  | { kind: "refund"; paymentId: string; providerRef: string | null; amountCents: number };

export type Outcome = "applied" | "duplicate" | "ignored" | "rejected" | "unknown";

const order: Record<string, number> = {
  pending: 0,
  requires_action: 1,
  succeeded: 2,
  failed: 2,
  cancelled: 2,
};

const statusOf = (p: ProviderPayment["status"]): PaymentRow["status"] =>
  p === "open" ? "pending" : p;

const dayMs = 86_400_000;

/** The subscription row of a client's product, locked for this transaction (made if missing). */
export async function lockSubscription(
  tx: Db,
  clientId: number,
  product: Product,
): Promise<SubscriptionRow> {
  await tx
    .insert(subscriptions)
    .values({ clientId, product, tier: "free", active: false })
    .onConflictDoNothing();
  const rows = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.clientId, clientId), eq(subscriptions.product, product)))
    .for("update");
  return rows[0]!;
}

/** Drops the change waiting for a subscription's period end, if any; answers what it dropped. */
export const dropPendingChange = (tx: Db, subscriptionId: number, now: Date) =>
  tx
    .update(subscriptionChanges)
    .set({ cancelledAt: now })
    .where(
      and(
        eq(subscriptionChanges.subscriptionId, subscriptionId),
        isNull(subscriptionChanges.appliedAt),
        isNull(subscriptionChanges.cancelledAt),
      ),
    )
    .returning({ id: subscriptionChanges.id });

/** A paid plan in force: active, paid tier and period, not past its date (or in its renewal retries). */
export function livePaidPlan(
  sub: SubscriptionRow | undefined,
  now: Date,
): { tier: PaidTier; period: Period } | null {
  if (!sub || !sub.active) return null;
  if (sub.period !== "monthly" && sub.period !== "annual") return null;
  if (sub.tier !== "standard" && sub.tier !== "advanced") return null;
  if (sub.expiryDate && sub.expiryDate <= now && sub.nextRetryAt === null) return null;
  return { tier: sub.tier, period: sub.period };
}

/**
 * Applies what a provider says of one of our payments. `eventId` is the provider's event id when
 * the news came as an event (stored once), or null when it came as the answer to our own call.
 */
export async function applyOutcome(
  db: Db,
  provider: string,
  news: ProviderPayment,
  eventId: { id: string; type: string } | null,
  now: Date,
): Promise<{ outcome: Outcome; effects: Effect[] }> {
  return db.transaction((tx) => applyOutcomeIn(tx, provider, news, eventId, now));
}

/**
 * applyOutcome within a transaction the caller holds: the sandbox records the payer's payment and
 * applies it (the plan, the invoice) in one transaction, before the payer is sent back.
 */
export async function applyOutcomeIn(
  tx: Db,
  provider: string,
  news: ProviderPayment,
  eventId: { id: string; type: string } | null,
  now: Date,
): Promise<{ outcome: Outcome; effects: Effect[] }> {
  if (eventId) {
    const stored = await tx
      .insert(billingEvents)
      .values({
        id: eventId.id,
        provider,
        type: eventId.type,
        paymentId: news.reference,
        payload: news,
        outcome: "received",
      })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (stored.length === 0) return { outcome: "duplicate" as const, effects: [] };
  }
  const result = await applyLocked(tx, provider, news, now);
  if (eventId)
    await tx
      .update(billingEvents)
      .set({ outcome: result.outcome })
      .where(eq(billingEvents.id, eventId.id));
  return result;
}

async function applyLocked(
  tx: Db,
  provider: string,
  news: ProviderPayment,
  now: Date,
): Promise<{ outcome: Outcome; effects: Effect[] }> {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(eq(payments.id, news.reference))
    .for("update");
  if (!payment) return { outcome: "unknown", effects: [] };
  // A notice that does not match what we asked for (another amount, currency or provider) is refused.
  if (
    payment.provider !== provider ||
    payment.amountCents !== news.amountCents ||
    payment.currency !== news.currency ||
    (payment.providerRef !== null && payment.providerRef !== news.ref)
  )
    return { outcome: "rejected", effects: [] };
  const status = statusOf(news.status);
  if (status === "succeeded" && (payment.status === "cancelled" || payment.status === "failed")) {
    // Money moved for a payment we had closed (superseded by a newer checkout, or expired): refunded.
    await tx
      .update(payments)
      .set({ status, providerRef: news.ref, redirectUrl: null, updatedAt: now })
      .where(eq(payments.id, payment.id));
    const reason = (payment.failureCode as FailureCode | null) ?? "superseded";
    return {
      outcome: "applied",
      effects: [await refundPayment(tx, payment, news.ref, reason, now)],
    };
  }
  if (order[status]! <= order[payment.status]!) return { outcome: "ignored", effects: [] };

  await tx
    .update(payments)
    .set({
      status,
      failureCode: news.failureCode,
      providerRef: news.ref,
      redirectUrl: status === "requires_action" ? news.redirectUrl : null,
      updatedAt: now,
    })
    .where(eq(payments.id, payment.id));

  const effects: Effect[] = [];
  if (status === "succeeded") effects.push(...(await grant(tx, payment, news, now)));
  else if (status !== "requires_action" && payment.kind === "renewal")
    effects.push(...(await renewalFailed(tx, payment, news.failureCode, now)));
  return { outcome: "applied", effects };
}

/** A successful charge: the plan it paid for, from the documented moment, and its invoice. */
async function grant(
  tx: Db,
  payment: PaymentRow,
  news: ProviderPayment,
  now: Date,
): Promise<Effect[]> {
  const product = payment.product as Product;
  const tier = payment.tier as PaidTier;
  const period = payment.period as Period;
  const sub = await lockSubscription(tx, payment.clientId, product);
  const current = livePaidPlan(sub, now);

  if (payment.kind !== "renewal" && current) {
    // Paid for a plan the client already has (or betters): e.g. two checkouts paid in two tabs.
    const change = comparePlans(product, current, { tier, period });
    if (
      change !== "upgrade" ||
      payment.fromTier !== current.tier ||
      payment.fromPeriod !== current.period
    ) {
      return [await refundPayment(tx, payment, news.ref, "superseded", now)];
    }
  }

  // Buying, or changing the period, starts a period now; an upgrade within the same period keeps its end.
  const keepsEnd =
    payment.kind === "upgrade" && current !== null && current.period === period && sub.expiryDate;
  const periodStart = payment.kind === "renewal" ? payment.periodStart : now;
  const periodEnd =
    payment.kind === "renewal"
      ? payment.periodEnd
      : keepsEnd
        ? sub.expiryDate!
        : addPeriod(now, period);

  await tx
    .update(subscriptions)
    .set({
      tier,
      period,
      planId: planIdFor(product, payment.currency as BillingCurrency),
      currency: payment.currency,
      active: true,
      cancelled: payment.kind === "renewal" ? sub.cancelled : false,
      periodStart: payment.kind === "upgrade" && keepsEnd ? sub.periodStart : periodStart,
      expiryDate: periodEnd,
      paymentMethod: news.paymentMethod ?? sub.paymentMethod,
      renewalFailures: 0,
      nextRetryAt: null,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, sub.id));
  if (payment.kind !== "renewal") {
    // An upgrade replaces any downgrade that was waiting, and a purchase ends a trial.
    await dropPendingChange(tx, sub.id, now);
    // Up in tier and down in period: the move to the shorter period waits for this period's end.
    if (payment.thenTier && payment.thenPeriod)
      await tx.insert(subscriptionChanges).values({
        subscriptionId: sub.id,
        tier: payment.thenTier,
        period: payment.thenPeriod,
        effectiveAt: periodEnd,
      });
    if (sub.period === "trial")
      await tx
        .update(clients)
        .set({ trialEndsAt: now, updatedAt: now })
        .where(and(eq(clients.id, payment.clientId), sql`trial_ends_at > ${now}`));
  }

  const isChange = payment.kind === "upgrade";
  const lines = changeInvoiceLines({
    product,
    plan: {
      tier,
      period,
      from: periodStart,
      to: periodEnd,
      cents: payment.newPlanCents,
    },
    credit:
      isChange && payment.fromTier
        ? {
            tier: payment.fromTier as PaidTier,
            period: payment.fromPeriod as Period,
            from: now,
            to: sub.expiryDate ?? now,
            cents: payment.creditCents,
          }
        : null,
    balanceUsedCents: payment.balanceUsedCents,
    balanceAddedCents: payment.balanceAddedCents,
  });
  await recordBalance(tx, payment);
  const invoice = await issueInvoice(tx, {
    clientId: payment.clientId,
    paymentId: payment.id,
    kind: "charge",
    currency: payment.currency as BillingCurrency,
    lines,
    at: now,
  });
  return [{ kind: "receipt", clientId: payment.clientId, paymentId: payment.id, invoice }];
}

/** Money that arrived for nothing: refunded in full, with its credit note. */
async function refundPayment(
  tx: Db,
  payment: PaymentRow,
  providerRef: string,
  reason: FailureCode,
  now: Date,
): Promise<Effect> {
  await tx
    .insert(refunds)
    .values({ paymentId: payment.id, amountCents: payment.amountCents, reason })
    .onConflictDoNothing();
  const charge: InvoiceLine = {
    kind: "plan",
    product: payment.product as Product,
    tier: payment.tier as PaidTier,
    period: payment.period as Period,
    from: payment.periodStart.toISOString(),
    to: payment.periodEnd.toISOString(),
    amountCents: payment.amountCents,
  };
  await issueInvoice(tx, {
    clientId: payment.clientId,
    paymentId: payment.id,
    kind: "charge",
    currency: payment.currency as BillingCurrency,
    lines: [charge],
    at: now,
  });
  await issueInvoice(tx, {
    clientId: payment.clientId,
    paymentId: payment.id,
    kind: "refund",
    currency: payment.currency as BillingCurrency,
    lines: [{ ...charge, kind: "refund", amountCents: -payment.amountCents }],
    at: now,
  });
  await tx.update(payments).set({ failureCode: reason }).where(eq(payments.id, payment.id));
  return { kind: "refund", paymentId: payment.id, providerRef, amountCents: payment.amountCents };
}

/** A renewal that failed: retried on days 1, 3 and 7 after the renewal date, then the plan ends. */
async function renewalFailed(
  tx: Db,
  payment: PaymentRow,
  _code: FailureCode | null,
  now: Date,
): Promise<Effect[]> {
  const sub = await lockSubscription(tx, payment.clientId, payment.product as Product);
  const failures = sub.renewalFailures + 1;
  const retryDay = RENEWAL_RETRY_DAYS[failures - 1];
  const retryAt =
    retryDay === undefined ? null : new Date(payment.periodStart.getTime() + retryDay * dayMs);
  await tx
    .update(subscriptions)
    .set(
      retryAt
        ? { renewalFailures: failures, nextRetryAt: retryAt, updatedAt: now }
        : { renewalFailures: failures, nextRetryAt: null, active: false, updatedAt: now },
    )
    .where(eq(subscriptions.id, sub.id));
  return [{ kind: "renewalFailed", clientId: payment.clientId, paymentId: payment.id, retryAt }];
}

export const localeOf = (language: string): Locale => (language === "es" ? "es" : "en");
