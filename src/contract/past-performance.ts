/**
 * The past of a saved portfolio's holdings (issue 27; docs/portfolios.md, "Past performance"):
 * how the amount invested would have grown over the holdings' longest common history and over the
 * analysis window beside a benchmark, calendar-year and rolling 12-month figures, drawdowns, how
 * the holdings move together and the portfolio against the market factors. Each section names its
 * method, its window and the date of its data, and is null where the plan lacks its permission.
 */
import { Schema } from "effect";
import { Benchmark, Currency, SeriesId, WhatIfFactor } from "./analytics.ts";
import { CommonQuery } from "./common.ts";
import { hasPermission, type PermissionPath, type ProductPermissions } from "./permissions.ts";

export const PAST_PERFORMANCE_SECTIONS = [
  "growth",
  "calendarYears",
  "rolling",
  "drawdowns",
  "correlation",
  "regression",
] as const;
export const PastPerformanceSection = Schema.Literals(PAST_PERFORMANCE_SECTIONS);
export type PastPerformanceSection = typeof PastPerformanceSection.Type;

/**
 * What each section needs (PRODUCT.md, "Portfolio history and report": history, drawdowns,
 * rolling and calendar-year returns and the benchmark choice with `monitoring`; the correlation
 * matrix and the factor regression with `componentRisk2`). Within `monitoring`, what shows returns
 * needs `portfolioReturn` and what shows risk `portfolioRisk` (both, for the rolling return and
 * volatility); a section needs every permission listed.
 */
export const pastPerformancePermissions = {
  growth: ["monitoring.portfolioReturn"],
  calendarYears: ["monitoring.portfolioReturn"],
  rolling: ["monitoring.portfolioReturn", "monitoring.portfolioRisk"],
  drawdowns: ["monitoring.portfolioRisk"],
  correlation: ["analysis.componentRisk2"],
  regression: ["analysis.componentRisk2"],
} as const satisfies Record<PastPerformanceSection, readonly PermissionPath[]>;

/** Choosing the benchmark a portfolio's past is compared with. */
export const BENCHMARK_SERIES_PERMISSION: PermissionPath = "monitoring.portfolioReturn";

/** The sections a plan shows. */
export function allowedSections(p: ProductPermissions): PastPerformanceSection[] {
  return PAST_PERFORMANCE_SECTIONS.filter((s) =>
    pastPerformancePermissions[s].every((path) => hasPermission(p, path)),
  );
}

/** The permissions the plan lacks among those the sections and the benchmark choice need. */
export function lockedPastPerformance(p: ProductPermissions): PermissionPath[] {
  const all = new Set<PermissionPath>([
    ...Object.values(pastPerformancePermissions).flat(),
    BENCHMARK_SERIES_PERMISSION,
  ]);
  return [...all].filter((path) => !hasPermission(p, path));
}

export { SeriesId };

export const PastPerformanceQuery = Schema.Struct({
  ...CommonQuery.fields,
  /** Compare with this index or fund instead of the portfolio's own benchmark (nothing stored). */
  benchmarkSeries: Schema.optional(SeriesId),
});
export type PastPerformanceQuery = typeof PastPerformanceQuery.Type;

/** Store the benchmark of a portfolio's past; null goes back to the market of its currency. */
export const BenchmarkSeriesRequest = Schema.Struct({ series: Schema.NullOr(SeriesId) });
export type BenchmarkSeriesRequest = typeof BenchmarkSeriesRequest.Type;

/** An index or fund a portfolio's past can be compared with. */
export const BenchmarkChoice = Schema.Struct({
  series: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  assetClass: Schema.NullOr(Schema.String),
  /** The currency it is quoted in (converted into the portfolio's with EUR/USD when they differ). */
  currency: Schema.String,
});
export type BenchmarkChoice = typeof BenchmarkChoice.Type;

/**
 * Where a section's figures come from: its method (a stable id the screens name in words; the
 * formulas are in docs/analytics.md, "Portfolio history"), its window (first and last close used,
 * and the number of daily returns) and the date of its data (the last close).
 */
const figure = <M extends string>(method: M) => ({
  method: Schema.Literal(method),
  from: Schema.String,
  to: Schema.String,
  observations: Schema.Number,
  dataDate: Schema.String,
});

/**
 * A value path on the history's calendar from `dates[start]` to its last day (amounts to the
 * cent); the benchmark's entries are null before its first level.
 */
const Path = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  observations: Schema.Number,
  start: Schema.Number,
  portfolio: Schema.Array(Schema.Number),
  benchmark: Schema.NullOr(Schema.Array(Schema.NullOr(Schema.Number))),
});

const CalendarYearRow = Schema.Struct({
  year: Schema.Number,
  /** First and last close of the year's returns (the previous year's last close, when held). */
  from: Schema.String,
  to: Schema.String,
  observations: Schema.Number,
  /** The history does not hold the whole year (it starts inside it or ends before its end). */
  partial: Schema.Boolean,
  portfolio: Schema.Number,
  /** Null when the benchmark does not cover the same days of the year. */
  benchmark: Schema.NullOr(Schema.Number),
  difference: Schema.NullOr(Schema.Number),
});

const Fall = Schema.Struct({
  /** The fall as a positive fraction of the high: 1 - trough / high. */
  depth: Schema.Number,
  /** The day of the high it starts from. */
  start: Schema.String,
  trough: Schema.String,
  /** The first day back at the high; null: not recovered. */
  recovery: Schema.NullOr(Schema.String),
  /** Trading days from the high to the recovery (to the last day when not recovered). */
  length: Schema.Number,
  toTrough: Schema.Number,
  toRecovery: Schema.NullOr(Schema.Number),
});

const SeriesDrawdowns = Schema.Struct({
  /**
   * value / previous high - 1 on each day of `dates` (0 at a high; rounded to 1e-6); null before
   * the series' first level.
   */
  underwater: Schema.Array(Schema.NullOr(Schema.Number)),
  maxDrawdown: Schema.Number,
  /** The five deepest falls, deepest first. */
  worst: Schema.Array(Fall),
});

const Coefficient = Schema.Struct({
  estimate: Schema.Number,
  standardError: Schema.Number,
  tStatistic: Schema.NullOr(Schema.Number),
});

export const PastPerformanceUnavailable = Schema.Struct({
  section: Schema.Literals([...PAST_PERFORMANCE_SECTIONS, "benchmark"]),
  /**
   * not-enough-history: the history is shorter than the figure needs (one 252-day window, enough
   * weekly periods); no-factor-data: no factor series covers the regression's window;
   * no-benchmark-data: the benchmark has no level on the holdings' days; benchmark-unavailable:
   * the stored benchmark is no longer in the market data (the default one is used).
   */
  reason: Schema.Literals([
    "not-enough-history",
    "no-factor-data",
    "no-benchmark-data",
    "benchmark-unavailable",
  ]),
});

export const PastPerformance = Schema.Struct({
  currency: Currency,
  totalInvested: Schema.Number,
  /** The market's today. */
  today: Schema.String,
  simulated: Schema.Boolean,
  holdings: Schema.Array(
    Schema.Struct({
      symbol: Schema.String,
      name: Schema.String,
      investedAmount: Schema.Number,
      weight: Schema.Number,
      /** First close of its price history. */
      firstDate: Schema.String,
    }),
  ),
  /**
   * The holdings' longest common history (the portfolio holds today's weights every day of it);
   * `limitedBy`: the holdings whose history starts last and so sets its start.
   */
  history: Schema.Struct({
    from: Schema.String,
    to: Schema.String,
    observations: Schema.Number,
    limitedBy: Schema.Array(Schema.String),
  }),
  /**
   * The history's calendar (history.observations + 1 closes), which every series of the sections
   * is drawn on; empty when the plan shows none of them.
   */
  dates: Schema.Array(Schema.String),
  /** The analysis window (the portfolio's benchmark 1..6) at the end of the history. */
  window: Schema.Struct({
    benchmark: Benchmark,
    from: Schema.String,
    to: Schema.String,
    observations: Schema.Number,
  }),
  /** The series compared with; null without the permission or without data. */
  benchmark: Schema.NullOr(
    Schema.Struct({
      ...BenchmarkChoice.fields,
      /** false: the default, the market of the portfolio's currency. */
      chosen: Schema.Boolean,
      /** Its first day on the holdings' calendar (later than the history's start when younger). */
      from: Schema.String,
    }),
  ),
  /** The indices and funds it can be compared with (empty without the permission). */
  benchmarkChoices: Schema.Array(BenchmarkChoice),
  growth: Schema.NullOr(
    Schema.Struct({
      ...figure("current-weights-daily"),
      /** Over the whole history, from the amount invested (the benchmark from the portfolio's value on its first day). */
      full: Path,
      /** Over the analysis window, both from the amount invested. */
      window: Path,
    }),
  ),
  calendarYears: Schema.NullOr(
    Schema.Struct({
      ...figure("calendar-year-compounded"),
      years: Schema.Array(CalendarYearRow),
    }),
  ),
  rolling: Schema.NullOr(
    Schema.Struct({
      ...figure("rolling-window"),
      windowDays: Schema.Number,
      /** Entry k is the window that ends on dates[start + k] (start = windowDays). */
      start: Schema.Number,
      /** Compounded return over the window (fractions rounded to 1e-6, as every series here). */
      portfolioReturn: Schema.Array(Schema.Number),
      /** Sample standard deviation of the window's daily returns times sqrt(252). */
      portfolioVolatility: Schema.Array(Schema.Number),
      benchmarkReturn: Schema.NullOr(Schema.Array(Schema.NullOr(Schema.Number))),
      benchmarkVolatility: Schema.NullOr(Schema.Array(Schema.NullOr(Schema.Number))),
    }),
  ),
  drawdowns: Schema.NullOr(
    Schema.Struct({
      ...figure("peak-to-recovery"),
      portfolio: SeriesDrawdowns,
      benchmark: Schema.NullOr(SeriesDrawdowns),
    }),
  ),
  correlation: Schema.NullOr(
    Schema.Struct({
      ...figure("pearson-average-linkage"),
      /** The holdings in display order (related assets side by side). */
      assets: Schema.Array(
        Schema.Struct({
          symbol: Schema.String,
          name: Schema.String,
          /** Mean correlation to the others; null for a single holding. */
          averageCorrelation: Schema.NullOr(Schema.Number),
          /** Its return did not change over the window: its correlations are shown as 0. */
          constant: Schema.Boolean,
        }),
      ),
      /** Correlations in the display order of `assets`. */
      matrix: Schema.Array(Schema.Array(Schema.Number)),
      /** For each display position, the holding's index in `holdings`. */
      order: Schema.Array(Schema.Number),
      /**
       * The average-linkage dendrogram on 1 - correlation, as SciPy's linkage: clusters `left` and
       * `right` (holdings 0 … n - 1 in `holdings` order, merge k makes n + k), their distance and
       * the size of the new cluster.
       */
      merges: Schema.Array(
        Schema.Struct({
          left: Schema.Number,
          right: Schema.Number,
          distance: Schema.Number,
          size: Schema.Number,
        }),
      ),
    }),
  ),
  regression: Schema.NullOr(
    Schema.Struct({
      ...figure("ols-weekly"),
      periodDays: Schema.Number,
      periods: Schema.Number,
      degreesOfFreedom: Schema.Number,
      /** The intercept per period and annualised (times 252 / periodDays). */
      alpha: Coefficient,
      alphaAnnualised: Coefficient,
      factors: Schema.Array(
        Schema.Struct({
          factor: WhatIfFactor,
          /** The series the factor is measured with (as in the what-if's `sources`). */
          series: Schema.String,
          beta: Coefficient,
        }),
      ),
      rSquared: Schema.Number,
      adjustedRSquared: Schema.Number,
      residualStandardError: Schema.Number,
      /** Factors left out: no data on the window's first day, or no variance over it. */
      excluded: Schema.Array(WhatIfFactor),
    }),
  ),
  unavailable: Schema.Array(PastPerformanceUnavailable),
  /** The permissions the plan lacks (e.g. "analysis.componentRisk2"): their sections are null. */
  locked: Schema.Array(Schema.String),
});
export type PastPerformance = typeof PastPerformance.Type;
