// The full analysis: internal identities, every benchmark window, degenerate portfolios (one
// asset, identical assets, an asset that never moves, nothing moves) without NaN, no mutation.
import { describe, expect, it } from "vitest";
import { analysePortfolio, type AnalysisInput } from "../../src/engine/analysis.ts";
import type { ReturnsPanel } from "../../src/engine/panel.ts";
import { syntheticMarket } from "../../src/engine/synthetic.ts";
import { expectAllFinite, expectClose, snapshot } from "./analytics-helpers.ts";

const m = syntheticMarket({
  assets: 12,
  days: 1300,
  seed: 5,
  foreignShare: 0.4,
  degreesOfFreedom: 5,
});
const amounts = Float64Array.from({ length: 12 }, (_, i) => 500 + 100 * i);
const total = amounts.reduce((a, b) => a + b, 0);
const base: AnalysisInput = {
  panel: m.panel,
  amounts,
  currency: "EUR",
  fx: { returns: m.fxReturns, foreign: m.foreign },
  market: m.market,
};

describe("analysePortfolio", () => {
  it("every figure is finite and the identities hold (1e-12)", () => {
    const a = analysePortfolio({
      ...base,
      monteCarlo: { paths: 2000, seed: 3 },
      communityScores: [10, 40, 60, 90],
      assetInfo: Array.from({ length: 12 }, (_, i) => ({
        symbol: `A${i}`,
        currency: m.foreign[i] ? "USD" : "EUR",
        sector: `S${i % 3}`,
      })),
    });
    expectAllFinite(a);
    expect(a.window).toMatchObject({
      benchmark: 5,
      observations: 756,
      horizonDays: 21,
      confidence: 0.95,
      covariance: "ledoit-wolf",
      ridge: 0,
    });
    expect(a.totalInvested).toBe(total);
    expectClose(a.var.parametric.varAmount, a.var.parametric.var * total, 1e-14);
    expectClose(
      a.componentRisk.varContributionAmounts.reduce((s, v) => s + v, 0),
      a.var.parametric.varAmount,
      1e-12,
    );
    expectClose(
      a.componentRisk.percentage.reduce((s, v) => s + v, 0),
      100,
      1e-12,
    );
    expectClose(a.volatility.annual, a.volatility.daily * Math.sqrt(252), 1e-14);
    expectClose(a.diversification.portfolio, a.volatility.horizon, 1e-12);
    expectClose(a.diversification.portfolioVarAmount, a.var.parametric.varAmount, 1e-12);
    expect(a.var.historical.scaling).toBe("overlapping");
    expect(a.var.monteCarlo!.scenarios).toBe(2000);
    expect(a.currencyRisk!.exposure).toBeGreaterThan(0);
    expect(a.scores.communityGlobal).not.toBeNull();
    expect(a.breakdown!.sector.length).toBe(3);
    expect(a.var.parametric.cvar).toBeGreaterThan(a.var.parametric.var);
  });
  for (const benchmark of [1, 2, 3, 4, 5, 6])
    it(`benchmark ${benchmark}: window and historical method`, () => {
      const a = analysePortfolio({ ...base, benchmark });
      expect(a.window.observations).toBe([21, 63, 126, 252, 756, 1260][benchmark - 1]);
      expect(a.var.historical.scaling).toBe(benchmark >= 4 ? "overlapping" : "sqrt-time");
      expectAllFinite(a);
    });
  it("covariance methods and the sample mean", () => {
    for (const covariance of ["sample", "ewma", "ledoit-wolf"] as const) {
      const a = analysePortfolio({ ...base, covariance, mean: "sample" });
      expectAllFinite(a);
      expect(a.window.shrinkage === null).toBe(covariance !== "ledoit-wolf");
    }
  });
  it("does not mutate its inputs", () => {
    const before = snapshot(base);
    analysePortfolio({ ...base, monteCarlo: { paths: 100 } });
    expect(base).toEqual(before);
  });
});

const cols = (columns: Float64Array[]): ReturnsPanel => {
  const n = columns.length;
  const t = columns[0]!.length;
  const data = new Float64Array(n * t);
  for (let s = 0; s < t; s++) for (let i = 0; i < n; i++) data[s * n + i] = columns[i]![s]!;
  return { assets: n, observations: t, data };
};
const col = (i: number) => Float64Array.from({ length: 800 }, (_, t) => m.panel.data[t * 12 + i]!);

describe("degenerate portfolios give documented answers, never NaN", () => {
  const run = (panel: ReturnsPanel, amounts: number[]) =>
    analysePortfolio({ panel, amounts: Float64Array.from(amounts), monteCarlo: { paths: 500 } });
  it("one asset: no diversification, 100% of the risk", () => {
    const a = run(cols([col(0)]), [1000]);
    expectAllFinite(a);
    expect(a.componentRisk.percentage[0]).toBeCloseTo(100, 12);
    expect(a.diversification.reduction).toBeCloseTo(0, 12);
    expect(a.scores.diversification).toBe(0);
  });
  it("two identical assets: equal contributions, no diversification", () => {
    const a = run(cols([col(1), col(1)]), [300, 700]);
    expectAllFinite(a);
    expect(a.componentRisk.percentage[0]).toBeCloseTo(30, 4);
    expect(a.diversification.reduction).toBeLessThan(1e-4);
  });
  it("an asset that never moves: no contribution", () => {
    const a = run(cols([col(2), new Float64Array(800)]), [500, 500]);
    expectAllFinite(a);
    expect(a.componentRisk.percentage[1]).toBeCloseTo(0, 6);
  });
  it("nothing moves: zero risk everywhere, the risk-free rate expected", () => {
    const a = run(cols([new Float64Array(800), new Float64Array(800)]), [500, 500]);
    expectAllFinite(a);
    expect(a.var.parametric.var).toBe(0);
    expect(a.var.historical.var).toBe(0);
    expect([...a.componentRisk.percentage]).toEqual([0, 0]);
    expect(a.expectedReturns.portfolio).toBeCloseTo(0.02, 14);
    expect(a.scores.marketRisk).toBe(100);
  });
  it("errors: short history, NaN, sizes, amounts, options", () => {
    const p = cols([col(0), col(1)]);
    expect(() =>
      analysePortfolio({ panel: p, amounts: Float64Array.of(1, 1), benchmark: 6 }),
    ).toThrow(expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }));
    const bad = { ...p, data: p.data.slice() };
    bad.data[100] = NaN;
    expect(() => analysePortfolio({ panel: bad, amounts: Float64Array.of(1, 1) })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    expect(() => analysePortfolio({ panel: p, amounts: Float64Array.of(1) })).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => analysePortfolio({ panel: p, amounts: Float64Array.of(0, 0) })).toThrow(
      expect.objectContaining({ code: "INVALID_WEIGHTS" }),
    );
    expect(() =>
      analysePortfolio({ panel: p, amounts: Float64Array.of(1, 1), confidence: 2 }),
    ).toThrow(expect.objectContaining({ code: "INVALID_PARAMETER" }));
    expect(() =>
      analysePortfolio({
        panel: { assets: 0, observations: 0, data: new Float64Array(0) },
        amounts: new Float64Array(0),
      }),
    ).toThrow(expect.objectContaining({ code: "NO_ASSETS" }));
  });
});
