// Backtest: value paths and performance figures on paths computed by hand.
import { describe, expect, it } from "vitest";
import { backtest, performance } from "../../src/engine/backtest.ts";
import { dayNumber } from "../../src/engine/dates.ts";
import { monitorPortfolio } from "../../src/engine/monitor.ts";
import { expectAllClose, expectClose, snapshot } from "./analytics-helpers.ts";

describe("performance figures", () => {
  it("constant daily return r: total (1 + r)^T - 1, annualised (1 + r)^252 - 1, no drawdown, sd 0 -> Sharpe 0", () => {
    const p = performance(new Float64Array(504).fill(0.0004));
    expectClose(p.totalReturn, 1.0004 ** 504 - 1, 1e-12);
    expectClose(p.annualizedReturn, 1.0004 ** 252 - 1, 1e-12);
    expect(p.maxDrawdown).toBe(0);
    expectClose(p.volatility, 0, 0, 1e-15);
    expect(p.sharpe).toBe(0);
  });
  it("max drawdown of 100 -> 120 -> 90 -> 130 -> 65 is 50%", () => {
    const p = performance(Float64Array.of(0.2, -0.25, 130 / 90 - 1, -0.5));
    expectClose(p.maxDrawdown, 0.5, 1e-14);
  });
  it("Sharpe = (mean - rf / 252) / sd * sqrt(252)", () => {
    const d = Float64Array.of(0.01, -0.005, 0.002, 0.004);
    const m = 0.00275;
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / 3);
    expectClose(performance(d, 0.03).sharpe, ((m - 0.03 / 252) / sd) * Math.sqrt(252), 1e-12);
  });
});

describe("backtest", () => {
  // Two assets over 4 days: A +10%, +10%, -10%, 0; B 0, 0, +10%, +10%.
  const panel = {
    assets: 2,
    observations: 4,
    data: Float64Array.of(0.1, 0, 0.1, 0, -0.1, 0.1, 0, 0.1),
  };
  const w = Float64Array.of(0.5, 0.5);
  it("buy and hold: holdings drift with prices", () => {
    const b = backtest({ panel, weights: w, initialValue: 100 });
    // A: 50 -> 55 -> 60.5 -> 54.45 -> 54.45; B: 50 -> 50 -> 50 -> 55 -> 60.5
    expectAllClose(b.values, [100, 105, 110.5, 109.45, 114.95], 1e-14);
    expect(b.rebalances).toBe(0);
  });
  it("monthly rebalancing on calendar dates: back to 50/50 at the close of the first day of a new month", () => {
    const dates = Int32Array.from(
      ["2024-01-30", "2024-01-31", "2024-02-01", "2024-02-02", "2024-02-05"].map(dayNumber),
    );
    const b = backtest({ panel, weights: w, dates, rebalancing: "monthly", initialValue: 100 });
    // At the close of 2024-02-01 (first day of a new month) 110.5 is split 55.25 / 55.25:
    // A 55.25 * 0.9 = 49.725, B 55.25 * 1.1 = 60.775; then B +10% again.
    expectAllClose(b.values, [100, 105, 110.5, 110.5, 49.725 + 60.775 * 1.1], 1e-12);
    expect(b.rebalances).toBe(1);
  });
  it("with a benchmark: its path, the excess return and a tracking error", () => {
    const b = backtest({ panel, weights: w, benchmark: Float64Array.of(0.05, 0.05, 0, 0) });
    expectClose(b.benchmark!.performance.totalReturn, 1.05 ** 2 - 1, 1e-14);
    expectClose(b.benchmark!.excessReturn, 0.1495 - (1.05 ** 2 - 1), 1e-12);
    expect(b.benchmark!.trackingError).toBeGreaterThan(0);
  });
  it("errors and no mutation", () => {
    const before = snapshot({ panel, w });
    backtest({ panel, weights: w, rebalancing: "annual" });
    expect({ panel, w }).toEqual(before);
    expect(() => backtest({ panel, weights: w, rebalancing: "weekly" as "monthly" })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => backtest({ panel, weights: w, dates: Int32Array.of(1, 2) })).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => backtest({ panel, weights: w, benchmark: Float64Array.of(0) })).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => backtest({ panel, weights: Float64Array.of(1, 1) })).toThrow(
      expect.objectContaining({ code: "INVALID_WEIGHTS" }),
    );
  });
});

describe("monitorPortfolio", () => {
  it("a path growing 0.1% a day: return, annualised after a month, zero volatility and risk-return 0", () => {
    const values = Float64Array.from({ length: 40 }, (_, t) => 100 * 1.001 ** t);
    const m = monitorPortfolio(values);
    expectClose(m.return[39]!, 1.001 ** 39 - 1, 1e-12);
    expectClose(m.annualizedReturn[10]!, 1.001 ** 10 - 1, 1e-12);
    expectClose(m.annualizedReturn[30]!, 1.001 ** 252 - 1, 1e-10);
    expectClose(m.volatility[30]!, 0, 0, 1e-12);
    expect(m.riskReturn[30]).toBe(0);
  });
  it("refuses non-positive values and short windows", () => {
    expect(() => monitorPortfolio(Float64Array.of(1, 0))).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    expect(() => monitorPortfolio(Float64Array.of(1, 2), 1)).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
  });
});
