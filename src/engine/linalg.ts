/**
 * Dense linear algebra over Float64Array, row-major. Small and allocation-conscious: the hot loops
 * of the analytics (covariance, quadratic forms, Cholesky) live here.
 */
import { choleskyKernel } from "./kernels.ts";

/** A square or rectangular matrix stored row-major. */
export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

export function matrix(rows: number, cols: number, data?: Float64Array): Matrix {
  if (data && data.length !== rows * cols)
    throw new RangeError(`matrix: expected ${rows * cols} values, got ${data.length}`);
  return { rows, cols, data: data ?? new Float64Array(rows * cols) };
}

export const at = (m: Matrix, i: number, j: number): number => m.data[i * m.cols + j]!;

/** y = A x */
export function matVec(
  a: Matrix,
  x: Float64Array,
  out: Float64Array = new Float64Array(a.rows),
): Float64Array {
  const { rows, cols, data } = a;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    const base = i * cols;
    for (let j = 0; j < cols; j++) s += data[base + j]! * x[j]!;
    out[i] = s;
  }
  return out;
}

/** x' A x for a square A. */
export function quadForm(a: Matrix, x: Float64Array): number {
  const n = a.rows;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const xi = x[i]!;
    if (xi === 0) continue;
    let row = 0;
    const base = i * n;
    for (let j = 0; j < n; j++) row += a.data[base + j]! * x[j]!;
    s += xi * row;
  }
  return s;
}

export function dot(x: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * y[i]!;
  return s;
}

/**
 * Cholesky factor L (lower, row-major) of a symmetric positive definite matrix, or null when the
 * matrix is not positive definite (a pivot at or below `tolerance` times the largest diagonal).
 */
export function cholesky(a: Matrix, tolerance = 1e-12): Matrix | null {
  const n = a.rows;
  const l = new Float64Array(n * n);
  let maxDiag = 0;
  for (let i = 0; i < n; i++) maxDiag = Math.max(maxDiag, Math.abs(a.data[i * n + i]!));
  const floor = tolerance * Math.max(maxDiag, Number.MIN_VALUE);
  // The same operations in WebAssembly SIMD (kernels.ts), when available.
  const fast = choleskyKernel(a.data, n, floor);
  if (fast !== undefined) return fast && { rows: n, cols: n, data: fast };
  for (let j = 0; j < n; j++) {
    let d = a.data[j * n + j]!;
    for (let k = 0; k < j; k++) d -= l[j * n + k]! * l[j * n + k]!;
    if (!(d > floor)) return null;
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    const bj = j * n;
    let i = j + 1;
    // Four rows at a time: four independent sums share the loads of row j (each sum keeps its
    // order over k, so the factor is the same as one row at a time).
    for (; i + 3 < n; i += 4) {
      const b0 = i * n;
      const b1 = b0 + n;
      const b2 = b1 + n;
      const b3 = b2 + n;
      let s0 = a.data[b0 + j]!;
      let s1 = a.data[b1 + j]!;
      let s2 = a.data[b2 + j]!;
      let s3 = a.data[b3 + j]!;
      for (let k = 0; k < j; k++) {
        const y = l[bj + k]!;
        s0 -= l[b0 + k]! * y;
        s1 -= l[b1 + k]! * y;
        s2 -= l[b2 + k]! * y;
        s3 -= l[b3 + k]! * y;
      }
      l[b0 + j] = s0 / ljj;
      l[b1 + j] = s1 / ljj;
      l[b2 + j] = s2 / ljj;
      l[b3 + j] = s3 / ljj;
    }
    for (; i < n; i++) {
      let s = a.data[i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[bj + k]!;
      l[i * n + j] = s / ljj;
    }
  }
  return { rows: n, cols: n, data: l };
}

/** Solves L L' x = b given the Cholesky factor L. */
export function choleskySolve(
  l: Matrix,
  b: Float64Array,
  out: Float64Array = new Float64Array(b.length),
): Float64Array {
  const n = l.rows;
  const y = out;
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l.data[i * n + k]! * y[k]!;
    y[i] = s / l.data[i * n + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l.data[k * n + i]! * y[k]!;
    y[i] = s / l.data[i * n + i]!;
  }
  return y;
}

/** The sub-matrix of the given rows and columns (e.g. the covariance of a subset of assets). */
export function subMatrix(a: Matrix, indices: readonly number[]): Matrix {
  const k = indices.length;
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    const base = indices[i]! * a.cols;
    for (let j = 0; j < k; j++) out[i * k + j] = a.data[base + indices[j]!]!;
  }
  return { rows: k, cols: k, data: out };
}
