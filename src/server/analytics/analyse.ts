import type { AnalyseRequest, FullAnalysis, Holding } from "../../contract/analytics.ts";
import type { PortfolioAnalysis } from "../../engine/analysis.ts";
import { isoDate } from "../../engine/dates.ts";
import { benchmarkWindowDays, DEFAULT_BENCHMARK } from "../../engine/panel.ts";
import { alignReturns } from "../../engine/returns.ts";
import type { Db } from "../db/database.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { marketView, type MarketView } from "../market/market-view.ts";
import { shiftDays, STALE_AFTER_DAYS } from "../market/repository.ts";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env.ts";
import type { AnalyticsPool, Caller } from "./pool.ts";
import type { TaskName } from "./task-names.ts";
import { PoolBusy, PoolCallerGone, PoolShareUsed, TaskError, type RunOptions } from "./pool.ts";
import { holdingProblem } from "../market/holdable.ts";
import { marketIndexAt, marketReturnsOn } from "./factors.ts";
import { assetsAt, fxAt, lastDaysAt, type LoadedAsset } from "./series.ts";
import { refOf } from "./worker-market.ts";

/** Runs an engine task: on the pool from the request thread, directly inside a worker. */
export type Runner = <T>(task: TaskName, input: unknown, options?: RunOptions) => Promise<T>;

export interface PortfolioRequest {
  readonly currency: "EUR" | "USD";
  readonly benchmark?: 1 | 2 | 3 | 4 | 5 | 6 | undefined;
  readonly assets: readonly Holding[];
}

export interface HistoryNeed {
  /** Trading days wanted (default: the benchmark window). */
  readonly days?: number;
  /** Fewer days are accepted down to this many (default: `days`); the window is then shorter. */
  readonly minDays?: number;
  /** Load every price from this day on (default: enough calendar days for `days`). */
  readonly from?: string;
}

/**
 * The common first step of every analytics call: the assets' prices in the portfolio currency,
 * aligned on the days they share, with the window that will be used and the assets that limit it.
 */
export async function preparePortfolio(db: Db, request: PortfolioRequest, need: HistoryNeed = {}) {
  return prepareAt(await marketView(db), request, need);
}

/** preparePortfolio on a market view (inside the analytics workers). */
export function prepareAt(view: MarketView, request: PortfolioRequest, need: HistoryNeed = {}) {
  const symbols = request.assets.map((a) => a.symbol);
  const duplicates = symbols.filter((s, i) => symbols.indexOf(s) !== i);
  if (duplicates.length)
    throw new ApiFailure(
      400,
      "INVALID_REQUEST",
      duplicates.map((s) => ({ path: "assets", message: `${s} appears twice` })),
    );
  const market = view;
  if (!market.today) throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const benchmark = request.benchmark ?? DEFAULT_BENCHMARK;
  const wanted = need.days ?? benchmarkWindowDays(benchmark);
  // The window ends on the last day every asset has a price (assets can stop trading); load enough
  // calendar days before it for the window, with room for holidays.
  const lastDays = lastDaysAt(view, symbols);
  const commonEnd = symbols.reduce((min, s) => {
    const last = lastDays.get(s);
    return last && last < min ? last : min;
  }, market.today);
  const from = need.from ?? shiftDays(commonEnd, -Math.ceil(wanted * 1.6) - 60);
  const { assets, unknown } = assetsAt(view, symbols, from);
  const fx = fxAt(view, from);
  if (unknown.length)
    throw new ApiFailure(
      400,
      "UNKNOWN_ASSET",
      unknown.map((s) => ({ path: "assets", message: s })),
    );
  // A yield is never held; a currency the data cannot convert into the portfolio's is refused
  // rather than taken for another (docs/market-data.md, "Holdable instruments").
  refuseUnholdable(assets, request.currency, fx !== null);
  const aligned = alignReturns(
    assets.map((a) => a.series),
    { currency: request.currency, ...(fx ? { fx } : {}) },
  );
  if (aligned.panel.observations < (need.minDays ?? wanted))
    throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const days = Math.min(wanted, aligned.panel.observations);
  // The index of the portfolio's market over the window, for betas and the CAPM prior.
  const index = marketIndexAt(view, request.currency);
  const marketReturns = index ? marketReturnsOn(index, aligned.dates, days) : null;
  const staleBefore = shiftDays(market.today, -STALE_AFTER_DAYS);
  const dates = aligned.dates;
  return {
    assets,
    fx,
    aligned,
    benchmark,
    days,
    amounts: Float64Array.from(request.assets, (a) => a.investedAmount),
    /**
     * Daily returns of the index of the portfolio's market on the panel's calendar (0 before the
     * window), and its series; null when the market has no such index over the window (the engine
     * then falls back to the equally weighted assets).
     */
    market: marketReturns && index ? { series: index.series, returns: marketReturns } : null,
    simulated: market.source === "simulated",
    limitedBy: assets
      .filter((a) => isoDate(a.series.dates.at(-1)!) < staleBefore)
      .map((a) => a.symbol),
    from: isoDate(dates[dates.length - 1 - days]!),
    to: isoDate(dates[dates.length - 1]!),
  };
}

/** Refuses yields (400 YIELD_NOT_HOLDABLE) and unconvertible currencies (400 CURRENCY_NOT_CONVERTIBLE). */
function refuseUnholdable(
  assets: readonly LoadedAsset[],
  currency: "EUR" | "USD",
  eurUsd: boolean,
): void {
  for (const code of ["YIELD_NOT_HOLDABLE", "CURRENCY_NOT_CONVERTIBLE"] as const) {
    const refused = assets.filter(
      (a) => holdingProblem({ kind: a.kind, currency: a.info.currency }, currency, eurUsd) === code,
    );
    if (refused.length)
      throw new ApiFailure(
        400,
        code,
        refused.map((a) => ({ path: "assets", message: a.symbol })),
      );
  }
}

/** Jobs on more assets than this are heavy: they never take every worker (pool.ts). */
export const HEAVY_ASSETS = 50;

/** The request's account and signal: its jobs count in the account's share and end with it. */
export const callerOf = (c: Context<AppEnv>): Caller => ({
  account: c.get("clientId"),
  signal: c.req.raw.signal,
});

/** What the request log shows for a request whose client went away (nginx's "client closed request"). */
const CLIENT_CLOSED = 499 as ContentfulStatusCode;

/** Runs an engine task, turning its coded failures into API answers. */
export async function runTask<T>(
  pool: AnalyticsPool,
  task: TaskName,
  input: unknown,
  options: RunOptions = {},
): Promise<T> {
  try {
    return await pool.run<T>(task, input, options);
  } catch (error) {
    if (error instanceof PoolBusy)
      throw new ApiFailure(503, "SERVER_BUSY", undefined, {
        "Retry-After": String(error.retryAfterSeconds),
      });
    if (error instanceof PoolShareUsed)
      throw new ApiFailure(429, "TOO_MANY_CALCULATIONS", undefined, {
        "Retry-After": String(error.retryAfterSeconds),
      });
    // Nobody reads this answer; the log tells it from a refusal.
    if (error instanceof PoolCallerGone) throw new ApiFailure(CLIENT_CLOSED, "SERVER_BUSY");
    if (error instanceof TaskError && error.code === "NOT_ENOUGH_HISTORY")
      throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
    if (error instanceof TaskError && error.code)
      throw new ApiFailure(422, "ANALYTICS_FAILED", [{ path: "", message: error.message }]);
    throw error;
  }
}

/**
 * Hands a whole request to the worker pool: the worker reads the market from its copy of the
 * snapshot (shared memory, no copy), prepares, computes and shapes the answer; the request thread
 * only validates, waits and answers (docs/architecture.md).
 */
export async function onWorkers<T>(
  db: Db,
  pool: AnalyticsPool,
  task: TaskName,
  request: unknown,
  options: RunOptions = {},
): Promise<T> {
  const view = await marketView(db);
  pool.useSnapshot(view.snapshot);
  return runTask<T>(pool, task, { market: refOf(view), request }, options);
}

/** Analyses a portfolio given by its assets and amounts (saved or not), on the engine's worker pool. */
export function analyse(
  db: Db,
  pool: AnalyticsPool,
  request: AnalyseRequest,
  caller?: Caller,
): Promise<FullAnalysis> {
  return onWorkers(db, pool, "analyseRequest", request, {
    heavy: request.assets.length > HEAVY_ASSETS || (request.monteCarlo?.paths ?? 0) > 20_000,
    ...(caller ? { caller } : {}),
  });
}

/** The analysis on a market view, with the engine run by `run` (inside a worker: directly). */
export async function analyseAt(
  view: MarketView,
  run: Runner,
  request: AnalyseRequest,
): Promise<FullAnalysis> {
  const p = prepareAt(view, request);
  const { assets, aligned, benchmark, amounts } = p;
  const result = await run<PortfolioAnalysis>("analyse", {
    panel: aligned.panel,
    amounts,
    currency: request.currency,
    benchmark,
    fx: { returns: aligned.fxReturns, foreign: aligned.foreign },
    ...(p.market ? { market: p.market.returns } : {}),
    assetInfo: assets.map((a) => a.info),
    ...(request.monteCarlo ? { monteCarlo: request.monteCarlo } : {}),
  });
  const n = assets.length;
  const total = result.totalInvested;
  return {
    currency: request.currency,
    window: {
      benchmark,
      observations: result.window.observations,
      from: p.from,
      to: p.to,
      horizonDays: result.window.horizonDays,
      confidence: result.window.confidence,
      covariance: result.window.covariance,
      shrinkage: result.window.shrinkage,
      ridge: result.window.ridge,
      limitedBy: p.limitedBy,
      simulated: p.simulated,
    },
    totalInvested: total,
    assets: Array.from({ length: n }, (_, i) => ({
      symbol: assets[i]!.symbol,
      name: assets[i]!.name,
      investedAmount: amounts[i]!,
      weight: result.weights[i]!,
      standAlone: result.diversification.standAlone[i]!,
      marginal: result.componentRisk.marginal[i]!,
      contribution: result.componentRisk.contribution[i]!,
      percentage: result.componentRisk.percentage[i]!,
      varContributionAmount: result.componentRisk.varContributionAmounts[i]!,
      expectedReturn: result.expectedReturns.expected[i]!,
      historicalReturn: result.expectedReturns.historical[i]!,
      beta: result.expectedReturns.betas[i]!,
      requiredReturn: result.requiredReturns.assets[i]!,
    })),
    volatility: result.volatility,
    var: result.var,
    diversification: {
      standAloneSum: result.diversification.standAloneSum,
      portfolio: result.diversification.portfolio,
      benefit: result.diversification.benefit,
      reduction: result.diversification.reduction,
      ratio: result.diversification.ratio,
      standAloneVarSumAmount: result.diversification.standAloneVarSumAmount,
      portfolioVarAmount: result.diversification.portfolioVarAmount,
    },
    currencyRisk: result.currencyRisk
      ? {
          exposure: result.currencyRisk.exposure,
          fxVolatility: result.currencyRisk.fxVolatility,
          standAlone: result.currencyRisk.standAlone,
          contribution: result.currencyRisk.contribution,
          percentage: result.currencyRisk.percentage,
          volatility: result.currencyRisk.volatility,
          volatilityWithoutCurrency: result.currencyRisk.volatilityWithoutCurrency,
          varShareAmount: result.currencyRisk.varShareAmount,
        }
      : null,
    expectedReturn: {
      portfolio: result.expectedReturns.portfolio,
      shrinkage: result.expectedReturns.shrinkage,
      market: p.market?.series ?? null,
    },
    requiredReturn: {
      portfolio: result.requiredReturns.portfolio,
      riskFreeRate: result.requiredReturns.riskFreeRate,
      targetSharpe: result.requiredReturns.targetSharpe,
    },
    scores: result.scores,
    breakdown: result.breakdown ?? {},
    // Rounded to 1e-6 for the chart.
    distribution: Array.from(result.distribution, (r) => Math.round(r * 1e6) / 1e6),
  };
}
