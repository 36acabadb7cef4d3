// Desired number of assets and new assets from the universe, against brute-force enumeration of
// every admissible subset (tests/engine/reference/optimize.json, scripts/reference/optimize.py).
// Objective tolerance: relative 1e-6 (|f − f_ref| ≤ 1e-6 |f_ref|); constraints to 1e-9.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Matrix } from "../../src/engine/linalg.ts";
import {
  minimumRiskWithCardinality,
  minimumRiskWithNewAssets,
  type CardinalitySolution,
} from "../../src/engine/optimize/cardinality.ts";
import { minimumRisk } from "../../src/engine/optimize/min-risk.ts";
import { createRandom } from "../../src/engine/random.ts";

interface CardinalityCase {
  name: string;
  factors: number[][];
  specific: number[];
  maxAssets: number;
  mode: "atMost" | "exactly";
  lower: number[] | null;
  upper: number[] | null;
  keep: number[];
  minHolding: number;
  group: { members: number[]; max: number } | null;
  objective: number;
  held: number[];
}
const reference = JSON.parse(
  readFileSync(new URL("./reference/optimize.json", import.meta.url), "utf8"),
) as { cardinality: CardinalityCase[] };

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

/** A market factor model: loadings around 1, specific variances around 1e-4 (daily returns). */
function marketCovariance(n: number, seed: number): Matrix {
  const random = createRandom(seed);
  const B = Array.from({ length: n }, () => [
    0.01 * (1 + 0.3 * random.normal()),
    0.004 * random.normal(),
    0.004 * random.normal(),
  ]);
  const d = Array.from({ length: n }, () => 1e-4 * (0.5 + random.next()));
  return factorCovariance(B, d);
}

/** Every constraint of the cardinality problem, to 1e-9. */
function expectAdmissible(
  v: CardinalitySolution,
  c: {
    maxAssets: number;
    mode: "atMost" | "exactly";
    lower?: number[] | null;
    upper?: number[] | null;
    keep: number[];
    minHolding: number;
    group?: { members: number[]; max: number } | null;
  },
) {
  const w = v.weights;
  let sum = 0;
  const held: number[] = [];
  for (let i = 0; i < w.length; i++) {
    sum += w[i]!;
    expect(Number.isFinite(w[i]!)).toBe(true);
    expect(w[i]!).toBeGreaterThanOrEqual(0);
    expect(w[i]!).toBeLessThanOrEqual((c.upper ? c.upper[i]! : 1) + 1e-9);
    if (w[i]! > 0 || c.keep.includes(i)) {
      held.push(i);
      const min = Math.max(c.lower ? c.lower[i]! : 0, c.mode === "exactly" ? c.minHolding : 0);
      expect(w[i]!).toBeGreaterThanOrEqual(min - 1e-9);
    }
  }
  expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-9);
  expect(v.held).toEqual(held);
  if (c.mode === "exactly") expect(held.length).toBe(c.maxAssets);
  else expect(held.length).toBeLessThanOrEqual(c.maxAssets);
  for (const k of c.keep) expect(held).toContain(k);
  if (c.group)
    expect(held.filter((i) => c.group!.members.includes(i)).length).toBeLessThanOrEqual(
      c.group.max,
    );
  expect(v.lowerBound).toBeLessThanOrEqual(v.variance * (1 + 1e-12));
}

describe("desired number of assets against brute force", () => {
  for (const c of reference.cardinality) {
    it(c.name, () => {
      const covariance = factorCovariance(c.factors, c.specific);
      let r;
      if (c.group) {
        // "New assets": the current portfolio is everything outside the group.
        const current = Array.from({ length: c.specific.length }, (_, i) => i).filter(
          (i) => !c.group!.members.includes(i),
        );
        r = minimumRiskWithNewAssets({
          covariance,
          current,
          keep: c.keep.map((i) => ({ index: i, min: c.lower![i]!, max: c.upper![i]! })),
          maxNewAssets: c.group.max,
          maxAssets: c.maxAssets,
        });
      } else
        r = minimumRiskWithCardinality({
          covariance,
          maxAssets: c.maxAssets,
          mode: c.mode,
          lower: c.lower ? Float64Array.from(c.lower) : undefined,
          upper: c.upper ? Float64Array.from(c.upper) : undefined,
          keep: c.keep,
        });
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      const v = r.value;
      expect(Math.abs(v.variance - c.objective)).toBeLessThanOrEqual(1e-6 * c.objective);
      expect(v.provenOptimal).toBe(true);
      expect(v.gap).toBe(0);
      expectAdmissible(v, c);
    });
  }
});

describe("larger universes: heuristic with a reported bound", () => {
  const covariance = marketCovariance(200, 7);
  const relaxation = minimumRisk({ covariance });
  if (!relaxation.ok) throw new Error("relaxation");

  for (const mode of ["atMost", "exactly"] as const) {
    it(`n = 200, K = 8, ${mode}: admissible, bounded below by the continuous relaxation`, () => {
      const r = minimumRiskWithCardinality({ covariance, maxAssets: 8, mode });
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      const v = r.value;
      expectAdmissible(v, { maxAssets: 8, mode, keep: [], minHolding: 1 / 80 });
      expect(v.lowerBound).toBeGreaterThanOrEqual(relaxation.value.variance * (1 - 1e-12));
      expect(v.gap).toBeCloseTo((v.variance - v.lowerBound) / v.variance, 12);
      expect(v.gap).toBeGreaterThanOrEqual(0);
      expect(v.gap).toBeLessThan(0.5);
    });
  }

  it("is deterministic for a seed", () => {
    const a = minimumRiskWithCardinality({ covariance, maxAssets: 5, seed: 3 });
    const b = minimumRiskWithCardinality({ covariance, maxAssets: 5, seed: 3 });
    expect(a).toEqual(b);
  });

  it("K at or above the relaxation's support: the relaxation itself, proven", () => {
    const support = [...relaxation.value.weights].filter((x) => x > 0).length;
    const r = minimumRiskWithCardinality({ covariance, maxAssets: support });
    if (!r.ok) throw new Error(r.reason.code);
    expect(r.value.method).toBe("relaxation");
    expect(r.value.provenOptimal).toBe(true);
    expect(r.value.variance).toBeCloseTo(relaxation.value.variance, 15);
  });

  it("n = 30: branch and bound proves the optimum beaten by no other subset", () => {
    const cov = marketCovariance(30, 11);
    const r = minimumRiskWithCardinality({ covariance: cov, maxAssets: 3 });
    if (!r.ok) throw new Error(r.reason.code);
    expect(r.value.provenOptimal).toBe(true);
    // Every 3-subset (4060 of them) is at least as risky.
    let best = Infinity;
    for (let a = 0; a < 30; a++)
      for (let b = a + 1; b < 30; b++)
        for (let c = b + 1; c < 30; c++) {
          const idx = [a, b, c];
          const sub: Matrix = {
            rows: 3,
            cols: 3,
            data: Float64Array.from(idx.flatMap((i) => idx.map((j) => cov.data[i * 30 + j]!))),
          };
          const q = minimumRisk({ covariance: sub });
          if (q.ok) best = Math.min(best, q.value.variance);
        }
    expect(Math.abs(r.value.variance - best)).toBeLessThanOrEqual(1e-6 * best);
  });
});

describe("random small problems against enumeration (bounds, kept assets, groups, both modes)", () => {
  const subsets = (n: number) =>
    Array.from({ length: (1 << n) - 1 }, (_, m) =>
      Array.from({ length: n }, (_, i) => i).filter((i) => (m + 1) & (1 << i)),
    );
  it("150 problems", () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = createRandom(seed * 31);
      const n = 2 + Math.floor(random.next() * 7);
      const k = 1 + Math.floor(random.next() * 3);
      const B = Array.from({ length: n }, () => Array.from({ length: k }, () => random.normal()));
      const singular = random.next() < 0.2;
      const covariance = factorCovariance(
        B,
        Array.from({ length: n }, () => (singular ? 0 : random.next())),
      );
      const K = 1 + Math.floor(random.next() * Math.min(4, n));
      const mode = random.next() < 0.5 ? "atMost" : "exactly";
      const lower =
        random.next() < 0.4
          ? Array.from({ length: n }, () => (random.next() < 0.5 ? 0.1 * random.next() : 0))
          : null;
      const upper =
        random.next() < 0.4 ? Array.from({ length: n }, () => 0.3 + 0.7 * random.next()) : null;
      const keep = random.next() < 0.3 ? [Math.floor(random.next() * n)] : [];
      const group =
        random.next() < 0.3
          ? {
              members: Array.from({ length: n }, (_, i) => i).filter((i) => i >= n / 2),
              max: Math.floor(random.next() * 2),
            }
          : null;
      const minHolding = mode === "exactly" ? 1 / (10 * K) : 0;
      let best = Infinity;
      for (const T of subsets(n)) {
        if (mode === "exactly" ? T.length !== K : T.length > K) continue;
        if (!keep.every((i) => T.includes(i))) continue;
        if (group && T.filter((i) => group.members.includes(i)).length > group.max) continue;
        const lo = T.map((i) => Math.max(lower ? lower[i]! : 0, minHolding));
        const hi = T.map((i) => (upper ? upper[i]! : 1));
        if (lo.some((l, t) => l > hi[t]!)) continue;
        const sub: Matrix = {
          rows: T.length,
          cols: T.length,
          data: Float64Array.from(T.flatMap((i) => T.map((j) => covariance.data[i * n + j]!))),
        };
        const q = minimumRisk({
          covariance: sub,
          lower: Float64Array.from(lo),
          upper: Float64Array.from(hi),
        });
        if (q.ok) best = Math.min(best, q.value.variance);
      }
      const r = minimumRiskWithCardinality({
        covariance,
        maxAssets: K,
        mode,
        lower: lower ? Float64Array.from(lower) : undefined,
        upper: upper ? Float64Array.from(upper) : undefined,
        keep,
        group: group ?? undefined,
      });
      if (best === Infinity) {
        expect(r.ok, `seed ${seed}`).toBe(false);
        if (!r.ok) expect(r.reason.code).toMatch(/CARDINALITY_INFEASIBLE|BOUNDS_INFEASIBLE/);
        continue;
      }
      if (!r.ok) throw new Error(`seed ${seed}: ${JSON.stringify(r.reason)}`);
      expect(r.value.provenOptimal, `seed ${seed}`).toBe(true);
      expect(Math.abs(r.value.variance - best), `seed ${seed}`).toBeLessThanOrEqual(
        1e-6 * best + 1e-15,
      );
      expectAdmissible(r.value, { maxAssets: K, mode, lower, upper, keep, minHolding, group });
    }
  });
});

describe("new assets from the universe", () => {
  const covariance = marketCovariance(60, 21);
  const current = [0, 1, 2, 3, 4, 5];

  it("adds at most maxNewAssets, keeps the kept assets within their weights", () => {
    const r = minimumRiskWithNewAssets({
      covariance,
      current,
      keep: [{ index: 2, min: 0.1, max: 0.3 }],
      maxNewAssets: 3,
      expectedReturns: Float64Array.from({ length: 60 }, (_, i) => i / 1000),
    });
    if (!r.ok) throw new Error(JSON.stringify(r.reason));
    const expected = r.value.held.reduce((s, i) => s + (r.value.weights[i]! * i) / 1000, 0);
    expect(r.value.expectedReturn).toBeCloseTo(expected, 15);
    const added = r.value.held.filter((i) => !current.includes(i));
    expect(added.length).toBeLessThanOrEqual(3);
    expect(r.value.weights[2]).toBeGreaterThanOrEqual(0.1 - 1e-12);
    expect(r.value.weights[2]).toBeLessThanOrEqual(0.3 + 1e-12);
    expect(r.value.held.length).toBeLessThanOrEqual(current.length + 3);
  });

  it("no new assets allowed: only current assets are held", () => {
    const r = minimumRiskWithNewAssets({ covariance, current, maxNewAssets: 0 });
    if (!r.ok) throw new Error(JSON.stringify(r.reason));
    for (const i of r.value.held) expect(current).toContain(i);
  });

  it("does not mutate its inputs", () => {
    const data = Float64Array.from(covariance.data);
    const keep = [{ index: 2, min: 0.1, max: 0.3 }];
    const cur = [...current];
    minimumRiskWithNewAssets({ covariance, current: cur, keep, maxNewAssets: 2 });
    expect(covariance.data).toEqual(data);
    expect(cur).toEqual(current);
    expect(keep).toEqual([{ index: 2, min: 0.1, max: 0.3 }]);
  });
});
