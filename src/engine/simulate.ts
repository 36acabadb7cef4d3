/**
 * Investment simulator: an initial amount, a contribution at the end of every month, a horizon in
 * years. Monte Carlo percentiles of the value each month, beside the replay of the portfolio's own
 * history. Formulas: docs/analytics.md, "Investment simulator".
 */
import { EngineError } from "./errors.ts";
import { createRandom } from "./random.ts";
import { quantilesBySelection, TRADING_DAYS_PER_MONTH } from "./stats.ts";

export const DEFAULT_SIMULATION_PATHS = 10_000;
export const DEFAULT_SIMULATION_PERCENTILES = [5, 25, 50, 75, 95] as const;

export interface SimulationOptions {
  readonly initialAmount: number;
  readonly monthlyContribution: number;
  /** Horizon in whole years (1..60). */
  readonly years: number;
  readonly paths?: number;
  readonly seed?: number;
  /** Ascending percentiles in [0, 100], default 5, 25, 50, 75, 95. */
  readonly percentiles?: readonly number[];
  /**
   * Expected annual return to use instead of the window's drift: the monthly log drift becomes
   * ln(1 + E) / 12 - s^2 / 2, so that one year's expected growth is 1 + E.
   */
  readonly expectedAnnualReturn?: number;
  /**
   * Daily returns for the historical replay (default: the same returns as the Monte Carlo), e.g. the
   * whole common history while the Monte Carlo uses the benchmark window.
   */
  readonly history?: Float64Array;
  /**
   * Annual inflation rate used to express every figure in today's money: the value at month k is
   * divided by (1 + inflation)^(k / 12) (paths, percentiles, money put in, historical replay).
   */
  readonly annualInflation?: number;
  /** A target value at the horizon (in today's money with `annualInflation`). */
  readonly goal?: number;
}

export interface PercentilePath {
  readonly percentile: number;
  /** Value at the end of month 0..months (month 0 is the initial amount). */
  readonly values: Float64Array;
}

export interface HistoricalPath {
  /** Months replayed: the horizon, or fewer when the history is shorter. */
  readonly months: number;
  readonly values: Float64Array;
  /** Portfolio return of each replayed month. */
  readonly monthlyReturns: Float64Array;
}

export interface SimulationResult {
  readonly months: number;
  /** Money put in by the end of each month: initial + k contributions. */
  readonly invested: Float64Array;
  readonly percentiles: PercentilePath[];
  /** Mean and volatility of the monthly log return used by the Monte Carlo. */
  readonly monthlyLogMean: number;
  readonly monthlyLogVolatility: number;
  readonly paths: number;
  readonly seed: number;
  readonly historical: HistoricalPath;
  /** Divisor of month k's nominal figures: (1 + inflation)^(k / 12); all ones without inflation. */
  readonly deflators: Float64Array;
  /** Share of the paths whose value at the horizon (deflated) is at least the goal; null without a goal. */
  readonly goalProbability: number | null;
}

function checkAmount(name: string, v: number): void {
  if (!(v >= 0 && v < Infinity))
    throw new EngineError("INVALID_PARAMETER", `${name} must be finite and >= 0, got ${v}`);
}

/**
 * Monte Carlo of the value path: the monthly portfolio growth is lognormal, exp(m + s z), with m
 * and s from the daily log returns of the window (m = 21 mean, s = sqrt(21) sd; i.i.d.,
 * Black-Scholes-Merton's geometric Brownian motion). V_0 = initial, V_k = V_{k-1} exp(m + s z_k)
 * + contribution. Normals from createRandom(seed), month by month, path by path. Percentiles are
 * type 7 (as numpy's default) over the paths of each month.
 */
export function simulateInvestment(
  dailyReturns: Float64Array,
  options: SimulationOptions,
): SimulationResult {
  const { initialAmount, monthlyContribution, years } = options;
  checkAmount("initialAmount", initialAmount);
  checkAmount("monthlyContribution", monthlyContribution);
  if (!(Number.isInteger(years) && years >= 1 && years <= 60))
    throw new EngineError("INVALID_PARAMETER", `years must be an integer in 1..60, got ${years}`);
  const paths = options.paths ?? DEFAULT_SIMULATION_PATHS;
  if (!(Number.isInteger(paths) && paths >= 1 && paths <= 1_000_000))
    throw new EngineError(
      "INVALID_PARAMETER",
      `paths must be an integer in 1..1000000, got ${paths}`,
    );
  const seed = options.seed ?? 1;
  const pcts = options.percentiles ?? DEFAULT_SIMULATION_PERCENTILES;
  const ps = pcts.map((p) => p / 100);
  const t = dailyReturns.length;
  if (t < 2)
    throw new EngineError("NOT_ENOUGH_HISTORY", `simulateInvestment: ${t} daily returns, 2 needed`);
  let sum = 0;
  for (let s = 0; s < t; s++) {
    const r = dailyReturns[s]!;
    if (!(r > -1 && r < Infinity))
      throw new EngineError("INVALID_INPUT", `simulateInvestment: return ${r} at ${s}`);
    sum += Math.log1p(r);
  }
  const md = sum / t;
  let ss = 0;
  for (let s = 0; s < t; s++) ss += (Math.log1p(dailyReturns[s]!) - md) ** 2;
  const sd = Math.sqrt(ss / (t - 1));
  const s = Math.sqrt(TRADING_DAYS_PER_MONTH) * sd;
  let m = TRADING_DAYS_PER_MONTH * md;
  if (options.expectedAnnualReturn !== undefined) {
    const e = options.expectedAnnualReturn;
    if (!(e > -1 && e < Infinity))
      throw new EngineError("INVALID_PARAMETER", `expectedAnnualReturn must be > -1, got ${e}`);
    m = Math.log1p(e) / 12 - (s * s) / 2;
  }

  const inflation = options.annualInflation ?? 0;
  if (!(inflation > -1 && inflation < Infinity))
    throw new EngineError("INVALID_PARAMETER", `annualInflation must be > -1, got ${inflation}`);
  const goal = options.goal;
  if (goal !== undefined && !(goal >= 0 && goal < Infinity))
    throw new EngineError("INVALID_PARAMETER", `goal must be finite and >= 0, got ${goal}`);

  const months = years * 12;
  const deflators = new Float64Array(months + 1);
  for (let k = 0; k <= months; k++) deflators[k] = Math.pow(1 + inflation, k / 12);
  const invested = new Float64Array(months + 1);
  for (let k = 0; k <= months; k++)
    invested[k] = (initialAmount + k * monthlyContribution) / deflators[k]!;
  const out = ps.map(() => new Float64Array(months + 1));
  for (const o of out) o[0] = initialAmount;
  const values = new Float64Array(paths).fill(initialAmount);
  const scratch = new Float64Array(paths);
  const q = new Float64Array(ps.length);
  const random = createRandom(seed);
  for (let k = 1; k <= months; k++) {
    for (let p = 0; p < paths; p++)
      values[p] = values[p]! * Math.exp(m + s * random.normal()) + monthlyContribution;
    quantilesBySelection(values, ps, scratch, q);
    // Deflating is monotone: the percentiles of the deflated values are the deflated percentiles.
    for (let j = 0; j < ps.length; j++) out[j]![k] = q[j]! / deflators[k]!;
  }
  let goalProbability: number | null = null;
  if (goal !== undefined) {
    let reached = 0;
    const d = deflators[months]!;
    for (let p = 0; p < paths; p++) if (values[p]! / d >= goal) reached++;
    goalProbability = reached / paths;
  }
  const historical = replayHistory(
    options.history ?? dailyReturns,
    initialAmount,
    monthlyContribution,
    months,
  );
  for (let k = 0; k <= historical.months; k++)
    historical.values[k] = historical.values[k]! / deflators[k]!;
  return {
    months,
    invested,
    percentiles: pcts.map((percentile, j) => ({ percentile, values: out[j]! })),
    monthlyLogMean: m,
    monthlyLogVolatility: s,
    paths,
    seed,
    historical,
    deflators,
    goalProbability,
  };
}

/**
 * The same contributions invested over the portfolio's own last months (blocks of 21 trading days
 * counted back from the last observation): min(horizon, whole months of history) months.
 */
export function replayHistory(
  dailyReturns: Float64Array,
  initialAmount: number,
  monthlyContribution: number,
  months: number,
): HistoricalPath {
  const available = Math.floor(dailyReturns.length / TRADING_DAYS_PER_MONTH);
  const h = Math.min(months, available);
  const start = dailyReturns.length - h * TRADING_DAYS_PER_MONTH;
  const values = new Float64Array(h + 1);
  const monthlyReturns = new Float64Array(h);
  values[0] = initialAmount;
  for (let k = 0; k < h; k++) {
    let g = 1;
    const from = start + k * TRADING_DAYS_PER_MONTH;
    for (let d = 0; d < TRADING_DAYS_PER_MONTH; d++) g *= 1 + dailyReturns[from + d]!;
    monthlyReturns[k] = g - 1;
    values[k + 1] = values[k]! * g + monthlyContribution;
  }
  return { months: h, values, monthlyReturns };
}

/**
 * The annual inflation rate of a monthly price index (CPI, HICP) over its last `years` years, or
 * all of it when shorter (at least one year): the geometric mean (I_last / I_first)^(12 / n) - 1,
 * n the months between the two readings.
 */
export function averageAnnualInflation(
  index: Float64Array,
  years = 10,
): { rate: number; months: number; first: number; last: number } {
  const last = index.length - 1;
  if (last < 12)
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      `inflation: ${index.length} monthly readings, 13 needed`,
    );
  const months = Math.min(years * 12, last);
  const first = last - months;
  const a = index[first]!;
  const b = index[last]!;
  if (!(a > 0 && b > 0 && a < Infinity && b < Infinity))
    throw new EngineError("INVALID_INPUT", `inflation: index values ${a}, ${b}`);
  return { rate: Math.pow(b / a, 12 / months) - 1, months, first, last };
}
