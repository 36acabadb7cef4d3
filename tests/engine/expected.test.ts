// Expected returns (Bayes-Stein towards the CAPM equilibrium) and required returns.
import { describe, expect, it } from "vitest";
import { estimateCovariance } from "../../src/engine/covariance.ts";
import { expectedReturns, portfolioReturn, requiredReturns } from "../../src/engine/expected.ts";
import { syntheticMarket } from "../../src/engine/synthetic.ts";
import { expectClose, snapshot } from "./analytics-helpers.ts";

describe("expected returns", () => {
  const m = syntheticMarket({ assets: 6, days: 756, seed: 21 });
  const cov = estimateCovariance(m.panel);
  it("betas against a given market are cov / var; the equilibrium is rf + beta ERP", () => {
    const e = expectedReturns(m.panel, cov.cholesky, {
      market: m.market,
      riskFreeRate: 0.01,
      equityRiskPremium: 0.06,
    });
    for (let i = 0; i < 6; i++) {
      expectClose(e.equilibrium[i]!, 0.01 + e.betas[i]! * 0.06, 1e-14);
      // The generator's betas are recovered within sampling error (0.15).
      expectClose(e.betas[i]!, m.betas[i]!, 0, 0.15);
    }
    expect(e.shrinkage).toBeGreaterThan(0);
    expect(e.shrinkage).toBeLessThanOrEqual(1);
    for (let i = 0; i < 6; i++) {
      const lo = Math.min(e.historical[i]!, e.equilibrium[i]!);
      const hi = Math.max(e.historical[i]!, e.equilibrium[i]!);
      expect(e.expected[i]!).toBeGreaterThanOrEqual(lo - 1e-15);
      expect(e.expected[i]!).toBeLessThanOrEqual(hi + 1e-15);
    }
  });
  it("sample means equal to the prior: shrinkage 1, expected = equilibrium", () => {
    // One asset that is the market: beta 1; choose rf + ERP equal to its annualised mean.
    const data = Float64Array.from({ length: 300 }, (_, t) => (t % 2 ? 0.012 : -0.01));
    const panel = { assets: 1, observations: 300, data };
    const mean = (0.001 * 252) / 1;
    const e = expectedReturns(panel, estimateCovariance(panel).cholesky, {
      riskFreeRate: 0.02,
      equityRiskPremium: mean - 0.02,
    });
    expectClose(e.betas[0]!, 1, 1e-12);
    expectClose(e.shrinkage, 1, 1e-9);
    expectClose(e.expected[0]!, mean, 1e-9);
  });
  it("a riskless panel: shrinkage 1 and the risk-free rate, no NaN", () => {
    const panel = { assets: 2, observations: 30, data: new Float64Array(60) };
    const e = expectedReturns(panel, estimateCovariance(panel).cholesky);
    expect([...e.expected]).toEqual([0.02, 0.02]);
  });
  it("inputs are not mutated", () => {
    const before = snapshot(m.panel);
    expectedReturns(m.panel, cov.cholesky, { market: m.market });
    expect(m.panel).toEqual(before);
  });
});

describe("required returns", () => {
  const m = syntheticMarket({ assets: 4, days: 500, seed: 3 });
  const cov = estimateCovariance(m.panel);
  const w = Float64Array.of(0.4, 0.3, 0.2, 0.1);
  it("the portfolio's required return is rf + S* sigma sqrt(252), and the weighted sum of the assets' (Euler)", () => {
    const r = requiredReturns(cov.matrix, w, { riskFreeRate: 0.03, targetSharpe: 0.5 });
    let v = 0;
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) v += w[i]! * w[j]! * cov.matrix.data[i * 4 + j]!;
    expectClose(r.portfolio, 0.03 + 0.5 * Math.sqrt(v * 252), 1e-14);
    expectClose(portfolioReturn(r.assets, w), r.portfolio, 1e-14);
  });
  it("a riskless portfolio requires the risk-free rate", () => {
    const r = requiredReturns({ rows: 1, cols: 1, data: Float64Array.of(0) }, Float64Array.of(1));
    expect(r.portfolio).toBe(0.02);
    expect([...r.assets]).toEqual([0.02]);
  });
});
