/**
 * The portfolio against the market factors: OLS of its period returns on the factors' period
 * changes, the regression the what-if estimates for each asset (same factors, same weekly
 * periods), with the classical standard errors of every coefficient. Formulas: docs/analytics.md,
 * "Portfolio history".
 */
import { EngineError } from "../errors.ts";
import { cholesky, choleskySolve } from "../linalg.ts";
import { factorsWithVariance, periodChanges } from "../whatif/sensitivities.ts";
import { type FactorPanel, type WhatIfFactor } from "../whatif/factors.ts";

export interface FactorRegression {
  /** Factors with a beta (those that moved over the periods). */
  readonly factors: readonly WhatIfFactor[];
  /** Factors of the panel left out: no variance over the periods. */
  readonly excluded: readonly WhatIfFactor[];
  /** Intercept per period. */
  readonly alpha: number;
  readonly alphaStandardError: number;
  /** One beta per factor of `factors`. */
  readonly betas: Float64Array;
  readonly standardErrors: Float64Array;
  readonly rSquared: number;
  /** 1 - (SSR / SST)(p - 1) / (p - k - 1) (can be negative). */
  readonly adjustedRSquared: number;
  /** sqrt(SSR / (p - k - 1)), per period. */
  readonly residualStandardError: number;
  readonly periods: number;
  readonly periodDays: number;
  /** p - k - 1. */
  readonly degreesOfFreedom: number;
}

/**
 * y_q = a + sum_k b_k f_kq + e_q over the periods q of `periodDays` observations counted back from
 * the last (default 5: weekly). Normal equations on centred data (Cholesky); with s^2 =
 * SSR / (p - k - 1): Var(b) = s^2 (Xc'Xc)^-1 and Var(a) = s^2 (1/p + mean(f)' (Xc'Xc)^-1 mean(f)).
 */
export function factorRegression(
  returns: Float64Array,
  factors: FactorPanel,
  options: { periodDays?: number } = {},
): FactorRegression {
  const periodDays = options.periodDays ?? 5;
  const panel = { assets: 1, observations: returns.length, data: returns };
  const { y, x, periods: p } = periodChanges(panel, factors, periodDays);
  const k0 = factors.factors.length;
  const { keep, means: xm } = factorsWithVariance(x, p, k0);
  const k = keep.length;
  if (p < k + 2)
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      `factorRegression: ${p} periods of ${periodDays} days for ${k} factors and an intercept`,
    );
  let ym = 0;
  for (let q = 0; q < p; q++) ym += y[q]! / p;
  const xc = new Float64Array(p * k);
  for (let q = 0; q < p; q++)
    for (let a = 0; a < k; a++) xc[q * k + a] = x[q * k0 + keep[a]!]! - xm[keep[a]!]!;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  for (let q = 0; q < p; q++) {
    const yc = y[q]! - ym;
    for (let a = 0; a < k; a++) {
      xty[a] = xty[a]! + xc[q * k + a]! * yc;
      for (let b = 0; b < k; b++)
        xtx[a * k + b] = xtx[a * k + b]! + xc[q * k + a]! * xc[q * k + b]!;
    }
  }
  const factor = k > 0 ? cholesky({ rows: k, cols: k, data: xtx }) : null;
  if (k > 0 && !factor)
    throw new EngineError(
      "INVALID_INPUT",
      "factorRegression: the factors are collinear over the periods (no unique betas)",
    );
  const betas = new Float64Array(k);
  if (factor) choleskySolve(factor, xty, betas);
  // (Xc'Xc)^-1, column by column.
  const inverse = new Float64Array(k * k);
  const unit = new Float64Array(k);
  const column = new Float64Array(k);
  for (let a = 0; a < k; a++) {
    unit.fill(0);
    unit[a] = 1;
    choleskySolve(factor!, unit, column);
    for (let b = 0; b < k; b++) inverse[b * k + a] = column[b]!;
  }
  let alpha = ym;
  for (let a = 0; a < k; a++) alpha -= betas[a]! * xm[keep[a]!]!;
  let sst = 0;
  let ssr = 0;
  for (let q = 0; q < p; q++) {
    const yc = y[q]! - ym;
    let fit = 0;
    for (let a = 0; a < k; a++) fit += betas[a]! * xc[q * k + a]!;
    sst += yc * yc;
    ssr += (yc - fit) ** 2;
  }
  const dof = p - k - 1;
  const s2 = ssr / dof;
  const standardErrors = new Float64Array(k);
  for (let a = 0; a < k; a++) standardErrors[a] = Math.sqrt(s2 * inverse[a * k + a]!);
  let quad = 0;
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) quad += xm[keep[a]!]! * inverse[a * k + b]! * xm[keep[b]!]!;
  const rSquared = sst > 0 ? Math.max(0, 1 - ssr / sst) : 0;
  return {
    factors: keep.map((j) => factors.factors[j]!),
    excluded: factors.factors.filter((_, j) => !keep.includes(j)),
    alpha,
    alphaStandardError: Math.sqrt(s2 * (1 / p + quad)),
    betas,
    standardErrors,
    rSquared,
    adjustedRSquared: sst > 0 ? 1 - ((ssr / sst) * (p - 1)) / dof : 0,
    residualStandardError: Math.sqrt(s2),
    periods: p,
    periodDays,
    degreesOfFreedom: dof,
  };
}
