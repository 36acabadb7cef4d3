/** Factor sensitivities of each asset by OLS on period changes (docs/analytics.md, "What-if"). */
import { EngineError } from "../errors.ts";
import { cholesky, choleskySolve } from "../linalg.ts";
import { validatePanel, type ReturnsPanel } from "../panel.ts";
import { FACTOR_KIND, checkFactorPanel, type FactorPanel, type WhatIfFactor } from "./factors.ts";

export interface Sensitivities {
  /** Factors with a beta (those with variance in the window). */
  readonly factors: readonly WhatIfFactor[];
  /** Factors of the panel left out: no variance over the window's periods. */
  readonly excluded: readonly WhatIfFactor[];
  readonly assets: number;
  /** Row-major assets x factors. */
  readonly betas: Float64Array;
  /** Intercept per period. */
  readonly alphas: Float64Array;
  readonly rSquared: Float64Array;
  readonly periods: number;
  readonly periodDays: number;
}

/** Period returns of the assets and period changes of the factors (see factorSensitivities). */
export interface PeriodChanges {
  readonly periods: number;
  readonly periodDays: number;
  /** Row-major periods x assets: each asset's return compounded over the period. */
  readonly y: Float64Array;
  /** Row-major periods x factors: compounded for return factors, summed for level factors. */
  readonly x: Float64Array;
}

/**
 * Blocks of `periodDays` observations counted back from the last (the oldest observations that
 * do not fill a block are left out): the assets' returns compound within a block, the factors'
 * changes compound (return factors) or add up (level factors).
 */
export function periodChanges(
  panel: ReturnsPanel,
  factors: FactorPanel,
  periodDays = 5,
): PeriodChanges {
  validatePanel(panel, 2, "periodChanges");
  checkFactorPanel(factors, panel.observations);
  if (!(Number.isInteger(periodDays) && periodDays >= 1))
    throw new EngineError(
      "INVALID_PARAMETER",
      `periodDays must be a positive integer, got ${periodDays}`,
    );
  const { assets: n, observations: t, data } = panel;
  const k0 = factors.factors.length;
  const p = Math.floor(t / periodDays);
  const skip = t - p * periodDays;
  const y = new Float64Array(p * n);
  const x = new Float64Array(p * k0);
  for (let q = 0; q < p; q++) {
    const yRow = q * n;
    for (let i = 0; i < n; i++) y[yRow + i] = 1;
    for (let j = 0; j < k0; j++)
      x[q * k0 + j] = FACTOR_KIND[factors.factors[j]!] === "return" ? 1 : 0;
    for (let d = 0; d < periodDays; d++) {
      const s = skip + q * periodDays + d;
      for (let i = 0; i < n; i++) y[yRow + i] = y[yRow + i]! * (1 + data[s * n + i]!);
      for (let j = 0; j < k0; j++) {
        const f = factors.data[s * k0 + j]!;
        x[q * k0 + j] =
          FACTOR_KIND[factors.factors[j]!] === "return"
            ? x[q * k0 + j]! * (1 + f)
            : x[q * k0 + j]! + f;
      }
    }
    for (let i = 0; i < n; i++) y[yRow + i] = y[yRow + i]! - 1;
    for (let j = 0; j < k0; j++)
      if (FACTOR_KIND[factors.factors[j]!] === "return") x[q * k0 + j] = x[q * k0 + j]! - 1;
  }
  return { periods: p, periodDays, y, x };
}

/**
 * The factors (indices into the panel's factors) with variance over the periods, and the means of
 * every factor: a factor whose period changes do not move (relative to their size) is left out.
 */
export function factorsWithVariance(
  x: Float64Array,
  periods: number,
  k0: number,
): { keep: number[]; means: Float64Array } {
  const p = periods;
  const xm = new Float64Array(k0);
  for (let q = 0; q < p; q++) for (let j = 0; j < k0; j++) xm[j] = xm[j]! + x[q * k0 + j]! / p;
  const keep: number[] = [];
  for (let j = 0; j < k0; j++) {
    let v = 0;
    let scale = 0;
    for (let q = 0; q < p; q++) {
      v += (x[q * k0 + j]! - xm[j]!) ** 2;
      scale = Math.max(scale, Math.abs(x[q * k0 + j]!));
    }
    if (v > 1e-24 * Math.max(1, scale * scale) * p) keep.push(j);
  }
  return { keep, means: xm };
}

/**
 * OLS of each asset's period returns on the factors' period changes with an intercept:
 * r_i = a_i + sum_k b_ik f_k + e_i. Periods are blocks of `periodDays` observations counted back
 * from the last (default 5: weekly, which limits the bias of non-synchronous closes and gives the
 * monthly inflation factor some periods with a change); returns compound within a period, level
 * changes add up. Solved by the normal equations on centred data (Cholesky).
 */
export function factorSensitivities(
  panel: ReturnsPanel,
  factors: FactorPanel,
  options: { periodDays?: number } = {},
): Sensitivities {
  const periodDays = options.periodDays ?? 5;
  const { y, x, periods: p } = periodChanges(panel, factors, periodDays);
  const n = panel.assets;
  const k0 = factors.factors.length;
  // Centre; drop factors without variance.
  const { keep, means: xm } = factorsWithVariance(x, p, k0);
  const ym = new Float64Array(n);
  for (let q = 0; q < p; q++) for (let i = 0; i < n; i++) ym[i] = ym[i]! + y[q * n + i]! / p;
  const k = keep.length;
  if (p < k + 2)
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      `factorSensitivities: ${p} periods of ${periodDays} days for ${k} factors and an intercept`,
    );
  const xc = new Float64Array(p * k);
  for (let q = 0; q < p; q++)
    for (let a = 0; a < k; a++) xc[q * k + a] = x[q * k0 + keep[a]!]! - xm[keep[a]!]!;
  const xtx = new Float64Array(k * k);
  for (let q = 0; q < p; q++)
    for (let a = 0; a < k; a++)
      for (let b = 0; b < k; b++)
        xtx[a * k + b] = xtx[a * k + b]! + xc[q * k + a]! * xc[q * k + b]!;
  let factor = k > 0 ? cholesky({ rows: k, cols: k, data: xtx }) : null;
  if (k > 0 && !factor) {
    // Collinear factors: a ridge of 1e-10 of the mean diagonal.
    let md = 0;
    for (let a = 0; a < k; a++) md += xtx[a * k + a]! / k;
    const r = xtx.slice();
    for (let a = 0; a < k; a++) r[a * k + a] = r[a * k + a]! + 1e-10 * md;
    factor = cholesky({ rows: k, cols: k, data: r });
    if (!factor)
      throw new EngineError("INVALID_INPUT", "factorSensitivities: singular factor matrix");
  }
  const betas = new Float64Array(n * k);
  const alphas = new Float64Array(n);
  const rSquared = new Float64Array(n);
  const xty = new Float64Array(k);
  const b = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    xty.fill(0);
    for (let q = 0; q < p; q++) {
      const yc = y[q * n + i]! - ym[i]!;
      for (let a = 0; a < k; a++) xty[a] = xty[a]! + xc[q * k + a]! * yc;
    }
    if (factor) choleskySolve(factor, xty, b);
    let alpha = ym[i]!;
    for (let a = 0; a < k; a++) {
      betas[i * k + a] = b[a]!;
      alpha -= b[a]! * xm[keep[a]!]!;
    }
    alphas[i] = alpha;
    let sst = 0;
    let ssr = 0;
    for (let q = 0; q < p; q++) {
      const yc = y[q * n + i]! - ym[i]!;
      let fit = 0;
      for (let a = 0; a < k; a++) fit += b[a]! * xc[q * k + a]!;
      sst += yc * yc;
      ssr += (yc - fit) ** 2;
    }
    rSquared[i] = sst > 0 ? Math.max(0, 1 - ssr / sst) : 0;
  }
  return {
    factors: keep.map((j) => factors.factors[j]!),
    excluded: factors.factors.filter((_, j) => !keep.includes(j)),
    assets: n,
    betas,
    alphas,
    rSquared,
    periods: p,
    periodDays,
  };
}
