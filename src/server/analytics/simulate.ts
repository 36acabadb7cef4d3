import {
  INFLATION_SERIES,
  SIMULATION_ASSUMPTIONS,
  SIMULATION_LIMITS,
  type SimulateRequest,
  type SimulateResponse,
  type SimulationCaution,
} from "../../contract/analytics.ts";
import { isoDate } from "../../engine/dates.ts";
import { DEFAULT_RISK_FREE_RATE } from "../../engine/expected.ts";
import { benchmarkWindowDays, DEFAULT_BENCHMARK } from "../../engine/panel.ts";
import { averageAnnualInflation } from "../../engine/simulate.ts";
import { TRADING_DAYS_PER_MONTH, TRADING_DAYS_PER_YEAR } from "../../engine/stats.ts";
import { factorChanges } from "../../engine/whatif/factors.ts";
import type { Db } from "../db/database.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { MarketView } from "../market/market-view.ts";
import { HEAVY_ASSETS, onWorkers, prepareAt, type Runner } from "./analyse.ts";
import { factorsAt } from "./factors.ts";
import type { AnalyticsPool, Caller } from "./pool.ts";
import type { SimulateOutput } from "./engine-tasks.ts";

/** Simulates investing in a portfolio, wholly on the worker pool. */
export function simulatePortfolio(
  db: Db,
  pool: AnalyticsPool,
  request: SimulateRequest,
  caller?: Caller,
): Promise<SimulateResponse> {
  return onWorkers(db, pool, "simulateRequest", request, {
    heavy:
      request.assets.length > HEAVY_ASSETS ||
      (request.paths ?? SIMULATION_LIMITS.defaultPaths) > SIMULATION_LIMITS.largePaths,
    ...(caller ? { caller } : {}),
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

/** The first day the simulator loads: everything, so that the common history is the longest. */
const EARLIEST = "1900-01-01";

/**
 * The risk-free rate of each portfolio currency in the CAPM: the full analysis' rate
 * (docs/analytics.md "Expected and required returns"), the same for both currencies today, so
 * that the simulator's expected return is the analysis' equilibrium return.
 */
export const RISK_FREE_RATE: Record<SimulateRequest["currency"], number> = {
  EUR: DEFAULT_RISK_FREE_RATE,
  USD: DEFAULT_RISK_FREE_RATE,
};

/**
 * The market index of the portfolio's currency (the what-if and backtest one: S&P 500 for USD,
 * EURO STOXX 50 for EUR), as daily returns on the window's calendar; null when the index has no
 * data over the whole window (the engine then uses its proxy, the equally weighted assets).
 */
function marketOver(view: MarketView, currency: SimulateRequest["currency"], dates: Int32Array) {
  const loaded = factorsAt(view, currency);
  const index = loaded.series.find((f) => f.factor === "market");
  const source = loaded.sources.find((f) => f.factor === "market");
  if (!index || !source || index.dates.length === 0 || index.dates[0]! > dates[0]!) return null;
  return {
    returns: factorChanges([index], dates).data,
    // "STOXX50E_INDEX+GDAXI_INDEX" (chained before 2007) is named by its index.
    name: source.series.split("+")[0]!,
  };
}

export async function simulateAt(
  view: MarketView,
  run: Runner,
  request: SimulateRequest,
): Promise<SimulateResponse> {
  const benchmark = request.benchmark ?? DEFAULT_BENCHMARK;
  const windowDays = benchmarkWindowDays(benchmark);
  // The longest common history: the volatility, the bootstrap and the replay rest on it; the
  // benchmark window at least (the betas' window).
  const p = prepareAt(view, request, { from: EARLIEST, days: windowDays, minDays: windowDays });
  const paths = request.paths ?? SIMULATION_LIMITS.defaultPaths;
  const seed = request.seed ?? 1;
  const assumptions = request.assumptions ?? { mode: "equilibrium" as const };
  const inflation = request.inflation ? inflationAt(view, request.currency) : null;
  const dates = p.aligned.dates;
  const last = dates.length - 1;
  const observations = Math.min(windowDays, p.aligned.panel.observations);
  const market =
    assumptions.mode === "equilibrium"
      ? marketOver(view, request.currency, dates.subarray(last - observations))
      : null;
  const riskFreeRate = RISK_FREE_RATE[request.currency];
  const equityRiskPremium = SIMULATION_ASSUMPTIONS.equityRiskPremium;
  const out = await run<SimulateOutput>("simulate", {
    panel: p.aligned.panel,
    amounts: p.amounts,
    benchmark: p.benchmark,
    initialAmount: request.initialAmount,
    monthlyContribution: request.monthlyContribution,
    years: request.years,
    paths,
    seed,
    assumptions,
    ...(market ? { market: market.returns } : {}),
    riskFreeRate,
    equityRiskPremium,
    ...(inflation ? { annualInflation: inflation.annualRate } : {}),
    ...(request.goal !== undefined ? { goal: request.goal } : {}),
  });
  const result = out.result;
  const replayed = result.historical.months * TRADING_DAYS_PER_MONTH;
  const history =
    assumptions.mode === "own"
      ? null
      : {
          from: isoDate(dates[0]!),
          to: isoDate(dates[last]!),
          observations: p.aligned.panel.observations,
          years: p.aligned.panel.observations / TRADING_DAYS_PER_YEAR,
        };
  const cautions: SimulationCaution[] = [];
  if (history && request.years > history.years) cautions.push("horizon-beyond-history");
  if (out.annualReturn > SIMULATION_ASSUMPTIONS.returnCaution) cautions.push("return-above-bound");
  return {
    currency: request.currency,
    method: assumptions.mode === "historical" ? "block-bootstrap" : "monte-carlo-lognormal",
    assumptions: {
      mode: assumptions.mode,
      annualReturn: out.annualReturn,
      annualVolatility: out.annualVolatility,
      history,
      capm: out.equilibrium
        ? {
            riskFreeRate: out.equilibrium.riskFreeRate,
            equityRiskPremium: out.equilibrium.equityRiskPremium,
            beta: out.equilibrium.beta,
            market: market?.name ?? null,
            from: isoDate(dates[last - observations]!),
            to: isoDate(dates[last]!),
            observations,
          }
        : null,
      blocks: out.blocks,
      cautions,
    },
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
