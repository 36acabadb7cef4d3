// Covariance estimators: textbook identities and the positive-definite guarantee on degenerate
// panels (identical assets, an asset that never moves, more assets than observations).
import { describe, expect, it } from "vitest";
import {
  ensurePositiveDefinite,
  estimateCovariance,
  ewmaCovariance,
  ledoitWolfCovariance,
  sampleCovariance,
  type CovarianceMethod,
} from "../../src/engine/covariance.ts";
import { EngineError } from "../../src/engine/errors.ts";
import type { ReturnsPanel } from "../../src/engine/panel.ts";
import { createRandom } from "../../src/engine/random.ts";
import { expectAllClose, expectAllFinite, expectClose, snapshot } from "./analytics-helpers.ts";

const METHODS: CovarianceMethod[] = ["sample", "ewma", "ledoit-wolf"];

function panel(columns: number[][]): ReturnsPanel {
  const n = columns.length;
  const t = columns[0]!.length;
  const data = new Float64Array(n * t);
  for (let s = 0; s < t; s++) for (let i = 0; i < n; i++) data[s * n + i] = columns[i]![s]!;
  return { assets: n, observations: t, data };
}
const noise = (t: number, seed: number, scale = 0.01) => {
  const r = createRandom(seed);
  return Array.from({ length: t }, () => scale * r.normal());
};

describe("sample covariance", () => {
  it("by hand: x = (1, 2, 3, 4) / 100, y = (2, 1, 4, 3) / 100 (1e-15)", () => {
    const c = sampleCovariance(
      panel([
        [0.01, 0.02, 0.03, 0.04],
        [0.02, 0.01, 0.04, 0.03],
      ]),
    );
    // var = 1.6667e-4, cov = ((-1.5)(-0.5) + (-0.5)(-1.5) + (0.5)(1.5) + (1.5)(0.5)) / 3 * 1e-4 = 1e-4
    expectAllClose(c.data, [0.0005 / 3, 0.0003 / 3, 0.0003 / 3, 0.0005 / 3], 1e-12);
  });
});

describe("EWMA (RiskMetrics 1996, lambda 0.94)", () => {
  it("constant |r|: every weight multiplies the same square, so the variance is r^2", () => {
    const c = ewmaCovariance(panel([Array.from({ length: 50 }, (_, s) => (s % 2 ? 0.01 : -0.01))]));
    expectClose(c.data[0]!, 0.0001, 1e-12);
  });
  it("the last return weighs (1 - lambda) / (1 - lambda^T)", () => {
    const t = 30;
    const x = new Array<number>(t).fill(0);
    x[t - 1] = 0.02;
    const c = ewmaCovariance(panel([x]), 0.94);
    expectClose(c.data[0]!, (0.06 / (1 - 0.94 ** t)) * 0.0004, 1e-12);
  });
  it("rejects lambda outside (0, 1)", () => {
    expect(() => ewmaCovariance(panel([noise(10, 1)]), 1)).toThrow(EngineError);
  });
});

describe("Ledoit-Wolf towards constant correlation", () => {
  it("keeps the variances, shrinks the correlations towards their mean, 0 <= delta <= 1", () => {
    const p = panel([noise(60, 1), noise(60, 2), noise(60, 3), noise(60, 4)]);
    const s = sampleCovariance(p);
    const lw = ledoitWolfCovariance(p);
    expect(lw.shrinkage).toBeGreaterThanOrEqual(0);
    expect(lw.shrinkage).toBeLessThanOrEqual(1);
    // Divisor T in the paper: the diagonal is (T - 1) / T times the sample's.
    for (let i = 0; i < 4; i++)
      expectClose(lw.matrix.data[i * 5]!, (s.data[i * 5]! * 59) / 60, 1e-12);
  });
  it("one asset: delta = 0 and the variance", () => {
    const lw = ledoitWolfCovariance(panel([noise(30, 1)]));
    expect(lw.shrinkage).toBe(0);
  });
});

describe("every estimate is positive definite, with its Cholesky factor", () => {
  const cases: Record<string, ReturnsPanel> = {
    "identical assets": panel([noise(40, 1), noise(40, 1), noise(40, 2)]),
    "an asset that never moves": panel([noise(40, 1), new Array<number>(40).fill(0), noise(40, 3)]),
    "more assets than observations": panel(Array.from({ length: 12 }, (_, i) => noise(8, i + 1))),
    "nothing moves": panel([new Array<number>(10).fill(0), new Array<number>(10).fill(0)]),
  };
  for (const [name, p] of Object.entries(cases))
    for (const method of METHODS)
      it(`${name}: ${method}`, () => {
        const e = estimateCovariance(p, method);
        expectAllFinite(e);
        const n = p.assets;
        // L L' reproduces the matrix.
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            let s = 0;
            for (let k = 0; k < n; k++)
              s += e.cholesky.data[i * n + k]! * e.cholesky.data[j * n + k]!;
            expectClose(s, e.matrix.data[i * n + j]!, 1e-9, 1e-20);
          }
        // The ridge is tiny: at most 1e-4 of the mean variance.
        let meanDiag = 0;
        for (let i = 0; i < n; i++) meanDiag += e.matrix.data[i * n + i]! / n;
        expect(e.ridge).toBeLessThanOrEqual(1e-4 * meanDiag + 1e-300);
      });

  it("a matrix that is not positive semi-definite is refused", () => {
    expect(() =>
      ensurePositiveDefinite({ rows: 2, cols: 2, data: Float64Array.of(1, 2, 2, 1) }),
    ).toThrow(EngineError);
  });
  it("the inputs are not mutated", () => {
    const p = panel([noise(40, 1), noise(40, 2)]);
    const before = snapshot(p);
    for (const method of METHODS) estimateCovariance(p, method);
    expect(p).toEqual(before);
  });
  it("NaN and too short panels are refused with a code", () => {
    expect(() => estimateCovariance(panel([[0.01, NaN, 0.02]]))).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    expect(() => estimateCovariance(panel([[0.01]]))).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
    expect(() => estimateCovariance(panel([[0.01, 0.02]]), "other" as CovarianceMethod)).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
  });
});
