import type {
  OptimiseRequest,
  OptimiseResponse,
  SimulateRequest,
  SimulateResponse,
} from "../../contract/analytics.ts";
import type { SimulationResult } from "../../engine/simulate.ts";
import type { Db } from "../db/database.ts";
import type { MarketView } from "../market/market-view.ts";
import { HEAVY_ASSETS, onWorkers, prepareAt, type Runner } from "./analyse.ts";
import type { AnalyticsPool } from "./pool.ts";
import type { OptimiseOutput } from "./tasks.ts";

/** Optimises a portfolio, wholly on the worker pool. */
export function optimisePortfolio(
  db: Db,
  pool: AnalyticsPool,
  request: OptimiseRequest,
): Promise<OptimiseResponse> {
  return onWorkers(db, pool, "optimiseRequest", request, {
    heavy: request.assets.length > HEAVY_ASSETS,
  });
}

export async function optimiseAt(
  view: MarketView,
  run: Runner,
  request: OptimiseRequest,
): Promise<OptimiseResponse> {
  // Amounts of zero are allowed here: an asset of the universe the optimiser may add.
  const p = prepareAt(view, {
    ...request,
    assets: request.assets.map((a) => ({ symbol: a.symbol, amount: Math.max(a.amount, 1e-9) })),
  });
  const total = request.assets.reduce((s, a) => s + a.amount, 0);
  const keep = request.assets.flatMap((a, i) => (a.keep ? [i] : []));
  const out = await run<OptimiseOutput>("optimise", {
    panel: p.aligned.panel,
    amounts: p.amounts,
    benchmark: p.benchmark,
    lower: Float64Array.from(request.assets, (a) => (a.keep ? (a.minWeight ?? 0) : 0)),
    upper: Float64Array.from(request.assets, (a) => a.maxWeight ?? 1),
    ...(request.desiredAssetsAmount !== undefined
      ? { desiredAssets: request.desiredAssetsAmount, keep }
      : {}),
    ...(request.maxToLose95 !== undefined && total > 0
      ? { maxLoss95: request.maxToLose95 / total }
      : {}),
  });
  if (!out.ok)
    return {
      status: "infeasible",
      reason: { code: out.reason.code, detail: { ...out.reason.detail } },
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
      amount: out.weights[i]! * total,
    })),
    volatility: out.volatility,
    var95: out.var95,
    cvar95: out.cvar95,
    var95Amount: out.var95 * total,
    cvar95Amount: out.cvar95 * total,
    gap: out.gap,
  };
}

/** Simulates investing in a portfolio, wholly on the worker pool. */
export function simulatePortfolio(
  db: Db,
  pool: AnalyticsPool,
  request: SimulateRequest,
): Promise<SimulateResponse> {
  return onWorkers(db, pool, "simulateRequest", request, {
    heavy: request.assets.length > HEAVY_ASSETS || (request.paths ?? 10_000) > 20_000,
  });
}

export async function simulateAt(
  view: MarketView,
  run: Runner,
  request: SimulateRequest,
): Promise<SimulateResponse> {
  const p = prepareAt(view, request);
  const paths = request.paths ?? 10_000;
  const seed = request.seed ?? 1;
  const result = await run<SimulationResult>("simulate", {
    panel: p.aligned.panel,
    amounts: p.amounts,
    benchmark: p.benchmark,
    initialAmount: request.initialAmount,
    monthlyContribution: request.monthlyContribution,
    years: request.years,
    paths,
    seed,
  });
  return {
    currency: request.currency,
    months: result.months,
    invested: Array.from(result.invested),
    percentiles: result.percentiles.map((q) => ({
      percentile: q.percentile,
      values: Array.from(q.values),
    })),
    historical: { months: result.historical.months, values: Array.from(result.historical.values) },
    paths: result.paths,
    seed: result.seed,
    window: { benchmark: p.benchmark, from: p.from, to: p.to, simulated: p.simulated },
  };
}
