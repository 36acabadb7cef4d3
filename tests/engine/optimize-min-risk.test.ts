// Minimum risk (and kept assets) against tests/engine/reference/optimize.json, written by
// scripts/reference/optimize.py (cvxopt QP polished on its active set).
// Objective tolerance: relative 1e-6, |f − f_ref| ≤ 1e-6 · max(|f_ref|, 1e-12 · mean diag Σ).
// Constraints: budget and bounds to 1e-9. KKT conditions re-derived here from (Σ, w) alone.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { quadForm, type Matrix } from "../../src/engine/linalg.ts";
import { boundsWithKeptAssets } from "../../src/engine/optimize/bounds.ts";
import { efficientFrontier } from "../../src/engine/optimize/frontier.ts";
import { minimumRisk } from "../../src/engine/optimize/min-risk.ts";
import { createRandom } from "../../src/engine/random.ts";

interface QpCase {
  name: string;
  factors: number[][];
  specific: number[];
  lower: number[] | null;
  upper: number[] | null;
  objective: number;
  weights: number[];
}
interface TwoAssetCase {
  name: string;
  sigma1: number;
  sigma2: number;
  rho: number;
  lower: number[];
  upper: number[];
  closedFormW1: number;
  objective: number;
}
const reference = JSON.parse(
  readFileSync(new URL("./reference/optimize.json", import.meta.url), "utf8"),
) as { minimumRisk: QpCase[]; twoAsset: TwoAssetCase[] };

/** Σ = B Bᵀ + diag(d) */
function factorCovariance(B: number[][], d: number[]): Matrix {
  const n = d.length;
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = i === j ? d[i]! : 0;
      for (let f = 0; f < B[i]!.length; f++) s += B[i]![f]! * B[j]![f]!;
      data[i * n + j] = s;
    }
  return { rows: n, cols: n, data };
}

const meanDiag = (cov: Matrix) => {
  let s = 0;
  for (let i = 0; i < cov.rows; i++) s += cov.data[i * cov.rows + i]!;
  return s / cov.rows;
};

function expectObjective(actual: number, expected: number, cov: Matrix) {
  const tol = 1e-6 * Math.max(Math.abs(expected), 1e-12 * meanDiag(cov));
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol);
}

function expectFeasible(w: Float64Array, lo?: ArrayLike<number>, hi?: ArrayLike<number>) {
  let sum = 0;
  for (let i = 0; i < w.length; i++) {
    expect(Number.isFinite(w[i]!)).toBe(true);
    expect(w[i]!).toBeGreaterThanOrEqual((lo ? lo[i]! : 0) - 1e-9);
    expect(w[i]!).toBeLessThanOrEqual((hi ? hi[i]! : 1) + 1e-9);
    sum += w[i]!;
  }
  expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-9);
}

/**
 * KKT of min w'Σw, Σw = 1, lo ≤ w ≤ hi, in units of mean diag Σ: g = Σw/scale; some ν with
 * g_i = ν on free assets, g_i ≥ ν at the lower bound, g_i ≤ ν at the upper bound (to 1e-9).
 */
function expectKkt(cov: Matrix, w: Float64Array, lo?: ArrayLike<number>, hi?: ArrayLike<number>) {
  const n = cov.rows;
  const scale = meanDiag(cov) || 1;
  const g = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += cov.data[i * n + j]! * w[j]!;
    g[i] = s / scale;
  }
  const l = (i: number) => (lo ? lo[i]! : 0);
  const h = (i: number) => (hi ? hi[i]! : 1);
  const free: number[] = [];
  let nuLow = -Infinity; // max g over assets at their upper bound
  let nuHigh = Infinity; // min g over assets at their lower bound
  for (let i = 0; i < n; i++) {
    if (h(i) - l(i) <= 0) continue;
    if (w[i]! <= l(i)) nuHigh = Math.min(nuHigh, g[i]!);
    else if (w[i]! >= h(i)) nuLow = Math.max(nuLow, g[i]!);
    else free.push(i);
  }
  if (free.length > 0) {
    const nu = free.reduce((s, i) => s + g[i]!, 0) / free.length;
    for (const i of free) expect(Math.abs(g[i]! - nu)).toBeLessThanOrEqual(1e-9);
    expect(nuHigh - nu).toBeGreaterThanOrEqual(-1e-9);
    expect(nu - nuLow).toBeGreaterThanOrEqual(-1e-9);
  } else expect(nuHigh - nuLow).toBeGreaterThanOrEqual(-1e-9);
}

const arr = (v: number[] | null) => (v ? Float64Array.from(v) : undefined);

describe("minimum risk against the cvxopt reference", () => {
  for (const c of reference.minimumRisk) {
    it(c.name, () => {
      const cov = factorCovariance(c.factors, c.specific);
      const lower = arr(c.lower);
      const upper = arr(c.upper);
      const result = minimumRisk({ covariance: cov, lower, upper });
      if (!result.ok) throw new Error(JSON.stringify(result.reason));
      const { weights, variance, risk, kkt } = result.value;
      expectObjective(variance, c.objective, cov);
      expect(variance).toBeCloseTo(quadForm(cov, weights), 15);
      expect(risk).toBeCloseTo(Math.sqrt(variance), 15);
      expectFeasible(weights, lower, upper);
      expectKkt(cov, weights, lower, upper);
      expect(kkt.stationarity).toBeLessThanOrEqual(1e-9);
      expect(kkt.dualInfeasibility).toBeLessThanOrEqual(1e-9);
      expect(kkt.primalInfeasibility).toBeLessThanOrEqual(1e-9);
    });
  }
});

describe("two assets: the closed form w1 = (σ2² − ρσ1σ2)/(σ1² + σ2² − 2ρσ1σ2), clipped", () => {
  for (const c of reference.twoAsset) {
    it(c.name, () => {
      const { sigma1: s1, sigma2: s2, rho } = c;
      const cov: Matrix = {
        rows: 2,
        cols: 2,
        data: Float64Array.from([s1 * s1, rho * s1 * s2, rho * s1 * s2, s2 * s2]),
      };
      const result = minimumRisk({
        covariance: cov,
        lower: Float64Array.from(c.lower),
        upper: Float64Array.from(c.upper),
      });
      if (!result.ok) throw new Error(JSON.stringify(result.reason));
      expectObjective(result.value.variance, c.objective, cov);
      // The weights are unique unless the two assets are interchangeable (ρ = 1, σ1 = σ2).
      if (!(rho === 1 && s1 === s2))
        expect(result.value.weights[0]!).toBeCloseTo(c.closedFormW1, 9);
    });
  }
});

describe("kept assets", () => {
  const c = reference.minimumRisk.find((x) => x.name.startsWith("n=50 kept assets"))!;
  const cov = factorCovariance(c.factors, c.specific);

  it("keepAssets with min/max weights, others limited, is the bounded QP", () => {
    const bounds = boundsWithKeptAssets(
      50,
      [
        { index: 3, min: 0.05, max: 0.3 },
        { index: 17, min: 0.05, max: 0.2 },
        { index: 40, min: 0.05, max: 0.15 },
      ],
      { othersMax: 0.1 },
    );
    if ("code" in bounds) throw new Error(bounds.code);
    const result = minimumRisk({ covariance: cov, ...bounds });
    if (!result.ok) throw new Error(JSON.stringify(result.reason));
    expectObjective(result.value.variance, c.objective, cov);
    for (const i of [3, 17, 40]) expect(result.value.weights[i]!).toBeGreaterThanOrEqual(0.05);
  });

  it("others dropped: only the kept assets are held", () => {
    const bounds = boundsWithKeptAssets(
      50,
      [
        { index: 3, min: 0.1, max: 0.6 },
        { index: 17, min: 0.1, max: 0.6 },
      ],
      { others: "drop" },
    );
    if ("code" in bounds) throw new Error(bounds.code);
    const result = minimumRisk({ covariance: cov, ...bounds });
    if (!result.ok) throw new Error(JSON.stringify(result.reason));
    const held = [...result.value.weights.keys()].filter((i) => result.value.weights[i]! > 0);
    expect(held).toEqual([3, 17]);
    expectKkt(cov, result.value.weights, bounds.lower, bounds.upper);
  });

  it("rejects a kept index out of range and min above max", () => {
    expect(boundsWithKeptAssets(3, [{ index: 5, min: 0, max: 1 }])).toMatchObject({
      code: "INVALID_INPUT",
    });
    expect(boundsWithKeptAssets(3, [{ index: 1, min: 0.5, max: 0.2 }])).toMatchObject({
      code: "BOUNDS_INFEASIBLE",
      detail: { asset: 1, lower: 0.5, upper: 0.2 },
    });
  });
});

describe("degenerate inputs (documented answers)", () => {
  const cov2 = (data: number[]): Matrix => ({ rows: 2, cols: 2, data: Float64Array.from(data) });

  it("one asset: all in it", () => {
    const r = minimumRisk({ covariance: { rows: 1, cols: 1, data: Float64Array.of(0.04) } });
    expect(r.ok && [...r.value.weights]).toEqual([1]);
  });

  it("identical assets: the whole weight on the first (any split is optimal)", () => {
    const r = minimumRisk({ covariance: cov2([0.04, 0.04, 0.04, 0.04]) });
    if (!r.ok) throw new Error(r.reason.code);
    expect([...r.value.weights]).toEqual([1, 0]);
    expect(r.value.variance).toBeCloseTo(0.04, 15);
  });

  it("identical assets with a cap split at the cap", () => {
    const r = minimumRisk({
      covariance: cov2([0.04, 0.04, 0.04, 0.04]),
      upper: Float64Array.of(0.7, 0.7),
    });
    if (!r.ok) throw new Error(r.reason.code);
    expect(r.value.weights[0]).toBeCloseTo(0.7, 12);
    expect(r.value.weights[1]).toBeCloseTo(0.3, 12);
  });

  it("a zero-variance asset takes everything it may, variance exactly 0", () => {
    const r = minimumRisk({ covariance: cov2([0.04, 0, 0, 0]) });
    if (!r.ok) throw new Error(r.reason.code);
    expect([...r.value.weights]).toEqual([0, 1]);
    expect(r.value.variance).toBe(0);
  });

  it("an all-zero covariance: the first asset, variance 0", () => {
    const r = minimumRisk({ covariance: cov2([0, 0, 0, 0]) });
    expect(r.ok && [...r.value.weights]).toEqual([1, 0]);
  });

  it("singular Σ (rank 1, two perfectly anti-correlated assets): the zero-variance mix", () => {
    // σ1 = 0.1, σ2 = 0.2, ρ = −1: w1 = σ2 / (σ1 + σ2) = 2/3 has zero variance.
    const r = minimumRisk({ covariance: cov2([0.01, -0.02, -0.02, 0.04]) });
    if (!r.ok) throw new Error(r.reason.code);
    expect(r.value.weights[0]).toBeCloseTo(2 / 3, 12);
    expect(r.value.variance).toBeLessThanOrEqual(1e-15);
  });
});

describe("random semidefinite problems: every answer certified by its KKT conditions", () => {
  // Rank-deficient factor models (no specific risk), duplicated and riskless assets, random
  // bounds; the minimum risk and a 7-point frontier of each.
  it("300 problems", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = createRandom(seed);
      const n = 1 + Math.floor(random.next() * (seed % 10 === 0 ? 80 : 15));
      const k = 1 + Math.floor(random.next() * 4);
      const B = Array.from({ length: n }, () => Array.from({ length: k }, () => random.normal()));
      const singular = random.next() < 0.4;
      const d = Array.from({ length: n }, () => (singular ? 0 : random.next()));
      if (n > 2 && random.next() < 0.3) {
        B[1] = [...B[0]!];
        d[1] = d[0]!;
      }
      if (n > 3 && random.next() < 0.2) {
        B[2] = B[2]!.map(() => 0);
        d[2] = 0;
      }
      const cov = factorCovariance(B, d);
      let lower: Float64Array | undefined;
      let upper: Float64Array | undefined;
      if (random.next() < 0.5) {
        lower = Float64Array.from({ length: n }, () =>
          random.next() < 0.3 ? (0.5 * random.next()) / n : 0,
        );
        upper = Float64Array.from({ length: n }, (_, i) =>
          Math.max(lower![i]!, random.next() < 0.5 ? 1 : Math.min(1, (3 * random.next()) / n)),
        );
      }
      const r = minimumRisk({ covariance: cov, lower, upper });
      if (!r.ok) {
        expect(r.reason.code, `seed ${seed}`).toBe("BOUNDS_INFEASIBLE");
        continue;
      }
      expectFeasible(r.value.weights, lower, upper);
      expectKkt(cov, r.value.weights, lower, upper);
      const mu = Float64Array.from({ length: n }, () =>
        random.next() < 0.2 ? 0.05 : random.normal(),
      );
      const f = efficientFrontier({
        covariance: cov,
        expectedReturns: mu,
        lower,
        upper,
        points: 7,
      });
      if (!f.ok) throw new Error(`seed ${seed}: ${JSON.stringify(f.reason)}`);
      const muScale = Math.max(...[...mu].map(Math.abs));
      for (const p of f.value.points) {
        expect(p.kkt.stationarity, `seed ${seed}`).toBeLessThanOrEqual(1e-9);
        expect(p.kkt.dualInfeasibility, `seed ${seed}`).toBeLessThanOrEqual(1e-9);
        expect(p.kkt.primalInfeasibility, `seed ${seed}`).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(p.expectedReturn - p.targetReturn)).toBeLessThanOrEqual(1e-9 * muScale);
      }
    }
  });
});

describe("inputs", () => {
  it("are not mutated", () => {
    const c = reference.minimumRisk.find((x) => x.name === "n=5 bounds")!;
    const cov = factorCovariance(c.factors, c.specific);
    const lower = Float64Array.from(c.lower!);
    const upper = Float64Array.from(c.upper!);
    const copies = [
      Float64Array.from(cov.data),
      Float64Array.from(lower),
      Float64Array.from(upper),
    ];
    const r = minimumRisk({ covariance: cov, lower, upper });
    expect(r.ok).toBe(true);
    expect([cov.data, lower, upper]).toEqual(copies);
  });
});
