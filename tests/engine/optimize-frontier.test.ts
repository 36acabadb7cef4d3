// Efficient frontier against tests/engine/reference/optimize.json (cvxopt QPs with an equality on
// the expected return, polished on their active sets). Objective tolerance: relative 1e-6
// (|f − f_ref| ≤ 1e-6 |f_ref|); budget, return target and bounds to 1e-9.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Matrix } from "../../src/engine/linalg.ts";
import {
  DEFAULT_FRONTIER_POINTS,
  efficientFrontier,
  minimumRiskForReturn,
} from "../../src/engine/optimize/frontier.ts";

interface FrontierCase {
  name: string;
  factors: number[][];
  specific: number[];
  expectedReturns: number[];
  lower: number[] | null;
  upper: number[] | null;
  points: number;
  targets: number[];
  objectives: number[];
}
const reference = JSON.parse(
  readFileSync(new URL("./reference/optimize.json", import.meta.url), "utf8"),
) as { frontier: FrontierCase[] };

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
const arr = (v: number[] | null) => (v ? Float64Array.from(v) : undefined);
const maxAbs = (v: number[]) => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

describe("efficient frontier against the cvxopt reference", () => {
  for (const c of reference.frontier) {
    const cov = factorCovariance(c.factors, c.specific);
    const mu = Float64Array.from(c.expectedReturns);
    const lower = arr(c.lower);
    const upper = arr(c.upper);
    const muScale = maxAbs(c.expectedReturns);

    it(`${c.name}: ${c.points} points from minimum risk to maximum return`, () => {
      const r = efficientFrontier({ covariance: cov, expectedReturns: mu, lower, upper });
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      const { points } = r.value;
      expect(points).toHaveLength(c.points);
      expect(c.points).toBe(DEFAULT_FRONTIER_POINTS);
      for (const [k, p] of points.entries()) {
        expect(Math.abs(p.targetReturn - c.targets[k]!)).toBeLessThanOrEqual(1e-9 * muScale);
        expect(Math.abs(p.expectedReturn - p.targetReturn)).toBeLessThanOrEqual(1e-9 * muScale);
        expect(Math.abs(p.variance - c.objectives[k]!)).toBeLessThanOrEqual(
          1e-6 * c.objectives[k]!,
        );
        expect(p.risk).toBeCloseTo(Math.sqrt(p.variance), 15);
        let sum = 0;
        for (let i = 0; i < p.weights.length; i++) {
          expect(p.weights[i]!).toBeGreaterThanOrEqual((lower ? lower[i]! : 0) - 1e-9);
          expect(p.weights[i]!).toBeLessThanOrEqual((upper ? upper[i]! : 1) + 1e-9);
          sum += p.weights[i]!;
        }
        expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-9);
        expect(p.kkt.stationarity).toBeLessThanOrEqual(1e-9);
        expect(p.kkt.dualInfeasibility).toBeLessThanOrEqual(1e-9);
        if (k > 0) {
          expect(p.expectedReturn).toBeGreaterThan(points[k - 1]!.expectedReturn);
          expect(p.variance).toBeGreaterThanOrEqual(points[k - 1]!.variance * (1 - 1e-12));
        }
      }
      expect(r.value.minimumRiskReturn).toBe(points[0]!.expectedReturn);
      expect(r.value.maximumReturn).toBe(points.at(-1)!.expectedReturn);
    });

    it(`${c.name}: a single target return`, () => {
      const k = 7;
      const r = minimumRiskForReturn({
        covariance: cov,
        expectedReturns: mu,
        targetReturn: c.targets[k]!,
        lower,
        upper,
      });
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      expect(Math.abs(r.value.variance - c.objectives[k]!)).toBeLessThanOrEqual(
        1e-6 * c.objectives[k]!,
      );
      expect(Math.abs(r.value.expectedReturn - c.targets[k]!)).toBeLessThanOrEqual(1e-9 * muScale);
    });
  }

  it("asks for as many points as requested", () => {
    const c = reference.frontier[0]!;
    const r = efficientFrontier({
      covariance: factorCovariance(c.factors, c.specific),
      expectedReturns: Float64Array.from(c.expectedReturns),
      points: 5,
    });
    expect(r.ok && r.value.points.length).toBe(5);
  });
});

describe("degenerate frontiers", () => {
  const cov: Matrix = { rows: 2, cols: 2, data: Float64Array.of(0.04, 0.01, 0.01, 0.09) };

  it("equal expected returns: a single point, the minimum-risk portfolio", () => {
    const r = efficientFrontier({ covariance: cov, expectedReturns: Float64Array.of(0.05, 0.05) });
    if (!r.ok) throw new Error(r.reason.code);
    expect(r.value.points).toHaveLength(1);
    expect(r.value.points[0]!.weights[0]).toBeCloseTo((0.09 - 0.01) / (0.04 + 0.09 - 0.02), 12);
  });

  it("the minimum-risk asset is also the best: a single point", () => {
    const r = efficientFrontier({
      covariance: { rows: 2, cols: 2, data: Float64Array.of(0.01, 0, 0, 0.09) },
      expectedReturns: Float64Array.of(0.05, 0.01),
      upper: Float64Array.of(1, 0),
    });
    expect(r.ok && r.value.points.length).toBe(1);
  });

  it("two assets: every point is the unique portfolio of its return", () => {
    const mu = Float64Array.of(0.02, 0.08);
    const r = efficientFrontier({ covariance: cov, expectedReturns: mu, points: 4 });
    if (!r.ok) throw new Error(r.reason.code);
    for (const p of r.value.points) {
      const w2 = (p.targetReturn - 0.02) / 0.06;
      expect(p.weights[1]).toBeCloseTo(w2, 12);
    }
    expect(r.value.points.at(-1)!.weights[1]).toBe(1);
  });

  it("rejects fewer than 2 points", () => {
    const r = efficientFrontier({
      covariance: cov,
      expectedReturns: Float64Array.of(0, 1),
      points: 1,
    });
    expect(r.ok ? null : r.reason).toEqual({ code: "INVALID_INPUT", detail: { points: 1 } });
  });

  it("does not mutate its inputs", () => {
    const mu = Float64Array.of(0.02, 0.08);
    const data = Float64Array.from(cov.data);
    efficientFrontier({ covariance: cov, expectedReturns: mu });
    expect([...mu]).toEqual([0.02, 0.08]);
    expect(cov.data).toEqual(data);
  });
});
