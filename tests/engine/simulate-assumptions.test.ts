// The simulator's assumptions (PRODUCT.md "Simulator assumptions") against independent references:
// numpy on the same random numbers (scripts/reference/simulate_assumptions.py, figures stored
// below) for the equilibrium return and volatility and for the block bootstrap; the closed form of
// lognormal growth for the paths drawn from an annual return and volatility.
import { describe, expect, it } from "vitest";
import { expectedReturns } from "../../src/engine/expected.ts";
import { estimateCovariance } from "../../src/engine/covariance.ts";
import { lastObservations } from "../../src/engine/panel.ts";
import { createRandom } from "../../src/engine/random.ts";
import {
  bootstrapYear,
  equilibriumAssumptions,
  lognormalFromAnnual,
  monthlyReturnsOf,
  simulatePlan,
} from "../../src/engine/simulate.ts";
import { normalQuantile } from "../../src/engine/stats.ts";
import { expectAllFinite, expectClose } from "./analytics-helpers.ts";

/** Output of `python3 scripts/reference/simulate_assumptions.py` (numpy, jsrandom.py draws). */
const NUMPY = {
  equilibrium: {
    beta: 0.9008197881658475,
    annualReturn: 0.06504098940829238,
    annualVolatility: 0.17898381873422192,
  },
  year: {
    months: 71,
    blocks: 60,
    annualReturn: -0.10092114550169362,
    annualVolatility: 0.1544920402220576,
  },
  bootstrap: {
    percentiles: {
      5: { 1: 9208.850385487727, 12: 7505.20888784634, 36: 6672.844027145443 },
      25: { 1: 9529.14012772384, 12: 9475.760574682441, 36: 8424.227495092779 },
      50: { 1: 9969.585996971955, 12: 10010.685987854666, 36: 9890.48532861384 },
      75: { 1: 10269.67621738524, 12: 10616.136130762077, 36: 12176.734815338783 },
      95: { 1: 10916.339240170963, 12: 12480.66133712002, 36: 13875.892500256261 },
    } as Record<number, Record<number, number>>,
    goalProbability: 0.03,
  },
};

// The script's data: a market and four assets loading 0.6 to 1.5 on it, 1500 days.
const DAYS = 1500;
const N = 4;
const LOADINGS = [0.6, 0.9, 1.2, 1.5];
const rnd = createRandom(101);
const market = new Float64Array(DAYS);
const data = new Float64Array(DAYS * N);
for (let t = 0; t < DAYS; t++) {
  market[t] = 0.0004 + 0.011 * rnd.normal();
  for (let i = 0; i < N; i++)
    data[t * N + i] = 0.0001 + LOADINGS[i]! * (market[t]! - 0.0004) + 0.01 * rnd.normal();
}
const panel = { assets: N, observations: DAYS, data };
const weights = Float64Array.of(0.4, 0.3, 0.2, 0.1);
const daily = new Float64Array(DAYS);
for (let t = 0; t < DAYS; t++)
  for (let i = 0; i < N; i++) daily[t] = daily[t]! + weights[i]! * data[t * N + i]!;

describe("equilibrium assumptions against numpy (relative 1e-9)", () => {
  const e = equilibriumAssumptions({
    panel,
    weights,
    betaDays: 756,
    market: market.subarray(DAYS - 756),
    riskFreeRate: 0.02,
    equityRiskPremium: 0.05,
  });
  it("the CAPM return rf + beta ERP of the portfolio, beta against the market over the window", () => {
    expectClose(e.beta, NUMPY.equilibrium.beta, 1e-9);
    expectClose(e.annualReturn, NUMPY.equilibrium.annualReturn, 1e-9);
  });
  it("the volatility of the whole history's Ledoit-Wolf covariance", () => {
    expectClose(e.annualVolatility, NUMPY.equilibrium.annualVolatility, 1e-9);
  });
  it("is the full analysis' CAPM prior: the weights times expectedReturns' equilibrium", () => {
    const window = lastObservations(panel, 756);
    const prior = expectedReturns(window, estimateCovariance(window).cholesky, {
      market: market.subarray(DAYS - 756),
    });
    let sum = 0;
    for (let i = 0; i < N; i++) sum += weights[i]! * prior.equilibrium[i]!;
    expect(e.annualReturn).toBe(sum);
  });
  it("the index itself as the portfolio: beta 1, rf + ERP, and its own volatility (divisor T)", () => {
    const one = equilibriumAssumptions({
      panel: { assets: 1, observations: DAYS, data: market },
      weights: Float64Array.of(1),
      betaDays: 756,
      market: market.subarray(DAYS - 756),
      riskFreeRate: 0.03,
      equityRiskPremium: 0.05,
    });
    expectClose(one.beta, 1, 1e-12);
    expectClose(one.annualReturn, 0.08, 1e-12);
    let mean = 0;
    for (const v of market) mean += v / DAYS;
    let ss = 0;
    for (const v of market) ss += (v - mean) ** 2;
    expectClose(one.annualVolatility, Math.sqrt((252 * ss) / DAYS), 1e-12);
  });
  it("without an index, the engine's proxy (the equally weighted assets) sets the betas", () => {
    const proxy = equilibriumAssumptions({
      panel,
      weights: Float64Array.of(0.25, 0.25, 0.25, 0.25),
      betaDays: 756,
      riskFreeRate: 0.02,
      equityRiskPremium: 0.05,
    });
    // Equal weights against their own average: beta 1 exactly (up to rounding).
    expectClose(proxy.beta, 1, 1e-12);
    expectClose(proxy.annualReturn, 0.07, 1e-12);
  });
});

describe("historical assumptions: the 12-month block bootstrap against numpy", () => {
  const monthly = monthlyReturnsOf(daily);
  it("whole months of 21 days counted back, n - 11 blocks, a year's expected growth and spread (1e-9)", () => {
    expect(monthly.length).toBe(NUMPY.year.months);
    const year = bootstrapYear(monthly);
    expect(year.blocks).toBe(NUMPY.year.blocks);
    expectClose(year.annualReturn, NUMPY.year.annualReturn, 1e-9);
    expectClose(year.annualVolatility, NUMPY.year.annualVolatility, 1e-9);
  });
  it("the plan's percentiles and goal probability on the same draws (1e-9; the share exactly)", () => {
    const r = simulatePlan(
      { kind: "block-bootstrap", monthlyReturns: monthly },
      {
        initialAmount: 10_000,
        monthlyContribution: 100,
        years: 3,
        paths: 200,
        seed: 9,
        history: daily,
        goal: 15_000,
      },
    );
    for (const p of r.percentiles)
      for (const k of [1, 12, 36])
        expectClose(p.values[k]!, NUMPY.bootstrap.percentiles[p.percentile]![k]!, 1e-9);
    expect(r.goalProbability).toBe(NUMPY.bootstrap.goalProbability);
    expectAllFinite(r);
  });
  it("draws no drift: a history of one repeated month gives that month's growth on every path", () => {
    const flat = new Float64Array(24).fill(0.01);
    const r = simulatePlan(
      { kind: "block-bootstrap", monthlyReturns: flat },
      { initialAmount: 100, monthlyContribution: 0, years: 2, paths: 50, history: daily },
    );
    for (const p of r.percentiles) expectClose(p.values[24]!, 100 * 1.01 ** 24, 1e-12);
  });
  it("needs at least one block of 12 months", () => {
    expect(() => bootstrapYear(new Float64Array(11))).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
    expect(() =>
      simulatePlan(
        { kind: "block-bootstrap", monthlyReturns: new Float64Array(11) },
        { initialAmount: 1, monthlyContribution: 0, years: 1, history: daily },
      ),
    ).toThrow(expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }));
  });
});

describe("paths from an annual return and volatility against the lognormal closed form", () => {
  // Without contributions V_k = A exp(k m + s sqrt(k) Z), m = ln(1 + E) / 12 - s^2 / 2,
  // s = sigma / sqrt(12): the p-quantile at the horizon T is A exp(12 T m + sigma sqrt(T) z_p),
  // the median A (1 + E)^T exp(-sigma^2 T / 2), the mean A (1 + E)^T.
  const E = 0.078;
  const sigma = 0.227;
  const A = 25_000;
  const T = 20;
  const paths = 20_000;
  const model = lognormalFromAnnual(E, sigma);
  const r = simulatePlan(model, {
    initialAmount: A,
    monthlyContribution: 0,
    years: T,
    paths,
    seed: 5,
    history: daily,
  });
  it("m and s follow from E and sigma", () => {
    expectClose(model.monthlyLogVolatility, sigma / Math.sqrt(12), 1e-13);
    expectClose(model.monthlyLogMean, Math.log(1 + E) / 12 - sigma ** 2 / 24, 1e-13);
    expectClose(
      A * Math.exp(12 * T * model.monthlyLogMean),
      A * (1 + E) ** T * Math.exp((-(sigma ** 2) * T) / 2),
      1e-12,
    );
  });
  it("percentiles 5-95 at 1, 10 and 20 years within 5% of the closed form (20 000 paths)", () => {
    // The sampling error of the 5% quantile of the log value is sigma sqrt(T) sqrt(p(1-p)) /
    // (phi(z_p) sqrt(N)): 1.5% of the value at 20 years; 5% is more than three of those.
    for (const q of r.percentiles)
      for (const years of [1, 10, T]) {
        const k = 12 * years;
        const exact =
          A *
          Math.exp(
            k * model.monthlyLogMean +
              sigma * Math.sqrt(years) * normalQuantile(q.percentile / 100),
          );
        expectClose(q.values[k]!, exact, 0.05);
      }
  });
});
