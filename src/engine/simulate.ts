/**
 * Investment simulator: an initial amount, a contribution at the end of every month, a horizon in
 * years. Monte Carlo percentiles of the value each month, beside the replay of the portfolio's own
 * history. Formulas: docs/analytics.md, "Investment simulator".
 */
import { estimateCovariance } from "./covariance.ts";
import { EngineError } from "./errors.ts";
import { expectedReturns } from "./expected.ts";
import { lastObservations, validateWeights, type ReturnsPanel } from "./panel.ts";
import { createRandom } from "./random.ts";
import { quantilesBySelection, TRADING_DAYS_PER_MONTH, TRADING_DAYS_PER_YEAR } from "./stats.ts";

export const DEFAULT_SIMULATION_PATHS = 10_000;
export const DEFAULT_SIMULATION_PERCENTILES = [5, 25, 50, 75, 95] as const;
/** Months in one block of the historical bootstrap (a year: keeps momentum and seasonality). */
export const BOOTSTRAP_BLOCK_MONTHS = 12;

/**
 * How the monthly growth of the paths is drawn:
 * - `lognormal`: i.i.d. exp(m + s z), z standard normal;
 * - `block-bootstrap`: each year of a path is a block of 12 consecutive monthly returns of the
 *   history, its start drawn uniformly among the n - 11 possible ones, with replacement (a moving
 *   block bootstrap, Kunsch 1989); no drift is added.
 */
export type SimulationModel =
  | {
      readonly kind: "lognormal";
      readonly monthlyLogMean: number;
      readonly monthlyLogVolatility: number;
    }
  | { readonly kind: "block-bootstrap"; readonly monthlyReturns: Float64Array };

/** The plan every simulation runs: the amounts, the horizon, the paths and the percentiles drawn. */
export interface PlanBasics {
  readonly initialAmount: number;
  readonly monthlyContribution: number;
  /** Horizon in whole years (1..60). */
  readonly years: number;
  readonly paths?: number;
  readonly seed?: number;
  /** Ascending percentiles in [0, 100], default 5, 25, 50, 75, 95. */
  readonly percentiles?: readonly number[];
  /**
   * Annual inflation rate used to express every figure in today's money: the value at month k is
   * divided by (1 + inflation)^(k / 12) (paths, percentiles, money put in, historical replay).
   */
  readonly annualInflation?: number;
  /** A target value at the horizon (in today's money with `annualInflation`). */
  readonly goal?: number;
}

export interface PlanOptions extends PlanBasics {
  /** Daily portfolio returns of the past, replayed with the same plan (the historical path). */
  readonly history: Float64Array;
}

export interface SimulationOptions extends PlanBasics {
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
  /**
   * Mean and volatility of the monthly log return: the lognormal model's m and s; for the
   * bootstrap, the sample mean and standard deviation of the history's monthly log returns.
   */
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
 * type 7 (as numpy's default) over the paths of each month. The API states its assumptions
 * instead (`simulatePlan` with `lognormalFromAnnual` or the block bootstrap); this window-drift
 * model is kept for the engine's reference tests.
 */
export function simulateInvestment(
  dailyReturns: Float64Array,
  options: SimulationOptions,
): SimulationResult {
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
  return simulatePlan(
    { kind: "lognormal", monthlyLogMean: m, monthlyLogVolatility: s },
    {
      initialAmount: options.initialAmount,
      monthlyContribution: options.monthlyContribution,
      years: options.years,
      ...(options.paths !== undefined ? { paths: options.paths } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.percentiles ? { percentiles: options.percentiles } : {}),
      history: options.history ?? dailyReturns,
      ...(options.annualInflation !== undefined
        ? { annualInflation: options.annualInflation }
        : {}),
      ...(options.goal !== undefined ? { goal: options.goal } : {}),
    },
  );
}

/**
 * The monthly lognormal growth whose one-year expected growth is 1 + E and whose one-year log
 * growth has the standard deviation sigma: s = sigma / sqrt(12), m = ln(1 + E) / 12 - s^2 / 2.
 */
export function lognormalFromAnnual(
  annualReturn: number,
  annualVolatility: number,
): Extract<SimulationModel, { kind: "lognormal" }> {
  if (!(annualReturn > -1 && annualReturn < Infinity))
    throw new EngineError("INVALID_PARAMETER", `annual return must be > -1, got ${annualReturn}`);
  if (!(annualVolatility >= 0 && annualVolatility < Infinity))
    throw new EngineError(
      "INVALID_PARAMETER",
      `annual volatility must be finite and >= 0, got ${annualVolatility}`,
    );
  const s = annualVolatility / Math.sqrt(12);
  return {
    kind: "lognormal",
    monthlyLogMean: Math.log1p(annualReturn) / 12 - (s * s) / 2,
    monthlyLogVolatility: s,
  };
}

/**
 * Runs the plan on a model: V_0 = initial, V_k = V_{k-1} G_k + contribution, G_k the model's
 * monthly growth. The draws come from createRandom(seed), month by month, path by path (for the
 * bootstrap: at the first month of each year, one uniform per path picks its block). Percentiles
 * are type 7 over the paths of each month.
 */
export function simulatePlan(model: SimulationModel, options: PlanOptions): SimulationResult {
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
  const inflation = options.annualInflation ?? 0;
  if (!(inflation > -1 && inflation < Infinity))
    throw new EngineError("INVALID_PARAMETER", `annualInflation must be > -1, got ${inflation}`);
  const goal = options.goal;
  if (goal !== undefined && !(goal >= 0 && goal < Infinity))
    throw new EngineError("INVALID_PARAMETER", `goal must be finite and >= 0, got ${goal}`);
  for (let d = 0; d < options.history.length; d++) {
    const r = options.history[d]!;
    if (!(r > -1 && r < Infinity))
      throw new EngineError("INVALID_INPUT", `simulatePlan: history return ${r} at ${d}`);
  }

  let m = 0;
  let s = 0;
  let blocks = 0;
  let growth: Float64Array | null = null;
  if (model.kind === "lognormal") {
    m = model.monthlyLogMean;
    s = model.monthlyLogVolatility;
    if (!(Number.isFinite(m) && s >= 0 && s < Infinity))
      throw new EngineError("INVALID_PARAMETER", `lognormal model: m ${m}, s ${s}`);
  } else {
    const r = model.monthlyReturns;
    blocks = r.length - BOOTSTRAP_BLOCK_MONTHS + 1;
    if (blocks < 1)
      throw new EngineError(
        "NOT_ENOUGH_HISTORY",
        `block bootstrap: ${r.length} monthly returns, ${BOOTSTRAP_BLOCK_MONTHS} needed`,
      );
    growth = new Float64Array(r.length);
    let sum = 0;
    for (let k = 0; k < r.length; k++) {
      if (!(r[k]! > -1 && r[k]! < Infinity))
        throw new EngineError("INVALID_INPUT", `block bootstrap: monthly return ${r[k]} at ${k}`);
      growth[k] = 1 + r[k]!;
      sum += Math.log1p(r[k]!);
    }
    m = sum / r.length;
    let ss = 0;
    for (let k = 0; k < r.length; k++) ss += (Math.log1p(r[k]!) - m) ** 2;
    s = r.length > 1 ? Math.sqrt(ss / (r.length - 1)) : 0;
  }

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
  const starts = growth ? new Int32Array(paths) : null;
  for (let k = 1; k <= months; k++) {
    if (growth && starts) {
      const offset = (k - 1) % BOOTSTRAP_BLOCK_MONTHS;
      if (offset === 0)
        for (let p = 0; p < paths; p++) starts[p] = Math.floor(random.next() * blocks);
      for (let p = 0; p < paths; p++)
        values[p] = values[p]! * growth[starts[p]! + offset]! + monthlyContribution;
    } else {
      for (let p = 0; p < paths; p++)
        values[p] = values[p]! * Math.exp(m + s * random.normal()) + monthlyContribution;
    }
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
  const historical = replayHistory(options.history, initialAmount, monthlyContribution, months);
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
 * The whole months of a daily series, counted back from its last observation (blocks of 21
 * trading days; the oldest days that do not fill a month are left out), compounded: the monthly
 * returns the historical replay and the bootstrap use.
 */
export function monthlyReturnsOf(dailyReturns: Float64Array, months = Infinity): Float64Array {
  const available = Math.floor(dailyReturns.length / TRADING_DAYS_PER_MONTH);
  const h = Math.min(months, available);
  const start = dailyReturns.length - h * TRADING_DAYS_PER_MONTH;
  const out = new Float64Array(h);
  for (let k = 0; k < h; k++) {
    let g = 1;
    const from = start + k * TRADING_DAYS_PER_MONTH;
    for (let d = 0; d < TRADING_DAYS_PER_MONTH; d++) g *= 1 + dailyReturns[from + d]!;
    out[k] = g - 1;
  }
  return out;
}

/** What a year of the block bootstrap gives: the mean and the spread of a block's growth. */
export interface BootstrapYear {
  /** E[G] - 1 over the n - 11 blocks (each equally likely): the expected annual return. */
  readonly annualReturn: number;
  /** Standard deviation of a block's log growth (population, over the blocks). */
  readonly annualVolatility: number;
  readonly blocks: number;
}

export function bootstrapYear(monthlyReturns: Float64Array): BootstrapYear {
  const blocks = monthlyReturns.length - BOOTSTRAP_BLOCK_MONTHS + 1;
  if (blocks < 1)
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      `block bootstrap: ${monthlyReturns.length} monthly returns, ${BOOTSTRAP_BLOCK_MONTHS} needed`,
    );
  let growthSum = 0;
  const logs = new Float64Array(blocks);
  for (let b = 0; b < blocks; b++) {
    let l = 0;
    for (let k = 0; k < BOOTSTRAP_BLOCK_MONTHS; k++) l += Math.log1p(monthlyReturns[b + k]!);
    logs[b] = l;
    growthSum += Math.exp(l);
  }
  let mean = 0;
  for (let b = 0; b < blocks; b++) mean += logs[b]!;
  mean /= blocks;
  let ss = 0;
  for (let b = 0; b < blocks; b++) ss += (logs[b]! - mean) ** 2;
  return {
    annualReturn: growthSum / blocks - 1,
    annualVolatility: Math.sqrt(ss / blocks),
    blocks,
  };
}

export interface EquilibriumInput {
  /** Daily returns of the assets over their longest common history (oldest first). */
  readonly panel: ReturnsPanel;
  readonly weights: Float64Array;
  /** The last observations the betas are estimated on (the analysis' benchmark window). */
  readonly betaDays: number;
  /** Daily returns of the market index over those `betaDays` observations (default: the engine's proxy). */
  readonly market?: Float64Array;
  readonly riskFreeRate: number;
  readonly equityRiskPremium: number;
}

export interface EquilibriumAssumptions {
  /** rf + beta_p ERP, beta_p = sum_i w_i beta_i (the CAPM equilibrium of expectedReturns). */
  readonly annualReturn: number;
  /** sqrt(252 w' Sigma w), Sigma the Ledoit-Wolf covariance of the whole common history. */
  readonly annualVolatility: number;
  readonly beta: number;
  readonly riskFreeRate: number;
  readonly equityRiskPremium: number;
  /** Ledoit-Wolf shrinkage of the whole history's covariance. */
  readonly shrinkage: number | null;
}

/**
 * The default assumptions of the simulator (PRODUCT.md "Simulator assumptions"): the CAPM
 * expected return of the portfolio, computed by the same function as the full analysis'
 * prior (`expectedReturns`, over the benchmark window, against the market index), and its
 * volatility over the longest common history with the shrunk (Ledoit-Wolf) covariance.
 */
export function equilibriumAssumptions(input: EquilibriumInput): EquilibriumAssumptions {
  const { panel, weights } = input;
  validateWeights(weights, panel.assets);
  const window = lastObservations(panel, Math.min(input.betaDays, panel.observations));
  const windowCov = estimateCovariance(window);
  const capm = expectedReturns(window, windowCov.cholesky, {
    riskFreeRate: input.riskFreeRate,
    equityRiskPremium: input.equityRiskPremium,
    ...(input.market ? { market: input.market } : {}),
  });
  let annualReturn = 0;
  let beta = 0;
  for (let i = 0; i < weights.length; i++) {
    annualReturn += weights[i]! * capm.equilibrium[i]!;
    beta += weights[i]! * capm.betas[i]!;
  }
  const cov = estimateCovariance(panel);
  const n = weights.length;
  let variance = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) variance += weights[i]! * cov.matrix.data[i * n + j]! * weights[j]!;
  return {
    annualReturn,
    annualVolatility: Math.sqrt(Math.max(0, variance) * TRADING_DAYS_PER_YEAR),
    beta,
    riskFreeRate: input.riskFreeRate,
    equityRiskPremium: input.equityRiskPremium,
    shrinkage: cov.shrinkage,
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
  const monthlyReturns = monthlyReturnsOf(dailyReturns, months);
  const h = monthlyReturns.length;
  const values = new Float64Array(h + 1);
  values[0] = initialAmount;
  for (let k = 0; k < h; k++)
    values[k + 1] = values[k]! * (1 + monthlyReturns[k]!) + monthlyContribution;
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
