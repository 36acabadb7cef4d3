// Scores (0-100, higher is better) and the community percentile.
import { describe, expect, it } from "vitest";
import { communityPercentile, portfolioScores } from "../../src/engine/scores.ts";
import { expectClose } from "./analytics-helpers.ts";

describe("portfolio scores", () => {
  it("formulas: market risk 100 (1 - sigma / 40%), risk-return 50 + 50 Sharpe, diversification 100 (1 - 1/DR^2)", () => {
    const s = portfolioScores({
      annualVolatility: 0.16,
      expectedReturn: 0.07,
      riskFreeRate: 0.02,
      diversificationRatio: 2,
    });
    expectClose(s.marketRisk, 60, 1e-14);
    expectClose(s.riskReturn, 50 + 50 * (0.05 / 0.16), 1e-14);
    expectClose(s.diversification, 75, 1e-14);
    expectClose(s.global, (60 + 50 + 50 * (0.05 / 0.16) + 75) / 3, 1e-14);
  });
  it("clamped to 0..100; a riskless portfolio gets finite scores", () => {
    const wild = portfolioScores({
      annualVolatility: 0.9,
      expectedReturn: 3,
      riskFreeRate: 0,
      diversificationRatio: 1,
    });
    expect([wild.marketRisk, wild.riskReturn, wild.diversification]).toEqual([0, 100, 0]);
    const cash = portfolioScores({
      annualVolatility: 0,
      expectedReturn: 0.02,
      riskFreeRate: 0.02,
      diversificationRatio: 1,
    });
    expect([cash.marketRisk, cash.riskReturn, cash.diversification]).toEqual([100, 50, 0]);
    expect(
      portfolioScores({
        annualVolatility: 0,
        expectedReturn: 0.03,
        riskFreeRate: 0.02,
        diversificationRatio: 1,
      }).riskReturn,
    ).toBe(100);
  });
  it("refuses NaN and negative volatility", () => {
    expect(() =>
      portfolioScores({
        annualVolatility: NaN,
        expectedReturn: 0,
        riskFreeRate: 0,
        diversificationRatio: 1,
      }),
    ).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() =>
      portfolioScores({
        annualVolatility: -1,
        expectedReturn: 0,
        riskFreeRate: 0,
        diversificationRatio: 1,
      }),
    ).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
  });
});

describe("community percentile (mid-rank)", () => {
  it("100 (below + equal / 2) / n", () => {
    expect(communityPercentile(50, [10, 20, 50, 80])).toBe(62.5);
    expect(communityPercentile(90, [10, 20, 50, 80])).toBe(100);
    expect(communityPercentile(5, [10, 20, 50, 80])).toBe(0);
    expect(communityPercentile(50, [50, 50])).toBe(50);
  });
  it("an empty community gives 100; NaN scores are refused", () => {
    expect(communityPercentile(10, [])).toBe(100);
    expect(() => communityPercentile(10, [NaN])).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
  });
});
