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
import { crossProductsOfRows } from "./kernels.ts";
import { columnMeans, validatePanel, type ReturnsPanel } from "./panel.ts";

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

/** Unbiased sample covariance (divisor T - 1). */
export function sampleCovariance(panel: ReturnsPanel): Matrix {
  validatePanel(panel, 2, "sampleCovariance");
  const { assets: n, observations: t, data } = panel;
  const g = crossProductsOfRows(data, n, t, 1 / (t - 1), columnMeans(panel));
  return { rows: n, cols: n, data: g };
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
  const norm = (1 - lambda) / (1 - lambda ** t);
  const root = new Float64Array(t);
  for (let s = 0; s < t; s++) root[s] = Math.sqrt(norm * lambda ** (t - 1 - s));
  const g = crossProductsOfRows(panel.data, n, t, 1, undefined, root);
  return { rows: n, cols: n, data: g };
}

/**
 * Ledoit and Wolf (2004), "Honey, I shrunk the sample covariance matrix": shrinkage of the sample
 * covariance S (divisor T, as in the paper) towards the constant-correlation matrix F
 * (f_ii = s_ii, f_ij = rbar sqrt(s_ii s_jj)) with intensity delta = max(0, min(1, kappa / T)),
 * kappa = (pi - rho) / gamma. Assets with zero variance are left out of rbar and get f_ij = 0.
 *
 * Cost: one cross-product kernel (S) and two passes over the days. The paper's sums over pairs of
 * fourth moments collapse to sums over days (x the centred returns, sd_i = sqrt(s_ii), V the assets
 * with s_ii > 0):
 *   pi    = sum_ij (sum_k x_ki^2 x_kj^2 / T - s_ij^2) = sum_k (sum_i x_ki^2)^2 / T - sum_ij s_ij^2
 *   theta = sum_{i != j in V} (sd_j / sd_i) (sum_k x_ki^3 x_kj / T - s_ii s_ij)
 *         = sum_k sum_{i in V} (x_ki^3 / sd_i) (u_k - sd_i x_ki) / T - sum_{i != j in V} sd_i sd_j s_ij,
 *           u_k = sum_{j in V} sd_j x_kj
 * and rho = sum_i (sum_k x_ki^4 / T - s_ii^2) + rbar theta: the same figures, O(nT + n^2) beyond S.
 */
export function ledoitWolfCovariance(panel: ReturnsPanel): { matrix: Matrix; shrinkage: number } {
  validatePanel(panel, 2, "ledoitWolfCovariance");
  const { assets: n, observations: t, data } = panel;
  const means = columnMeans(panel);
  const invT = 1 / t;
  const s = crossProductsOfRows(data, n, t, invT, means);
  const sd = new Float64Array(n);
  // sd_i and 1 / sd_i for the assets that moved, 0 for the others (they drop out of u and theta).
  const sdValid = new Float64Array(n);
  const invSd = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const sii = s[i * n + i]!;
    sd[i] = Math.sqrt(sii);
    if (sii > 0) {
      sdValid[i] = sd[i]!;
      invSd[i] = 1 / sd[i]!;
    }
  }
  const m4 = new Float64Array(n);
  const x = new Float64Array(n);
  let squares = 0; // sum_k (sum_i x_ki^2)^2
  let cubes = 0; // sum_k sum_i (x_ki^3 / sd_i) (u_k - sd_i x_ki)
  for (let k = 0; k < t; k++) {
    const base = k * n;
    let q = 0;
    let u = 0;
    for (let i = 0; i < n; i++) {
      const v = data[base + i]! - means[i]!;
      const v2 = v * v;
      x[i] = v;
      q += v2;
      m4[i] = m4[i]! + v2 * v2;
      u += sdValid[i]! * v;
    }
    squares += q * q;
    let c = 0;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      c += v * v * v * invSd[i]! * (u - sdValid[i]! * v);
    }
    cubes += c;
  }
  let rhoDiag = 0;
  for (let i = 0; i < n; i++) {
    const sii = s[i * n + i]!;
    rhoDiag += m4[i]! * invT - sii * sii;
  }
  let sumSquares = 0;
  let corrSum = 0;
  let pairs = 0;
  let crossSd = 0; // sum_{i < j in V} sd_i sd_j s_ij
  for (let i = 0; i < n; i++) {
    const sii = s[i * n + i]!;
    sumSquares += sii * sii;
    for (let j = i + 1; j < n; j++) {
      const sij = s[i * n + j]!;
      sumSquares += 2 * sij * sij;
      if (sdValid[i]! > 0 && sdValid[j]! > 0) {
        corrSum += sij / (sd[i]! * sd[j]!);
        pairs++;
        crossSd += sd[i]! * sd[j]! * sij;
      }
    }
  }
  const piSum = squares * invT - sumSquares;
  const thetaSum = cubes * invT - 2 * crossSd;
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
