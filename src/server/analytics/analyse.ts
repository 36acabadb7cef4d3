import type { AnalyseRequest, AnalysisResponse } from "../../contract/analytics.ts";
import type { PortfolioAnalysis } from "../../engine/analysis.ts";
import { isoDate } from "../../engine/dates.ts";
import { benchmarkWindowDays, DEFAULT_BENCHMARK } from "../../engine/panel.ts";
import { alignReturns } from "../../engine/returns.ts";
import type { Db } from "../db/database.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { marketToday, shiftDays, STALE_AFTER_DAYS } from "../market/repository.ts";
import type { AnalyticsPool } from "./pool.ts";
import type { TaskName } from "./tasks.ts";
import { PoolBusy, TaskError, type RunOptions } from "./pool.ts";
import { lastPriceDays, loadAssets, loadFx } from "./series.ts";

export interface PortfolioRequest {
  readonly currency: "EUR" | "USD";
  readonly benchmark?: 1 | 2 | 3 | 4 | 5 | 6 | undefined;
  readonly assets: readonly { readonly symbol: string; readonly amount: number }[];
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
  const symbols = request.assets.map((a) => a.symbol);
  const duplicates = symbols.filter((s, i) => symbols.indexOf(s) !== i);
  if (duplicates.length)
    throw new ApiFailure(
      400,
      "INVALID_REQUEST",
      duplicates.map((s) => ({ path: "assets", message: `${s} appears twice` })),
    );
  const market = await marketToday(db);
  if (!market.today) throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const benchmark = request.benchmark ?? DEFAULT_BENCHMARK;
  const wanted = need.days ?? benchmarkWindowDays(benchmark);
  // The window ends on the last day every asset has a price (assets can stop trading); load enough
  // calendar days before it for the window, with room for holidays.
  const lastDays = await lastPriceDays(db, symbols);
  const commonEnd = symbols.reduce((min, s) => {
    const last = lastDays.get(s);
    return last && last < min ? last : min;
  }, market.today);
  const from = need.from ?? shiftDays(commonEnd, -Math.ceil(wanted * 1.6) - 60);
  const [{ assets, unknown }, fx] = await Promise.all([
    loadAssets(db, symbols, from),
    loadFx(db, from),
  ]);
  if (unknown.length)
    throw new ApiFailure(
      400,
      "UNKNOWN_ASSET",
      unknown.map((s) => ({ path: "assets", message: s })),
    );
  const aligned = alignReturns(
    assets.map((a) => a.series),
    { currency: request.currency, ...(fx ? { fx } : {}) },
  );
  if (aligned.panel.observations < (need.minDays ?? wanted))
    throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
  const days = Math.min(wanted, aligned.panel.observations);
  const staleBefore = shiftDays(market.today, -STALE_AFTER_DAYS);
  const dates = aligned.dates;
  return {
    assets,
    fx,
    aligned,
    benchmark,
    days,
    amounts: Float64Array.from(request.assets, (a) => a.amount),
    simulated: market.source === "simulated",
    limitedBy: assets
      .filter((a) => isoDate(a.series.dates.at(-1)!) < staleBefore)
      .map((a) => a.symbol),
    from: isoDate(dates[dates.length - 1 - days]!),
    to: isoDate(dates[dates.length - 1]!),
  };
}

/** Jobs on more assets than this are heavy: they never take every worker (pool.ts). */
export const HEAVY_ASSETS = 50;

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
    if (error instanceof TaskError && error.code === "NOT_ENOUGH_HISTORY")
      throw new ApiFailure(422, "NOT_ENOUGH_HISTORY");
    if (error instanceof TaskError && error.code)
      throw new ApiFailure(422, "ANALYTICS_FAILED", [{ path: "", message: error.message }]);
    throw error;
  }
}

/** Analyses a portfolio given by its assets and amounts (saved or not), on the engine's worker pool. */
export async function analyse(
  db: Db,
  pool: AnalyticsPool,
  request: AnalyseRequest,
): Promise<AnalysisResponse> {
  const p = await preparePortfolio(db, request);
  const { assets, aligned, benchmark, amounts } = p;
  const result = await runTask<PortfolioAnalysis>(
    pool,
    "analyse",
    {
      panel: aligned.panel,
      amounts,
      currency: request.currency,
      benchmark,
      fx: { returns: aligned.fxReturns, foreign: aligned.foreign },
      assetInfo: assets.map((a) => a.info),
      ...(request.monteCarlo ? { monteCarlo: request.monteCarlo } : {}),
    },
    { heavy: assets.length > HEAVY_ASSETS || (request.monteCarlo?.paths ?? 0) > 20_000 },
  );
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
      amount: amounts[i]!,
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
