/**
 * The billing job (docs/billing.md, "Moments"): renewals and their retries, scheduled downgrades,
 * the end of cancelled plans and trials, trial-ending emails, and reconciliation of payments whose
 * outcome is unknown. It is safe to run on several instances at once: each due subscription is
 * claimed with FOR UPDATE SKIP LOCKED and re-checked under the lock, each renewal charge has a
 * deterministic idempotency key (one payment row, one charge at the provider), and each email is
 * claimed by a conditional update before it is sent.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import {
  addPeriod,
  type BillingCurrency,
  type PaidTier,
  type Period,
  planPrice,
  TRIAL_WARNING_DAYS,
} from "../../contract/billing.ts";
import type { Product } from "../../contract/common.ts";
import { brandNames, productName, tierName } from "../../contract/names.ts";
import { resultRows } from "../db/database.ts";
import { clients, payments, subscriptionChanges, subscriptions } from "../db/schema.ts";
import { availableBalance } from "./balance.ts";
import { dropPendingChange, localeOf, type PaymentRow } from "./apply.ts";
import { billingPaths, type BillingDeps } from "./context.ts";
import type { BillingService } from "./service.ts";
import { billingEmails, day, planName } from "./texts.ts";

const dayMs = 86_400_000;

export interface BillingRun {
  readonly renewed: number;
  readonly ended: number;
  readonly changed: number;
  readonly warned: number;
  readonly reconciled: number;
}

type Claimed =
  | { kind: "none" }
  | { kind: "ended"; clientId: number; product: Product; tier: string; period: string | null }
  | { kind: "charge"; payment: PaymentRow; paymentMethod: string | null; changed: boolean };

export async function runBillingJobs(
  deps: BillingDeps,
  service: BillingService,
): Promise<BillingRun> {
  const { db } = deps;
  const now = deps.clock();
  const brand = brandNames[deps.edition];
  let renewed = 0;
  let ended = 0;
  let changed = 0;

  const due = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.active, true),
        ne(subscriptions.tier, "free"),
        or(
          and(isNull(subscriptions.nextRetryAt), lte(subscriptions.expiryDate, now)),
          lte(subscriptions.nextRetryAt, now),
        ),
      ),
    )
    // The earliest charge first: the account balance goes to the charges in date order, as the
    // billing screen says (several due in one run, e.g. after the sandbox's test clock moved).
    .orderBy(
      sql`coalesce(${subscriptions.nextRetryAt}, ${subscriptions.expiryDate})`,
      subscriptions.id,
    )
    .limit(500);

  for (const { id } of due) {
    const claimed = await db.transaction(async (tx): Promise<Claimed> => {
      const [sub] = await tx
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.id, id))
        .for("update", { skipLocked: true });
      if (!sub || !sub.active || !sub.expiryDate) return { kind: "none" };
      const retrying = sub.nextRetryAt !== null;
      if (retrying ? sub.nextRetryAt! > now : sub.expiryDate > now) return { kind: "none" };
      // The client's row too (never waited for: a checkout holding it is left to finish, and
      // this renewal is claimed on the next run), so the balance is reserved by one charge at a time.
      const client = await tx.execute(
        sql`select id, billing_clock_offset_seconds from clients
            where id = ${sub.clientId} for update skip locked`,
      );
      const [clientRow] = resultRows(client);
      if (!clientRow) return { kind: "none" };
      // The account's own clock (moved by the sandbox's test clock; 0 otherwise), so a renewal's
      // key names the same period however far the account's dates were moved.
      const offsetMs = Number(clientRow.billing_clock_offset_seconds ?? 0) * 1000;
      const end = async () => {
        await tx
          .update(subscriptions)
          .set({ active: false, nextRetryAt: null, updatedAt: now })
          .where(eq(subscriptions.id, sub.id));
        await dropPendingChange(tx, sub.id, now);
        return {
          kind: "ended" as const,
          clientId: sub.clientId,
          product: sub.product as Product,
          tier: sub.tier,
          period: sub.period,
        };
      };
      // Trials and cancelled plans end at their date.
      if (sub.period === "trial" || sub.cancelled) return end();

      let tier = sub.tier as PaidTier;
      let period = sub.period as Period;
      let changedNow = false;
      if (!retrying) {
        const [change] = await tx
          .select()
          .from(subscriptionChanges)
          .where(
            and(
              eq(subscriptionChanges.subscriptionId, sub.id),
              isNull(subscriptionChanges.appliedAt),
              isNull(subscriptionChanges.cancelledAt),
              lte(subscriptionChanges.effectiveAt, now),
            ),
          );
        if (change) {
          // A downgrade takes effect at the period end: the renewal charges the new plan.
          tier = change.tier as PaidTier;
          period = change.period as Period;
          changedNow = true;
          await tx
            .update(subscriptionChanges)
            .set({ appliedAt: now })
            .where(eq(subscriptionChanges.id, change.id));
          await tx
            .update(subscriptions)
            .set({ tier, period, updatedAt: now })
            .where(eq(subscriptions.id, sub.id));
        }
      }
      const price = planPrice(sub.product as Product, tier, period);
      if (price === null) return end();
      const currency = (sub.currency ?? "EUR") as BillingCurrency;
      const periodStart = sub.expiryDate;
      const periodOnAccountClock = new Date(periodStart.getTime() + offsetMs).toISOString();
      const key = `renewal-${sub.id}-${periodOnAccountClock}-${sub.renewalFailures}`;
      const paymentOf = async () => {
        const [row] = await tx
          .select()
          .from(payments)
          .where(and(eq(payments.clientId, sub.clientId), eq(payments.idempotencyKey, key)));
        return row;
      };
      // Read before writing: the renewal may exist already (another run claimed it, and its
      // outcome is being applied). Inserting then would wait on the row the applying transaction
      // holds while that transaction waits for the subscription locked here: a deadlock between
      // instances. Only the holder of the subscription's lock inserts, so the read is enough.
      const existing = await paymentOf();
      if (existing)
        return {
          kind: "charge",
          payment: existing,
          paymentMethod: sub.paymentMethod,
          changed: changedNow,
        };
      // The account balance is used before the card; a plan with neither to pay with ends.
      const balanceUsed = Math.min(price, await availableBalance(tx, sub.clientId, currency));
      if (!sub.paymentMethod && balanceUsed < price) return end();
      await tx
        .insert(payments)
        .values({
          id: `pay_${randomBytes(16).toString("base64url")}`,
          clientId: sub.clientId,
          product: sub.product,
          tier,
          period,
          currency,
          kind: "renewal",
          amountCents: price - balanceUsed,
          balanceUsedCents: balanceUsed,
          newPlanCents: price,
          periodStart,
          periodEnd: addPeriod(periodStart, period),
          idempotencyKey: key,
          requestHash: key,
          provider: deps.provider.name,
        })
        .onConflictDoNothing();
      const payment = await paymentOf();
      return {
        kind: "charge",
        payment: payment!,
        paymentMethod: sub.paymentMethod,
        changed: changedNow,
      };
    });

    if (claimed.kind === "ended") {
      ended++;
      await planEndedEmail(claimed);
    } else if (claimed.kind === "charge") {
      if (claimed.changed) changed++;
      if (claimed.payment.status !== "pending") continue;
      if (claimed.payment.amountCents === 0) {
        // The balance pays it all: no card charged.
        await service.settleWithoutCard(claimed.payment);
        renewed++;
        continue;
      }
      const charged = await deps.provider.chargeSaved({
        reference: claimed.payment.id,
        amountCents: claimed.payment.amountCents,
        currency: claimed.payment.currency as BillingCurrency,
        description: planName(
          "en",
          deps.edition,
          claimed.payment.product as Product,
          claimed.payment.tier as PaidTier,
          claimed.payment.period as Period,
        ),
        idempotencyKey: claimed.payment.idempotencyKey,
        paymentMethod: claimed.paymentMethod!,
      });
      await service.apply(charged, null);
      renewed++;
    }
  }

  async function planEndedEmail(e: Extract<Claimed, { kind: "ended" }>) {
    try {
      const [client] = await db.select().from(clients).where(eq(clients.id, e.clientId));
      if (!client) return;
      const locale = localeOf(client.language);
      const plan =
        e.period === "monthly" || e.period === "annual"
          ? planName(locale, deps.edition, e.product, e.tier as PaidTier, e.period)
          : `${productName(locale, deps.edition, e.product)} ${tierName(locale, "advanced")}`;
      await deps.mailer.send(
        client.email,
        billingEmails.planEnded(locale, {
          brand,
          plan,
          link: `${deps.publicUrl}${billingPaths.choosePlan[locale]}`,
        }),
        "billing-plan-ended",
      );
    } catch (error) {
      deps.logger.error("plan-ended email failed", { error });
    }
  }

  // Trial-ending emails: claimed by a conditional update, so one instance sends each.
  const warned = await db
    .update(clients)
    .set({ trialWarnedAt: now })
    .where(
      and(
        isNull(clients.trialWarnedAt),
        gt(clients.trialEndsAt, now),
        lte(clients.trialEndsAt, new Date(now.getTime() + TRIAL_WARNING_DAYS * dayMs)),
        inArray(
          clients.id,
          db
            .select({ id: subscriptions.clientId })
            .from(subscriptions)
            .where(and(eq(subscriptions.period, "trial"), eq(subscriptions.active, true))),
        ),
      ),
    )
    .returning();
  for (const client of warned) {
    const locale = localeOf(client.language);
    await deps.mailer
      .send(
        client.email,
        billingEmails.trialEnding(locale, {
          brand,
          endsOn: day(locale, client.trialEndsAt!),
          link: `${deps.publicUrl}${billingPaths.choosePlan[locale]}`,
        }),
        "billing-trial-ending",
      )
      .catch((error: unknown) => deps.logger.error("trial email failed", { error }));
  }

  const reconciled = await service.reconcile();
  const run = { renewed, ended, changed, warned: warned.length, reconciled };
  if (renewed || ended || changed || warned.length || reconciled)
    deps.logger.info("billing job", { ...run });
  // Every round, for whoever watches the job at debug level (tests/server/two-instances.test.ts).
  else deps.logger.debug("billing job", { ...run });
  return run;
}

/** Runs the job now (reconciling what a crash left unknown) and then every minute. */
export function scheduleBillingJobs(
  deps: BillingDeps,
  service: BillingService,
  everyMs = 60_000,
): () => void {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running
      .then(() => runBillingJobs(deps, service))
      .catch((error: unknown) => deps.logger.error("billing job failed", { error }));
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
