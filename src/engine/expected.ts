/**
 * Expected returns (what the portfolio can be expected to earn) and required returns (what it
 * must earn to pay for its risk). Annual, arithmetic, as fractions (0.07 = 7% a year).
 * Formulas and references: docs/analytics.md, "Expected and required returns".
 */
import { EngineError } from "./errors.ts";
import { choleskySolve, type Matrix } from "./linalg.ts";
import { columnMeans, validatePanel, validateWeights, type ReturnsPanel } from "./panel.ts";
import { TRADING_DAYS_PER_YEAR } from "./stats.ts";

export const DEFAULT_RISK_FREE_RATE = 0.02;
export const DEFAULT_EQUITY_RISK_PREMIUM = 0.05;
export const DEFAULT_TARGET_SHARPE = 0.3;

export interface ExpectedReturnOptions {
  /** Annual risk-free rate, default 0.02. */
  readonly riskFreeRate?: number;
  /** Annual expected excess return of the market proxy, default 0.05. */
  readonly equityRiskPremium?: number;
  /**
   * Daily returns of the market proxy over the same observations. Default: the equally weighted
   * average of the panel's assets.
   */
  readonly market?: Float64Array;
}

export interface ExpectedReturns {
  /** Annualised sample means, 252 mu_i. */
  readonly historical: Float64Array;
  /** CAPM beta of each asset against the market proxy. */
  readonly betas: Float64Array;
  /** CAPM equilibrium rf + beta_i ERP (the prior). */
  readonly equilibrium: Float64Array;
  /** Bayes-Stein estimate (1 - s) historical + s equilibrium. */
  readonly expected: Float64Array;
  /** Shrinkage weight s in (0, 1] put on the equilibrium. */
  readonly shrinkage: number;
}

function finite(name: string, v: number): number {
  if (!Number.isFinite(v))
    throw new EngineError("INVALID_PARAMETER", `${name} must be finite, got ${v}`);
  return v;
}

/**
 * Bayes-Stein shrinkage of the sample means (Jorion 1986) towards the CAPM equilibrium (Sharpe
 * 1964): s = (N + 2) / ((N + 2) + T d' Sigma^-1 d), d = mu_hat - mu_0 in daily units, Sigma the
 * daily covariance given by its Cholesky factor.
 */
export function expectedReturns(
  panel: ReturnsPanel,
  factor: Matrix,
  options: ExpectedReturnOptions = {},
): ExpectedReturns {
  validatePanel(panel, 2, "expectedReturns");
  const { assets: n, observations: t, data } = panel;
  if (factor.rows !== n)
    throw new EngineError("DIMENSION_MISMATCH", "expectedReturns: covariance size");
  const rf = finite("riskFreeRate", options.riskFreeRate ?? DEFAULT_RISK_FREE_RATE);
  const erp = finite("equityRiskPremium", options.equityRiskPremium ?? DEFAULT_EQUITY_RISK_PREMIUM);
  let market = options.market;
  if (market) {
    if (market.length !== t)
      throw new EngineError("DIMENSION_MISMATCH", "expectedReturns: market length");
    for (let s = 0; s < t; s++)
      if (!Number.isFinite(market[s]!))
        throw new EngineError("INVALID_INPUT", "expectedReturns: market return");
  } else {
    market = new Float64Array(t);
    for (let s = 0; s < t; s++) {
      let v = 0;
      for (let i = 0; i < n; i++) v += data[s * n + i]!;
      market[s] = v / n;
    }
  }
  const means = columnMeans(panel);
  let mm = 0;
  for (let s = 0; s < t; s++) mm += market[s]!;
  mm /= t;
  const cov = new Float64Array(n);
  let vm = 0;
  for (let s = 0; s < t; s++) {
    const dm = market[s]! - mm;
    vm += dm * dm;
    const base = s * n;
    for (let i = 0; i < n; i++) cov[i] = cov[i]! + (data[base + i]! - means[i]!) * dm;
  }
  const betas = new Float64Array(n);
  const equilibrium = new Float64Array(n);
  const historical = new Float64Array(n);
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    betas[i] = vm > 0 ? cov[i]! / vm : 0;
    equilibrium[i] = rf + betas[i]! * erp;
    historical[i] = means[i]! * TRADING_DAYS_PER_YEAR;
    d[i] = means[i]! - equilibrium[i]! / TRADING_DAYS_PER_YEAR;
  }
  let singular = false;
  for (let i = 0; i < n; i++) if (!(factor.data[i * n + i]! > 0)) singular = true;
  let shrinkage = 1;
  if (!singular) {
    const x = choleskySolve(factor, d);
    let q = 0;
    for (let i = 0; i < n; i++) q += d[i]! * x[i]!;
    shrinkage = (n + 2) / (n + 2 + t * Math.max(0, q));
  }
  const expected = new Float64Array(n);
  for (let i = 0; i < n; i++)
    expected[i] = (1 - shrinkage) * historical[i]! + shrinkage * equilibrium[i]!;
  return { historical, betas, equilibrium, expected, shrinkage };
}

/** w' mu. */
export function portfolioReturn(returns: Float64Array, weights: Float64Array): number {
  validateWeights(weights, returns.length);
  let s = 0;
  for (let i = 0; i < weights.length; i++) s += weights[i]! * returns[i]!;
  return s;
}

export interface RequiredReturnOptions {
  readonly riskFreeRate?: number;
  /** Sharpe ratio the investor asks of the portfolio, default 0.3. */
  readonly targetSharpe?: number;
}

export interface RequiredReturns {
  /** rf + S* (Sigma w)_i / sigma_p * sqrt(252): the return that pays for the asset's marginal risk. */
  readonly assets: Float64Array;
  /** rf + S* sigma_p sqrt(252) = sum_i w_i assets_i. */
  readonly portfolio: number;
  readonly riskFreeRate: number;
  readonly targetSharpe: number;
}

/**
 * Required returns: the returns at which the portfolio earns the target Sharpe ratio S* and each
 * asset's excess return is proportional to its marginal risk, i.e. the returns that would make the
 * current weights the maximum-Sharpe portfolio (Sharpe 1974, "Imputing expected security returns
 * from portfolio composition"; Litterman 1996 "implied views").
 */
export function requiredReturns(
  cov: Matrix,
  weights: Float64Array,
  options: RequiredReturnOptions = {},
): RequiredReturns {
  const n = weights.length;
  if (cov.rows !== n || cov.cols !== n)
    throw new EngineError("DIMENSION_MISMATCH", "requiredReturns: covariance size");
  validateWeights(weights, n);
  const rf = finite("riskFreeRate", options.riskFreeRate ?? DEFAULT_RISK_FREE_RATE);
  const sr = finite("targetSharpe", options.targetSharpe ?? DEFAULT_TARGET_SHARPE);
  const sw = new Float64Array(n);
  let variance = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += cov.data[i * n + j]! * weights[j]!;
    sw[i] = s;
    variance += weights[i]! * s;
  }
  const sigma = Math.sqrt(Math.max(0, variance));
  const root = Math.sqrt(TRADING_DAYS_PER_YEAR);
  const assets = new Float64Array(n);
  for (let i = 0; i < n; i++) assets[i] = rf + (sigma > 0 ? (sr * sw[i]! * root) / sigma : 0);
  return { assets, portfolio: rf + sr * sigma * root, riskFreeRate: rf, targetSharpe: sr };
}
