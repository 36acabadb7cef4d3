/**
 * Scalar statistics shared by the analytics: the normal quantile and density, moments, and
 * quantiles with one definition everywhere (numpy's default "linear", Hyndman and Fan type 7).
 */
import { EngineError } from "./errors.ts";

/** Trading days per year and per month: every annualisation and the one-month horizon use these. */
export const TRADING_DAYS_PER_YEAR = 252;
export const TRADING_DAYS_PER_MONTH = 21;

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** Standard normal density. */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/**
 * Standard normal quantile (inverse CDF), Wichura's algorithm AS 241 (PPND16, Applied Statistics
 * 37, 1988), accurate to about 1e-16 relative.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1))
    throw new EngineError("INVALID_PARAMETER", `normalQuantile: p must be in (0, 1), got ${p}`);
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
          45921.953931549871457) *
          r +
          13731.693765509461125) *
          r +
          1971.5909503065514427) *
          r +
          133.14166789178437745) *
          r +
          3.387132872796366608)) /
      (((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
        21213.794301586595867) *
        r +
        5394.1960214247511077) *
        r +
        687.1870074920579083) *
        r +
        42.313330701600911252) *
        r +
        1)
    );
  }
  let r = q < 0 ? p : 1 - p;
  r = Math.sqrt(-Math.log(r));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    value =
      (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r +
        0.24178072517745061177) *
        r +
        1.27045825245236838258) *
        r +
        3.64784832476320460504) *
        r +
        5.7694972214606914055) *
        r +
        4.6303378461565452959) *
        r +
        1.42343711074968357734) /
      (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r +
        0.0151986665636164571966) *
        r +
        0.14810397642748007459) *
        r +
        0.68976733498510000455) *
        r +
        1.6763848301838038494) *
        r +
        2.05319162663775882187) *
        r +
        1);
  } else {
    r -= 5;
    value =
      (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r +
        0.0012426609473880784386) *
        r +
        0.026532189526576123093) *
        r +
        0.29656057182850489123) *
        r +
        1.7848265399172913358) *
        r +
        5.4637849111641143699) *
        r +
        6.6579046435011037772) /
      (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r +
        1.8463183175100546818e-5) *
        r +
        7.868691311456132591e-4) *
        r +
        0.0148753612908506148525) *
        r +
        0.13692988092273580531) *
        r +
        0.59983220655588793769) *
        r +
        1);
  }
  return q < 0 ? -value : value;
}

export function mean(x: ArrayLike<number>): number {
  if (x.length === 0) throw new EngineError("NOT_ENOUGH_HISTORY", "mean: no values");
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  return s / x.length;
}

/** Unbiased sample variance (divisor n - 1). */
export function sampleVariance(x: ArrayLike<number>): number {
  const n = x.length;
  if (n < 2)
    throw new EngineError("NOT_ENOUGH_HISTORY", `sampleVariance: needs 2 values, got ${n}`);
  const m = mean(x);
  let s = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i]! - m;
    s += d * d;
  }
  return s / (n - 1);
}

/** Type-7 quantile of an ascending array: h = (n - 1) p, linear between the neighbours of h. */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new EngineError("NOT_ENOUGH_HISTORY", "quantile: no values");
  if (!(p >= 0 && p <= 1))
    throw new EngineError("INVALID_PARAMETER", `quantile: p must be in [0, 1], got ${p}`);
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  if (lo >= n - 1) return sorted[n - 1]!;
  const a = sorted[lo]!;
  return a + (h - lo) * (sorted[lo + 1]! - a);
}

/**
 * Type-7 quantiles of `values` for ascending probabilities `ps`, by repeated selection
 * (Hoare's quickselect) in `scratch`, which is overwritten: O(n) per quantile instead of a sort.
 * `values` is not modified.
 */
export function quantilesBySelection(
  values: Float64Array,
  ps: readonly number[],
  scratch: Float64Array = new Float64Array(values.length),
  out: Float64Array = new Float64Array(ps.length),
): Float64Array {
  const n = values.length;
  if (n === 0) throw new EngineError("NOT_ENOUGH_HISTORY", "quantile: no values");
  scratch.set(values);
  let from = 0;
  for (let q = 0; q < ps.length; q++) {
    const p = ps[q]!;
    if (!(p >= 0 && p <= 1) || (q > 0 && p < ps[q - 1]!))
      throw new EngineError(
        "INVALID_PARAMETER",
        "quantiles: probabilities must be ascending in [0, 1]",
      );
    const h = (n - 1) * p;
    const lo = Math.floor(h);
    select(scratch, from, n - 1, lo);
    const a = scratch[lo]!;
    if (lo >= n - 1 || h === lo) {
      out[q] = a;
    } else {
      // After selection everything right of `lo` is >= a: the next order statistic is their minimum.
      let b = Infinity;
      for (let k = lo + 1; k < n; k++) if (scratch[k]! < b) b = scratch[k]!;
      out[q] = a + (h - lo) * (b - a);
    }
    from = lo;
  }
  return out;
}

/** Rearranges a[lo..hi] so that a[k] is the value a sort would put there (Hoare's selection). */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as pivot.
    let x = a[lo]!;
    let y = a[mid]!;
    const z = a[hi]!;
    if (x > y) [x, y] = [y, x];
    const pivot = z < x ? x : z > y ? y : z;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}
