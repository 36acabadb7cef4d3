/** Checkouts: a plan bought or upgraded now, at the quote the client confirmed (docs/billing.md). */
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  type BillingCurrency,
  type CheckoutRequest,
  type CheckoutResponse,
  invoiceInfoComplete,
  type PaidTier,
  type Payment,
  type Period,
  QUOTE_VALIDITY_MS,
  vatOf,
} from "../../contract/billing.ts";
import { type Locale, type Product } from "../../contract/common.ts";
import { billingQuotes, invoiceInfo, payments, subscriptions } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { localeOf, type PaymentRow } from "./apply.ts";
import { planName } from "./texts.ts";
import { billingPaths, hashOf, paymentView, refuseChange, type BillingContext } from "./context.ts";
import type { Quoting } from "./quotes.ts";
import type { PaymentNews } from "./payment-news.ts";

export function checkouts(
  ctx: BillingContext,
  { quoteFor }: Quoting,
  { settleWithoutCard }: PaymentNews,
) {
  const { db, deps, provider, logger, billable, currentPlanOf, invoiceNumberOf } = ctx;

  /** Asks the provider for the checkout of a payment, and keeps where the payer goes. */
  const openCheckout = async (row: PaymentRow, locale: Locale) => {
    const opened = await provider.createCheckout({
      reference: row.id,
      amountCents: row.amountCents,
      currency: row.currency as BillingCurrency,
      description: planName(
        locale,
        deps.edition,
        row.product as Product,
        row.tier as PaidTier,
        row.period as Period,
      ),
      idempotencyKey: `checkout-${row.id}`,
      returnUrl: `${billingPaths.paymentComplete[locale]}?payment=${row.id}`,
      language: locale,
    });
    const [updated] = await db
      .update(payments)
      .set({ providerRef: opened.ref, redirectUrl: opened.redirectUrl, updatedAt: deps.clock() })
      .where(and(eq(payments.id, row.id), isNull(payments.providerRef)))
      .returning();
    return updated ?? (await db.select().from(payments).where(eq(payments.id, row.id)))[0]!;
  };

  return {
    async checkout(
      clientId: number,
      request: CheckoutRequest,
      lang: Locale,
    ): Promise<CheckoutResponse> {
      const client = await billable(clientId);
      const now = deps.clock();
      const { idempotencyKey, quoteId, ...choice } = request;
      const requestHash = hashOf(choice);
      const replay = async () => {
        const [row] = await db
          .select()
          .from(payments)
          .where(and(eq(payments.clientId, clientId), eq(payments.idempotencyKey, idempotencyKey)));
        if (!row) return null;
        if (row.requestHash !== requestHash) throw new ApiFailure(422, "IDEMPOTENCY_CONFLICT");
        const opened =
          row.providerRef || row.amountCents === 0
            ? row
            : await openCheckout(row, localeOf(row.language));
        const { quote } = await quoteFor(clientId, choice, row.quotedAt ?? row.createdAt, {
          quoteId: quoteId ?? "",
        });
        return {
          payment: paymentView(opened, await invoiceNumberOf(row.id)),
          // What this payment charges, whatever the balance has become since.
          quote: {
            ...quote,
            chargeNowCents: row.amountCents,
            vatNowCents: vatOf(row.amountCents),
            balanceUsedCents: row.balanceUsedCents,
            balanceAddedCents: row.balanceAddedCents,
          },
        };
      };
      const replayed = await replay();
      if (replayed) return replayed;

      // The quote the client confirmed is honoured for 30 minutes; after that it asks again.
      let quotedAt = now;
      if (quoteId) {
        const [stored] = await db
          .select()
          .from(billingQuotes)
          .where(and(eq(billingQuotes.id, quoteId), eq(billingQuotes.clientId, clientId)));
        if (
          !stored ||
          stored.requestHash !== requestHash ||
          stored.quotedAt.getTime() > now.getTime() ||
          now.getTime() - stored.quotedAt.getTime() > QUOTE_VALIDITY_MS
        )
          throw new ApiFailure(409, "QUOTE_EXPIRED");
        quotedAt = stored.quotedAt;
      }

      const [info] = await db.select().from(invoiceInfo).where(eq(invoiceInfo.clientId, clientId));
      if (!info || !invoiceInfoComplete(info)) throw new ApiFailure(400, "INVOICE_INFO_REQUIRED");
      const preview = await quoteFor(clientId, choice, quotedAt, { quoteId: quoteId ?? "" });
      if (preview.quote.change !== "upgrade" || preview.quote.appliesAt !== "now")
        refuseChange(preview.quote.change);
      const id = `pay_${randomBytes(16).toString("base64url")}`;
      const created = await db.transaction(async (tx) => {
        // One checkout at a time per client: concurrent ones queue here, then see each other
        // (and the balance one of them reserves).
        await tx.execute(sql`select id from clients where id = ${clientId} for update`);
        const { quote, figures } = await quoteFor(clientId, choice, quotedAt, {
          quoteId: quoteId ?? "",
          db: tx,
        });
        if (quote.change !== "upgrade" || quote.appliesAt !== "now") refuseChange(quote.change);
        const sub = (
          await tx
            .select()
            .from(subscriptions)
            .where(
              and(eq(subscriptions.clientId, clientId), eq(subscriptions.product, choice.product)),
            )
        )[0];
        const current = currentPlanOf(sub, quotedAt);
        const inserted = await tx
          .insert(payments)
          .values({
            id,
            clientId,
            product: choice.product,
            tier: figures.nowPlan.tier,
            period: figures.nowPlan.period,
            currency: choice.currency,
            kind: current ? "upgrade" : "purchase",
            amountCents: quote.chargeNowCents,
            creditCents: quote.creditCents,
            newPlanCents: quote.newPlanCents,
            balanceUsedCents: quote.balanceUsedCents,
            balanceAddedCents: quote.balanceAddedCents,
            thenTier: figures.then?.tier ?? null,
            thenPeriod: figures.then?.period ?? null,
            quotedAt,
            periodStart: new Date(quote.periodStart),
            periodEnd: new Date(quote.periodEnd),
            fromTier: current?.tier ?? null,
            fromPeriod: current?.period ?? null,
            idempotencyKey,
            requestHash,
            provider: provider.name,
            language: lang,
          })
          .onConflictDoNothing()
          .returning();
        if (!inserted[0]) return null;
        // An older open checkout of the same product is superseded (a late payment of it is refunded).
        const superseded = await tx
          .update(payments)
          .set({ status: "cancelled", failureCode: "superseded", updatedAt: now })
          .where(
            and(
              eq(payments.clientId, clientId),
              eq(payments.product, choice.product),
              inArray(payments.status, ["pending"]),
              sql`${payments.id} <> ${id}`,
              sql`${payments.kind} <> 'renewal'`,
            ),
          )
          .returning({ providerRef: payments.providerRef });
        return { row: inserted[0], superseded, quote };
      });
      if (!created) return (await replay())!;
      // ...and closed at the provider, so its page can no longer take money.
      for (const old of created.superseded)
        if (old.providerRef)
          await provider
            .expire(old.providerRef, "superseded")
            .catch((error: unknown) => logger.warn("could not close a checkout", { error }));
      logger.info("checkout opened", {
        clientId: client.id,
        payment: id,
        amount: created.row.amountCents,
      });
      if (created.row.amountCents === 0) {
        // Nothing to charge (the credit or the balance covers it): no card page, applied at once.
        await settleWithoutCard(created.row);
        const [row] = await db.select().from(payments).where(eq(payments.id, id));
        return { payment: paymentView(row!, await invoiceNumberOf(id)), quote: created.quote };
      }
      const opened = await openCheckout(created.row, lang);
      return { payment: paymentView(opened, null), quote: created.quote };
    },

    async payment(clientId: number, id: string): Promise<Payment> {
      await billable(clientId);
      const [row] = await db.select().from(payments).where(eq(payments.id, id));
      if (!row || row.clientId !== clientId) throw new ApiFailure(404, "NOT_FOUND");
      return paymentView(row, await invoiceNumberOf(row.id));
    },
  };
}
