/**
 * The proposed portfolio of the three questions (docs/portfolios.md, "Propose"): the universe of
 * q1, ordered as q3 asks, the first N assets, weighted equally, at minimum risk, or at the highest
 * expected return whose loss at 95% stays within q2's amount.
 */
import type { Product } from "../../contract/common.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import {
  type FewerAssetsReason,
  LAZY_PORTFOLIOS,
  type ProposeRequest,
  type ProposeResponse,
} from "../../contract/portfolios.ts";
import {
  lazyTotalAllowed,
  MAX_INVESTMENT_DEFAULT,
  maxAssetsFor,
  MIN_DESIRED_RISK_PERCENT,
  orderingAllowed,
  permissionMaxAssets,
  type Ordering,
} from "../../contract/portfolio-rules.ts";
import { isWeekend } from "../../engine/dates.ts";
import type { ProposalObjective } from "../../engine/optimize/proposal.ts";
import { benchmarkWindowDays, DEFAULT_BENCHMARK } from "../../engine/panel.ts";
import { alignReturns, type FxSeries } from "../../engine/returns.ts";
import { runTask } from "../analytics/analyse.ts";
import { marketIndexAt, marketReturnsOn } from "../analytics/factors.ts";
import type { AnalyticsPool, Caller } from "../analytics/pool.ts";
import { loadAssets, loadFx, type LoadedAsset } from "../analytics/series.ts";
import type {
  OptimiseOutput,
  UniverseStats,
  UniverseStatsInput,
} from "../analytics/engine-tasks.ts";
import type { TaskName } from "../analytics/task-names.ts";
import type { Db } from "../db/database.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { marketView } from "../market/market-view.ts";
import { listAssets, marketToday, shiftDays } from "../market/repository.ts";
import { roundToCent } from "../../contract/money.ts";
import { allocateCents } from "./amounts.ts";
import { assetFacts, isStale } from "./assets.ts";

/**
 * The minimum weight of each asset of a proposal of n assets: 5%, or half an equal share when n is
 * above 10 (1% at 50), so n assets always fit. Every asset q3 asked for is held at least at it
 * (docs/portfolios.md, "Propose").
 */
export function minimumAssetWeight(n: number): number {
  return n > 0 ? Math.min(0.05, 0.5 / n) : 0;
}

/**
 * The diversification rule (docs/portfolios.md, "Propose"): no asset of an optimised proposal of n
 * assets above 1.5 equal shares (30% of 5, 15% of 10; all of a single asset) — minimisation
 * excepted, which is the minimum-risk portfolio itself.
 */
export function maximumAssetWeight(n: number): number {
  return n <= 1 ? 1 : Math.min(1, 1.5 / n);
}

/** The most a "balanced" proposal puts in one sector, unless a single asset's cap is more. */
export const BALANCED_SECTOR_CAP = 0.4;

/**
 * Assets of one sector a "balanced" proposal of n assets may hold: as many as keep the sector
 * within BALANCED_SECTOR_CAP at the per-asset cap (one of 5, two of 10, eight of 30), at least one.
 */
export function sectorSlots(n: number): number {
  return Math.max(1, Math.floor((BALANCED_SECTOR_CAP + 1e-12) / maximumAssetWeight(n)));
}

/**
 * The first n of `order` holding at most sectorSlots(n) assets of a sector; when the universe has
 * too few sectors for that, the next ones in order complete the n (the rule yields, it never
 * makes a proposal smaller).
 */
export function withinSectorSlots(
  order: readonly number[],
  sectors: readonly string[],
  n: number,
): number[] {
  const slots = sectorSlots(n);
  const count = new Map<string, number>();
  const out: number[] = [];
  const skipped: number[] = [];
  for (const i of order) {
    if (out.length === n) break;
    const s = sectors[i]!;
    if ((count.get(s) ?? 0) < slots) {
      out.push(i);
      count.set(s, (count.get(s) ?? 0) + 1);
    } else skipped.push(i);
  }
  for (const i of skipped) if (out.length < n) out.push(i);
  return out;
}

/** What each q3 answer optimises (src/engine/optimize/proposal.ts). */
const OBJECTIVE = {
  balanced: "minimum-risk",
  marketRisk: "lowest-beta",
  expectedReturn: "highest-return",
  riskReturn: "best-risk-return",
  minimization: "minimum-risk",
} as const satisfies Record<Ordering, ProposalObjective>;

/** The method a proposal names when its objective was met. */
const PROPOSAL_METHOD = {
  balanced: "balanced",
  marketRisk: "lowest-beta",
  expectedReturn: "highest-return",
  riskReturn: "best-risk-return",
  minimization: "minimum-risk",
} as const satisfies Record<Ordering, ProposeResponse["method"]>;

/** Rounding slack of a loss compared with q2's limit (a fraction of the amount). */
const LOSS_SLACK = 1e-9;

/** Weights below this are the optimiser's zeros. */
const HELD = 1e-6;

export interface ProposeContext {
  readonly product: Product;
  readonly permissions: ProductPermissions;
  /** The edition of the request (lazy portfolios are offered in `tt` only). */
  readonly edition: "ht" | "tt";
  /** The request: its engine jobs count in its account's share and end with it (pool.ts). */
  readonly caller?: Caller;
}

interface Candidate {
  readonly asset: LoadedAsset;
  /** Stock exchange (stocks) or asset class (funds): the groups "balanced" spreads over. */
  readonly group: string;
  /** The asset's sector (the group when it has none): the diversification rule's unit. */
  readonly sector: string;
}

/** Assets ranked by what q3 asks; ties by symbol so the same answers give the same portfolio. */
export function rankUniverse(
  ordering: Exclude<Ordering, "minimization">,
  candidates: readonly { symbol: string; group: string }[],
  stats: UniverseStats,
): number[] {
  const index = candidates.map((_, i) => i);
  const bySymbol = (a: number, b: number) =>
    candidates[a]!.symbol.localeCompare(candidates[b]!.symbol);
  const vol = (i: number) => stats.volatility[i]!;
  switch (ordering) {
    case "marketRisk":
      return index.sort((a, b) => stats.betas[a]! - stats.betas[b]! || bySymbol(a, b));
    case "expectedReturn":
      return index.sort((a, b) => stats.expected[b]! - stats.expected[a]! || bySymbol(a, b));
    case "riskReturn": {
      const ratio = (i: number) => (vol(i) > 0 ? stats.expected[i]! / vol(i) : -Infinity);
      return index.sort((a, b) => ratio(b) - ratio(a) || bySymbol(a, b));
    }
    case "balanced": {
      // Lowest volatility first, taking one asset of each group in turn (diversification).
      const groups = new Map<string, number[]>();
      for (const i of index) {
        const g = candidates[i]!.group;
        groups.set(g, [...(groups.get(g) ?? []), i]);
      }
      const queues = [...groups.values()]
        .map((q) => q.sort((a, b) => vol(a) - vol(b) || bySymbol(a, b)))
        .sort((a, b) => vol(a[0]!) - vol(b[0]!) || bySymbol(a[0]!, b[0]!));
      const out: number[] = [];
      for (let round = 0; out.length < index.length; round++)
        for (const q of queues) if (q[round] !== undefined) out.push(q[round]!);
      return out;
    }
  }
}

/** The universe of q1: the product's assets that are not stale, of the chosen groups (empty = all). */
async function universeOf(db: Db, product: Product, chosen: readonly string[]) {
  const funds = product === "simIndices";
  const listed = await listAssets(db, { product: funds ? "simIndices" : "simAssets" });
  const wanted = new Set(chosen);
  return listed
    .filter((a) => a.kind !== "rate")
    .map((a) => ({ symbol: a.symbol, group: (funds ? a.assetClass : a.exchange) ?? "other" }))
    .filter((a) => wanted.size === 0 || wanted.has(a.group));
}

function align(assets: readonly LoadedAsset[], currency: "EUR" | "USD", fx: FxSeries | null) {
  return alignReturns(
    assets.map((a) => a.series),
    { currency, ...(fx ? { fx } : {}) },
  );
}

/**
 * The figures the orderings rank a universe by (universeStats), on the days its assets share: the
 * betas and the CAPM prior of the expected returns measured against the index of the portfolio's
 * market over the same window, as the full analysis measures them (prepareAt), so an asset's beta
 * and, for the same assets, its expected return are the figures the analysis shows. `market`
 * names that index as the analysis does ("STOXX50E_INDEX"); null when the market has no such
 * index over the window, the equally weighted universe then being the proxy.
 */
export async function universeFigures(
  db: Db,
  pool: AnalyticsPool,
  assets: readonly LoadedAsset[],
  currency: "EUR" | "USD",
  fx: FxSeries | null,
  benchmark: number,
  caller?: Caller,
): Promise<{
  readonly panel: UniverseStatsInput["panel"];
  readonly stats: UniverseStats;
  readonly market: string | null;
}> {
  const aligned = align(assets, currency, fx);
  const panel = aligned.panel;
  const days = Math.min(benchmarkWindowDays(benchmark), panel.observations);
  const index = marketIndexAt(await marketView(db), currency);
  const returns = index ? marketReturnsOn(index, aligned.dates, days) : null;
  const input: UniverseStatsInput = { panel, benchmark, ...(returns ? { market: returns } : {}) };
  const stats = await runTask<UniverseStats>(
    pool,
    "universeStats",
    input,
    caller ? { caller } : {},
  );
  return { panel, stats, market: returns && index ? index.series : null };
}

/** Weekday closes of a series: an asset with fewer than the window cannot be ranked on it. */
function weekdayRows(asset: LoadedAsset): number {
  let n = 0;
  for (const d of asset.series.dates) if (!isWeekend(d)) n++;
  return n;
}

export async function proposePortfolio(
  db: Db,
  pool: AnalyticsPool,
  request: ProposeRequest,
  context: ProposeContext,
): Promise<ProposeResponse> {
  const { answers, currency } = request;
  const { permissions } = context;
  const run = <T>(task: TaskName, input: unknown) =>
    runTask<T>(pool, task, input, context.caller ? { caller: context.caller } : {});
  if (!orderingAllowed(answers.ordering, permissions)) throw new ApiFailure(403, "FORBIDDEN");
  const amount = roundToCent(answers.amount);
  if (!(amount > 0)) throw new ApiFailure(400, "TOTAL_TOO_LOW");
  const clock = await marketToday(db);
  if (!clock.today) throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const benchmark = request.benchmark ?? DEFAULT_BENCHMARK;
  const wanted = benchmarkWindowDays(benchmark);
  const from = shiftDays(clock.today, -Math.ceil(wanted * 1.6) - 60);
  const fx = await loadFx(db, from);
  const minimumDesiredRiskAmount = (amount * MIN_DESIRED_RISK_PERCENT[currency]) / 100;

  let chosen: LoadedAsset[];
  let weights: number[];
  let method: ProposeResponse["method"];
  let withinMaxToLose: boolean | null = null;
  let requested: number;
  let fewerReason: FewerAssetsReason | null = null;
  /** The proxy of the betas and expected returns that ranked and weighted the assets. */
  let market: string | null | undefined;

  if (answers.lazyPortfolio) {
    if (!permissions.construction.lazyPortfolios || context.edition !== "tt")
      throw new ApiFailure(403, "FORBIDDEN");
    if (!lazyTotalAllowed(amount)) throw new ApiFailure(400, "TOTAL_TOO_HIGH");
    const model: Record<string, number> = LAZY_PORTFOLIOS[answers.lazyPortfolio];
    const entries = Object.entries(model).map(([symbol, percent]) => ({
      symbol: symbol === "CASH" ? `CASH_${currency}` : symbol,
      percent,
    }));
    const facts = await assetFacts(
      db,
      entries.map((e) => e.symbol),
    );
    const missing = entries.filter((e) => {
      const f = facts.get(e.symbol);
      return !f || isStale(f, clock.today);
    });
    if (missing.length)
      throw new ApiFailure(
        400,
        "UNKNOWN_ASSET",
        missing.map((e) => ({ path: "answers.lazyPortfolio", message: e.symbol })),
      );
    const loaded = await loadAssets(
      db,
      entries.map((e) => e.symbol),
      from,
    );
    chosen = loaded.assets;
    weights = entries.map((e) => e.percent / 100);
    method = "lazy";
    requested = entries.length;
  } else {
    if (amount > MAX_INVESTMENT_DEFAULT) throw new ApiFailure(400, "TOTAL_TOO_HIGH");
    const universe = await universeOf(db, context.product, answers.universe);
    const loaded = await loadAssets(
      db,
      universe.map((u) => u.symbol),
      from,
    );
    const groupOf = new Map(universe.map((u) => [u.symbol, u.group]));
    const candidates: Candidate[] = loaded.assets
      .filter((a) => weekdayRows(a) > wanted)
      .map((asset) => ({
        asset,
        group: groupOf.get(asset.symbol)!,
        sector: asset.info.sector || groupOf.get(asset.symbol)!,
      }));
    if (candidates.length === 0)
      throw new ApiFailure(400, "INVALID_REQUEST", [
        { path: "answers.universe", message: "no asset of the universe has enough history" },
      ]);
    requested = maxAssetsFor(context.product, answers.maxAssetsLevel);
    const planMax = permissionMaxAssets(context.product, permissions);
    const n = Math.min(requested, planMax, candidates.length);
    if (n < requested) fewerReason = planMax < requested ? "plan" : "universe";
    const floor = minimumAssetWeight(n);
    const figures = await universeFigures(
      db,
      pool,
      candidates.map((c) => c.asset),
      currency,
      fx,
      benchmark,
      context.caller,
    );
    const { panel, stats } = figures;
    market = figures.market;
    let picked: number[];
    if (answers.ordering === "minimization") {
      // The engine's minimum-risk choice of at most n assets; when it holds fewer, the least
      // volatile of the others complete the n (weighted below at minimum risk, each at least at
      // the minimum weight).
      const out = await run<OptimiseOutput>("optimise", {
        panel,
        amounts: new Float64Array(candidates.length).fill(1),
        benchmark,
        lower: new Float64Array(candidates.length),
        upper: new Float64Array(candidates.length).fill(1),
        desiredAssets: n,
      });
      if (!out.ok) throw analyticsFailed(out.reason.code);
      const held = [...out.weights.keys()]
        .filter((i) => out.weights[i]! > HELD)
        .sort((a, b) => out.weights[b]! - out.weights[a]!)
        .slice(0, n);
      const others = [...candidates.keys()]
        .filter((i) => !held.includes(i))
        .sort(
          (a, b) =>
            stats.volatility[a]! - stats.volatility[b]! ||
            candidates[a]!.asset.symbol.localeCompare(candidates[b]!.asset.symbol),
        );
      picked = [...held, ...others.slice(0, n - held.length)];
    } else {
      const order = rankUniverse(
        answers.ordering,
        candidates.map((c) => ({ symbol: c.asset.symbol, group: c.group })),
        stats,
      );
      picked =
        answers.ordering === "balanced"
          ? withinSectorSlots(
              order,
              candidates.map((c) => c.sector),
              n,
            )
          : order.slice(0, n);
    }
    chosen = picked.map((i) => candidates[i]!.asset);
    const optimised = answers.ordering === "minimization" || permissions.construction.autoCreate;
    weights = chosen.map(() => 1);
    method = "equal";
    if (optimised) {
      const cap = answers.maxToLose95 !== null ? answers.maxToLose95 / amount : undefined;
      const objective = OBJECTIVE[answers.ordering];
      const base = {
        panel: align(chosen, currency, fx).panel,
        benchmark,
        lower: new Float64Array(chosen.length).fill(floor),
        upper: new Float64Array(chosen.length).fill(
          answers.ordering === "minimization" ? 1 : maximumAssetWeight(n),
        ),
        // The universe's figures of the chosen assets: what the ordering ranked them by.
        expectedReturns: Float64Array.from(picked, (i) => stats.expected[i]!),
        betas: Float64Array.from(picked, (i) => stats.betas[i]!),
      };
      const linear = objective === "lowest-beta" || objective === "highest-return";
      const first = await run<OptimiseOutput>("proposeWeights", {
        ...base,
        objective,
        ...(cap !== undefined && objective !== "minimum-risk" ? { maxLoss95: cap } : {}),
      });
      if (first.ok && (cap === undefined || first.cvar95 <= cap + LOSS_SLACK)) {
        weights = Array.from(first.weights);
        method = PROPOSAL_METHOD[answers.ordering];
        withinMaxToLose = cap === undefined ? null : true;
      } else {
        // The objective cannot keep the loss within q2's limit with every asset at the minimum
        // weight. A linear objective may still keep it with fewer assets (the limit decides, and
        // the proposal says so); otherwise the least risky mix of the n assets, within the bounds.
        const sparse =
          linear && cap !== undefined
            ? await run<OptimiseOutput>("proposeWeights", {
                ...base,
                objective,
                lower: new Float64Array(chosen.length),
                maxLoss95: cap,
              })
            : null;
        if (sparse?.ok) {
          weights = Array.from(sparse.weights, (w) => (w > HELD ? w : 0));
          method = PROPOSAL_METHOD[answers.ordering];
          withinMaxToLose = true;
        } else {
          const safest = await run<OptimiseOutput>("proposeWeights", {
            ...base,
            objective: "minimum-risk",
          });
          if (!safest.ok) throw analyticsFailed(safest.reason.code);
          weights = Array.from(safest.weights);
          method = "minimum-risk";
          withinMaxToLose = cap === undefined ? null : safest.cvar95 <= cap + LOSS_SLACK;
        }
      }
    }
  }

  const cents = allocateCents(weights, amount);
  const kept = chosen
    .map((asset, i) => ({ asset, investedAmount: cents[i]! }))
    .filter((h) => h.investedAmount > 0);
  const risk = await run<{ var95: number; cvar95: number }>("portfolioRisk", {
    panel: align(
      kept.map((h) => h.asset),
      currency,
      fx,
    ).panel,
    weights: Float64Array.from(kept, (h) => h.investedAmount / amount),
    benchmark,
  });
  return {
    currency,
    assets: kept.map((h) => ({
      symbol: h.asset.symbol,
      name: h.asset.name,
      investedAmount: h.investedAmount,
      percentage: (h.investedAmount / amount) * 100,
    })),
    method,
    var95Amount: risk.var95 * amount,
    cvar95Amount: risk.cvar95 * amount,
    withinMaxToLose,
    minimumDesiredRiskAmount,
    simulated: clock.source === "simulated",
    requestedAssets: requested,
    fewerAssetsReason: kept.length >= requested ? null : (fewerReason ?? "loss-limit"),
    ...(market !== undefined ? { market } : {}),
  };
}

const analyticsFailed = (code: string) =>
  new ApiFailure(422, "ANALYTICS_FAILED", [{ path: "", message: code }]);
