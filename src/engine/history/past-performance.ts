/**
 * What the holdings' past shows, from the day a portfolio exists: the growth of the amount
 * invested over the holdings' longest common history and over the analysis window beside a
 * benchmark, calendar-year and rolling 12-month figures, drawdowns, the correlations of the
 * holdings and the portfolio's regression on the market factors. The portfolio holds today's
 * weights every day (its daily return is w'r_t, as in every risk figure). Formulas:
 * docs/analytics.md, "Portfolio history".
 */
import { EngineError } from "../errors.ts";
import {
  lastObservations,
  portfolioReturns,
  validatePanel,
  weightsFromAmounts,
  type ReturnsPanel,
} from "../panel.ts";
import { TRADING_DAYS_PER_YEAR } from "../stats.ts";
import { factorChanges, type FactorSeries, type WhatIfFactor } from "../whatif/factors.ts";
import { calendarYears } from "./calendar-years.ts";
import { correlations, type Correlations } from "./correlation.ts";
import { underwater, worstDrawdowns, type Drawdown } from "./drawdowns.ts";
import { growthPath } from "./growth.ts";
import { factorRegression, type FactorRegression } from "./regression.ts";
import { rollingWindows, type RollingWindows } from "./rolling.ts";

export const HISTORY_SECTIONS = [
  "growth",
  "calendarYears",
  "rolling",
  "drawdowns",
  "correlation",
  "regression",
] as const;
export type HistorySection = (typeof HISTORY_SECTIONS)[number];

/** The regression's window: the what-if's (5 years, or the whole history when shorter). */
export const REGRESSION_DAYS = 1260;
export const WORST_DRAWDOWNS = 5;

/** A benchmark's daily returns on the portfolio's calendar, from the first day it has a level. */
export interface BenchmarkReturns {
  /** The first observation of the panel with a benchmark return (0 when it covers the history). */
  readonly start: number;
  /** Its returns over observations start … T - 1 (at least one). */
  readonly returns: Float64Array;
}

export interface PastPerformanceInput {
  /** Daily returns of the holdings over their longest common history, in the portfolio currency. */
  readonly panel: ReturnsPanel;
  /** observations + 1 calendar days of the panel. */
  readonly dates: Int32Array;
  readonly amounts: Float64Array;
  /** The analysis window (the portfolio's benchmark 1..6, as trading days), at most the history. */
  readonly windowDays: number;
  readonly benchmark?: BenchmarkReturns;
  /** The sections to compute (the others are not). */
  readonly sections: readonly HistorySection[];
  /** The what-if factor series (whole history), for the regression. */
  readonly factors?: readonly FactorSeries[];
  readonly regressionDays?: number;
  readonly rollingDays?: number;
  readonly worst?: number;
}

/** A value path that starts on value index `start` of the calendar. */
export interface PathFrom {
  readonly start: number;
  readonly values: Float64Array;
}

export interface CalendarYearRow {
  readonly year: number;
  readonly first: number;
  readonly last: number;
  readonly partial: boolean;
  readonly portfolio: number;
  /** Null when the benchmark does not cover the same days of the year. */
  readonly benchmark: number | null;
  readonly difference: number | null;
}

export interface SeriesDrawdowns {
  /** Value index of the first underwater value. */
  readonly start: number;
  readonly underwater: Float64Array;
  /** The deepest falls, deepest first, with indices on the calendar. */
  readonly worst: readonly Drawdown[];
  readonly maxDrawdown: number;
}

export type Unavailable = "not-enough-history" | "no-factor-data";

export interface PastPerformance {
  readonly weights: Float64Array;
  readonly totalInvested: number;
  /** The portfolio's daily returns w'r_t over the history. */
  readonly returns: Float64Array;
  readonly growth?: {
    readonly portfolio: Float64Array;
    readonly benchmark: PathFrom | null;
    /** The analysis window: both paths start again from the amount invested. */
    readonly window: { readonly portfolio: PathFrom; readonly benchmark: PathFrom | null };
  };
  readonly calendarYears?: readonly CalendarYearRow[];
  readonly rolling?: {
    readonly portfolio: RollingWindows;
    /** Its entry j is the portfolio's entry start + j (the same window). */
    readonly benchmark: (RollingWindows & { readonly start: number }) | null;
  };
  readonly drawdowns?: {
    readonly portfolio: SeriesDrawdowns;
    readonly benchmark: SeriesDrawdowns | null;
  };
  readonly correlation?: Correlations & {
    /** First and last value index of the window. */
    readonly from: number;
    readonly to: number;
  };
  readonly regression?:
    | {
        readonly ok: true;
        readonly fit: FactorRegression;
        /** Factors excluded: no variance, or no data over the window (listed after). */
        readonly excluded: readonly WhatIfFactor[];
        readonly from: number;
        readonly to: number;
      }
    | { readonly ok: false; readonly reason: Unavailable };
}

function seriesDrawdowns(values: Float64Array, start: number, worst: number): SeriesDrawdowns {
  const shift = (x: number) => x + start;
  const falls = worstDrawdowns(values, worst).map((d) => ({
    ...d,
    peak: shift(d.peak),
    trough: shift(d.trough),
    recovery: d.recovery === null ? null : shift(d.recovery),
  }));
  return {
    start,
    underwater: underwater(values),
    worst: falls,
    maxDrawdown: falls[0]?.depth ?? 0,
  };
}

export function pastPerformance(input: PastPerformanceInput): PastPerformance {
  const { panel, dates } = input;
  validatePanel(panel, 1, "pastPerformance");
  const t = panel.observations;
  if (dates.length !== t + 1)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `pastPerformance: ${dates.length} dates for ${t} observations (needs ${t + 1})`,
    );
  const windowDays = input.windowDays;
  if (!(Number.isInteger(windowDays) && windowDays >= 1 && windowDays <= t))
    throw new EngineError(
      "INVALID_PARAMETER",
      `windowDays must be an integer in 1..${t}, got ${windowDays}`,
    );
  const bench = input.benchmark;
  if (bench && !(bench.start >= 0 && bench.start < t && bench.returns.length === t - bench.start))
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `pastPerformance: benchmark from ${bench.start} with ${bench.returns.length} returns for ${t}`,
    );
  const { weights, total } = weightsFromAmounts(input.amounts);
  if (weights.length !== panel.assets)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `pastPerformance: ${weights.length} amounts for ${panel.assets} assets`,
    );
  const wanted = new Set(input.sections);
  const returns = portfolioReturns(panel, weights);
  const out: { -readonly [K in keyof PastPerformance]: PastPerformance[K] } = {
    weights,
    totalInvested: total,
    returns,
  };
  const needsPath = wanted.has("growth") || wanted.has("drawdowns");
  const values = needsPath ? growthPath(returns, total) : null;
  const benchValues = needsPath && bench ? growthPath(bench.returns, values![bench.start]!) : null;

  if (wanted.has("growth")) {
    const w0 = t - windowDays;
    const windowValues = growthPath(returns.subarray(w0), total);
    let windowBench: PathFrom | null = null;
    if (bench) {
      const s = Math.max(bench.start, w0);
      windowBench = {
        start: s,
        values: growthPath(bench.returns.subarray(s - bench.start), windowValues[s - w0]!),
      };
    }
    out.growth = {
      portfolio: values!,
      benchmark: bench ? { start: bench.start, values: benchValues! } : null,
      window: { portfolio: { start: w0, values: windowValues }, benchmark: windowBench },
    };
  }

  if (wanted.has("calendarYears")) {
    const benchYears = bench
      ? new Map(
          calendarYears(dates.subarray(bench.start), bench.returns).map((y) => [
            y.first + bench.start,
            y,
          ]),
        )
      : null;
    out.calendarYears = calendarYears(dates, returns).map((y) => {
      const b = benchYears?.get(y.first);
      const benchmark = b && b.year === y.year ? b.return : null;
      return {
        year: y.year,
        first: y.first,
        last: y.last,
        partial: y.partial,
        portfolio: y.return,
        benchmark,
        difference: benchmark === null ? null : y.return - benchmark,
      };
    });
  }

  if (wanted.has("rolling")) {
    const window = input.rollingDays ?? TRADING_DAYS_PER_YEAR;
    out.rolling = {
      portfolio: rollingWindows(returns, window),
      benchmark: bench ? { ...rollingWindows(bench.returns, window), start: bench.start } : null,
    };
  }

  if (wanted.has("drawdowns")) {
    const worst = input.worst ?? WORST_DRAWDOWNS;
    out.drawdowns = {
      portfolio: seriesDrawdowns(values!, 0, worst),
      benchmark: bench ? seriesDrawdowns(benchValues!, bench.start, worst) : null,
    };
  }

  if (wanted.has("correlation") && t >= 2) {
    const days = Math.max(2, windowDays);
    out.correlation = { ...correlations(lastObservations(panel, days)), from: t - days, to: t };
  }

  if (wanted.has("regression")) out.regression = regression(input, returns);
  return out;
}

function regression(
  input: PastPerformanceInput,
  returns: Float64Array,
): NonNullable<PastPerformance["regression"]> {
  const t = returns.length;
  const days = Math.min(input.regressionDays ?? REGRESSION_DAYS, t);
  const from = t - days;
  const window = input.dates.subarray(from);
  const all = input.factors ?? [];
  const usable = all.filter((f) => f.dates.length > 0 && f.dates[0]! <= window[0]!);
  if (usable.length === 0) return { ok: false, reason: "no-factor-data" };
  const missing = all.filter((f) => !usable.includes(f)).map((f) => f.factor);
  try {
    const fit = factorRegression(returns.subarray(from), factorChanges(usable, window));
    return { ok: true, fit, excluded: [...fit.excluded, ...missing], from, to: t };
  } catch (error) {
    if (error instanceof EngineError && error.code === "NOT_ENOUGH_HISTORY")
      return { ok: false, reason: "not-enough-history" };
    throw error;
  }
}
