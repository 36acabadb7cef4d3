/**
 * The billing service (docs/billing.md): quotes, checkouts, scheduled changes, cancellation,
 * reactivation, trials and the billing overview. Every rule the screens show is enforced here; each
 * concern lives in its own module over one shared context (`context.ts`).
 */
import { randomBytes } from "node:crypto";
import { type BillingOverview, type PlanChoice, type Quote } from "../../contract/billing.ts";
import { billingQuotes } from "../db/schema.ts";
import { billingContext, hashOf, type BillingDeps } from "./context.ts";
import { quoting } from "./quotes.ts";
import { paymentNews } from "./payment-news.ts";
import { billingOverview } from "./overview.ts";
import { checkouts } from "./checkout.ts";
import { planChanges } from "./plan-changes.ts";
import { reconciler } from "./reconcile.ts";

export function billingService(deps: BillingDeps) {
  const ctx = billingContext(deps);
  const { db, billable } = ctx;
  const quotes = quoting(ctx);
  const news = paymentNews(ctx);
  const overview = billingOverview(ctx);
  return {
    provider: deps.provider,
    billable,
    ...news,

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
      return (await quotes.quoteFor(clientId, choice, now, { quoteId })).quote;
    },

    ...checkouts(ctx, quotes, news),
    ...planChanges(ctx, overview),
    ...reconciler(ctx, news),
  };
}

export type BillingService = ReturnType<typeof billingService>;
