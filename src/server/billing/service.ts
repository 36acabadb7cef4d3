/**
 * The billing service (docs/billing.md): quotes, checkouts, scheduled changes, cancellation,
 * reactivation, trials and the billing overview. Every rule the screens show is enforced here.
 */
import { randomBytes, createHash } from "node:crypto";
import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { AccountKind } from "../../contract/accounts.ts";
import {
  annualSaving,
  type BillingCurrency,
  type BillingOverview,
  type CheckoutRequest,
  type CheckoutResponse,
  type CurrentPlan,
  type DowngradeEffect,
  type FailureCode,
  invoiceInfoComplete,
  type PaidTier,
  paidTiersOf,
  type Payment,
  type PaymentKind,
  type Period,
  periods,
  type PlanCatalog,
  type PlanChoice,
  planIdFor,
  planPrice,
  type ProductBilling,
  type Quote,
  QUOTE_VALIDITY_MS,
  quotePlan,
  TRIAL_DAYS,
  vatOf,
} from "../../contract/billing.ts";
import { type Edition, type Locale, type Product, products } from "../../contract/common.ts";
import { permissionsFor } from "../../contract/permissions.ts";
import { brandNames } from "../../contract/names.ts";
import type { Mailer } from "../accounts/mailer.ts";
import { clientView } from "../accounts/client-view.ts";
import type { Db } from "../db/database.ts";
import {
  billingQuotes,
  clients,
  invoiceInfo,
  invoices,
  payments,
  plans,
  refunds,
  subscriptionChanges,
  subscriptions,
} from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { Logger } from "../logger.ts";
import { savedCount } from "../portfolios/repository.ts";
import {
  applyOutcome,
  applyOutcomeIn,
  dropPendingChange,
  type Effect,
  livePaidPlan,
  localeOf,
  lockSubscription,
  type PaymentRow,
  type SubscriptionRow,
} from "./apply.ts";
import { availableBalance, balancesOf, withBalanceUsed } from "./balance.ts";
import { clientInvoices } from "./invoices.ts";
import type { PaymentProvider, ProviderPayment } from "./provider.ts";
import { billingEmails, day, failureText, money, planName } from "./texts.ts";

export interface BillingDeps {
  readonly db: Db;
  readonly provider: PaymentProvider;
  readonly mailer: Mailer;
  readonly logger: Logger;
  readonly edition: Edition;
  readonly publicUrl: string;
  readonly policyVersion: string;
  readonly clock: () => Date;
}

/** The app's localized paths billing links to (emails, the checkout's return). */
export const billingPaths = {
  paymentComplete: { en: "/en/payment-complete", es: "/es/pago-realizado" },
  billing: {
    en: "/en/my-account/billing-subscription",
    es: "/es/mi-cuenta/facturacion-suscripcion",
  },
  choosePlan: { en: "/en/choose-your-plan", es: "/es/elige-tu-plan" },
} as const satisfies Record<string, Record<Locale, string>>;

const dayMs = 86_400_000;

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

const hashOf = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("base64url");

export function paymentView(row: PaymentRow, invoice: string | null): Payment {
  return {
    id: row.id,
    product: row.product as Product,
    tier: row.tier as PaidTier,
    period: row.period as Period,
    currency: row.currency as BillingCurrency,
    kind: row.kind as PaymentKind,
    amountCents: row.amountCents,
    status: row.status as Payment["status"],
    failureCode: row.failureCode as FailureCode | null,
    redirectUrl:
      row.status === "pending" || row.status === "requires_action" ? row.redirectUrl : null,
    invoiceNumber: invoice,
    createdAt: row.createdAt.toISOString(),
  };
}

export function billingService(deps: BillingDeps) {
  const { db, provider, logger } = deps;
  const brand = brandNames[deps.edition];

  const clientRow = async (clientId: number) => {
    const [row] = await db.select().from(clients).where(eq(clients.id, clientId));
    if (!row) throw new ApiFailure(401, "UNAUTHORIZED");
    return row;
  };

  /** TT accounts never choose plans, subscribe or pay: their institution does (PRODUCT.md). */
  const billable = async (clientId: number) => {
    const row = await clientRow(clientId);
    if ((row.kind as AccountKind) === "TT") throw new ApiFailure(403, "ACCOUNT_KIND_FORBIDDEN");
    return row;
  };

  const subscriptionOf = async (clientId: number, product: Product) =>
    (
      await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.clientId, clientId), eq(subscriptions.product, product)))
    )[0];

  const currentPlanOf = (sub: SubscriptionRow | undefined, now: Date): CurrentPlan | null => {
    const live = livePaidPlan(sub, now);
    if (!live || !sub?.expiryDate) return null;
    return {
      ...live,
      priceCents: planPrice(sub.product as Product, live.tier, live.period)!,
      periodStart: sub.periodStart ?? new Date(sub.createdAt),
      periodEnd: sub.expiryDate,
    };
  };

  /** What a lower plan means for the client's saved portfolios (kept, never deleted). */
  const downgradeEffect = async (
    clientId: number,
    product: Product,
    tier: PaidTier,
  ): Promise<DowngradeEffect | null> => {
    const construction = permissionsFor(product, tier).construction;
    const limit =
      product === "simMonk"
        ? construction.saveLimitPerRegion.eu + construction.saveLimitPerRegion.usa
        : construction.saveLimit;
    const saved = await savedCount(db, clientId, product, null);
    return saved > limit ? { savedPortfolios: saved, saveLimit: limit } : null;
  };

  /**
   * The quote of a change at a moment, with the balance the client can use now. `quoteId` names
   * the stored quote (a checkout naming it within 30 minutes pays these figures).
   */
  const quoteFor = async (
    clientId: number,
    choice: PlanChoice,
    at: Date,
    options: { quoteId?: string; db?: Db } = {},
  ): Promise<{ quote: Quote; figures: ReturnType<typeof quotePlan> }> => {
    const q = options.db ?? db;
    const sub = (
      await q
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.clientId, clientId), eq(subscriptions.product, choice.product)))
    )[0];
    const balance = await availableBalance(q, clientId, choice.currency);
    const figures = quotePlan(choice.product, currentPlanOf(sub, at), choice, at, balance);
    const quote: Quote = {
      ...choice,
      change: figures.change,
      appliesAt: figures.appliesAt,
      chargeNowCents: figures.chargeNowCents,
      creditCents: figures.creditCents,
      newPlanCents: figures.newPlanCents,
      vatNowCents: vatOf(figures.chargeNowCents),
      balanceUsedCents: figures.balanceUsedCents,
      balanceAddedCents: figures.balanceAddedCents,
      then: figures.then
        ? {
            tier: figures.then.tier,
            period: figures.then.period,
            at: figures.then.at.toISOString(),
          }
        : null,
      periodStart: figures.periodStart.toISOString(),
      periodEnd: figures.periodEnd.toISOString(),
      nextChargeCents: figures.nextChargeCents,
      nextChargeDate: figures.nextChargeDate.toISOString(),
      remainingSeconds: figures.remainingSeconds,
      periodSeconds: figures.periodSeconds,
      quoteId: options.quoteId ?? "",
      quotedAt: at.toISOString(),
      validUntil: new Date(at.getTime() + QUOTE_VALIDITY_MS).toISOString(),
      overLimit:
        figures.change === "downgrade"
          ? await downgradeEffect(clientId, choice.product, choice.tier)
          : null,
    };
    return { quote, figures };
  };

  const refuseChange = (change: Quote["change"]): never => {
    if (change === "invalid") throw new ApiFailure(400, "PLAN_INVALID");
    if (change === "current") throw new ApiFailure(409, "PLAN_CURRENT");
    if (change === "downgrade") throw new ApiFailure(409, "PLAN_IS_DOWNGRADE");
    throw new ApiFailure(409, "PLAN_NEEDS_PAYMENT");
  };

  const invoiceNumberOf = async (paymentId: string) => {
    const rows = await db
      .select({ number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), eq(invoices.kind, "charge")));
    return rows[0]?.number ?? null;
  };

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

  /** A paid plan in force for a product, locked; otherwise NOT_SUBSCRIBED. */
  const lockLivePlan = async (tx: Db, clientId: number, product: Product, now: Date) => {
    const sub = await lockSubscription(tx, clientId, product);
    const live = livePaidPlan(sub, now);
    if (!live) throw new ApiFailure(409, "NOT_SUBSCRIBED");
    return { sub, live };
  };

  return {
    provider,
    billable,
    apply,
    applyWithin,
    runEffects,
    settleWithoutCard,

    async overview(clientId: number): Promise<BillingOverview> {
      await billable(clientId);
      return overview(clientId);
    },

    async quote(clientId: number, choice: PlanChoice): Promise<Quote> {
      await billable(clientId);
      const now = deps.clock();
      const quoteId = `q_${randomBytes(16).toString("base64url")}`;
      await db
        .insert(billingQuotes)
        .values({ id: quoteId, clientId, requestHash: hashOf(choice), quotedAt: now });
      return (await quoteFor(clientId, choice, now, { quoteId })).quote;
    },

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

/** The idempotency key a payment was sent to its provider with. */
export const keyOf = (row: PaymentRow) =>
  row.kind === "renewal" ? row.idempotencyKey : `checkout-${row.id}`;

export type BillingService = ReturnType<typeof billingService>;
