// Investment simulator: the deterministic case against the future value of an annuity, the
// lognormal median, reproducibility, and the historical replay.
import { describe, expect, it } from "vitest";
import { replayHistory, simulateInvestment } from "../../src/engine/simulate.ts";
import { createRandom } from "../../src/engine/random.ts";
import { expectAllFinite, expectClose, snapshot } from "./analytics-helpers.ts";

describe("simulateInvestment", () => {
  it("a riskless portfolio: every percentile is the future value A g^k + C (g^k - 1) / (g - 1) (1e-12)", () => {
    const daily = new Float64Array(252).fill(0.0002);
    const r = simulateInvestment(daily, {
      initialAmount: 10_000,
      monthlyContribution: 100,
      years: 2,
      paths: 50,
    });
    const g = 1.0002 ** 21;
    for (const p of r.percentiles)
      for (let k = 0; k <= 24; k++)
        expectClose(p.values[k]!, 10_000 * g ** k + (100 * (g ** k - 1)) / (g - 1), 1e-12);
    expect(r.invested[24]).toBe(12_400);
  });
  it("no contributions: the median after k months is A exp(k m) within 2% (20 000 paths)", () => {
    const rnd = createRandom(1);
    const daily = Float64Array.from({ length: 756 }, () => 0.0003 + 0.01 * rnd.normal());
    const r = simulateInvestment(daily, {
      initialAmount: 1000,
      monthlyContribution: 0,
      years: 5,
      paths: 20_000,
      seed: 4,
    });
    const median = r.percentiles.find((p) => p.percentile === 50)!;
    expectClose(median.values[60]!, 1000 * Math.exp(60 * r.monthlyLogMean), 0.02);
    // Percentiles are ordered every month.
    for (let k = 0; k <= 60; k++)
      for (let j = 1; j < r.percentiles.length; j++)
        expect(r.percentiles[j]!.values[k]!).toBeGreaterThanOrEqual(
          r.percentiles[j - 1]!.values[k]!,
        );
  });
  it("expectedAnnualReturn sets the drift: ln(1 + E) / 12 - s^2 / 2", () => {
    const rnd = createRandom(2);
    const daily = Float64Array.from({ length: 300 }, () => 0.01 * rnd.normal());
    const r = simulateInvestment(daily, {
      initialAmount: 1,
      monthlyContribution: 0,
      years: 1,
      paths: 10,
      expectedAnnualReturn: 0.06,
    });
    expectClose(r.monthlyLogMean, Math.log(1.06) / 12 - r.monthlyLogVolatility ** 2 / 2, 1e-14);
  });
  it("is reproducible from its seed; inputs are not mutated; no NaN", () => {
    const rnd = createRandom(3);
    const daily = Float64Array.from({ length: 300 }, () => 0.0002 + 0.012 * rnd.normal());
    const before = snapshot(daily);
    const opts = { initialAmount: 5000, monthlyContribution: 50, years: 3, paths: 300, seed: 8 };
    const a = simulateInvestment(daily, opts);
    expect(simulateInvestment(daily, opts)).toEqual(a);
    expect(daily).toEqual(before);
    expectAllFinite(a);
  });
  it("errors", () => {
    const d = new Float64Array(100);
    const o = { initialAmount: 1, monthlyContribution: 0, years: 1 };
    expect(() => simulateInvestment(d, { ...o, years: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => simulateInvestment(d, { ...o, initialAmount: -1 })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => simulateInvestment(d, { ...o, paths: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => simulateInvestment(new Float64Array(1), o)).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
    expect(() => simulateInvestment(Float64Array.of(0.01, NaN), o)).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
  });
});

describe("replayHistory", () => {
  it("months of 21 days counted back from the last observation, contributions at each month end", () => {
    // 50 days: 2 whole months (days 8..49); the first 8 days are left out.
    const d = new Float64Array(50);
    d[10] = 0.1;
    d[40] = -0.5;
    const h = replayHistory(d, 100, 10, 12);
    expect(h.months).toBe(2);
    expectClose(h.values[1]!, 110 + 10, 1e-14);
    expectClose(h.values[2]!, 120 * 0.5 + 10, 1e-14);
  });
});
