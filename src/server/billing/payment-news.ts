/**
 * News about a payment (the provider's events, a payment settled without a card) applied, and what
 * it calls for carried out: receipts, failure emails and refunds.
 */
import { eq } from "drizzle-orm";
import {
  type BillingCurrency,
  type FailureCode,
  type PaidTier,
  type Period,
} from "../../contract/billing.ts";
import { type Product } from "../../contract/common.ts";
import type { Db } from "../db/database.ts";
import { payments, refunds } from "../db/schema.ts";
import { applyOutcome, applyOutcomeIn, type Effect, localeOf, type PaymentRow } from "./apply.ts";
import type { ProviderPayment } from "./provider.ts";
import { billingEmails, day, failureText, money, planName } from "./texts.ts";
import { billingPaths, type BillingContext } from "./context.ts";

export function paymentNews(ctx: BillingContext) {
  const { db, deps, provider, logger, brand, clientRow, subscriptionOf } = ctx;

  /** Sends the emails and refunds an applied outcome calls for; a failure is logged, not lost silently. */
  const runEffects = async (effects: readonly Effect[]) => {
    for (const effect of effects) {
      try {
        if (effect.kind === "refund") {
          const [refund] = await db
            .select()
            .from(refunds)
            .where(eq(refunds.paymentId, effect.paymentId));
          if (refund && !refund.providerRef && effect.providerRef) {
            const { ref } = await provider.refund({
              paymentRef: effect.providerRef,
              amountCents: effect.amountCents,
              idempotencyKey: `refund-${effect.paymentId}`,
            });
            await db.update(refunds).set({ providerRef: ref }).where(eq(refunds.id, refund.id));
          }
          continue;
        }
        const client = await clientRow(effect.clientId);
        const [payment] = await db.select().from(payments).where(eq(payments.id, effect.paymentId));
        if (!payment) continue;
        const locale = localeOf(client.language);
        const plan = planName(
          locale,
          deps.edition,
          payment.product as Product,
          payment.tier as PaidTier,
          payment.period as Period,
        );
        const link = `${deps.publicUrl}${billingPaths.billing[locale]}`;
        if (effect.kind === "receipt") {
          const sub = await subscriptionOf(client.id, payment.product as Product);
          await deps.mailer.send(
            client.email,
            billingEmails.receipt(locale, {
              brand,
              plan,
              amount: money(locale, payment.amountCents, payment.currency),
              invoice: effect.invoice,
              until: day(locale, sub?.expiryDate ?? payment.periodEnd),
              link,
              fromBalance:
                payment.balanceUsedCents > 0
                  ? money(locale, payment.balanceUsedCents, payment.currency)
                  : null,
              toBalance:
                payment.balanceAddedCents > 0
                  ? money(locale, payment.balanceAddedCents, payment.currency)
                  : null,
            }),
            "billing-receipt",
          );
        } else {
          await deps.mailer.send(
            client.email,
            billingEmails.paymentFailed(locale, {
              brand,
              plan,
              reason:
                failureText[locale][(payment.failureCode as FailureCode | null) ?? "card_declined"],
              retryOn: effect.retryAt ? day(locale, effect.retryAt) : null,
              link,
            }),
            "billing-payment-failed",
          );
        }
      } catch (error) {
        logger.error("billing effect failed", { effect: effect.kind, error });
      }
    }
  };

  /** Applies news about a payment and carries out what it calls for. */
  const apply = async (news: ProviderPayment, event: { id: string; type: string } | null) => {
    const result = await applyOutcome(db, provider.name, news, event, deps.clock());
    if (result.outcome === "rejected" || result.outcome === "unknown")
      logger.warn("billing news refused", {
        outcome: result.outcome,
        event: event?.id,
        reference: news.reference,
      });
    await runEffects(result.effects);
    return result.outcome;
  };

  /**
   * Applies news about a payment inside the caller's transaction (the sandbox's, which records the
   * payment there too); answers what to do once that transaction has committed (the emails).
   */
  const applyWithin = async (tx: Db, news: ProviderPayment) => {
    const result = await applyOutcomeIn(tx, provider.name, news, null, deps.clock());
    if (result.outcome === "rejected" || result.outcome === "unknown")
      logger.warn("billing news refused", { outcome: result.outcome, reference: news.reference });
    return () => runEffects(result.effects);
  };

  /** A payment of zero (the credit or the balance covers it) succeeds without the provider. */
  const settleWithoutCard = (row: PaymentRow) =>
    apply(
      {
        ref: `internal-${row.id}`,
        reference: row.id,
        amountCents: 0,
        currency: row.currency as BillingCurrency,
        status: "succeeded",
        failureCode: null,
        redirectUrl: null,
        paymentMethod: null,
      },
      null,
    );

  return { runEffects, apply, applyWithin, settleWithoutCard };
}

export type PaymentNews = ReturnType<typeof paymentNews>;
