// The holdings' past (src/engine/history) on cases worked out by hand: a path that never falls,
// one that never recovers, a recovery to the exact high, a total loss, calendar years across a
// new year and a Saturday 31 December, rolling windows of a constant return, a constant asset's
// correlations, average linkage on distances small enough to follow, a regression on exact
// linear data, the portfolio's betas as the weighted assets' betas, and the report's own rules
// (only the sections asked for, no NaN, inputs untouched, clear errors).
import { describe, expect, it } from "vitest";
import { dayNumber } from "../../src/engine/dates.ts";
import { EngineError } from "../../src/engine/errors.ts";
import { calendarYears, lastWeekdayOfYear } from "../../src/engine/history/calendar-years.ts";
import { averageLinkage } from "../../src/engine/history/clustering.ts";
import { correlations } from "../../src/engine/history/correlation.ts";
import {
  drawdownEpisodes,
  underwater,
  worstDrawdowns,
} from "../../src/engine/history/drawdowns.ts";
import { growthPath } from "../../src/engine/history/growth.ts";
import { pastPerformance, HISTORY_SECTIONS } from "../../src/engine/history/past-performance.ts";
import { factorRegression } from "../../src/engine/history/regression.ts";
import { rollingWindows } from "../../src/engine/history/rolling.ts";
import { portfolioReturns, type ReturnsPanel } from "../../src/engine/panel.ts";
import { syntheticMarket } from "../../src/engine/synthetic.ts";
import { factorSensitivities } from "../../src/engine/whatif/sensitivities.ts";
import { type FactorPanel } from "../../src/engine/whatif/factors.ts";
import { expectAllClose, expectAllFinite, expectClose, snapshot } from "./analytics-helpers.ts";

const f64 = (...v: number[]) => Float64Array.from(v);
const days = (...iso: string[]) => Int32Array.from(iso, dayNumber);

/** Weekdays from `from`, `count` of them. */
function weekdays(from: string, count: number): Int32Array {
  const out = new Int32Array(count);
  let d = dayNumber(from);
  for (let k = 0; k < count; d++) {
    const w = (((d + 4) % 7) + 7) % 7;
    if (w !== 0 && w !== 6) out[k++] = d;
  }
  return out;
}

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof EngineError) return error.code;
    throw error;
  }
  return "no error";
};

describe("growth of an amount", () => {
  it("compounds each return from the amount invested", () => {
    expectAllClose(growthPath(f64(0.1, -0.5, 1), 100), [100, 110, 55, 110], 1e-15);
    expect(Array.from(growthPath(f64(), 250))).toEqual([250]);
  });
  it("a return of -100% leaves nothing; below -100% or a non-positive amount is refused", () => {
    expect(Array.from(growthPath(f64(-1, 0.5), 10))).toEqual([10, 0, 0]);
    expect(code(() => growthPath(f64(-1.01), 10))).toBe("INVALID_INPUT");
    expect(code(() => growthPath(f64(NaN), 10))).toBe("INVALID_INPUT");
    expect(code(() => growthPath(f64(0.1), 0))).toBe("INVALID_PARAMETER");
  });
});

describe("drawdowns", () => {
  it("a path that never falls: underwater 0 every day, no fall", () => {
    const values = f64(100, 100, 101, 105, 105, 110);
    expect(Array.from(underwater(values))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(drawdownEpisodes(values)).toEqual([]);
    expect(worstDrawdowns(values)).toEqual([]);
  });

  it("a path that never recovers: one fall, recovery null, length to the last day", () => {
    const values = f64(128, 96, 64, 80);
    expect(Array.from(underwater(values))).toEqual([0, -0.25, -0.5, -0.375]);
    expect(drawdownEpisodes(values)).toEqual([
      {
        peak: 0,
        trough: 2,
        recovery: null,
        depth: 0.5,
        length: 3,
        toTrough: 2,
        toRecovery: null,
      },
    ]);
  });

  it("back exactly at the high is recovered; the lowest value reached twice is the first trough", () => {
    const values = f64(100, 120, 60, 90, 60, 120, 128, 112, 128);
    const falls = drawdownEpisodes(values);
    expect(falls).toEqual([
      { peak: 1, trough: 2, recovery: 5, depth: 0.5, length: 4, toTrough: 1, toRecovery: 3 },
      { peak: 6, trough: 7, recovery: 8, depth: 0.125, length: 2, toTrough: 1, toRecovery: 1 },
    ]);
  });

  it("the worst falls: deepest first, equal depths oldest first, at most `count`", () => {
    const values = f64(128, 96, 128, 64, 128, 96, 128, 32);
    const worst = worstDrawdowns(values, 3);
    expect(worst.map((d) => [d.peak, d.depth])).toEqual([
      [6, 0.75],
      [2, 0.5],
      [0, 0.25],
    ]);
    expect(worstDrawdowns(values, 10)).toHaveLength(4);
    expect(code(() => worstDrawdowns(values, -1))).toBe("INVALID_PARAMETER");
  });

  it("a total loss is a fall of 100% that never recovers", () => {
    const [fall] = drawdownEpisodes(growthPath(f64(0.2, -1, 0), 10));
    expect(fall).toMatchObject({ peak: 1, trough: 2, recovery: null, depth: 1, length: 2 });
  });

  it("refuses a path that starts at zero or holds a negative or non-finite value", () => {
    expect(code(() => underwater(f64(0, 1)))).toBe("INVALID_INPUT");
    expect(code(() => underwater(f64(1, -1)))).toBe("INVALID_INPUT");
    expect(code(() => underwater(f64(1, Infinity)))).toBe("INVALID_INPUT");
    expect(code(() => underwater(f64()))).toBe("NOT_ENOUGH_HISTORY");
  });
});

describe("calendar years", () => {
  it("a return belongs to the year of the day it ends on; partial years are flagged", () => {
    const dates = days("2019-12-30", "2019-12-31", "2020-01-02", "2020-01-03");
    const years = calendarYears(dates, f64(0.1, 0.2, -0.5));
    expect(years.map(({ return: _, ...y }) => y)).toEqual([
      // 2019 starts on 30 December: the history does not hold the year's start.
      { year: 2019, first: 0, last: 0, partial: true },
      // 2020 starts from 2019's last close, but the history stops on 3 January.
      { year: 2020, first: 1, last: 2, partial: true },
    ]);
    expectClose(years[0]!.return, 0.1, 1e-15);
    expectClose(years[1]!.return, 1.2 * 0.5 - 1, 1e-15);
  });

  it("a year from the previous year's last close to its own last weekday is whole", () => {
    // 31 December 2022 is a Saturday: the year's last weekday is Friday the 30th.
    expect(lastWeekdayOfYear(2022)).toBe(dayNumber("2022-12-30"));
    expect(lastWeekdayOfYear(2020)).toBe(dayNumber("2020-12-31"));
    const dates = days("2021-12-31", "2022-06-30", "2022-12-30");
    expect(calendarYears(dates, f64(0.1, 0.1))).toEqual([
      { year: 2022, first: 0, last: 1, return: 1.1 * 1.1 - 1, partial: false },
    ]);
    expect(calendarYears(days("2021-12-31", "2022-12-29"), f64(0.1))[0]!.partial).toBe(true);
  });

  it("refuses dates that do not frame the returns", () => {
    expect(code(() => calendarYears(days("2022-01-03"), f64(0.1)))).toBe("DIMENSION_MISMATCH");
  });
});

describe("rolling windows", () => {
  it("a constant daily return: (1 + r)^252 - 1 every window, no volatility", () => {
    const r = new Float64Array(300).fill(0.001);
    const w = rollingWindows(r);
    expect(w.returns).toHaveLength(49);
    w.returns.forEach((x) => expectClose(x, 1.001 ** 252 - 1, 1e-12));
    w.volatility.forEach((x) => expect(x).toBeLessThan(1e-15));
  });

  it("windows by hand, and none when the history is shorter than one", () => {
    const w = rollingWindows(f64(0.1, -0.1, 0.2, 0), 3);
    expectAllClose(w.returns, [1.1 * 0.9 * 1.2 - 1, 0.9 * 1.2 - 1], 1e-15);
    const sd = (xs: number[]) => {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
    };
    expectAllClose(
      w.volatility,
      [sd([0.1, -0.1, 0.2]) * Math.sqrt(252), sd([-0.1, 0.2, 0]) * Math.sqrt(252)],
      1e-14,
    );
    expect(rollingWindows(f64(0.1, 0.2), 3).returns).toHaveLength(0);
    expect(code(() => rollingWindows(f64(0.1, 0.2), 1))).toBe("INVALID_PARAMETER");
  });
});

describe("correlations and their order", () => {
  it("a constant asset: flagged, 0 to every other, 1 on the diagonal; no NaN", () => {
    const panel: ReturnsPanel = {
      assets: 3,
      observations: 4,
      data: f64(0.01, 0.0001, 0.02, -0.02, 0.0001, -0.04, 0.03, 0.0001, 0.06, 0, 0.0001, 0),
    };
    const c = correlations(panel);
    expect(Array.from(c.constant)).toEqual([0, 1, 0]);
    // Asset 2 is twice asset 0: correlation 1.
    expectAllClose(c.matrix, [1, 0, 1, 0, 1, 0, 1, 0, 1], 0, 1e-15);
    expectAllClose(c.average, [0.5, 0, 0.5], 0, 1e-15);
    // The identical pair merges first, at distance 0; the constant asset joins at distance 1.
    expect(Array.from(c.dendrogram.order)).toEqual([1, 0, 2]);
    expectAllFinite(c);
  });

  it("two assets: the sample correlation; one asset: a 1 x 1 matrix and no average", () => {
    const a = [0.01, -0.02, 0.015, 0.003];
    const b = [0.02, -0.01, -0.005, 0.01];
    const c = correlations({
      assets: 2,
      observations: 4,
      data: f64(...a.flatMap((x, i) => [x, b[i]!])),
    });
    const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
    const ma = mean(a);
    const mb = mean(b);
    const sab = a.reduce((s, x, i) => s + (x - ma) * (b[i]! - mb), 0);
    const saa = a.reduce((s, x) => s + (x - ma) ** 2, 0);
    const sbb = b.reduce((s, x) => s + (x - mb) ** 2, 0);
    expectClose(c.matrix[1]!, sab / Math.sqrt(saa * sbb), 1e-14);
    expect(c.average[0]).toBe(c.matrix[1]);
    const one = correlations({ assets: 1, observations: 3, data: f64(0.1, 0.2, 0.3) });
    expect([
      Array.from(one.matrix),
      Array.from(one.average),
      Array.from(one.dendrogram.order),
    ]).toEqual([[1], [0], [0]]);
    expect(code(() => correlations({ assets: 2, observations: 1, data: f64(0.1, 0.2) }))).toBe(
      "NOT_ENOUGH_HISTORY",
    );
  });

  it("average linkage by hand: pairs first, then the pairs at the mean of their four distances", () => {
    // 0 and 2 are close (1), 1 and 3 (2); the rest far apart.
    const d = f64(0, 6, 1, 8, 6, 0, 7, 2, 1, 7, 0, 9, 8, 2, 9, 0);
    const { merges, order } = averageLinkage(d, 4);
    expect(Array.from(merges)).toEqual([0, 2, 1, 2, 1, 3, 2, 2, 4, 5, 7.5, 4]);
    expect(Array.from(order)).toEqual([0, 2, 1, 3]);
  });

  it("average linkage weighs each cluster by its size; the smaller id is drawn first", () => {
    // (0, 1) at 1, then 2 joins them at (4 + 6) / 2 = 5: cluster 2 (id 2) left of cluster 3.
    const { merges, order } = averageLinkage(f64(0, 1, 4, 1, 0, 6, 4, 6, 0), 3);
    expect(Array.from(merges)).toEqual([0, 1, 1, 2, 2, 3, 5, 3]);
    expect(Array.from(order)).toEqual([2, 0, 1]);
    const four = averageLinkage(
      // {0, 1} at 1; then 2 at (2 + 4) / 2 = 3 to it; 3 at (10 + 11 + 12) / 3 = 11 to all three.
      f64(0, 1, 2, 10, 1, 0, 4, 11, 2, 4, 0, 12, 10, 11, 12, 0),
      4,
    );
    expect(Array.from(four.merges)).toEqual([0, 1, 1, 2, 2, 4, 3, 3, 3, 5, 11, 4]);
    expect(Array.from(four.order)).toEqual([3, 2, 0, 1]);
  });

  it("refuses distances that are not a finite non-negative n x n matrix", () => {
    expect(code(() => averageLinkage(f64(0, 1, 1), 2))).toBe("DIMENSION_MISMATCH");
    expect(code(() => averageLinkage(f64(0, -1, -1, 0), 2))).toBe("INVALID_INPUT");
    expect(code(() => averageLinkage(f64(0, NaN, NaN, 0), 2))).toBe("INVALID_INPUT");
  });
});

describe("the portfolio's factor regression", () => {
  /** Daily factor changes of two return factors and one level factor. */
  function factors(t: number, seed = 3): FactorPanel {
    const m = syntheticMarket({ assets: 1, days: t, seed });
    const data = new Float64Array(t * 3);
    for (let s = 0; s < t; s++) {
      data[s * 3] = m.factors.data[s * 5]!;
      data[s * 3 + 1] = m.factors.data[s * 5 + 1]!;
      data[s * 3 + 2] = m.factors.data[s * 5 + 3]!;
    }
    return { factors: ["market", "rates", "commodities"], observations: t, data };
  }

  it("exact linear data: the coefficients back, no residual, standard errors 0, R² 1", () => {
    const f = factors(400);
    // Daily periods, so that the period return is the daily one (no compounding).
    const y = new Float64Array(400);
    for (let s = 0; s < 400; s++)
      y[s] = 0.0002 + 1.2 * f.data[s * 3]! - 0.03 * f.data[s * 3 + 1]! + 0.4 * f.data[s * 3 + 2]!;
    const fit = factorRegression(y, f, { periodDays: 1 });
    expectClose(fit.alpha, 0.0002, 1e-9);
    expectAllClose(fit.betas, [1.2, -0.03, 0.4], 1e-10);
    expect(fit.rSquared).toBeCloseTo(1, 12);
    for (const se of [fit.alphaStandardError, ...fit.standardErrors])
      expect(se).toBeLessThan(1e-12);
    expect([fit.periods, fit.degreesOfFreedom]).toEqual([400, 396]);
  });

  it("with daily periods the portfolio's betas are the weighted assets' betas (OLS is linear)", () => {
    const m = syntheticMarket({ assets: 6, days: 600, seed: 9 });
    const weights = f64(0.3, 0.1, 0.2, 0.15, 0.05, 0.2);
    const fit = factorRegression(portfolioReturns(m.panel, weights), m.factors, { periodDays: 1 });
    const assets = factorSensitivities(m.panel, m.factors, { periodDays: 1 });
    expect(fit.factors).toEqual(assets.factors);
    const k = assets.factors.length;
    for (let a = 0; a < k; a++) {
      let b = 0;
      for (let i = 0; i < 6; i++) b += weights[i]! * assets.betas[i * k + a]!;
      expectClose(fit.betas[a]!, b, 1e-9, 1e-12, assets.factors[a]);
    }
    let alpha = 0;
    for (let i = 0; i < 6; i++) alpha += weights[i]! * assets.alphas[i]!;
    expectClose(fit.alpha, alpha, 1e-9, 1e-14, "alpha");
  });

  it("a factor that never moves is excluded; too few periods is NOT_ENOUGH_HISTORY", () => {
    const f = factors(200);
    for (let s = 0; s < 200; s++) f.data[s * 3 + 1] = 0;
    const y = new Float64Array(200).map((_, s) => 0.5 * f.data[s * 3]! + 0.001 * Math.sin(s));
    const fit = factorRegression(y, f);
    expect([fit.factors, fit.excluded]).toEqual([["market", "commodities"], ["rates"]]);
    expect(
      code(() =>
        factorRegression(y.subarray(0, 15), {
          ...f,
          observations: 15,
          data: f.data.subarray(0, 45),
        }),
      ),
    ).toBe("NOT_ENOUGH_HISTORY");
  });
});

describe("the report of a portfolio's past", () => {
  const t = 400;
  const market = syntheticMarket({ assets: 4, days: t, seed: 21 });
  // A fifth asset that never moves (cash at 0%).
  const data = new Float64Array(t * 5);
  for (let s = 0; s < t; s++)
    for (let i = 0; i < 4; i++) data[s * 5 + i] = market.panel.data[s * 4 + i]!;
  const panel: ReturnsPanel = { assets: 5, observations: t, data };
  const dates = weekdays("2021-03-01", t + 1);
  const amounts = f64(1000, 2000, 500, 1500, 5000);

  it("computes only the sections asked for, never mutates its inputs, and has no NaN", () => {
    const input = {
      panel,
      dates,
      amounts,
      windowDays: 126,
      sections: ["growth", "correlation"] as const,
    };
    const before = snapshot(input);
    const out = pastPerformance(input);
    expect(input).toEqual(before);
    expect(Object.keys(out).sort()).toEqual(
      ["correlation", "growth", "returns", "totalInvested", "weights"].sort(),
    );
    expect(out.totalInvested).toBe(10_000);
    expect(out.growth!.benchmark).toBeNull();
    expect(out.growth!.window.portfolio.start).toBe(t - 126);
    expect(out.growth!.window.portfolio.values[0]).toBe(10_000);
    expect(Array.from(out.correlation!.constant)).toEqual([0, 0, 0, 0, 1]);
    expectAllFinite(out);
  });

  it("every section: the benchmark from a later day starts at the portfolio's value that day", () => {
    const start = 100;
    const benchmark = { start, returns: market.market.slice(start) };
    const out = pastPerformance({
      panel,
      dates,
      amounts,
      windowDays: 63,
      benchmark,
      sections: HISTORY_SECTIONS,
    });
    expect(out.growth!.benchmark!.values[0]).toBe(out.growth!.portfolio[start]);
    // The window starts after the benchmark: both from the amount invested.
    expect(out.growth!.window.benchmark).toMatchObject({ start: t - 63 });
    expect(out.growth!.window.benchmark!.values[0]).toBe(10_000);
    // Rolling windows: the benchmark's first is the portfolio's entry `start`.
    expect(out.rolling!.portfolio.returns).toHaveLength(t - 252 + 1);
    expect(out.rolling!.benchmark!.returns).toHaveLength(t - start - 252 + 1);
    expect(out.drawdowns!.benchmark!.start).toBe(start);
    for (const d of out.drawdowns!.benchmark!.worst) expect(d.peak).toBeGreaterThanOrEqual(start);
    // No factor series given: the regression says why it is missing.
    expect(out.regression).toEqual({ ok: false, reason: "no-factor-data" });
    expectAllFinite(out);
  });

  it("a regression on too short a history is marked unavailable, not an error", () => {
    // 12 days: two weekly periods, for one factor and an intercept (three needed).
    const short = { assets: 5, observations: 12, data: data.subarray(0, 60) };
    const out = pastPerformance({
      panel: short,
      dates: dates.subarray(0, 13),
      amounts,
      windowDays: 12,
      sections: ["regression"],
      factors: [{ factor: "market", dates, values: growthPath(market.market, 100) }],
    });
    expect(out.regression).toEqual({ ok: false, reason: "not-enough-history" });
  });

  it("refuses a window longer than the history, dates that do not fit, a misplaced benchmark", () => {
    const base = { panel, dates, amounts, sections: HISTORY_SECTIONS };
    expect(code(() => pastPerformance({ ...base, windowDays: t + 1 }))).toBe("INVALID_PARAMETER");
    expect(code(() => pastPerformance({ ...base, windowDays: 21, dates: dates.subarray(1) }))).toBe(
      "DIMENSION_MISMATCH",
    );
    expect(
      code(() =>
        pastPerformance({ ...base, windowDays: 21, benchmark: { start: 10, returns: f64(0.1) } }),
      ),
    ).toBe("DIMENSION_MISMATCH");
    expect(code(() => pastPerformance({ ...base, windowDays: 21, amounts: f64(1, 2) }))).toBe(
      "DIMENSION_MISMATCH",
    );
  });
});
