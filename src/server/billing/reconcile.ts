/** Payments and refunds whose outcome we do not know, settled with the provider (a job). */
import { and, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import {
  type BillingCurrency,
  type PaidTier,
  type Period,
  QUOTE_VALIDITY_MS,
} from "../../contract/billing.ts";
import { type Product } from "../../contract/common.ts";
import { billingQuotes, payments, refunds } from "../db/schema.ts";
import { type PaymentRow } from "./apply.ts";
import { planName } from "./texts.ts";
import { dayMs, type BillingContext } from "./context.ts";
import type { PaymentNews } from "./payment-news.ts";

/** The idempotency key a payment was sent to its provider with. */
export const keyOf = (row: PaymentRow) =>
  row.kind === "renewal" ? row.idempotencyKey : `checkout-${row.id}`;

export function reconciler(
  ctx: BillingContext,
  { apply, runEffects, settleWithoutCard }: PaymentNews,
) {
  const { db, deps, provider, subscriptionOf } = ctx;
  return {
    /** Payments whose outcome we do not know (a crash, a lost event): asked of the provider. */
    async reconcile(olderThanMs = 60_000): Promise<number> {
      const now = deps.clock();
      const open = await db
        .select()
        .from(payments)
        .where(
          and(
            inArray(payments.status, ["pending", "requires_action"]),
            lt(payments.updatedAt, new Date(now.getTime() - olderThanMs)),
          ),
        )
        .orderBy(desc(payments.createdAt))
        .limit(200);
      let settled = 0;
      // Quotes are honoured for 30 minutes; a day later nobody can name one any more.
      await db
        .delete(billingQuotes)
        .where(lt(billingQuotes.quotedAt, new Date(now.getTime() - dayMs)));
      for (const row of open) {
        if (row.amountCents === 0) {
          if ((await settleWithoutCard(row)) === "applied") settled++;
          continue;
        }
        const known = await provider.retrieve(
          row.providerRef ? { ref: row.providerRef } : { idempotencyKey: keyOf(row) },
        );
        if (known && known.status !== "open" && known.status !== "requires_action") {
          if ((await apply(known, null)) === "applied") settled++;
        } else if (!known && row.kind === "renewal") {
          // The charge may never have reached the provider (a crash): sent again with the same key.
          const sub = await subscriptionOf(row.clientId, row.product as Product);
          if (!sub?.paymentMethod) continue;
          const charged = await provider.chargeSaved({
            reference: row.id,
            amountCents: row.amountCents,
            currency: row.currency as BillingCurrency,
            description: planName(
              "en",
              deps.edition,
              row.product as Product,
              row.tier as PaidTier,
              row.period as Period,
            ),
            idempotencyKey: row.idempotencyKey,
            paymentMethod: sub.paymentMethod,
          });
          if ((await apply(charged, null)) === "applied") settled++;
        } else if (
          row.kind !== "renewal" &&
          (now.getTime() - row.createdAt.getTime() > 3_600_000 ||
            (row.quotedAt !== null &&
              now.getTime() - row.quotedAt.getTime() > QUOTE_VALIDITY_MS + olderThanMs))
        ) {
          // A checkout nobody finished within an hour (or past its quote's 30 minutes) is closed,
          // at the provider first: what is confirmed is charged, never a figure grown stale.
          const closed = known ? await provider.expire(known.ref) : null;
          if (closed && closed.status !== "open") await apply(closed, null);
          else
            await db
              .update(payments)
              .set({ status: "failed", failureCode: "expired", updatedAt: now })
              .where(and(eq(payments.id, row.id), inArray(payments.status, ["pending"])));
          settled++;
        }
      }
      // Refunds decided but not yet sent to the provider.
      const unsent = await db.select().from(refunds).where(isNull(refunds.providerRef)).limit(100);
      for (const r of unsent) {
        const [p] = await db.select().from(payments).where(eq(payments.id, r.paymentId));
        if (p?.providerRef)
          await runEffects([
            {
              kind: "refund",
              paymentId: p.id,
              providerRef: p.providerRef,
              amountCents: r.amountCents,
            },
          ]);
      }
      return settled;
    },
  };
}
