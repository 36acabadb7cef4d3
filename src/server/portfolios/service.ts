/**
 * The lifecycle of a saved portfolio (docs/portfolios.md): save under the plan's limit, edit while
 * editions remain (optimistic concurrency on `version`), reset, delete. Every rule is the
 * contract's (src/contract/portfolio-rules.ts), enforced again here.
 */
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Product } from "../../contract/common.ts";
import type { ValidationIssue } from "../../contract/msg-codes.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import {
  compositionProblem,
  DEFAULT_BENCHMARK,
  editProblem,
  initialRemainingEditions,
  saveProblem,
} from "../../contract/portfolio-rules.ts";
import type {
  ResetPortfolioRequest,
  SavePortfolioRequest,
  UpdatePortfolioRequest,
} from "../../contract/portfolios.ts";
import type { Db } from "../db/database.ts";
import { portfolioAssets, portfolios } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { hasEurUsd, holdingProblem } from "../market/holdable.ts";
import { marketView } from "../market/market-view.ts";
import { marketToday } from "../market/repository.ts";
import { roundToCent } from "../../contract/money.ts";
import { assetFacts, holdable, isStale } from "./assets.ts";
import { savedCount, type Holding, type StoredPortfolio } from "./repository.ts";
import { holdingValues } from "./valuation.ts";

type AmountInput = { readonly id: string; readonly investedAmount: number };

/**
 * Amounts in cents, in the order given; an amount of zero or less (after rounding) removes the
 * asset (specification section 4). A symbol given twice is refused.
 */
export function holdingsFrom(assets: readonly AmountInput[]): {
  all: number[];
  kept: Holding[];
} {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  assets.forEach((a, i) => {
    if (seen.has(a.id)) issues.push({ path: `assets.${i}.id`, message: `${a.id} appears twice` });
    seen.add(a.id);
  });
  if (issues.length) throw new ApiFailure(400, "INVALID_REQUEST", issues);
  const all = assets.map((a) => roundToCent(a.investedAmount));
  const kept = assets
    .map((a, i) => ({ symbol: a.id, investedAmount: all[i]! }))
    .filter((h) => h.investedAmount > 0);
  return { all, kept };
}

const compositionStatus = 400;

/**
 * The assets must exist, be holdable in the product and not be stale; an asset already held may
 * stay while stale (it stopped trading after it was bought).
 */
async function checkAssets(
  db: Db,
  holdings: readonly Holding[],
  product: Product,
  region: string | null,
  currency: string | null | undefined,
  alreadyHeld: ReadonlySet<string> = new Set(),
): Promise<string> {
  const { today } = await marketToday(db);
  if (!today) throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const facts = await assetFacts(
    db,
    holdings.map((h) => h.symbol),
  );
  // A yield is never held; a currency the data cannot convert into the portfolio's is refused
  // (docs/market-data.md, "Holdable instruments"), each with its own code.
  const eurUsd = hasEurUsd(await marketView(db));
  const target = currency === "USD" || currency === "EUR" ? currency : null;
  for (const code of ["YIELD_NOT_HOLDABLE", "CURRENCY_NOT_CONVERTIBLE"] as const) {
    const refused = holdings.filter((h) => {
      const f = facts.get(h.symbol);
      return f && holdingProblem(f, target, eurUsd) === code;
    });
    if (refused.length)
      throw new ApiFailure(
        400,
        code,
        refused.map((h) => ({ path: "assets", message: h.symbol })),
      );
  }
  const refused = holdings.filter((h) => {
    const f = facts.get(h.symbol);
    if (!f || !holdable(f, product, region)) return true;
    return isStale(f, today) && !alreadyHeld.has(h.symbol);
  });
  if (refused.length)
    throw new ApiFailure(
      400,
      "UNKNOWN_ASSET",
      refused.map((h) => ({ path: "assets", message: h.symbol })),
    );
  return today;
}

async function insertHoldings(db: Db, portfolioId: number, holdings: readonly Holding[]) {
  await db.insert(portfolioAssets).values(
    holdings.map((h, position) => ({
      portfolioId,
      symbol: h.symbol,
      investedAmount: h.investedAmount,
      position,
    })),
  );
}

/** Saves a new portfolio; answers its id. */
export async function savePortfolio(
  db: Db,
  clientId: number,
  product: Product,
  permissions: ProductPermissions,
  request: SavePortfolioRequest,
): Promise<number> {
  // Banana portfolios have their own rules (whole shares, the budget, the window, the monkey):
  // they are made and changed only through /api/banana (docs/banana.md).
  if (product === "simMonk") throw new ApiFailure(400, "BANANA_THROUGH_CHALLENGE");
  if (!permissions.construction.save) throw new ApiFailure(403, "SAVE_FORBIDDEN");
  const { all, kept } = holdingsFrom(request.assets);
  const problem = compositionProblem(
    {
      product,
      currency: request.currency,
      maxAssetsLevel: request.maxAssetsLevel,
      amounts: all,
    },
    permissions,
  );
  if (problem) throw new ApiFailure(compositionStatus, problem);
  const today = await checkAssets(db, kept, product, null, request.currency);
  const total = kept.reduce((s, h) => s + h.investedAmount, 0);
  return db.transaction(async (tx) => {
    // The client's row lock makes count-then-insert atomic: two saves for the last slot queue here.
    await tx.execute(sql`select id from clients where id = ${clientId} for update`);
    const count = await savedCount(tx, clientId, product, null);
    const refused = saveProblem(
      { product, saved: false, savedCount: count, monkeyRegion: null },
      permissions,
    );
    if (refused) throw new ApiFailure(refused === "ALREADY_SAVED" ? 409 : 403, refused);
    const [row] = await tx
      .insert(portfolios)
      .values({
        clientId,
        product,
        name: request.name,
        currency: request.currency!,
        benchmark: request.benchmark ?? DEFAULT_BENCHMARK,
        monkeyRegion: null,
        saved: true,
        version: 1,
        totalInvested: total,
        initialInvested: total,
        maxAssetsLevel: request.maxAssetsLevel ?? null,
        remainingEditions: initialRemainingEditions(permissions),
        answers: request.answers ?? null,
        pricedOn: today,
        growth: 1,
      })
      .returning({ id: portfolios.id });
    await insertHoldings(tx, row!.id, kept);
    return row!.id;
  });
}

/** The version the client read must still be the stored one. */
function checkVersion(stored: StoredPortfolio, version: number) {
  if (stored.row.version !== version) throw new ApiFailure(412, "PORTFOLIO_CONFLICT");
}

/**
 * An edition: new amounts (zero removes), name and benchmark. The holdings before it are valued at
 * the market's today and their return is chained into the portfolio's return; the new holdings
 * are priced from today on.
 */
export async function updatePortfolio(
  db: Db,
  stored: StoredPortfolio,
  permissions: ProductPermissions,
  request: UpdatePortfolioRequest,
): Promise<void> {
  const { row } = stored;
  const product = row.product as Product;
  if (product === "simMonk") throw new ApiFailure(400, "BANANA_THROUGH_CHALLENGE");
  const { all, kept } = holdingsFrom(request.assets);
  const problem = editProblem(
    row.remainingEditions,
    { product, currency: row.currency, maxAssetsLevel: row.maxAssetsLevel, amounts: all },
    permissions,
  );
  if (problem)
    throw new ApiFailure(
      problem === "EDIT_FORBIDDEN" || problem === "NO_EDITIONS_LEFT" ? 403 : compositionStatus,
      problem,
    );
  checkVersion(stored, request.version);
  const today = await checkAssets(
    db,
    kept,
    product,
    row.monkeyRegion,
    row.currency,
    new Set(stored.holdings.map((h) => h.symbol)),
  );
  let growth = row.growth;
  if (row.pricedOn && row.totalInvested > 0) {
    const before = await holdingValues(db, row.id, row.currency === "USD" ? "USD" : "EUR", today);
    growth *= before.reduce((s, h) => s + h.value, 0) / row.totalInvested;
  }
  const total = kept.reduce((s, h) => s + h.investedAmount, 0);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(portfolios)
      .set({
        name: request.name ?? row.name,
        benchmark: request.benchmark ?? row.benchmark,
        totalInvested: total,
        pricedOn: today,
        growth,
        version: sql`${portfolios.version} + 1`,
        remainingEditions: sql`case when ${portfolios.remainingEditions} is null then null else ${portfolios.remainingEditions} - 1 end`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(portfolios.id, row.id),
          eq(portfolios.version, request.version),
          or(isNull(portfolios.remainingEditions), gt(portfolios.remainingEditions, 0)),
        ),
      )
      .returning({ id: portfolios.id });
    // Another edition got there first (version moved), or used the last edition meanwhile.
    if (updated.length === 0) throw new ApiFailure(412, "PORTFOLIO_CONFLICT");
    await tx.delete(portfolioAssets).where(eq(portfolioAssets.portfolioId, row.id));
    await insertHoldings(tx, row.id, kept);
  });
}

/**
 * Reset (specification section 4): the chosen assets' amounts (all when `ids` is absent) set to 0
 * in the answer, as the start of an edition; nothing is stored. The next PUT stores the new
 * amounts, and an asset still at 0 there is removed.
 */
export function resetHoldings(
  stored: StoredPortfolio,
  permissions: ProductPermissions,
  request: ResetPortfolioRequest,
): Holding[] {
  if (!permissions.management.edit) throw new ApiFailure(403, "EDIT_FORBIDDEN");
  const remaining = stored.row.remainingEditions;
  if (remaining !== null && remaining <= 0) throw new ApiFailure(403, "NO_EDITIONS_LEFT");
  checkVersion(stored, request.version);
  const held = new Set(stored.holdings.map((h) => h.symbol));
  const unknown = (request.ids ?? []).filter((id) => !held.has(id));
  if (unknown.length)
    throw new ApiFailure(
      400,
      "UNKNOWN_ASSET",
      unknown.map((id) => ({ path: "ids", message: id })),
    );
  const reset = new Set(request.ids ?? held);
  return stored.holdings.map((h) => (reset.has(h.symbol) ? { ...h, investedAmount: 0 } : h));
}

export async function deletePortfolio(
  db: Db,
  stored: StoredPortfolio,
  permissions: ProductPermissions,
): Promise<void> {
  if (!permissions.management.delete) throw new ApiFailure(403, "DELETE_FORBIDDEN");
  await db.delete(portfolios).where(eq(portfolios.id, stored.row.id));
}

/**
 * Stores the benchmark a portfolio's past is compared with (null: the market of its currency).
 * A setting, not an edition: neither `version` nor `remainingEditions` changes.
 */
export async function setBenchmarkSeries(
  db: Db,
  stored: StoredPortfolio,
  series: string | null,
): Promise<void> {
  await db
    .update(portfolios)
    .set({ benchmarkSeries: series, updatedAt: sql`now()` })
    .where(eq(portfolios.id, stored.row.id));
}
