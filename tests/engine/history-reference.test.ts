// Every figure of the holdings' past (src/engine/history) against numpy and scipy:
// scripts/reference/history.py computes them independently from a seeded fixture (8 assets, 1,400
// weekday returns from 2015-07-15, a benchmark from day 300, five factor level series) and writes
// tests/engine/reference/history.json.
// Tolerances: 1e-12 relative (plus 1e-14 absolute for figures near zero, where a relative bound
// means nothing) for everything computed by sums and products in another order: paths,
// calendar years, rolling windows, underwater, drawdown depths, correlations and the
// dendrogram's distances. Indices, dates, flags and the leaf order are exact. The regression goes
// through a linear solve by other algebra (numpy: lstsq and inv(X'X) with the intercept column;
// the engine: Cholesky of the centred X'X) and still agrees to about 1e-13: 1e-12 relative too.
import { describe, expect, it } from "vitest";
import { calendarYears } from "../../src/engine/history/calendar-years.ts";
import { correlations } from "../../src/engine/history/correlation.ts";
import {
  drawdownEpisodes,
  underwater,
  worstDrawdowns,
  type Drawdown,
} from "../../src/engine/history/drawdowns.ts";
import { growthPath } from "../../src/engine/history/growth.ts";
import { pastPerformance, HISTORY_SECTIONS } from "../../src/engine/history/past-performance.ts";
import { factorRegression } from "../../src/engine/history/regression.ts";
import { rollingWindows } from "../../src/engine/history/rolling.ts";
import { lastObservations, portfolioReturns, type ReturnsPanel } from "../../src/engine/panel.ts";
import {
  factorChanges,
  type FactorSeries,
  type WhatIfFactor,
} from "../../src/engine/whatif/factors.ts";
import { expectAllClose, expectClose, loadReference, snapshot } from "./analytics-helpers.ts";

interface Year {
  year: number;
  first: number;
  last: number;
  return: number;
  partial: boolean;
  benchmark: number | null;
  difference: number | null;
}
interface Regression {
  factors: WhatIfFactor[];
  excluded?: WhatIfFactor[];
  alpha: number;
  alphaStandardError: number;
  betas: number[];
  standardErrors: number[];
  rSquared: number;
  adjustedRSquared: number;
  residualStandardError: number;
  periods: number;
  degreesOfFreedom: number;
}
interface Rolling {
  returns: number[];
  volatility: number[];
}
interface Reference {
  inputs: {
    assets: number;
    observations: number;
    dates: number[];
    returns: number[];
    amounts: number[];
    windowDays: number;
    benchmark: { start: number; returns: number[] };
    factors: { factor: WhatIfFactor; dates: number[]; values: number[] }[];
    regressionDays: number;
    allFactorsFrom: number;
  };
  portfolioReturns: number[];
  growth: {
    portfolio: number[];
    benchmark: number[];
    windowPortfolio: number[];
    windowBenchmark: number[];
  };
  calendarYears: Year[];
  rolling: { portfolio: Rolling; benchmark: Rolling };
  drawdowns: {
    portfolio: { underwater: number[]; worst: Drawdown[]; all: Drawdown[] };
    benchmark: { underwater: number[]; worst: Drawdown[] };
  };
  correlation: { matrix: number[]; average: number[]; merges: number[]; order: number[] };
  regression: Regression;
  regressionAllFactors: Regression;
}

const ref = loadReference<Reference>("history.json");
const REL = 1e-12;
const ABS = 1e-14;
const REG = 1e-12;

const inputs = ref.inputs;
const panel: ReturnsPanel = {
  assets: inputs.assets,
  observations: inputs.observations,
  data: Float64Array.from(inputs.returns),
};
const dates = Int32Array.from(inputs.dates);
const amounts = Float64Array.from(inputs.amounts);
const total = inputs.amounts.reduce((s, a) => s + a, 0);
const weights = amounts.map((a) => a / total);
const benchmark = {
  start: inputs.benchmark.start,
  returns: Float64Array.from(inputs.benchmark.returns),
};
const factors: FactorSeries[] = inputs.factors.map((f) => ({
  factor: f.factor,
  dates: Int32Array.from(f.dates),
  values: Float64Array.from(f.values),
}));
const returns = portfolioReturns(panel, weights);

function expectDrawdowns(actual: readonly Drawdown[], expected: readonly Drawdown[], what: string) {
  expect(actual.map(({ depth: _, ...rest }) => rest)).toEqual(
    expected.map(({ depth: _, ...rest }) => rest),
  );
  actual.forEach((d, i) => expectClose(d.depth, expected[i]!.depth, REL, 0, `${what}[${i}].depth`));
}

function expectRegression(
  actual: ReturnType<typeof factorRegression>,
  expected: Regression,
  what: string,
) {
  expect(actual.factors).toEqual(expected.factors);
  expect([actual.periods, actual.degreesOfFreedom]).toEqual([
    expected.periods,
    expected.degreesOfFreedom,
  ]);
  expectClose(actual.alpha, expected.alpha, REG, 0, `${what} alpha`);
  expectClose(
    actual.alphaStandardError,
    expected.alphaStandardError,
    REG,
    0,
    `${what} alpha's standard error`,
  );
  expectAllClose(actual.betas, expected.betas, REG, 0, `${what} betas`);
  expectAllClose(actual.standardErrors, expected.standardErrors, REG, 0, `${what} standard errors`);
  expectClose(actual.rSquared, expected.rSquared, REG, 0, `${what} R²`);
  expectClose(actual.adjustedRSquared, expected.adjustedRSquared, REG, 0, `${what} adjusted R²`);
  expectClose(
    actual.residualStandardError,
    expected.residualStandardError,
    REG,
    0,
    `${what} residual standard error`,
  );
}

describe("the holdings' past against numpy (scripts/reference/history.py)", () => {
  it("the portfolio's daily returns are w'r with today's weights", () => {
    expectAllClose(returns, ref.portfolioReturns, REL, ABS, "w'r");
  });

  it("growth of the amount invested: np.cumprod of 1 + r", () => {
    expectAllClose(growthPath(returns, total), ref.growth.portfolio, REL, 0, "portfolio");
    const start = ref.growth.portfolio[benchmark.start]!;
    expectAllClose(growthPath(benchmark.returns, start), ref.growth.benchmark, REL, 0, "benchmark");
  });

  it("calendar-year returns, the partial first and last years flagged", () => {
    const years = calendarYears(dates, returns);
    expect(years.map(({ return: _, ...rest }) => rest)).toEqual(
      ref.calendarYears.map((y) => ({
        year: y.year,
        first: y.first,
        last: y.last,
        partial: y.partial,
      })),
    );
    years.forEach((y, i) =>
      expectClose(y.return, ref.calendarYears[i]!.return, REL, ABS, `${y.year}`),
    );
    // The fixture starts in July 2015 and ends in 2020 before the year's last weekday.
    expect(years.filter((y) => y.partial).map((y) => y.year)).toEqual([2015, 2020]);
  });

  it("rolling 252-day return (np.prod) and volatility (np.std, ddof 1, times sqrt(252))", () => {
    for (const [name, series] of [
      ["portfolio", returns],
      ["benchmark", benchmark.returns],
    ] as const) {
      const r = rollingWindows(series, 252);
      expectAllClose(r.returns, ref.rolling[name].returns, REL, ABS, `${name} return`);
      expectAllClose(r.volatility, ref.rolling[name].volatility, REL, 0, `${name} volatility`);
    }
  });

  it("underwater series and every fall: peak, trough, recovery (or none), depth, lengths", () => {
    const values = Float64Array.from(ref.growth.portfolio);
    expectAllClose(
      underwater(values),
      ref.drawdowns.portfolio.underwater,
      REL,
      ABS,
      "portfolio underwater",
    );
    expectDrawdowns(drawdownEpisodes(values), ref.drawdowns.portfolio.all, "falls");
    expectDrawdowns(worstDrawdowns(values, 5), ref.drawdowns.portfolio.worst, "worst");
    // The fixture's deepest fall has not recovered by its last day; another one has.
    expect(ref.drawdowns.portfolio.worst[0]!.recovery).toBeNull();
    expect(ref.drawdowns.portfolio.worst.some((d) => d.recovery !== null)).toBe(true);
  });

  it("correlations (np.corrcoef), averages, and scipy's average linkage and leaf order", () => {
    const c = correlations(lastObservations(panel, inputs.windowDays));
    expectAllClose(c.matrix, ref.correlation.matrix, 0, 1e-14, "correlation");
    expectAllClose(c.average, ref.correlation.average, 0, 1e-14, "average correlation");
    expect(Array.from(c.dendrogram.order)).toEqual(ref.correlation.order);
    const m = c.dendrogram.merges;
    for (let k = 0; k < inputs.assets - 1; k++) {
      expect([m[k * 4], m[k * 4 + 1], m[k * 4 + 3]]).toEqual([
        ref.correlation.merges[k * 4],
        ref.correlation.merges[k * 4 + 1],
        ref.correlation.merges[k * 4 + 3],
      ]);
      expectClose(m[k * 4 + 2]!, ref.correlation.merges[k * 4 + 2]!, REL, ABS, `merge ${k}`);
    }
    // Related assets (the fixture's three sectors) end up side by side.
    expect(Array.from(c.constant)).toEqual(new Array(inputs.assets).fill(0));
  });

  it("the portfolio's factor regression: alpha, betas, R², standard errors (lstsq, inv(X'X))", () => {
    const from = inputs.allFactorsFrom;
    const fit = factorRegression(
      returns.subarray(from),
      factorChanges(factors, dates.subarray(from)),
    );
    expectRegression(fit, ref.regressionAllFactors, "all factors");
  });

  it("the whole report: every section on the same inputs, benchmark from day 300", () => {
    const input = {
      panel,
      dates,
      amounts,
      windowDays: inputs.windowDays,
      benchmark,
      sections: HISTORY_SECTIONS,
      factors,
      regressionDays: inputs.regressionDays,
    };
    const before = snapshot(input);
    const out = pastPerformance(input);
    expect(input).toEqual(before);
    const t = inputs.observations;
    const w0 = t - inputs.windowDays;

    const g = out.growth!;
    expectAllClose(g.portfolio, ref.growth.portfolio, REL, 0, "growth");
    expect(g.benchmark!.start).toBe(benchmark.start);
    expectAllClose(g.benchmark!.values, ref.growth.benchmark, REL, 0, "benchmark growth");
    expect([g.window.portfolio.start, g.window.benchmark!.start]).toEqual([w0, w0]);
    expectAllClose(g.window.portfolio.values, ref.growth.windowPortfolio, REL, 0, "window");
    expectAllClose(g.window.benchmark!.values, ref.growth.windowBenchmark, REL, 0, "window bm");

    const years = out.calendarYears!;
    expect(years.map((y) => [y.year, y.partial, y.benchmark === null])).toEqual(
      ref.calendarYears.map((y) => [y.year, y.partial, y.benchmark === null]),
    );
    // The benchmark starts inside 2016: no benchmark figure for 2015 or 2016.
    expect(years.filter((y) => y.benchmark === null).map((y) => y.year)).toEqual([2015, 2016]);
    years.forEach((y, i) => {
      const e = ref.calendarYears[i]!;
      expectClose(y.portfolio, e.return, REL, ABS, `${y.year}`);
      if (e.benchmark !== null) {
        expectClose(y.benchmark!, e.benchmark, REL, ABS, `${y.year} benchmark`);
        expectClose(y.difference!, e.difference!, REL, ABS, `${y.year} difference`);
      }
    });

    const r = out.rolling!;
    expectAllClose(r.portfolio.returns, ref.rolling.portfolio.returns, REL, ABS, "rolling");
    expect(r.benchmark!.start).toBe(benchmark.start);
    expectAllClose(r.benchmark!.volatility, ref.rolling.benchmark.volatility, REL, 0, "bm vol");

    const d = out.drawdowns!;
    expectDrawdowns(d.portfolio.worst, ref.drawdowns.portfolio.worst, "portfolio");
    expect(d.portfolio.maxDrawdown).toBe(d.portfolio.worst[0]!.depth);
    expect(d.benchmark!.start).toBe(benchmark.start);
    expectAllClose(d.benchmark!.underwater, ref.drawdowns.benchmark.underwater, REL, ABS, "bm uw");
    expectDrawdowns(d.benchmark!.worst, ref.drawdowns.benchmark.worst, "benchmark");

    const c = out.correlation!;
    expect([c.from, c.to]).toEqual([w0, t]);
    expect(Array.from(c.dendrogram.order)).toEqual(ref.correlation.order);

    const reg = out.regression!;
    if (!reg.ok) throw new Error(reg.reason);
    expect([reg.from, reg.to]).toEqual([t - inputs.regressionDays, t]);
    // Crypto has no level on the window's first day: left out, as the what-if leaves it out.
    expect(reg.excluded).toEqual(ref.regression.excluded);
    expectRegression(reg.fit, ref.regression, "5-year window");
  });
});
