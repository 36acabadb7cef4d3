/**
 * What every part of billing shares: its dependencies and the reads of a client, a subscription
 * and a payment's invoice that the quotes, checkouts, changes and reconciliation all make.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { AccountKind } from "../../contract/accounts.ts";
import {
  type BillingCurrency,
  type CurrentPlan,
  type FailureCode,
  type PaidTier,
  type Payment,
  type PaymentKind,
  type Period,
  planPrice,
  type Quote,
} from "../../contract/billing.ts";
import { type Edition, type Locale, type Product } from "../../contract/common.ts";
import { brandNames } from "../../contract/names.ts";
import type { Mailer } from "../accounts/mailer.ts";
import type { Db } from "../db/database.ts";
import { clients, invoices, subscriptions } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { Logger } from "../logger.ts";
import { livePaidPlan, lockSubscription, type PaymentRow, type SubscriptionRow } from "./apply.ts";
import type { PaymentProvider } from "./provider.ts";

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

export const dayMs = 86_400_000;

export const hashOf = (value: unknown) =>
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

export function billingContext(deps: BillingDeps) {
  const { db } = deps;
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

  const invoiceNumberOf = async (paymentId: string) => {
    const rows = await db
      .select({ number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), eq(invoices.kind, "charge")));
    return rows[0]?.number ?? null;
  };

  /** A paid plan in force for a product, locked; otherwise NOT_SUBSCRIBED. */
  const lockLivePlan = async (tx: Db, clientId: number, product: Product, now: Date) => {
    const sub = await lockSubscription(tx, clientId, product);
    const live = livePaidPlan(sub, now);
    if (!live) throw new ApiFailure(409, "NOT_SUBSCRIBED");
    return { sub, live };
  };

  return {
    deps,
    db,
    provider: deps.provider,
    logger: deps.logger,
    brand,
    clientRow,
    billable,
    subscriptionOf,
    currentPlanOf,
    invoiceNumberOf,
    lockLivePlan,
  };
}

export type BillingContext = ReturnType<typeof billingContext>;

/** The answer to a change that is not an upgrade paid now, by what it is. */
export const refuseChange = (change: Quote["change"]): never => {
  if (change === "invalid") throw new ApiFailure(400, "PLAN_INVALID");
  if (change === "current") throw new ApiFailure(409, "PLAN_CURRENT");
  if (change === "downgrade") throw new ApiFailure(409, "PLAN_IS_DOWNGRADE");
  throw new ApiFailure(409, "PLAN_NEEDS_PAYMENT");
};
