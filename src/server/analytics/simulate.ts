import {
  INFLATION_SERIES,
  SIMULATION_LIMITS,
  type SimulateRequest,
  type SimulateResponse,
} from "../../contract/analytics.ts";
import { isoDate } from "../../engine/dates.ts";
import { benchmarkWindowDays, DEFAULT_BENCHMARK } from "../../engine/panel.ts";
import { averageAnnualInflation, type SimulationResult } from "../../engine/simulate.ts";
import { TRADING_DAYS_PER_MONTH } from "../../engine/stats.ts";
import type { Db } from "../db/database.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { MarketView } from "../market/market-view.ts";
import { HEAVY_ASSETS, onWorkers, prepareAt, type Runner } from "./analyse.ts";
import type { AnalyticsPool } from "./pool.ts";

/** Simulates investing in a portfolio, wholly on the worker pool. */
export function simulatePortfolio(
  db: Db,
  pool: AnalyticsPool,
  request: SimulateRequest,
): Promise<SimulateResponse> {
  return onWorkers(db, pool, "simulateRequest", request, {
    heavy:
      request.assets.length > HEAVY_ASSETS ||
      (request.paths ?? SIMULATION_LIMITS.defaultPaths) > SIMULATION_LIMITS.largePaths,
  });
}

/** How many years of the price index set the inflation rate of the adjustment. */
export const INFLATION_YEARS = 10;

/** The inflation adjustment of a currency: the average annual rate of its CPI / HICP up to today. */
export function inflationAt(view: MarketView, currency: SimulateRequest["currency"]) {
  const series = INFLATION_SERIES[currency];
  const levels = view.snapshot.macroByName.get(series);
  if (!levels || view.todayIndex < 0)
    throw new ApiFailure(422, "NOT_ENOUGH_HISTORY", [{ path: "inflation", message: series }]);
  const today = view.snapshot.calendar[view.todayIndex]!;
  let n = levels.dates.length;
  while (n > 0 && levels.dates[n - 1]! > today) n--;
  if (n < 13)
    throw new ApiFailure(422, "NOT_ENOUGH_HISTORY", [{ path: "inflation", message: series }]);
  const average = averageAnnualInflation(levels.values.subarray(0, n), INFLATION_YEARS);
  return {
    series,
    annualRate: average.rate,
    from: isoDate(levels.dates[average.first]!),
    to: isoDate(levels.dates[average.last]!),
  };
}

export async function simulateAt(
  view: MarketView,
  run: Runner,
  request: SimulateRequest,
): Promise<SimulateResponse> {
  const benchmark = request.benchmark ?? DEFAULT_BENCHMARK;
  const windowDays = benchmarkWindowDays(benchmark);
  // The whole common history up to the horizon for the replay; the benchmark window at least.
  const p = prepareAt(view, request, {
    days: Math.max(windowDays, request.years * 12 * TRADING_DAYS_PER_MONTH),
    minDays: windowDays,
  });
  const paths = request.paths ?? SIMULATION_LIMITS.defaultPaths;
  const seed = request.seed ?? 1;
  const inflation = request.inflation ? inflationAt(view, request.currency) : null;
  const result = await run<SimulationResult>("simulate", {
    panel: p.aligned.panel,
    amounts: p.amounts,
    benchmark: p.benchmark,
    initialAmount: request.initialAmount,
    monthlyContribution: request.monthlyContribution,
    years: request.years,
    paths,
    seed,
    ...(inflation ? { annualInflation: inflation.annualRate } : {}),
    ...(request.goal !== undefined ? { goal: request.goal } : {}),
  });
  const dates = p.aligned.dates;
  const last = dates.length - 1;
  const observations = Math.min(windowDays, p.aligned.panel.observations);
  const replayed = result.historical.months * TRADING_DAYS_PER_MONTH;
  return {
    currency: request.currency,
    method: "monte-carlo-lognormal",
    months: result.months,
    invested: Array.from(result.invested),
    percentiles: result.percentiles.map((q) => ({
      percentile: q.percentile,
      values: Array.from(q.values),
    })),
    historical: {
      months: result.historical.months,
      values: Array.from(result.historical.values),
      from: replayed > 0 ? isoDate(dates[last - replayed]!) : null,
      to: replayed > 0 ? isoDate(dates[last]!) : null,
    },
    paths: result.paths,
    seed: result.seed,
    monthlyLogMean: result.monthlyLogMean,
    monthlyLogVolatility: result.monthlyLogVolatility,
    window: {
      benchmark: p.benchmark,
      from: isoDate(dates[last - observations]!),
      to: isoDate(dates[last]!),
      simulated: p.simulated,
      observations,
    },
    inflation,
    goal:
      request.goal !== undefined && result.goalProbability !== null
        ? { amount: request.goal, probability: result.goalProbability }
        : null,
  };
}
