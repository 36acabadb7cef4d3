/**
 * Portfolio risk: volatility, VaR and CVaR (parametric normal, historical, Monte Carlo), Euler
 * component risk, diversification and currency risk. Losses are positive fractions of the
 * portfolio value (0.05 = a loss of 5%); multiply by the amount invested for money.
 * Formulas, conventions and references: docs/analytics.md, "Risk".
 */
import { EngineError } from "./errors.ts";
import { quadForm, type Matrix } from "./linalg.ts";
import { validatePanel, validateWeights, type ReturnsPanel } from "./panel.ts";
import { createRandom } from "./random.ts";
import {
  normalPdf,
  normalQuantile,
  quantileSorted,
  TRADING_DAYS_PER_MONTH,
  TRADING_DAYS_PER_YEAR,
} from "./stats.ts";

export const DEFAULT_CONFIDENCE = 0.95;
export const DEFAULT_HORIZON_DAYS = TRADING_DAYS_PER_MONTH;
/** Historical VaR uses overlapping h-day windows from this many observations (1 year) up. */
export const OVERLAP_MIN_OBSERVATIONS = TRADING_DAYS_PER_YEAR;
export const DEFAULT_MONTE_CARLO_PATHS = 10_000;

export interface RiskOptions {
  /** Confidence level of VaR and CVaR, default 0.95. */
  readonly confidence?: number;
  /** Horizon in trading days, default 21 (one month). */
  readonly horizonDays?: number;
  /**
   * "zero" (default, RiskMetrics): the expected return is taken as 0 over the horizon;
   * "sample": the sample mean of the window is added (Jorion's absolute VaR).
   */
  readonly mean?: "zero" | "sample";
}

export interface VarResult {
  readonly method: "parametric" | "historical" | "monte-carlo";
  readonly confidence: number;
  readonly horizonDays: number;
  /** Loss not exceeded with probability `confidence`, as a fraction of the value. */
  readonly var: number;
  /** Mean loss beyond the VaR (expected shortfall), as a fraction of the value. */
  readonly cvar: number;
  /** Historical: h-day windows used ("overlapping") or daily figures times sqrt(h). */
  readonly scaling?: "overlapping" | "sqrt-time";
  /** Historical: scenarios (windows or days); Monte Carlo: paths. */
  readonly scenarios?: number;
  readonly seed?: number;
}

interface Resolved {
  confidence: number;
  horizonDays: number;
  mean: "zero" | "sample";
}

export function resolveRiskOptions(options: RiskOptions = {}): Resolved {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const horizonDays = options.horizonDays ?? DEFAULT_HORIZON_DAYS;
  const mean = options.mean ?? "zero";
  if (!(confidence > 0.5 && confidence < 1))
    throw new EngineError("INVALID_PARAMETER", `confidence must be in (0.5, 1), got ${confidence}`);
  if (!(Number.isInteger(horizonDays) && horizonDays >= 1))
    throw new EngineError(
      "INVALID_PARAMETER",
      `horizonDays must be a positive integer, got ${horizonDays}`,
    );
  if (mean !== "zero" && mean !== "sample")
    throw new EngineError(
      "INVALID_PARAMETER",
      `mean must be "zero" or "sample", got ${String(mean)}`,
    );
  return { confidence, horizonDays, mean };
}

function checkCovariance(cov: Matrix, weights: Float64Array): void {
  if (cov.rows !== cov.cols || cov.rows !== weights.length)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `covariance ${cov.rows}x${cov.cols} for ${weights.length} weights`,
    );
  validateWeights(weights, cov.rows);
}

/** Daily portfolio volatility sqrt(w' Sigma w). */
export function portfolioVolatility(cov: Matrix, weights: Float64Array): number {
  checkCovariance(cov, weights);
  return Math.sqrt(Math.max(0, quadForm(cov, weights)));
}

function dotMean(
  means: Float64Array | undefined,
  weights: Float64Array,
  mode: "zero" | "sample",
): number {
  if (mode === "zero") return 0;
  if (!means || means.length !== weights.length)
    throw new EngineError("DIMENSION_MISMATCH", "sample-mean VaR needs one mean per asset");
  let s = 0;
  for (let i = 0; i < weights.length; i++) s += weights[i]! * means[i]!;
  return s;
}

/**
 * Parametric (normal) VaR and CVaR, Jorion ch. 5 and RiskMetrics (1996):
 * VaR = z_c sigma_p sqrt(h) - h mu_p, CVaR = sigma_p sqrt(h) phi(z_c) / (1 - c) - h mu_p.
 */
export function parametricVar(
  cov: Matrix,
  weights: Float64Array,
  options: RiskOptions = {},
  means?: Float64Array,
): VarResult {
  const o = resolveRiskOptions(options);
  const sigma = portfolioVolatility(cov, weights) * Math.sqrt(o.horizonDays);
  const drift = dotMean(means, weights, o.mean) * o.horizonDays;
  const z = normalQuantile(o.confidence);
  return {
    method: "parametric",
    confidence: o.confidence,
    horizonDays: o.horizonDays,
    var: z * sigma - drift,
    cvar: (sigma * normalPdf(z)) / (1 - o.confidence) - drift,
  };
}

/**
 * VaR = -q, q the type-7 (1 - c) quantile of the scenario returns; CVaR = minus the mean of the
 * scenario returns at or below q.
 */
export function tailFigures(
  returns: Float64Array,
  confidence: number,
): { var: number; cvar: number } {
  if (returns.length === 0) throw new EngineError("NOT_ENOUGH_HISTORY", "VaR: no scenarios");
  const sorted = Float64Array.from(returns).sort();
  const q = quantileSorted(sorted, 1 - confidence);
  let sum = 0;
  let count = 0;
  for (let k = 0; k < sorted.length && sorted[k]! <= q; k++) {
    sum += sorted[k]!;
    count++;
  }
  // 0 - x rather than -x: a riskless portfolio reports 0, not -0.
  return { var: 0 - q, cvar: 0 - sum / count };
}

/**
 * The returns of holding the portfolio (buy and hold from `weights`) over every window of h
 * consecutive days: R_k = sum_i w_i (prod_{s=k}^{k+h-1} (1 + r_i,s) - 1), k = 0 … T - h.
 */
export function overlappingReturns(
  panel: ReturnsPanel,
  weights: Float64Array,
  h: number,
): Float64Array {
  const { assets: n, observations: t, data } = panel;
  if (t < h) throw new EngineError("NOT_ENOUGH_HISTORY", `${t} observations for a ${h}-day window`);
  // Cumulative growth index of each asset, row-major (T + 1) x n.
  const idx = new Float64Array((t + 1) * n);
  for (let i = 0; i < n; i++) idx[i] = 1;
  for (let s = 0; s < t; s++) {
    const a = s * n;
    const b = a + n;
    for (let i = 0; i < n; i++) idx[b + i] = idx[a + i]! * (1 + data[a + i]!);
  }
  const out = new Float64Array(t - h + 1);
  for (let k = 0; k <= t - h; k++) {
    const a = k * n;
    const b = (k + h) * n;
    let s = 0;
    for (let i = 0; i < n; i++) s += weights[i]! * (idx[b + i]! / idx[a + i]!);
    out[k] = s - 1;
  }
  return out;
}

/** The scenarios behind the historical VaR, and how their figures become h-day ones. */
export interface HistoricalScenarios {
  /** Overlapping h-day returns, or daily returns (below a year of data, or h = 1). */
  readonly returns: Float64Array;
  readonly scaling: "overlapping" | "sqrt-time";
  /** Multiplier of the returns' figures: 1, or sqrt(h) for daily returns. */
  readonly scale: number;
}

/**
 * The historical VaR's scenarios (Jorion ch. 10). With at least OVERLAP_MIN_OBSERVATIONS
 * observations, the returns of every overlapping h-day window (buy and hold); below that (windows
 * of 1, 3 and 6 months give too few h-day windows), the daily returns, scaled by sqrt(h).
 */
export function historicalScenarios(
  panel: ReturnsPanel,
  weights: Float64Array,
  options: RiskOptions = {},
): HistoricalScenarios {
  const o = resolveRiskOptions(options);
  validatePanel(panel, 2, "historicalVar");
  validateWeights(weights, panel.assets);
  if (
    o.horizonDays > 1 &&
    panel.observations >= Math.max(OVERLAP_MIN_OBSERVATIONS, o.horizonDays + 1)
  )
    return {
      returns: overlappingReturns(panel, weights, o.horizonDays),
      scaling: "overlapping",
      scale: 1,
    };
  const daily = overlappingReturns(panel, weights, 1);
  return o.horizonDays === 1
    ? { returns: daily, scaling: "overlapping", scale: 1 }
    : { returns: daily, scaling: "sqrt-time", scale: Math.sqrt(o.horizonDays) };
}

/** Historical VaR and CVaR of scenarios already drawn (historicalScenarios). */
export function historicalVarOf(s: HistoricalScenarios, options: RiskOptions = {}): VarResult {
  const o = resolveRiskOptions(options);
  const f = tailFigures(s.returns, o.confidence);
  return {
    method: "historical",
    confidence: o.confidence,
    horizonDays: o.horizonDays,
    ...(s.scale === 1 ? f : { var: f.var * s.scale, cvar: f.cvar * s.scale }),
    scaling: s.scaling,
    scenarios: s.returns.length,
  };
}

/** Historical VaR and CVaR (Jorion ch. 10): see historicalScenarios for the scenarios used. */
export function historicalVar(
  panel: ReturnsPanel,
  weights: Float64Array,
  options: RiskOptions = {},
): VarResult {
  return historicalVarOf(historicalScenarios(panel, weights, options), options);
}

export interface MonteCarloOptions extends RiskOptions {
  readonly paths?: number;
  readonly seed?: number;
}

/**
 * Monte Carlo VaR and CVaR: `paths` draws of the h-day log returns of the assets, multivariate
 * normal g = h m + sqrt(h) L z (L the Cholesky factor of the daily covariance, z standard normal
 * drawn path by path, asset by asset from createRandom(seed)), m_i = mu_i - s_ii / 2 ("sample")
 * or -s_ii / 2 ("zero": expected simple return 0); portfolio return sum_i w_i (exp(g_i) - 1)
 * (buy and hold). Then the same tail figures as the historical method.
 */
export function monteCarloVar(
  cov: Matrix,
  factor: Matrix,
  weights: Float64Array,
  options: MonteCarloOptions = {},
  means?: Float64Array,
): VarResult {
  const o = resolveRiskOptions(options);
  checkCovariance(cov, weights);
  const paths = options.paths ?? DEFAULT_MONTE_CARLO_PATHS;
  const seed = options.seed ?? 1;
  if (!(Number.isInteger(paths) && paths >= 2))
    throw new EngineError("INVALID_PARAMETER", `paths must be an integer >= 2, got ${paths}`);
  const n = weights.length;
  if (factor.rows !== n) throw new EngineError("DIMENSION_MISMATCH", "Cholesky factor size");
  const h = o.horizonDays;
  const rootH = Math.sqrt(h);
  const drift = new Float64Array(n);
  if (o.mean === "sample" && (!means || means.length !== n))
    throw new EngineError("DIMENSION_MISMATCH", "sample-mean VaR needs one mean per asset");
  for (let i = 0; i < n; i++)
    drift[i] = h * ((o.mean === "sample" ? means![i]! : 0) - cov.data[i * n + i]! / 2);
  const l = factor.data;
  const random = createRandom(seed);
  const block = 64;
  const z = new Float64Array(block * n);
  const out = new Float64Array(paths);
  for (let p0 = 0; p0 < paths; p0 += block) {
    const b = Math.min(block, paths - p0);
    for (let k = 0; k < b * n; k++) z[k] = random.normal();
    // Row i of L is reused across the block of paths while it is in cache.
    for (let i = 0; i < n; i++) {
      const w = weights[i]!;
      if (w === 0) continue;
      const li = i * n;
      const di = drift[i]!;
      let p = 0;
      // Four paths at a time: each element of L is loaded once for four products.
      for (; p + 3 < b; p += 4) {
        const z0 = p * n;
        const z1 = z0 + n;
        const z2 = z1 + n;
        const z3 = z2 + n;
        let y0 = 0;
        let y1 = 0;
        let y2 = 0;
        let y3 = 0;
        for (let k = 0; k <= i; k++) {
          const lk = l[li + k]!;
          y0 += lk * z[z0 + k]!;
          y1 += lk * z[z1 + k]!;
          y2 += lk * z[z2 + k]!;
          y3 += lk * z[z3 + k]!;
        }
        const o = p0 + p;
        out[o] = out[o]! + w * (Math.exp(di + rootH * y0) - 1);
        out[o + 1] = out[o + 1]! + w * (Math.exp(di + rootH * y1) - 1);
        out[o + 2] = out[o + 2]! + w * (Math.exp(di + rootH * y2) - 1);
        out[o + 3] = out[o + 3]! + w * (Math.exp(di + rootH * y3) - 1);
      }
      for (; p < b; p++) {
        const zp = p * n;
        let y = 0;
        for (let k = 0; k <= i; k++) y += l[li + k]! * z[zp + k]!;
        out[p0 + p] = out[p0 + p]! + w * (Math.exp(di + rootH * y) - 1);
      }
    }
  }
  return {
    method: "monte-carlo",
    confidence: o.confidence,
    horizonDays: h,
    ...tailFigures(out, o.confidence),
    scenarios: paths,
    seed,
  };
}

export interface ComponentRisk {
  /** Portfolio volatility over the horizon, sigma_p sqrt(h). */
  readonly volatility: number;
  /** Marginal contribution d sigma_p / d w_i = (Sigma w)_i / sigma_p, over the horizon. */
  readonly marginal: Float64Array;
  /** Euler contribution w_i (Sigma w)_i / sigma_p; they sum to the volatility. */
  readonly contribution: Float64Array;
  /** Contribution / volatility * 100; sums to 100 (0 for every asset of a riskless portfolio). */
  readonly percentage: Float64Array;
  /** Euler contributions to the parametric VaR: z contribution_i - h w_i mu_i; sum to the VaR. */
  readonly varContribution: Float64Array;
}

/** Euler allocation of volatility and parametric VaR (Tasche 2000, Litterman 1996). */
export function componentRisk(
  cov: Matrix,
  weights: Float64Array,
  options: RiskOptions = {},
  means?: Float64Array,
): ComponentRisk {
  const o = resolveRiskOptions(options);
  checkCovariance(cov, weights);
  const n = weights.length;
  const sw = new Float64Array(n);
  let variance = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    const base = i * n;
    for (let j = 0; j < n; j++) s += cov.data[base + j]! * weights[j]!;
    sw[i] = s;
    variance += weights[i]! * s;
  }
  const sigma = Math.sqrt(Math.max(0, variance));
  const rootH = Math.sqrt(o.horizonDays);
  const z = normalQuantile(o.confidence);
  const marginal = new Float64Array(n);
  const contribution = new Float64Array(n);
  const percentage = new Float64Array(n);
  const varContribution = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const m = sigma > 0 ? (sw[i]! / sigma) * rootH : 0;
    marginal[i] = m;
    contribution[i] = weights[i]! * m;
    percentage[i] = sigma > 0 ? (weights[i]! * sw[i]! * 100) / variance : 0;
    const mu = o.mean === "sample" && means ? means[i]! : 0;
    varContribution[i] = z * contribution[i]! - o.horizonDays * weights[i]! * mu;
  }
  return { volatility: sigma * rootH, marginal, contribution, percentage, varContribution };
}

export interface Diversification {
  /** Stand-alone risk of each position, |w_i| sigma_i sqrt(h). */
  readonly standAlone: Float64Array;
  /** Their sum: the portfolio's risk if every correlation were 1. */
  readonly standAloneSum: number;
  /** Portfolio volatility over the horizon. */
  readonly portfolio: number;
  /** standAloneSum - portfolio (>= 0). */
  readonly benefit: number;
  /** benefit / standAloneSum in [0, 1]; 0 when nothing is at risk. */
  readonly reduction: number;
  /** standAloneSum / portfolio (Choueifaty and Coignard 2008); 1 when nothing is at risk. */
  readonly ratio: number;
}

/**
 * Diversification: sum of stand-alone risks against portfolio risk. With zero-mean normal VaR the
 * same ratios hold for VaR (multiply each figure by z_c).
 */
export function diversification(
  cov: Matrix,
  weights: Float64Array,
  options: RiskOptions = {},
): Diversification {
  const o = resolveRiskOptions(options);
  const n = weights.length;
  const sigma = portfolioVolatility(cov, weights);
  const rootH = Math.sqrt(o.horizonDays);
  const standAlone = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = Math.abs(weights[i]!) * Math.sqrt(Math.max(0, cov.data[i * n + i]!)) * rootH;
    standAlone[i] = v;
    sum += v;
  }
  const portfolio = sigma * rootH;
  const benefit = Math.max(0, sum - portfolio);
  return {
    standAlone,
    standAloneSum: sum,
    portfolio,
    benefit,
    reduction: sum > 0 ? benefit / sum : 0,
    ratio: portfolio > 0 ? sum / portfolio : 1,
  };
}

export interface CurrencyRisk {
  /** Weight of the assets quoted in the other currency (the open EUR/USD position). */
  readonly exposure: number;
  /** Volatility of the other currency over the horizon. */
  readonly fxVolatility: number;
  /** |exposure| fxVolatility: the currency position's stand-alone risk. */
  readonly standAlone: number;
  /** Euler contribution of the currency position to the portfolio volatility (horizon). */
  readonly contribution: number;
  /** contribution / portfolio volatility * 100 (0 when the portfolio has no risk). */
  readonly percentage: number;
  /** Portfolio volatility over the horizon (sample, of the same window). */
  readonly volatility: number;
  /** Volatility of the portfolio with the currency move taken out (as if hedged). */
  readonly volatilityWithoutCurrency: number;
}

/**
 * Currency risk. The return of an asset in the other currency is (1 + l)(1 + f) - 1 = l + f + l f
 * with l its local return and f the currency's; the portfolio return splits into
 * r_p = (r_p - e f) + e f with e the exposure (sum of the foreign weights). Euler allocation over
 * these two parts (Tasche 2000) gives the currency's contribution e cov(f, r_p) / sigma_p, from
 * the sample moments of the window (divisor T - 1).
 */
export function currencyRisk(
  panel: ReturnsPanel,
  weights: Float64Array,
  fxReturns: Float64Array,
  foreign: Uint8Array,
  options: RiskOptions = {},
): CurrencyRisk {
  const o = resolveRiskOptions(options);
  validatePanel(panel, 2, "currencyRisk");
  validateWeights(weights, panel.assets);
  const { assets: n, observations: t, data } = panel;
  if (fxReturns.length !== t || foreign.length !== n)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      "currencyRisk: fx returns or foreign flags do not match the panel",
    );
  let exposure = 0;
  for (let i = 0; i < n; i++) if (foreign[i]) exposure += weights[i]!;
  const rp = new Float64Array(t);
  let mp = 0;
  let mf = 0;
  for (let s = 0; s < t; s++) {
    const f = fxReturns[s]!;
    if (!Number.isFinite(f))
      throw new EngineError("INVALID_INPUT", `currencyRisk: fx return ${f} at ${s}`);
    let v = 0;
    const base = s * n;
    for (let i = 0; i < n; i++) v += weights[i]! * data[base + i]!;
    rp[s] = v;
    mp += v;
    mf += f;
  }
  mp /= t;
  mf /= t;
  let vpp = 0;
  let vff = 0;
  let vpf = 0;
  for (let s = 0; s < t; s++) {
    const a = rp[s]! - mp;
    const b = fxReturns[s]! - mf;
    vpp += a * a;
    vff += b * b;
    vpf += a * b;
  }
  vpp /= t - 1;
  vff /= t - 1;
  vpf /= t - 1;
  const rootH = Math.sqrt(o.horizonDays);
  const sigma = Math.sqrt(vpp);
  const hedgedVar = Math.max(0, vpp - 2 * exposure * vpf + exposure * exposure * vff);
  const contribution = sigma > 0 ? ((exposure * vpf) / sigma) * rootH : 0;
  return {
    exposure,
    fxVolatility: Math.sqrt(vff) * rootH,
    standAlone: Math.abs(exposure) * Math.sqrt(vff) * rootH,
    contribution,
    percentage: sigma > 0 ? ((exposure * vpf) / vpp) * 100 : 0,
    volatility: sigma * rootH,
    volatilityWithoutCurrency: Math.sqrt(hedgedVar) * rootH,
  };
}
