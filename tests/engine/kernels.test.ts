// The engine's dense kernels (src/engine/kernels.ts: WebAssembly SIMD and its TypeScript twin)
// against the plain formulas, written here loop by loop: cross products X'X, the Cholesky factor
// and Ledoit-Wolf's shrinkage (the paper's pair-by-pair moments, as the engine computed them
// before the kernels). Random inputs of every awkward size: n = 1, t = 2, odd sizes, sizes that
// are not multiples of the 4 x 4 tile, the 8-row Cholesky block, the 2-day unroll or the 128-day
// chunk. Tolerance: 1e-12 relative to each entry's scale sqrt(a_ii a_jj).
import { afterEach, describe, expect, it } from "vitest";
import {
  ewmaCovariance,
  ledoitWolfCovariance,
  RISKMETRICS_LAMBDA,
  sampleCovariance,
} from "../../src/engine/covariance.ts";
import { crossProductsOfRows, kernelBackend, setKernelBackend } from "../../src/engine/kernels.ts";
import { cholesky } from "../../src/engine/linalg.ts";
import type { ReturnsPanel } from "../../src/engine/panel.ts";
import { createRandom } from "../../src/engine/random.ts";
import { expectClose } from "./analytics-helpers.ts";

const REL = 1e-12;
const SHAPES: readonly (readonly [number, number])[] = [
  [1, 2],
  [1, 7],
  [2, 2],
  [3, 5],
  [4, 4],
  [5, 3],
  [7, 129],
  [9, 128],
  [13, 257],
  [17, 2],
  [31, 300],
  [50, 130],
];
const BACKENDS = ["wasm", "js"] as const;

afterEach(() => setKernelBackend("wasm"));

function randomPanel(n: number, t: number, seed: number, flat: number[] = []): ReturnsPanel {
  const r = createRandom(seed);
  const market = Array.from({ length: t }, () => 0.01 * r.normal());
  const data = new Float64Array(n * t);
  for (let s = 0; s < t; s++)
    for (let i = 0; i < n; i++)
      data[s * n + i] = flat.includes(i)
        ? 0
        : 0.0003 * (i % 3) + (0.5 + (i % 5) / 5) * market[s]! + 0.01 * r.normal();
  return { assets: n, observations: t, data };
}

/** a and b agree to REL times the scale sqrt(|ref_ii ref_jj|) of each entry. */
function expectMatrixClose(actual: Float64Array, ref: Float64Array, n: number, what: string) {
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const scale = Math.sqrt(Math.abs(ref[i * n + i]! * ref[j * n + j]!));
      expectClose(actual[i * n + j]!, ref[i * n + j]!, 0, REL * scale, `${what}[${i},${j}]`);
    }
}

/** sum_k x(k, i) x(k, j), x = (data - center) * rowScale, the plain way. */
function plainCrossProducts(
  p: ReturnsPanel,
  center?: Float64Array,
  rowScale?: Float64Array,
): Float64Array {
  const { assets: n, observations: t, data } = p;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < t; k++) {
        const w = rowScale ? rowScale[k]! : 1;
        const a = (data[k * n + i]! - (center ? center[i]! : 0)) * w;
        const b = (data[k * n + j]! - (center ? center[j]! : 0)) * w;
        s += a * b;
      }
      out[i * n + j] = s;
    }
  return out;
}

function plainMeans(p: ReturnsPanel): Float64Array {
  const m = new Float64Array(p.assets);
  for (let i = 0; i < p.assets; i++) {
    let s = 0;
    for (let k = 0; k < p.observations; k++) s += p.data[k * p.assets + i]!;
    m[i] = s / p.observations;
  }
  return m;
}

/** Ledoit-Wolf (2004) with the paper's moments pair by pair (the engine's former loops). */
function plainLedoitWolf(p: ReturnsPanel): { matrix: Float64Array; shrinkage: number } {
  const { assets: n, observations: t } = p;
  const means = plainMeans(p);
  const x = (k: number, i: number) => p.data[k * n + i]! - means[i]!;
  const moment = (i: number, j: number, pi: number, pj: number) => {
    let s = 0;
    for (let k = 0; k < t; k++) s += x(k, i) ** pi * x(k, j) ** pj;
    return s / t;
  };
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s[i * n + j] = moment(i, j, 1, 1);
  const sd = Array.from({ length: n }, (_, i) => Math.sqrt(s[i * n + i]!));
  let pi = 0;
  let rhoDiag = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = moment(i, j, 2, 2) - s[i * n + j]! ** 2;
      pi += v;
      if (i === j) rhoDiag += v;
    }
  let corr = 0;
  let pairs = 0;
  let theta = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j || !(sd[i]! > 0 && sd[j]! > 0)) continue;
      if (i < j) {
        corr += s[i * n + j]! / (sd[i]! * sd[j]!);
        pairs++;
      }
      theta += (sd[j]! / sd[i]!) * (moment(i, j, 3, 1) - s[i * n + i]! * s[i * n + j]!);
    }
  const rbar = pairs ? corr / pairs : 0;
  const rho = rhoDiag + rbar * theta;
  let gamma = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (i !== j) gamma += (rbar * sd[i]! * sd[j]! - s[i * n + j]!) ** 2;
  const delta = gamma > 0 ? Math.max(0, Math.min(1, (pi - rho) / gamma / t)) : 0;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      out[i * n + j] =
        i === j ? s[i * n + i]! : delta * rbar * sd[i]! * sd[j]! + (1 - delta) * s[i * n + j]!;
  return { matrix: out, shrinkage: delta };
}

/** The Cholesky factor, textbook loops. */
function plainCholesky(a: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j]!;
    for (let k = 0; k < j; k++) d -= l[j * n + k]! ** 2;
    l[j * n + j] = Math.sqrt(d);
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      l[i * n + j] = s / l[j * n + j]!;
    }
  }
  return l;
}

describe("kernels", () => {
  it("run as WebAssembly SIMD in Node", () => {
    expect(kernelBackend()).toBe("wasm");
  });

  it.each(SHAPES)("cross products X'X: %i assets x %i days, both backends, equal bits", (n, t) => {
    const p = randomPanel(n, t, 10 * n + t);
    const center = plainMeans(p);
    const rowScale = Float64Array.from({ length: t }, (_, k) => 0.5 + k / t);
    for (const [c, w] of [
      [undefined, undefined],
      [center, undefined],
      [undefined, rowScale],
    ] as const) {
      const ref = plainCrossProducts(p, c, w);
      const results = BACKENDS.map((b) => {
        setKernelBackend(b);
        expect(kernelBackend()).toBe(b);
        return crossProductsOfRows(p.data, n, t, 1, c, w);
      });
      for (const [k, r] of results.entries()) expectMatrixClose(r, ref, n, BACKENDS[k]!);
      expect(results[0]).toEqual(results[1]);
    }
  });

  it.each([1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 50])(
    "Cholesky factor: %i assets, both backends, equal bits",
    (n) => {
      const p = randomPanel(n, Math.max(2 * n, 4), n);
      const cov = sampleCovariance(p);
      const ref = plainCholesky(cov.data, n);
      const results = BACKENDS.map((b) => {
        setKernelBackend(b);
        return cholesky(cov)!.data;
      });
      for (const [k, l] of results.entries()) {
        expectMatrixClose(l, ref, n, `${BACKENDS[k]} L`);
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) expect(l[i * n + j]).toBe(0);
      }
      expect(results[0]).toEqual(results[1]);
    },
  );

  it("Cholesky factor: not positive definite gives null in both backends", () => {
    const a = { rows: 3, cols: 3, data: Float64Array.of(1, 2, 0, 2, 1, 0, 0, 0, 1) };
    for (const b of BACKENDS) {
      setKernelBackend(b);
      expect(cholesky(a)).toBeNull();
    }
  });

  it.each(SHAPES)("Ledoit-Wolf: %i assets x %i days against the pair-by-pair formulas", (n, t) => {
    const p = randomPanel(n, t, 7 * n + t);
    const ref = plainLedoitWolf(p);
    for (const b of BACKENDS) {
      setKernelBackend(b);
      const lw = ledoitWolfCovariance(p);
      expectClose(lw.shrinkage, ref.shrinkage, REL, 1e-15, `${b} delta`);
      expectMatrixClose(lw.matrix.data, ref.matrix, n, `${b} lw`);
    }
  });

  it("Ledoit-Wolf: assets that never move are left out of rbar and theta", () => {
    const p = randomPanel(11, 40, 3, [0, 5]);
    const ref = plainLedoitWolf(p);
    const lw = ledoitWolfCovariance(p);
    expect(ref.shrinkage).toBeGreaterThan(0);
    expectClose(lw.shrinkage, ref.shrinkage, REL, 0, "delta");
    expectMatrixClose(lw.matrix.data, ref.matrix, 11, "lw");
  });

  it.each(SHAPES)("sample and EWMA covariance: %i assets x %i days", (n, t) => {
    const p = randomPanel(n, t, n + 3 * t);
    const sample = plainCrossProducts(p, plainMeans(p)).map((v) => v / (t - 1));
    const norm = (1 - RISKMETRICS_LAMBDA) / (1 - RISKMETRICS_LAMBDA ** t);
    const root = Float64Array.from({ length: t }, (_, k) =>
      Math.sqrt(norm * RISKMETRICS_LAMBDA ** (t - 1 - k)),
    );
    const ewma = plainCrossProducts(p, undefined, root);
    for (const b of BACKENDS) {
      setKernelBackend(b);
      expectMatrixClose(sampleCovariance(p).data, sample, n, `${b} sample`);
      expectMatrixClose(ewmaCovariance(p).data, ewma, n, `${b} ewma`);
    }
  });
});
