// Every figure of the risk engine against numpy/scipy: scripts/reference/risk.py computes them
// independently from seeded inputs and writes tests/engine/reference/risk.json.
// Tolerances: 1e-9 relative for deterministic figures (only the summation order differs),
// 1e-8 for the figures that go through a linear solve, and the Monte Carlo figures use the same
// random numbers (a bit-exact port of random.ts), so they match to 1e-9 as well.
import { describe, expect, it } from "vitest";
import { backtest } from "../../src/engine/backtest.ts";
import {
  ewmaCovariance,
  estimateCovariance,
  ledoitWolfCovariance,
  sampleCovariance,
} from "../../src/engine/covariance.ts";
import { expectedReturns, requiredReturns } from "../../src/engine/expected.ts";
import { monitorPortfolio } from "../../src/engine/monitor.ts";
import { portfolioReturns, type ReturnsPanel } from "../../src/engine/panel.ts";
import {
  componentRisk,
  currencyRisk,
  diversification,
  historicalVar,
  monteCarloVar,
  parametricVar,
  portfolioVolatility,
} from "../../src/engine/risk.ts";
import { simulateInvestment } from "../../src/engine/simulate.ts";
import {
  normalPdf,
  normalQuantile,
  quantilesBySelection,
  quantileSorted,
} from "../../src/engine/stats.ts";
import { applyShocks } from "../../src/engine/whatif/shocks.ts";
import { factorSensitivities } from "../../src/engine/whatif/sensitivities.ts";
import { type WhatIfFactor } from "../../src/engine/whatif/factors.ts";
import { expectAllClose, expectClose, loadReference } from "./analytics-helpers.ts";

interface Tail {
  var: number;
  cvar: number;
}
interface Perf {
  totalReturn: number;
  annualizedReturn: number;
  volatility: number;
  maxDrawdown: number;
  sharpe: number;
}
interface Reference {
  inputs: {
    assets: number;
    observations: number;
    returns: number[];
    weights: number[];
    fxReturns: number[];
    foreign: number[];
    market: number[];
    small: { assets: number; observations: number; returns: number[] };
    dates: number[];
    factors: WhatIfFactor[];
    factorChanges: number[];
    amounts: number[];
    shocks: { dRV: number; dRF: number; dMMPP: number };
    quantileValues: number[];
    quantileProbabilities: number[];
    normalProbabilities: number[];
  };
  normal: { quantiles: number[]; pdf: number[] };
  quantiles: number[];
  covariance: {
    sample: number[];
    ewma: number[];
    ledoitWolf: number[];
    shrinkage: number;
    ledoitWolfSmall: number[];
    shrinkageSmall: number;
  };
  volatility: { sample: number; ledoitWolf: number };
  parametric: { zero: Tail; sample: Tail };
  historical: {
    overlapping: Tail & { scaling: string; scenarios: number };
    short: Tail & { scaling: string; scenarios: number };
  };
  monteCarlo: Tail & { paths: number; seed: number };
  components: {
    volatility: number;
    marginal: number[];
    contribution: number[];
    percentage: number[];
    varContribution: number[];
  };
  diversification: {
    standAlone: number[];
    standAloneSum: number;
    portfolio: number;
    benefit: number;
    reduction: number;
    ratio: number;
  };
  currency: Record<string, number>;
  expected: {
    historical: number[];
    betas: number[];
    equilibrium: number[];
    expected: number[];
    shrinkage: number;
  };
  required: { assets: number[]; portfolio: number };
  backtest: {
    every: number;
    none: { values: number[]; performance: Perf };
    monthly: { values: number[]; performance: Perf };
    every63: { values: number[]; performance: Perf };
    benchmark: { values: number[]; performance: Perf; trackingError: number };
  };
  sensitivities: { alphas: number[]; betas: number[]; rSquared: number[]; periods: number };
  shock: { assetReturns: number[]; totalChange: number };
  monitoring: {
    return: number[];
    annualizedReturn: number[];
    volatility: number[];
    riskReturn: number[];
  };
  simulation: {
    initialAmount: number;
    monthlyContribution: number;
    months: number;
    paths: number;
    seed: number;
    monthlyLogMean: number;
    monthlyLogVolatility: number;
    percentiles: number[][];
    historical: number[];
  };
}

const ref = loadReference<Reference>("risk.json");
const { inputs } = ref;
const panel: ReturnsPanel = {
  assets: inputs.assets,
  observations: inputs.observations,
  data: Float64Array.from(inputs.returns),
};
const weights = Float64Array.from(inputs.weights);
const REL = 1e-9;

describe("statistics against scipy and numpy", () => {
  it("normal quantile (AS 241) matches scipy.stats.norm.ppf to 1e-14 relative", () => {
    inputs.normalProbabilities.forEach((p, k) =>
      expectClose(normalQuantile(p), ref.normal.quantiles[k]!, 1e-14, 1e-15, `ppf(${p})`),
    );
  });
  it("normal density matches scipy.stats.norm.pdf to 1e-15 relative", () => {
    [0, 1, -1.6448536269514722, 2.5].forEach((x, k) =>
      expectClose(normalPdf(x), ref.normal.pdf[k]!, 1e-15, 0, `pdf(${x})`),
    );
  });
  it("type-7 quantiles by sort and by selection match numpy.quantile (linear) exactly", () => {
    const x = Float64Array.from(inputs.quantileValues);
    const sorted = x.slice().sort();
    const ps = inputs.quantileProbabilities;
    ps.forEach((p, k) =>
      expectClose(quantileSorted(sorted, p), ref.quantiles[k]!, 1e-15, 1e-15, `q(${p})`),
    );
    expectAllClose(quantilesBySelection(x, ps), ref.quantiles, 1e-15, 1e-15, "selection");
  });
});

describe("covariance against numpy", () => {
  it("sample covariance (divisor T - 1) matches numpy.cov", () => {
    expectAllClose(sampleCovariance(panel).data, ref.covariance.sample, REL, 1e-18, "sample");
  });
  it("EWMA (lambda 0.94, normalised weights, zero mean) matches", () => {
    expectAllClose(ewmaCovariance(panel).data, ref.covariance.ewma, REL, 1e-18, "ewma");
  });
  it("Ledoit-Wolf constant correlation matches the paper's formula in numpy (T > N)", () => {
    const lw = ledoitWolfCovariance(panel);
    expectClose(lw.shrinkage, ref.covariance.shrinkage, 1e-9, 0, "delta");
    expectAllClose(lw.matrix.data, ref.covariance.ledoitWolf, REL, 1e-18, "lw");
  });
  it("Ledoit-Wolf with 30 assets and 40 observations matches; it is positive definite where the sample is not", () => {
    const small: ReturnsPanel = { ...inputs.small, data: Float64Array.from(inputs.small.returns) };
    const lw = ledoitWolfCovariance(small);
    expectClose(lw.shrinkage, ref.covariance.shrinkageSmall, 1e-9, 0, "delta");
    expectAllClose(lw.matrix.data, ref.covariance.ledoitWolfSmall, REL, 1e-18, "lw");
    const est = estimateCovariance(small, "ledoit-wolf");
    expect(est.ridge).toBe(0);
    // 20 observations of 30 assets: the sample covariance has rank 19 and needs the ridge.
    const tiny: ReturnsPanel = { assets: 30, observations: 20, data: small.data.subarray(0, 600) };
    expect(estimateCovariance(tiny, "sample").ridge).toBeGreaterThan(0);
    expect(estimateCovariance(tiny, "ledoit-wolf").ridge).toBe(0);
  });
});

describe("risk figures against numpy/scipy (Ledoit-Wolf covariance, 21 days, 95%)", () => {
  const est = estimateCovariance(panel, "ledoit-wolf");
  it("portfolio volatility", () => {
    expectClose(portfolioVolatility(sampleCovariance(panel), weights), ref.volatility.sample, REL);
    expectClose(portfolioVolatility(est.matrix, weights), ref.volatility.ledoitWolf, REL);
  });
  it("parametric VaR and CVaR, zero mean and sample mean", () => {
    const zero = parametricVar(est.matrix, weights);
    expectClose(zero.var, ref.parametric.zero.var, REL);
    expectClose(zero.cvar, ref.parametric.zero.cvar, REL);
    const sample = parametricVar(est.matrix, weights, { mean: "sample" }, est.means);
    expectClose(sample.var, ref.parametric.sample.var, REL);
    expectClose(sample.cvar, ref.parametric.sample.cvar, REL);
  });
  it("historical VaR and CVaR from overlapping 21-day windows (600 observations)", () => {
    const h = historicalVar(panel, weights);
    expect(h.scaling).toBe("overlapping");
    expect(h.scenarios).toBe(ref.historical.overlapping.scenarios);
    expectClose(h.var, ref.historical.overlapping.var, REL);
    expectClose(h.cvar, ref.historical.overlapping.cvar, REL);
  });
  it("historical VaR and CVaR scaled by sqrt(21) below one year of history (200 observations)", () => {
    const short: ReturnsPanel = {
      ...panel,
      observations: 200,
      data: panel.data.subarray(400 * panel.assets),
    };
    const h = historicalVar(short, weights);
    expect(h.scaling).toBe("sqrt-time");
    expectClose(h.var, ref.historical.short.var, REL);
    expectClose(h.cvar, ref.historical.short.cvar, REL);
  });
  it("Monte Carlo VaR and CVaR with the same random numbers (2000 paths, seed 5)", () => {
    const mc = monteCarloVar(est.matrix, est.cholesky, weights, { paths: 2000, seed: 5 });
    expectClose(mc.var, ref.monteCarlo.var, REL);
    expectClose(mc.cvar, ref.monteCarlo.cvar, REL);
  });
  it("component risk: marginal, Euler and percentage contributions", () => {
    const c = componentRisk(est.matrix, weights);
    expectClose(c.volatility, ref.components.volatility, REL);
    expectAllClose(c.marginal, ref.components.marginal, REL, 0, "marginal");
    expectAllClose(c.contribution, ref.components.contribution, REL, 0, "contribution");
    expectAllClose(c.percentage, ref.components.percentage, REL, 0, "percentage");
    expectAllClose(c.varContribution, ref.components.varContribution, REL, 0, "var contribution");
  });
  it("diversification", () => {
    const d = diversification(est.matrix, weights);
    expectAllClose(d.standAlone, ref.diversification.standAlone, REL);
    for (const k of ["standAloneSum", "portfolio", "benefit", "reduction", "ratio"] as const)
      expectClose(d[k], ref.diversification[k], 1e-8, 0, k);
  });
  it("currency risk", () => {
    const c = currencyRisk(
      panel,
      weights,
      Float64Array.from(inputs.fxReturns),
      Uint8Array.from(inputs.foreign),
    );
    for (const [k, v] of Object.entries(ref.currency))
      expectClose(c[k as keyof typeof c], v, REL, 1e-15, k);
  });
  it("expected returns (Bayes-Stein towards CAPM) and required returns", () => {
    const e = expectedReturns(panel, est.cholesky);
    expectAllClose(e.historical, ref.expected.historical, REL, 0, "historical");
    expectAllClose(e.betas, ref.expected.betas, REL, 0, "betas");
    expectAllClose(e.equilibrium, ref.expected.equilibrium, REL, 0, "equilibrium");
    expectClose(e.shrinkage, ref.expected.shrinkage, 1e-8, 0, "shrinkage");
    expectAllClose(e.expected, ref.expected.expected, 1e-8, 0, "expected");
    const r = requiredReturns(est.matrix, weights);
    expectAllClose(r.assets, ref.required.assets, REL, 0, "required");
    expectClose(r.portfolio, ref.required.portfolio, REL);
  });
});

describe("backtest against numpy", () => {
  const dates = Int32Array.from(inputs.dates);
  const check = (
    values: Float64Array,
    perf: Perf,
    expected: { values: number[]; performance: Perf },
    what: string,
  ) => {
    const every = ref.backtest.every;
    expectAllClose(
      values.filter((_, k) => k % every === 0),
      expected.values,
      REL,
      0,
      `${what} values`,
    );
    for (const k of Object.keys(perf) as (keyof Perf)[])
      expectClose(perf[k], expected.performance[k], REL, 1e-15, `${what} ${k}`);
  };
  it("buy and hold, with the benchmark and tracking error", () => {
    const b = backtest({ panel, weights, benchmark: Float64Array.from(inputs.market) });
    check(b.values, b.performance, ref.backtest.none, "none");
    check(b.benchmark!.values, b.benchmark!.performance, ref.backtest.benchmark, "benchmark");
    expectClose(b.benchmark!.trackingError, ref.backtest.benchmark.trackingError, REL);
  });
  it("monthly rebalancing on calendar months", () => {
    const b = backtest({ panel, weights, dates, rebalancing: "monthly" });
    check(b.values, b.performance, ref.backtest.monthly, "monthly");
  });
  it("quarterly rebalancing by count (every 63 observations) without dates", () => {
    const b = backtest({ panel, weights, rebalancing: "quarterly" });
    check(b.values, b.performance, ref.backtest.every63, "every63");
  });
});

describe("monitoring against numpy", () => {
  it("return, annualised return, rolling 63-day volatility and risk-return of a buy-and-hold path", () => {
    const values = backtest({ panel, weights }).values.subarray(0, 300);
    const m = monitorPortfolio(values);
    for (const k of ["return", "annualizedReturn", "volatility", "riskReturn"] as const)
      expectAllClose(m[k], ref.monitoring[k], REL, 1e-15, k);
  });
});

describe("what-if sensitivities against numpy.linalg.lstsq", () => {
  const factors = {
    factors: inputs.factors,
    observations: inputs.observations,
    data: Float64Array.from(inputs.factorChanges),
  };
  it("weekly OLS betas, alphas and R squared", () => {
    const s = factorSensitivities(panel, factors);
    expect(s.periods).toBe(ref.sensitivities.periods);
    expect(s.factors).toEqual(inputs.factors);
    expectAllClose(s.betas, ref.sensitivities.betas, 1e-8, 1e-12, "betas");
    expectAllClose(s.alphas, ref.sensitivities.alphas, 1e-8, 1e-14, "alphas");
    expectAllClose(s.rSquared, ref.sensitivities.rSquared, 1e-8, 1e-12, "r2");
  });
  it("a shock of dRV -20%, dRF +1 pp, dMMPP +10%", () => {
    const s = factorSensitivities(panel, factors);
    const r = applyShocks(s, Float64Array.from(inputs.amounts), inputs.shocks);
    expectAllClose(r.assetReturns, ref.shock.assetReturns, 1e-8, 1e-12, "returns");
    expectClose(r.totalChange, ref.shock.totalChange, 1e-8);
  });
});

describe("investment simulator against numpy with the same random numbers", () => {
  const sim = ref.simulation;
  const daily = portfolioReturns(panel, weights);
  it("monthly percentiles 5/25/50/75/95 and the historical replay", () => {
    const r = simulateInvestment(daily, {
      initialAmount: sim.initialAmount,
      monthlyContribution: sim.monthlyContribution,
      years: sim.months / 12,
      paths: sim.paths,
      seed: sim.seed,
    });
    expectClose(r.monthlyLogMean, sim.monthlyLogMean, REL);
    expectClose(r.monthlyLogVolatility, sim.monthlyLogVolatility, REL);
    r.percentiles.forEach((p, j) =>
      expectAllClose(p.values, sim.percentiles[j]!, REL, 0, `p${p.percentile}`),
    );
    expectAllClose(r.historical.values, sim.historical, REL, 0, "historical");
  });
});
