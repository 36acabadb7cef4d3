/**
 * Covariance of daily returns: sample, EWMA (RiskMetrics, lambda 0.94) and Ledoit-Wolf shrinkage
 * towards constant correlation (the default). Every estimate comes back positive definite with
 * its Cholesky factor: when the factor fails (more assets than observations under the sample
 * estimator, identical assets, an asset that never moved) a ridge eps * I is added, eps starting
 * at 1e-10 times the mean variance and growing tenfold until the factor exists; `ridge` reports
 * it (0 in the normal case). Formulas and references: docs/analytics.md, "Covariance".
 */
import { EngineError } from "./errors.ts";
import { cholesky, type Matrix } from "./linalg.ts";
import { columnMeans, toColumns, validatePanel, type ReturnsPanel } from "./panel.ts";

export type CovarianceMethod = "sample" | "ewma" | "ledoit-wolf";
export const DEFAULT_COVARIANCE_METHOD: CovarianceMethod = "ledoit-wolf";
export const RISKMETRICS_LAMBDA = 0.94;

export interface CovarianceEstimate {
  readonly method: CovarianceMethod;
  /** Daily covariance, positive definite (ridge included). */
  readonly matrix: Matrix;
  /** Lower Cholesky factor of `matrix`. */
  readonly cholesky: Matrix;
  /** Sample means of the daily returns. */
  readonly means: Float64Array;
  readonly observations: number;
  /** Ledoit-Wolf shrinkage intensity delta in [0, 1]; null for the other methods. */
  readonly shrinkage: number | null;
  /** Value added to the diagonal to make the Cholesky factor exist (0 when not needed). */
  readonly ridge: number;
}

/**
 * C = scale * X X' for X given as n rows of length t (one asset's history each), symmetric fill:
 * only i <= j is computed.
 */
export function crossProducts(cols: Float64Array, n: number, t: number, scale: number): Matrix {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const bi = i * t;
    for (let j = i; j < n; j++) {
      const bj = j * t;
      let s0 = 0;
      let s1 = 0;
      let s = 0;
      // Two accumulators break the dependency chain of the additions.
      for (; s + 1 < t; s += 2) {
        s0 += cols[bi + s]! * cols[bj + s]!;
        s1 += cols[bi + s + 1]! * cols[bj + s + 1]!;
      }
      if (s < t) s0 += cols[bi + s]! * cols[bj + s]!;
      const v = (s0 + s1) * scale;
      out[i * n + j] = v;
      out[j * n + i] = v;
    }
  }
  return { rows: n, cols: n, data: out };
}

/** Unbiased sample covariance (divisor T - 1). */
export function sampleCovariance(panel: ReturnsPanel): Matrix {
  validatePanel(panel, 2, "sampleCovariance");
  const means = columnMeans(panel);
  return crossProducts(
    toColumns(panel, means),
    panel.assets,
    panel.observations,
    1 / (panel.observations - 1),
  );
}

/**
 * EWMA covariance, RiskMetrics (1996): zero mean, weight (1 - lambda) lambda^k on the return k
 * days before the last, normalised over the window so that the weights sum to 1.
 */
export function ewmaCovariance(panel: ReturnsPanel, lambda = RISKMETRICS_LAMBDA): Matrix {
  validatePanel(panel, 2, "ewmaCovariance");
  if (!(lambda > 0 && lambda < 1))
    throw new EngineError("INVALID_PARAMETER", `ewma: lambda must be in (0, 1), got ${lambda}`);
  const { assets: n, observations: t } = panel;
  const cols = toColumns(panel);
  const norm = (1 - lambda) / (1 - lambda ** t);
  const root = new Float64Array(t);
  for (let s = 0; s < t; s++) root[s] = Math.sqrt(norm * lambda ** (t - 1 - s));
  for (let i = 0; i < n; i++) {
    const b = i * t;
    for (let s = 0; s < t; s++) cols[b + s] = cols[b + s]! * root[s]!;
  }
  return crossProducts(cols, n, t, 1);
}

/**
 * Ledoit and Wolf (2004), "Honey, I shrunk the sample covariance matrix": shrinkage of the sample
 * covariance S (divisor T, as in the paper) towards the constant-correlation matrix F
 * (f_ii = s_ii, f_ij = rbar sqrt(s_ii s_jj)) with intensity delta = max(0, min(1, kappa / T)),
 * kappa = (pi - rho) / gamma. Assets with zero variance are left out of rbar and get f_ij = 0.
 */
export function ledoitWolfCovariance(panel: ReturnsPanel): { matrix: Matrix; shrinkage: number } {
  validatePanel(panel, 2, "ledoitWolfCovariance");
  const { assets: n, observations: t } = panel;
  const x = toColumns(panel, columnMeans(panel));
  const invT = 1 / t;
  const s = new Float64Array(n * n);
  const sd = new Float64Array(n);
  let piSum = 0;
  for (let i = 0; i < n; i++) {
    const b = i * t;
    let m2 = 0;
    let m4 = 0;
    for (let k = 0; k < t; k++) {
      const a2 = x[b + k]! * x[b + k]!;
      m2 += a2;
      m4 += a2 * a2;
    }
    const sii = m2 * invT;
    s[i * n + i] = sii;
    sd[i] = Math.sqrt(sii);
    piSum += m4 * invT - sii * sii;
  }
  const rhoDiag = piSum;
  // Squares of the centred returns, so that the pair loop multiplies instead of squaring again.
  const x2 = new Float64Array(n * t);
  for (let k = 0; k < n * t; k++) x2[k] = x[k]! * x[k]!;
  let corrSum = 0;
  let pairs = 0;
  let thetaSum = 0;
  // Moments of the pair (i, j): sum ab, sum a^2 b^2, sum a^3 b, sum a b^3 (a = x_i, b = x_j).
  const pair = (i: number, j: number, m11: number, m22: number, m31: number, m13: number) => {
    const sii = s[i * n + i]!;
    const sjj = s[j * n + j]!;
    const sij = m11 * invT;
    s[i * n + j] = sij;
    s[j * n + i] = sij;
    piSum += 2 * (m22 * invT - sij * sij);
    if (sii > 0 && sjj > 0) {
      corrSum += sij / (sd[i]! * sd[j]!);
      pairs++;
      const thetaII = m31 * invT - sii * sij;
      const thetaJJ = m13 * invT - sjj * sij;
      thetaSum += (sd[j]! / sd[i]!) * thetaII + (sd[i]! / sd[j]!) * thetaJJ;
    }
  };
  for (let i = 0; i < n; i++) {
    const bi = i * t;
    let j = i + 1;
    // Two pairs at a time: a and a^2 are loaded once for both.
    for (; j + 1 < n; j += 2) {
      const b0 = j * t;
      const b1 = b0 + t;
      let p11 = 0;
      let p22 = 0;
      let p31 = 0;
      let p13 = 0;
      let q11 = 0;
      let q22 = 0;
      let q31 = 0;
      let q13 = 0;
      for (let k = 0; k < t; k++) {
        const a = x[bi + k]!;
        const a2 = x2[bi + k]!;
        const ab = a * x[b0 + k]!;
        const ac = a * x[b1 + k]!;
        p11 += ab;
        p22 += ab * ab;
        p31 += ab * a2;
        p13 += ab * x2[b0 + k]!;
        q11 += ac;
        q22 += ac * ac;
        q31 += ac * a2;
        q13 += ac * x2[b1 + k]!;
      }
      pair(i, j, p11, p22, p31, p13);
      pair(i, j + 1, q11, q22, q31, q13);
    }
    if (j < n) {
      const b0 = j * t;
      let p11 = 0;
      let p22 = 0;
      let p31 = 0;
      let p13 = 0;
      for (let k = 0; k < t; k++) {
        const a = x[bi + k]!;
        const ab = a * x[b0 + k]!;
        p11 += ab;
        p22 += ab * ab;
        p31 += ab * x2[bi + k]!;
        p13 += ab * x2[b0 + k]!;
      }
      pair(i, j, p11, p22, p31, p13);
    }
  }
  const rbar = pairs > 0 ? corrSum / pairs : 0;
  const rho = rhoDiag + rbar * thetaSum;
  let gamma = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const f = rbar * sd[i]! * sd[j]!;
      gamma += 2 * (f - s[i * n + j]!) ** 2;
    }
  const delta = gamma > 0 ? Math.max(0, Math.min(1, (piSum - rho) / gamma / t)) : 0;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    out[i * n + i] = s[i * n + i]!;
    for (let j = i + 1; j < n; j++) {
      const v = delta * rbar * sd[i]! * sd[j]! + (1 - delta) * s[i * n + j]!;
      out[i * n + j] = v;
      out[j * n + i] = v;
    }
  }
  return { matrix: { rows: n, cols: n, data: out }, shrinkage: delta };
}

/**
 * The matrix itself when its Cholesky factor exists, else matrix + eps I with the smallest eps in
 * 1e-10, 1e-9, … 1e-4 times the mean variance that makes it exist. A zero matrix (no asset moved)
 * stays zero with a zero factor.
 */
export function ensurePositiveDefinite(m: Matrix): {
  matrix: Matrix;
  cholesky: Matrix;
  ridge: number;
} {
  const n = m.rows;
  for (let k = 0; k < m.data.length; k++)
    if (!Number.isFinite(m.data[k]!))
      throw new EngineError("INVALID_INPUT", "covariance: non-finite value");
  const l = cholesky(m);
  if (l) return { matrix: m, cholesky: l, ridge: 0 };
  let meanDiag = 0;
  for (let i = 0; i < n; i++) meanDiag += m.data[i * n + i]! / n;
  if (meanDiag === 0) {
    let allZero = true;
    for (let k = 0; k < m.data.length; k++) if (m.data[k] !== 0) allZero = false;
    if (allZero)
      return { matrix: m, cholesky: { rows: n, cols: n, data: new Float64Array(n * n) }, ridge: 0 };
  }
  for (let e = -10; e <= -4; e++) {
    const ridge = meanDiag * 10 ** e;
    const data = m.data.slice();
    for (let i = 0; i < n; i++) data[i * n + i] = data[i * n + i]! + ridge;
    const matrix = { rows: n, cols: n, data };
    const factor = cholesky(matrix);
    if (factor) return { matrix, cholesky: factor, ridge };
  }
  throw new EngineError("INVALID_INPUT", "covariance: the matrix is not positive semi-definite");
}

/** The covariance of a window by the chosen method, positive definite, with its factor. */
export function estimateCovariance(
  panel: ReturnsPanel,
  method: CovarianceMethod = DEFAULT_COVARIANCE_METHOD,
  lambda = RISKMETRICS_LAMBDA,
): CovarianceEstimate {
  let raw: Matrix;
  let shrinkage: number | null = null;
  switch (method) {
    case "sample":
      raw = sampleCovariance(panel);
      break;
    case "ewma":
      raw = ewmaCovariance(panel, lambda);
      break;
    case "ledoit-wolf": {
      const lw = ledoitWolfCovariance(panel);
      raw = lw.matrix;
      shrinkage = lw.shrinkage;
      break;
    }
    default:
      throw new EngineError("INVALID_PARAMETER", `unknown covariance method "${String(method)}"`);
  }
  const psd = ensurePositiveDefinite(raw);
  return {
    method,
    matrix: psd.matrix,
    cholesky: psd.cholesky,
    means: columnMeans(panel),
    observations: panel.observations,
    shrinkage,
    ridge: psd.ridge,
  };
}
