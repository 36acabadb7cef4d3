/** Quotes of a plan change at a moment, with the balance the client can use (docs/billing.md). */
import { and, eq } from "drizzle-orm";
import {
  type DowngradeEffect,
  type PaidTier,
  type PlanChoice,
  type Quote,
  QUOTE_VALIDITY_MS,
  quotePlan,
  vatOf,
} from "../../contract/billing.ts";
import { type Product } from "../../contract/common.ts";
import { permissionsFor } from "../../contract/permissions.ts";
import type { Db } from "../db/database.ts";
import { subscriptions } from "../db/schema.ts";
import { savedCount } from "../portfolios/repository.ts";
import { availableBalance } from "./balance.ts";
import type { BillingContext } from "./context.ts";

export function quoting(ctx: BillingContext) {
  const { db, currentPlanOf } = ctx;

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

  return { downgradeEffect, quoteFor };
}

export type Quoting = ReturnType<typeof quoting>;
