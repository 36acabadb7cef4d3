/**
 * Shared preparation of the optimisation problems: input checks, per-asset bounds, the scaled
 * Hessian handed to the QP solver and feasible starting portfolios.
 */
import type { Matrix } from "../linalg.ts";
import { failure, type OptimizationFailure } from "./result.ts";

/** Tolerance on the budget when checking that bounds can add up to 1. */
export const BUDGET_TOLERANCE = 1e-12;

const invalid = (detail: Record<string, number>): OptimizationFailure =>
  failure("INVALID_INPUT", detail);

/**
 * A covariance must be square, finite, with a non-negative diagonal and symmetric (to 1e-10 of its
 * largest diagonal). Positive semidefiniteness is assumed, not tested.
 */
export function checkCovariance(cov: Matrix, n?: number): OptimizationFailure | null {
  if (cov.rows !== cov.cols || cov.data.length !== cov.rows * cov.cols)
    return invalid({ rows: cov.rows, cols: cov.cols });
  if (n !== undefined && cov.rows !== n) return invalid({ rows: cov.rows, expected: n });
  if (cov.rows === 0) return invalid({ rows: 0 });
  const size = cov.rows;
  let maxDiag = 0;
  for (let i = 0; i < size; i++) {
    const d = cov.data[i * size + i]!;
    if (!(d >= 0) || !Number.isFinite(d)) return invalid({ row: i, col: i, value: d });
    maxDiag = Math.max(maxDiag, d);
  }
  const tol = 1e-10 * maxDiag;
  for (let i = 0; i < size; i++)
    for (let j = 0; j < i; j++) {
      const a = cov.data[i * size + j]!;
      const b = cov.data[j * size + i]!;
      if (!Number.isFinite(a) || !Number.isFinite(b) || Math.abs(a - b) > tol)
        return invalid({ row: i, col: j, value: a, transposed: b });
    }
  return null;
}

export function checkVector(v: Float64Array | undefined, n: number): OptimizationFailure | null {
  if (v === undefined) return null;
  if (v.length !== n) return invalid({ length: v.length, expected: n });
  for (let i = 0; i < n; i++)
    if (!Number.isFinite(v[i]!)) return invalid({ index: i, value: v[i]! });
  return null;
}

export interface Bounds {
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

/**
 * Per-asset bounds with defaults 0 and 1, checked: each within [0, 1] (else INVALID_INPUT),
 * lower ≤ upper and able to reach a budget of 1 (else BOUNDS_INFEASIBLE).
 */
export function resolveBounds(
  n: number,
  lower?: Float64Array,
  upper?: Float64Array,
): Bounds | OptimizationFailure {
  const bad = checkVector(lower, n) ?? checkVector(upper, n);
  if (bad) return bad;
  const lo = lower ? Float64Array.from(lower) : new Float64Array(n);
  const hi = upper ? Float64Array.from(upper) : new Float64Array(n).fill(1);
  let sumLo = 0;
  let sumHi = 0;
  for (let i = 0; i < n; i++) {
    if (lo[i]! < 0 || hi[i]! > 1) return invalid({ asset: i, lower: lo[i]!, upper: hi[i]! });
    if (lo[i]! > hi[i]!)
      return failure("BOUNDS_INFEASIBLE", { asset: i, lower: lo[i]!, upper: hi[i]! });
    sumLo += lo[i]!;
    sumHi += hi[i]!;
  }
  if (sumLo > 1 + BUDGET_TOLERANCE) return failure("BOUNDS_INFEASIBLE", { sumOfMinimums: sumLo });
  if (sumHi < 1 - BUDGET_TOLERANCE) return failure("BOUNDS_INFEASIBLE", { sumOfMaximums: sumHi });
  return { lower: lo, upper: hi };
}

export const isFailure = (v: unknown): v is OptimizationFailure =>
  typeof v === "object" && v !== null && "code" in v && "detail" in v;

export interface ScaledHessian {
  /** Σ_sub / scale, row-major. */
  readonly G: Float64Array;
  /** Mean diagonal of Σ_sub (1 when it is 0): variance = scale · x'Gx. */
  readonly scale: number;
}

/** The covariance of the chosen assets (all when `indices` is omitted) scaled to unit mean diagonal. */
export function scaledHessian(cov: Matrix, indices?: ArrayLike<number>): ScaledHessian {
  const N = cov.rows;
  const k = indices ? indices.length : N;
  let scale = 0;
  for (let a = 0; a < k; a++) {
    const i = indices ? indices[a]! : a;
    scale += cov.data[i * N + i]!;
  }
  scale = scale > 0 ? scale / k : 1;
  const inv = 1 / scale;
  const G = new Float64Array(k * k);
  if (!indices) {
    for (let t = 0; t < k * k; t++) G[t] = cov.data[t]! * inv;
  } else {
    for (let a = 0; a < k; a++) {
      const base = indices[a]! * N;
      for (let b = 0; b < k; b++) G[a * k + b] = cov.data[base + indices[b]!]! * inv;
    }
  }
  return { G, scale };
}

/**
 * A feasible vertex: every asset at its minimum, then the rest of the budget given to assets in
 * the order of `priority` (ascending) up to their maximums. At most one asset ends strictly
 * between its bounds. Assumes the bounds are feasible.
 */
export function fillByPriority(
  lower: Float64Array,
  upper: Float64Array,
  priority: ArrayLike<number>,
): Float64Array {
  const n = lower.length;
  const w = Float64Array.from(lower);
  let rest = 1;
  for (let i = 0; i < n; i++) rest -= lower[i]!;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => priority[a]! - priority[b]! || a - b,
  );
  for (const i of order) {
    if (rest <= 0) break;
    const room = upper[i]! - lower[i]!;
    if (room <= 0) continue;
    if (room >= rest) {
      w[i] = lower[i]! + rest;
      rest = 0;
    } else {
      w[i] = upper[i]!;
      rest -= room;
    }
  }
  return w;
}

export const budgetRow = (n: number): Float64Array => new Float64Array(n).fill(1);
