/**
 * Creating and editing banana portfolios (docs/banana.md). Every rule of the specification and
 * PRODUCT.md is enforced here, in this order, the first failing one answering; nothing is stored
 * unless all pass:
 *
 * create: not a trial user (403 BANANA_TRIAL_FORBIDDEN), the `simulator` permission (403
 * PLAN_FEATURE_LOCKED), a region (400 BANANA_REGION_REQUIRED), whole shares (400
 * FRACTIONAL_SHARES), a symbol once (400 INVALID_REQUEST), 1 to 50 stocks (400 TOO_FEW_ASSETS /
 * TOO_MANY_ASSETS), each a stock that exists (400 UNKNOWN_ASSET), of the region (400 WRONG_REGION),
 * not stale (400 STALE_ASSET), the total at today's closes within the budget (400 TOTAL_TOO_LOW /
 * TOTAL_TOO_HIGH), and capacity left in the region (403 SAVE_LIMIT_REACHED), counted and inserted
 * under the client's row lock so concurrent creations cannot exceed it.
 *
 * edit: the window 10:00-22:00 UTC by the server's clock (403 BANANA_WINDOW_CLOSED), the edit
 * permission and editions left (403 EDIT_FORBIDDEN / NO_EDITIONS_LEFT), the version read (412
 * PORTFOLIO_CONFLICT), then the same composition rules (a stale stock already held may stay).
 */
import { randomInt } from "node:crypto";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import {
  BANANA_MAX_ASSETS,
  BANANA_MAX_INVESTMENT,
  BANANA_MIN_ASSETS,
  budgetProblem,
  editWindowOpen,
  holdingCents,
  REGION_CURRENCY,
  type CreateBananaRequest,
  type MonkeyRegion,
  type ShareInput,
  type UpdateBananaRequest,
} from "../../contract/banana.ts";
import { toCents } from "../../contract/money.ts";
import type { ValidationIssue } from "../../contract/msg-codes.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import { initialRemainingEditions } from "../../contract/portfolio-rules.ts";
import type { Db } from "../db/database.ts";
import { bananaPortfolios, clients, portfolioAssets, portfolios } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { MarketView } from "../market/market-view.ts";
import { savedCount } from "../portfolios/repository.ts";
import { closeAt, isBananaStock, offeredStocks, staleOn } from "./market.ts";
import { drawMonkey } from "./monkey.ts";

/** What banana_portfolios.monkey holds: the size drawn and monkey 0's shares. */
export interface StoredMonkey {
  readonly size: number;
  readonly holdings: readonly PricedShare[];
}

export interface PricedShare {
  readonly symbol: string;
  readonly shares: number;
  readonly price: number;
}

/** Whole shares, each symbol once; 0 shares removes the stock (section 4). */
export function sharesFrom(assets: readonly ShareInput[]): ShareInput[] {
  const fractional = assets.flatMap((a, i) =>
    Number.isInteger(a.shares) ? [] : [{ path: `assets.${i}.shares`, message: a.id }],
  );
  if (fractional.length) throw new ApiFailure(400, "FRACTIONAL_SHARES", fractional);
  const seen = new Set<string>();
  const twice: ValidationIssue[] = [];
  assets.forEach((a, i) => {
    if (seen.has(a.id)) twice.push({ path: `assets.${i}.id`, message: `${a.id} appears twice` });
    seen.add(a.id);
  });
  if (twice.length) throw new ApiFailure(400, "INVALID_REQUEST", twice);
  const kept = assets.filter((a) => a.shares > 0);
  if (kept.length < BANANA_MIN_ASSETS) throw new ApiFailure(400, "TOO_FEW_ASSETS");
  if (kept.length > BANANA_MAX_ASSETS) throw new ApiFailure(400, "TOO_MANY_ASSETS");
  return kept;
}

/**
 * The shares priced at the view's today: each a stock of the region that is not stale (unless
 * already held), the total within the budget.
 */
export function priceShares(
  view: MarketView,
  region: MonkeyRegion,
  kept: readonly ShareInput[],
  alreadyHeld: ReadonlySet<string> = new Set(),
): { holdings: PricedShare[]; total: number } {
  const s = view.snapshot;
  const problems: { code: "UNKNOWN_ASSET" | "WRONG_REGION" | "STALE_ASSET"; symbol: string }[] = [];
  const holdings: PricedShare[] = [];
  for (const a of kept) {
    const i = s.index.get(a.id);
    const meta = i === undefined ? undefined : s.assets[i];
    if (i === undefined || !meta || !isBananaStock(meta)) {
      problems.push({ code: "UNKNOWN_ASSET", symbol: a.id });
      continue;
    }
    if (meta.region !== region) {
      problems.push({ code: "WRONG_REGION", symbol: a.id });
      continue;
    }
    const price = closeAt(s, i, view.todayIndex);
    if ((staleOn(view, i) && !alreadyHeld.has(a.id)) || !(price > 0)) {
      problems.push({ code: "STALE_ASSET", symbol: a.id });
      continue;
    }
    holdings.push({ symbol: a.id, shares: a.shares, price });
  }
  const first = problems[0];
  if (first)
    throw new ApiFailure(
      400,
      first.code,
      problems
        .filter((p) => p.code === first.code)
        .map((p) => ({ path: "assets", message: p.symbol })),
    );
  // The total invested is the sum of the holdings' amounts, each rounded to the cent.
  const total = holdings.reduce((sum, h) => sum + holdingCents(h.shares, h.price), 0) / 100;
  const budget = budgetProblem(total);
  if (budget) throw new ApiFailure(400, budget);
  return { holdings, total };
}

/** A trial user (PRODUCT.md, "Money": guards treat trial users as trial) may not play. */
export async function refuseTrial(db: Db, clientId: number, now: Date): Promise<void> {
  const [row] = await db
    .select({ trialEndsAt: clients.trialEndsAt })
    .from(clients)
    .where(eq(clients.id, clientId));
  if (!row) throw new ApiFailure(401, "UNAUTHORIZED");
  if (row.trialEndsAt && row.trialEndsAt > now) throw new ApiFailure(403, "BANANA_TRIAL_FORBIDDEN");
}

async function insertShares(db: Db, portfolioId: number, holdings: readonly PricedShare[]) {
  await db.insert(portfolioAssets).values(
    holdings.map((h, position) => ({
      portfolioId,
      symbol: h.symbol,
      investedAmount: holdingCents(h.shares, h.price) / 100,
      shares: h.shares,
      position,
    })),
  );
}

export interface CreateContext {
  readonly db: Db;
  readonly view: MarketView;
  readonly clientId: number;
  readonly permissions: ProductPermissions;
  readonly now: Date;
  /** The monkeys' seed (tests fix it); by default a random 31-bit integer. */
  readonly seed?: number;
}

/** Creates a banana portfolio with its monkey; answers its id. */
export async function createBanana(ctx: CreateContext, request: CreateBananaRequest) {
  const { db, view, clientId, permissions } = ctx;
  await refuseTrial(db, clientId, ctx.now);
  if (!permissions.construction.simulator) throw new ApiFailure(403, "PLAN_FEATURE_LOCKED");
  const region = request.region;
  if (!region)
    throw new ApiFailure(400, "BANANA_REGION_REQUIRED", [{ path: "region", message: "eu or usa" }]);
  if (!view.today) throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const kept = sharesFrom(request.assets);
  const { holdings, total } = priceShares(view, region, kept);
  const universe = offeredStocks(view, region).map((o) => ({
    symbol: o.meta.symbol,
    price: o.close,
  }));
  const seed = ctx.seed ?? randomInt(0, 2 ** 31 - 1);
  const monkey: StoredMonkey = {
    size: holdings.length,
    holdings: drawMonkey(seed, universe, holdings.length, BANANA_MAX_INVESTMENT).map((m) => ({
      symbol: universe[m.index]!.symbol,
      shares: m.shares,
      price: universe[m.index]!.price,
    })),
  };
  const today = view.today;
  return db.transaction(async (tx) => {
    // The client's row lock makes count-then-insert atomic: concurrent creations queue here.
    await tx.execute(sql`select id from clients where id = ${clientId} for update`);
    const used = await savedCount(tx, clientId, "simMonk", region);
    if (used >= permissions.construction.saveLimitPerRegion[region])
      throw new ApiFailure(403, "SAVE_LIMIT_REACHED");
    const [row] = await tx
      .insert(portfolios)
      .values({
        clientId,
        product: "simMonk",
        name: request.name,
        currency: REGION_CURRENCY[region],
        benchmark: 5,
        monkeyRegion: region,
        saved: true,
        version: 1,
        totalInvested: total,
        initialInvested: total,
        maxAssetsLevel: null,
        remainingEditions: initialRemainingEditions(permissions),
        answers: null,
        pricedOn: today,
        growth: 1,
      })
      .returning({ id: portfolios.id });
    const id = row!.id;
    await insertShares(tx, id, holdings);
    await tx.insert(bananaPortfolios).values({
      portfolioId: id,
      region,
      createdOn: today,
      seed,
      universe,
      monkey,
    });
    return id;
  });
}

export interface StoredBanana {
  readonly id: number;
  readonly version: number;
  readonly region: MonkeyRegion;
  readonly totalInvested: number;
  readonly growth: number;
  readonly remainingEditions: number | null;
  readonly holdings: readonly { symbol: string; shares: number }[];
}

export interface EditContext {
  readonly db: Db;
  readonly view: MarketView;
  readonly permissions: ProductPermissions;
  readonly now: Date;
}

/**
 * An edition inside the window: the new shares bought at today's close; the old holdings' value
 * at today's close chains into the return (time-weighted, like every portfolio's `growth`).
 */
export async function editBanana(
  ctx: EditContext,
  stored: StoredBanana,
  request: UpdateBananaRequest,
) {
  const { db, view, permissions } = ctx;
  if (!editWindowOpen(ctx.now)) throw new ApiFailure(403, "BANANA_WINDOW_CLOSED");
  if (!permissions.management.edit) throw new ApiFailure(403, "EDIT_FORBIDDEN");
  if (stored.remainingEditions !== null && stored.remainingEditions <= 0)
    throw new ApiFailure(403, "NO_EDITIONS_LEFT");
  if (stored.version !== request.version) throw new ApiFailure(412, "PORTFOLIO_CONFLICT");
  if (!view.today) throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const kept = sharesFrom(request.assets);
  const held = new Set(stored.holdings.map((h) => h.symbol));
  const { holdings, total } = priceShares(view, stored.region, kept, held);
  const s = view.snapshot;
  // The old holdings sold at today's close, valued by the valuation's rule (whole cents).
  const before = stored.holdings.reduce((sum, h) => {
    const i = s.index.get(h.symbol);
    const p = i === undefined ? Number.NaN : closeAt(s, i, view.todayIndex);
    return sum + (Number.isFinite(p) ? holdingCents(h.shares, p) : 0);
  }, 0);
  const investedCents = toCents(stored.totalInvested);
  const growth = investedCents > 0 ? stored.growth * (before / investedCents) : stored.growth;
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(portfolios)
      .set({
        totalInvested: total,
        pricedOn: view.today!,
        growth,
        version: sql`${portfolios.version} + 1`,
        remainingEditions: sql`case when ${portfolios.remainingEditions} is null then null else ${portfolios.remainingEditions} - 1 end`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(portfolios.id, stored.id),
          eq(portfolios.version, request.version),
          or(isNull(portfolios.remainingEditions), gt(portfolios.remainingEditions, 0)),
        ),
      )
      .returning({ id: portfolios.id });
    if (updated.length === 0) throw new ApiFailure(412, "PORTFOLIO_CONFLICT");
    await tx.delete(portfolioAssets).where(eq(portfolioAssets.portfolioId, stored.id));
    await insertShares(tx, stored.id, holdings);
  });
}
