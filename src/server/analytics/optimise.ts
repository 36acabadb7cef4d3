import type { OptimiseRequest, OptimiseResponse } from "../../contract/analytics.ts";
import { eq } from "drizzle-orm";
import { optimisationLevel, optimisationPermission } from "../../contract/analytics-rules.ts";
import {
  optimisationViolations,
  requestLevel,
  type OptimizationRuleViolation,
} from "../../contract/optimisation-rules.ts";
import type { Product } from "../../contract/common.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import { listAssets, shiftDays } from "../market/repository.ts";
import { estimateCovariance } from "../../engine/covariance.ts";
import { expectedReturns } from "../../engine/expected.ts";
import { matrix } from "../../engine/linalg.ts";
import { efficientFrontier } from "../../engine/optimize/frontier.ts";
import { benchmarkWindowDays, columnMeans, lastObservations } from "../../engine/panel.ts";
import { TRADING_DAYS_PER_MONTH, TRADING_DAYS_PER_YEAR } from "../../engine/stats.ts";
import { requirePermission } from "../accounts/permissions.ts";
import type { Db } from "../db/database.ts";
import { clients } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { MarketView } from "../market/market-view.ts";
import { isoDate } from "../../engine/dates.ts";
import { alignReturns } from "../../engine/returns.ts";
import { sampleVariance } from "../../engine/stats.ts";
import { HEAVY_ASSETS, onWorkers, prepareAt, type Runner } from "./analyse.ts";
import { assetsAt } from "./series.ts";
import type { AnalyticsPool, Caller } from "./pool.ts";
import type { OptimiseOutput, portfolioRisk } from "./engine-tasks.ts";

/**
 * Refuses what the plan or the rules do not allow: 403 PLAN_FEATURE_LOCKED without the
 * permission of the chosen level (or of the level its options imply), 422 OPTIMISATION_BLOCKED
 * naming every violated rule (issues: the field and the rule's code).
 */
export async function enforceOptimisationRules(
  db: Db,
  clientId: number,
  request: OptimiseRequest,
  permissions: ProductPermissions,
): Promise<void> {
  requirePermission(permissions.optimization[optimisationPermission[optimisationLevel(request)]]);
  requirePermission(permissions.optimization[optimisationPermission[requestLevel(request)]]);
  const [row] = await db
    .select({ level: clients.level })
    .from(clients)
    .where(eq(clients.id, clientId));
  if (!row) throw new ApiFailure(401, "UNAUTHORIZED");
  const violations = optimisationViolations(request, permissions, row.level);
  if (violations.length)
    throw new ApiFailure(
      422,
      "OPTIMISATION_BLOCKED",
      violations.map((v) => ({ path: violationField[v.code], message: v.code })),
    );
}

const violationField: Record<OptimizationRuleViolation["code"], string> = {
  MAX_LOSS_BELOW_MINIMUM_RISK: "maxToLose95",
  MAX_LOSS_REQUIRED: "maxToLose95",
  INVALID_TOTAL_INVESTED: "assets",
  CLIENT_LEVEL_BELOW_THRESHOLD: "level",
  ASSET_COUNT_ABOVE_LIMIT: "assets",
  DESIRED_AMOUNT_REQUIRED: "desiredAssetsAmount",
  DESIRED_AMOUNT_ABOVE_LIMIT: "desiredAssetsAmount",
  UNKNOWN_OPTIMIZATION_LEVEL: "level",
};

/** Points of the efficient frontier an answer carries. */
export const FRONTIER_POINTS = 15;

/**
 * An optimise request as the server runs it: o2 and o3 also get the symbols of the plan's universe
 * the portfolio does not hold (`candidates`, chosen by the server, never by the client) and the
 * most assets the answer may hold (`maxAssets`, the limit of the rules).
 */
export interface OptimiseJob extends OptimiseRequest {
  readonly candidates?: readonly string[];
  readonly maxAssets?: number;
}

/**
 * The assets o2 and o3 may add: the product's universe (stocks for simAssets, funds for
 * simIndices), neither stale nor rates, quoted in EUR or USD.
 */
export async function universeCandidates(db: Db, product: Product): Promise<string[]> {
  const listed = await listAssets(db, {
    product: product === "simIndices" ? "simIndices" : "simAssets",
  });
  return listed
    .filter((a) => a.kind !== "rate" && (a.currency === "EUR" || a.currency === "USD"))
    .map((a) => a.symbol);
}

/** How many of the universe's assets o2 offers the optimiser (o3: at least the number asked for). */
export const SUGGESTED_NEW_ASSETS = 10;

/** Optimises a portfolio, wholly on the worker pool. */
export function optimisePortfolio(
  db: Db,
  pool: AnalyticsPool,
  request: OptimiseJob,
  caller?: Caller,
): Promise<OptimiseResponse> {
  return onWorkers(db, pool, "optimiseRequest", request, {
    heavy: request.assets.length + (request.candidates?.length ?? 0) > HEAVY_ASSETS,
    ...(caller ? { caller } : {}),
  });
}

/**
 * The universe's assets ranked by what they add to the diversification of the current portfolio
 * (docs/optimisation.md, §6): on the window of the current portfolio, each candidate's beta to
 * the portfolio's returns, cov(r_j, r_p) / var(r_p), lowest first. Adding a small weight ε of
 * asset j (the rest scaled down) changes the variance by 2ε (cov(r_j, r_p) − var(r_p)) + O(ε²),
 * so the lowest beta is the largest marginal reduction of risk. Candidates without prices over the
 * whole window (or in a currency the portfolio's cannot be converted from) are left out. Ties by
 * symbol.
 */
export function rankCandidates(
  view: MarketView,
  request: OptimiseRequest,
  candidates: readonly string[],
): { symbol: string; beta: number }[] {
  const p = prepareAt(view, request);
  const total = request.assets.reduce((s, a) => s + a.investedAmount, 0);
  const weights = request.assets.map((a) =>
    total > 0 ? a.investedAmount / total : 1 / request.assets.length,
  );
  const fx = p.fx;
  // From a fortnight earlier, so that a holiday of a candidate's exchange on the window's first
  // day does not leave it out.
  const { assets } = assetsAt(view, candidates, shiftDays(p.from, -14));
  const ranked: { symbol: string; beta: number }[] = [];
  for (const c of assets) {
    if (c.info.currency !== "EUR" && c.info.currency !== "USD") continue;
    const dates = c.series.dates;
    if (dates.length === 0 || isoDate(dates[0]!) > p.from || isoDate(dates.at(-1)!) < p.to)
      continue;
    let aligned;
    try {
      aligned = alignReturns([...p.assets.map((a) => a.series), c.series], {
        currency: request.currency,
        ...(fx ? { fx } : {}),
      });
    } catch {
      continue;
    }
    const panel = aligned.panel;
    const n = panel.assets;
    const t = Math.min(p.days, panel.observations);
    if (t < 2) continue;
    const rp = new Float64Array(t);
    const rc = new Float64Array(t);
    for (let k = 0; k < t; k++) {
      const row = (panel.observations - t + k) * n;
      let r = 0;
      for (let i = 0; i < n - 1; i++) r += weights[i]! * panel.data[row + i]!;
      rp[k] = r;
      rc[k] = panel.data[row + n - 1]!;
    }
    const mp = rp.reduce((s, v) => s + v, 0) / t;
    const mc = rc.reduce((s, v) => s + v, 0) / t;
    let cov = 0;
    for (let k = 0; k < t; k++) cov += (rp[k]! - mp) * (rc[k]! - mc);
    cov /= t - 1;
    const variance = sampleVariance(rp);
    if (!(variance > 0)) continue;
    ranked.push({ symbol: c.symbol, beta: cov / variance });
  }
  return ranked.sort((a, b) => a.beta - b.beta || a.symbol.localeCompare(b.symbol));
}

export async function optimiseAt(
  view: MarketView,
  run: Runner,
  job: OptimiseJob,
): Promise<OptimiseResponse> {
  const { candidates, maxAssets, ...asked } = job;
  // o2 and o3: the universe's most diversifying assets join the portfolio's at invested amount 0.
  const held = new Set(asked.assets.map((a) => a.symbol));
  const offered = candidates?.filter((s) => !held.has(s)) ?? [];
  const suggestions = offered.length
    ? rankCandidates(view, asked, offered)
        .slice(
          0,
          Math.max(
            SUGGESTED_NEW_ASSETS,
            (asked.desiredAssetsAmount ?? 0) - asked.assets.length + SUGGESTED_NEW_ASSETS,
          ),
        )
        .map((c) => ({ symbol: c.symbol, investedAmount: 0 }))
    : [];
  const request: OptimiseRequest = { ...asked, assets: [...asked.assets, ...suggestions] };
  // o2 with suggestions holds at most the limit; o3 exactly the number asked for.
  const desired =
    request.desiredAssetsAmount ??
    (suggestions.length && maxAssets !== undefined ? maxAssets : undefined);
  const exactly = request.desiredAssetsAmount !== undefined;
  // Amounts of zero are allowed here: an asset of the universe the optimiser may add.
  const p = prepareAt(view, {
    ...request,
    assets: request.assets.map((a) => ({
      symbol: a.symbol,
      investedAmount: Math.max(a.investedAmount, 1e-9),
    })),
  });
  const total = request.assets.reduce((s, a) => s + a.investedAmount, 0);
  const keep = request.assets.flatMap((a, i) => (a.keep ? [i] : []));
  const lower = Float64Array.from(request.assets, (a) => (a.keep ? (a.minWeight ?? 0) : 0));
  const upper = Float64Array.from(request.assets, (a) => a.maxWeight ?? 1);
  // The loss cap: the constraint of the highest-return portfolio (objective maximum-return, not
  // with a desired number of assets), else a limit the answer is checked against.
  const cap = request.maxToLose95 !== undefined && total > 0 ? request.maxToLose95 / total : null;
  const capped = cap !== null && request.objective === "maximum-return" && desired === undefined;
  // The expected returns the answer reports are the ones the highest return maximises (issue 24:
  // it maximised the window's historical means while the summary showed these).
  const {
    mu,
    frontier,
    assets: points,
  } = returnsAndFrontier(p.aligned.panel, p.benchmark, lower, upper, p.market?.returns ?? null);
  const out = await run<OptimiseOutput>("optimise", {
    panel: p.aligned.panel,
    amounts: p.amounts,
    benchmark: p.benchmark,
    lower,
    upper,
    ...(desired !== undefined
      ? { desiredAssets: desired, keep, ...(exactly ? { mode: "exactly" as const } : {}) }
      : {}),
    ...(capped ? { maxLoss95: cap, expectedReturns: mu } : {}),
  });
  if (!out.ok)
    return {
      status: "infeasible",
      reason: { code: out.reason.code, detail: { ...out.reason.detail } },
    };
  // The minimum-risk answer (or the one with the desired number of assets) must still lose no
  // more than the investor accepts at 95%; otherwise it is no answer, and the constraint is named.
  if (cap !== null && out.cvar95 > cap + 1e-9)
    return {
      status: "infeasible",
      reason: {
        code: "MAX_LOSS_EXCEEDED",
        detail: {
          maxToLose95: request.maxToLose95!,
          cvar95Amount: out.cvar95 * total,
          var95Amount: out.var95 * total,
        },
      },
    };
  const currentWeights = Float64Array.from(request.assets, (a) =>
    total > 0 ? a.investedAmount / total : 0,
  );
  const currentRisk = await run<ReturnType<typeof portfolioRisk>>("portfolioRisk", {
    panel: p.aligned.panel,
    weights: currentWeights,
    benchmark: p.benchmark,
  });
  const expectedOf = (w: ArrayLike<number>) => {
    let r = 0;
    for (let i = 0; i < mu.length; i++) r += w[i]! * mu[i]!;
    return r;
  };
  return {
    status: "optimal",
    method: out.method,
    currency: request.currency,
    window: {
      benchmark: p.benchmark,
      from: p.from,
      to: p.to,
      limitedBy: p.limitedBy,
      simulated: p.simulated,
    },
    assets: request.assets.map((a, i) => ({
      symbol: a.symbol,
      weight: out.weights[i]!,
      investedAmount: out.weights[i]! * total,
      currentWeight: currentWeights[i]!,
      volatility: points[i]!.volatility,
      expectedReturn: points[i]!.expectedReturn,
    })),
    volatility: out.volatility,
    var95: out.var95,
    cvar95: out.cvar95,
    var95Amount: out.var95 * total,
    cvar95Amount: out.cvar95 * total,
    expectedReturn: expectedOf(out.weights),
    current: {
      volatility: currentRisk.volatility,
      var95: currentRisk.var95,
      cvar95: currentRisk.cvar95,
      var95Amount: currentRisk.var95 * total,
      cvar95Amount: currentRisk.cvar95 * total,
      expectedReturn: expectedOf(currentWeights),
    },
    frontier,
    gap: out.gap,
  };
}

/**
 * Annual expected returns of the assets, as the analysis computes them (Bayes-Stein towards CAPM
 * against the index of the portfolio's market; without that index, against the equally weighted
 * assets, and the historical mean for a single asset) and the efficient frontier over the
 * benchmark window's monthly covariance, within the request's bounds. The expected returns are
 * the answer's and the objective of the highest return within the loss cap. Each asset's own point
 * on the frontier's axes (issue 27): the square root of its diagonal entry of the same monthly
 * covariance, and its expected return (the frontier's one-asset portfolio, bounds aside).
 */
export function returnsAndFrontier(
  panel: Parameters<typeof lastObservations>[0],
  benchmark: number,
  lower: Float64Array,
  upper: Float64Array,
  market: Float64Array | null,
): {
  mu: Float64Array;
  frontier: { volatility: number; expectedReturn: number }[];
  assets: { volatility: number; expectedReturn: number }[];
} {
  const days = benchmarkWindowDays(benchmark);
  const window = lastObservations(panel, days);
  const estimate = estimateCovariance(window);
  const mu = market
    ? expectedReturns(window, estimate.cholesky, {
        market: market.subarray(market.length - window.observations),
      }).expected
    : window.assets >= 2
      ? expectedReturns(window, estimate.cholesky).expected
      : columnMeans(window).map((m) => m * TRADING_DAYS_PER_YEAR);
  const daily = estimate.matrix;
  const monthly = matrix(
    daily.rows,
    daily.cols,
    daily.data.map((v) => v * TRADING_DAYS_PER_MONTH),
  );
  const result = efficientFrontier({
    covariance: monthly,
    expectedReturns: mu,
    lower,
    upper,
    points: FRONTIER_POINTS,
  });
  const n = monthly.rows;
  return {
    mu,
    assets: Array.from(mu, (m, i) => ({
      volatility: Math.sqrt(monthly.data[i * n + i]!),
      expectedReturn: m,
    })),
    frontier: result.ok
      ? result.value.points.map((pt) => ({
          volatility: pt.risk,
          expectedReturn: pt.expectedReturn,
        }))
      : [],
  };
}

// The investment simulator's request lives in its own file.
export { simulateAt, simulatePortfolio } from "./simulate.ts";
