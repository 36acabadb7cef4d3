/**
 * The returns panel every analytic reads: simple daily returns, row-major, r[t * assets + i].
 * Validation, windows and the portfolio's own return series live here.
 */
import { EngineError } from "./errors.ts";

export interface ReturnsPanel {
  readonly assets: number;
  readonly observations: number;
  /** Row-major: data[t * assets + i] is the simple return of asset i on day t (oldest first). */
  readonly data: Float64Array;
}

/**
 * Benchmark (look-back window) 1..6 = 1, 3, 6, 12, 36, 60 months, as trading days (21 a month).
 * PRODUCT.md: "Benchmark and risk conventions"; the default is 5.
 */
export const BENCHMARK_WINDOW_DAYS = { 1: 21, 2: 63, 3: 126, 4: 252, 5: 756, 6: 1260 } as const;
export type Benchmark = keyof typeof BENCHMARK_WINDOW_DAYS;
export const DEFAULT_BENCHMARK: Benchmark = 5;

export function benchmarkWindowDays(benchmark: number): number {
  const days = (BENCHMARK_WINDOW_DAYS as Record<number, number | undefined>)[benchmark];
  if (days === undefined)
    throw new EngineError("INVALID_PARAMETER", `benchmark must be 1..6, got ${benchmark}`);
  return days;
}

/**
 * Panels whose values were already checked by validatePanel and that no caller can reach: the
 * windows analysePortfolio cuts from a panel it has just validated, passed to the estimators one
 * after the other. Their value scan is skipped (the shape checks still run).
 */
const checkedWindows = new WeakSet<ReturnsPanel>();

/**
 * The last `days` observations of a panel that validatePanel has just accepted, marked so that
 * the functions it is passed to do not scan its values again. Engine-internal: only for a window
 * that is created, used and dropped within one synchronous computation.
 */
export function checkedWindow(panel: ReturnsPanel, days: number): ReturnsPanel {
  const window = lastObservations(panel, days);
  checkedWindows.add(window);
  return window;
}

/**
 * Checks shape and values: at least one asset, `minObservations` rows, every value finite and
 * above -1 (a simple return of -100% or less is not a price move).
 */
export function validatePanel(panel: ReturnsPanel, minObservations = 1, what = "returns"): void {
  const { assets, observations, data } = panel;
  if (!(assets >= 1)) throw new EngineError("NO_ASSETS", `${what}: the panel has no assets`);
  if (
    !Number.isInteger(assets) ||
    !Number.isInteger(observations) ||
    data.length !== assets * observations
  )
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `${what}: ${assets} assets x ${observations} observations needs ${assets * observations} values, got ${data.length}`,
    );
  if (observations < minObservations)
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      `${what}: ${observations} observations, at least ${minObservations} needed`,
    );
  if (checkedWindows.has(panel)) return;
  for (let k = 0; k < data.length; k++) {
    const v = data[k]!;
    if (!(v > -1 && v < Infinity))
      throw new EngineError(
        "INVALID_INPUT",
        `${what}: invalid return ${v} (asset ${k % assets}, observation ${Math.floor(k / assets)})`,
      );
  }
}

/** The last `days` observations (a view on the same buffer: no copy, never written). */
export function lastObservations(panel: ReturnsPanel, days: number): ReturnsPanel {
  if (panel.observations < days)
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      `window of ${days} observations, the history has ${panel.observations}`,
    );
  const start = (panel.observations - days) * panel.assets;
  return { assets: panel.assets, observations: days, data: panel.data.subarray(start) };
}

/** The window of a benchmark 1..6 (see BENCHMARK_WINDOW_DAYS). */
export function benchmarkWindow(panel: ReturnsPanel, benchmark: number): ReturnsPanel {
  return lastObservations(panel, benchmarkWindowDays(benchmark));
}

/** Selected columns (assets) as a new panel. */
export function selectAssets(panel: ReturnsPanel, indices: readonly number[]): ReturnsPanel {
  const { assets, observations, data } = panel;
  const k = indices.length;
  const out = new Float64Array(k * observations);
  for (const i of indices)
    if (!(i >= 0 && i < assets && Number.isInteger(i)))
      throw new EngineError("DIMENSION_MISMATCH", `asset index ${i} outside 0..${assets - 1}`);
  for (let t = 0; t < observations; t++) {
    const base = t * assets;
    for (let j = 0; j < k; j++) out[t * k + j] = data[base + indices[j]!]!;
  }
  return { assets: k, observations, data: out };
}

/**
 * Checks weights against a panel: same length, finite, summing to 1 within 1e-9. Negative
 * weights (short positions) are accepted.
 */
export function validateWeights(weights: Float64Array, assets: number): void {
  if (weights.length === 0) throw new EngineError("NO_ASSETS", "weights: no assets");
  if (weights.length !== assets)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `weights: ${weights.length} weights for ${assets} assets`,
    );
  let s = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (!Number.isFinite(w)) throw new EngineError("INVALID_INPUT", `weights: weight ${i} is ${w}`);
    s += w;
  }
  if (Math.abs(s - 1) > 1e-9)
    throw new EngineError("INVALID_WEIGHTS", `weights sum to ${s}, not 1`);
}

/** Weights from amounts in the portfolio currency (each >= 0, total > 0). */
export function weightsFromAmounts(amounts: Float64Array): {
  weights: Float64Array;
  total: number;
} {
  if (amounts.length === 0) throw new EngineError("NO_ASSETS", "amounts: no assets");
  let total = 0;
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i]!;
    if (!(a >= 0 && a < Infinity))
      throw new EngineError(
        "INVALID_INPUT",
        `amounts: amount ${i} is ${a} (must be finite and >= 0)`,
      );
    total += a;
  }
  if (!(total > 0)) throw new EngineError("INVALID_WEIGHTS", "amounts: the total invested is zero");
  const weights = new Float64Array(amounts.length);
  for (let i = 0; i < amounts.length; i++) weights[i] = amounts[i]! / total;
  return { weights, total };
}

/** The portfolio's daily returns with constant weights (rebalanced daily): r_p,t = w' r_t. */
export function portfolioReturns(panel: ReturnsPanel, weights: Float64Array): Float64Array {
  const { assets, observations, data } = panel;
  const out = new Float64Array(observations);
  for (let t = 0; t < observations; t++) {
    let s = 0;
    const base = t * assets;
    for (let i = 0; i < assets; i++) s += weights[i]! * data[base + i]!;
    out[t] = s;
  }
  return out;
}

/**
 * Column-major copy (assets x observations) of a panel, each column minus `center[i]` when given:
 * the layout of the covariance kernels, where one asset's history is contiguous.
 */
export function toColumns(panel: ReturnsPanel, center?: Float64Array): Float64Array {
  const { assets: n, observations: t, data } = panel;
  const out = new Float64Array(n * t);
  for (let s = 0; s < t; s++) {
    const base = s * n;
    for (let i = 0; i < n; i++) out[i * t + s] = data[base + i]! - (center ? center[i]! : 0);
  }
  return out;
}

/** Column means of a panel. */
export function columnMeans(panel: ReturnsPanel): Float64Array {
  const { assets: n, observations: t, data } = panel;
  const m = new Float64Array(n);
  for (let s = 0; s < t; s++) {
    const base = s * n;
    for (let i = 0; i < n; i++) m[i] = m[i]! + data[base + i]!;
  }
  for (let i = 0; i < n; i++) m[i] = m[i]! / t;
  return m;
}
