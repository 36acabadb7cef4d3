/**
 * Backtest of a portfolio over a past window against a benchmark: value path, total and
 * annualised return, volatility, maximum drawdown and Sharpe ratio, buy and hold or with periodic
 * rebalancing. Formulas: docs/analytics.md, "Backtest".
 */
import { monthKey } from "./dates.ts";
import { EngineError } from "./errors.ts";
import { DEFAULT_RISK_FREE_RATE } from "./expected.ts";
import { validatePanel, validateWeights, type ReturnsPanel } from "./panel.ts";
import { TRADING_DAYS_PER_MONTH, TRADING_DAYS_PER_YEAR } from "./stats.ts";

export type Rebalancing = "none" | "monthly" | "quarterly" | "annual";

const PERIOD_MONTHS = { monthly: 1, quarterly: 3, annual: 12 } as const;

export interface BacktestInput {
  /** Daily returns of the assets over the backtest window, in the portfolio currency. */
  readonly panel: ReturnsPanel;
  /** Initial (and rebalancing target) weights. */
  readonly weights: Float64Array;
  /** Daily returns of the benchmark over the same observations. */
  readonly benchmark?: Float64Array;
  /**
   * The observations + 1 calendar days. With dates, rebalancing happens at the close of the first
   * trading day of each new month, quarter or year; without, every 21, 63 or 252 observations.
   */
  readonly dates?: Int32Array;
  readonly rebalancing?: Rebalancing;
  /** Annual risk-free rate for the Sharpe ratio, default 0.02. */
  readonly riskFreeRate?: number;
  /** Value at the start (default 1: the path is a growth index). */
  readonly initialValue?: number;
}

export interface Performance {
  readonly totalReturn: number;
  /** (1 + total)^(252 / T) - 1. */
  readonly annualizedReturn: number;
  /** Standard deviation of the daily returns (T - 1) times sqrt(252). */
  readonly volatility: number;
  /** Largest fall from a previous peak, as a positive fraction. */
  readonly maxDrawdown: number;
  /** (mean daily return - rf / 252) / sd * sqrt(252); 0 when the sd is below 1e-14 (no risk). */
  readonly sharpe: number;
}

export interface BacktestResult {
  readonly values: Float64Array;
  readonly dailyReturns: Float64Array;
  readonly performance: Performance;
  readonly rebalancing: Rebalancing;
  /** Number of rebalancings done. */
  readonly rebalances: number;
  readonly benchmark?: {
    readonly values: Float64Array;
    readonly performance: Performance;
    /** Portfolio total return minus the benchmark's. */
    readonly excessReturn: number;
    /** sd of the daily return differences times sqrt(252). */
    readonly trackingError: number;
  };
}

/** Performance figures of a daily return series. */
export function performance(
  daily: Float64Array,
  riskFreeRate = DEFAULT_RISK_FREE_RATE,
): Performance {
  const t = daily.length;
  if (t < 2) throw new EngineError("NOT_ENOUGH_HISTORY", `performance: ${t} returns, 2 needed`);
  let g = 1;
  let peak = 1;
  let mdd = 0;
  let sum = 0;
  for (let s = 0; s < t; s++) {
    const r = daily[s]!;
    if (!(r >= -1 && r < Infinity))
      throw new EngineError("INVALID_INPUT", `performance: return ${r} at ${s}`);
    g *= 1 + r;
    sum += r;
    if (g > peak) peak = g;
    else if (peak > 0) mdd = Math.max(mdd, 1 - g / peak);
  }
  const m = sum / t;
  let ss = 0;
  for (let s = 0; s < t; s++) ss += (daily[s]! - m) ** 2;
  const sd = Math.sqrt(ss / (t - 1));
  const root = Math.sqrt(TRADING_DAYS_PER_YEAR);
  return {
    totalReturn: g - 1,
    annualizedReturn: g > 0 ? g ** (TRADING_DAYS_PER_YEAR / t) - 1 : -1,
    volatility: sd * root,
    maxDrawdown: mdd,
    // Below 1e-14 the sd is rounding noise of a riskless series, not risk.
    sharpe: sd > 1e-14 ? ((m - riskFreeRate / TRADING_DAYS_PER_YEAR) / sd) * root : 0,
  };
}

export function backtest(input: BacktestInput): BacktestResult {
  const { panel, weights } = input;
  validatePanel(panel, 2, "backtest");
  validateWeights(weights, panel.assets);
  const rebalancing = input.rebalancing ?? "none";
  if (!["none", "monthly", "quarterly", "annual"].includes(rebalancing))
    throw new EngineError("INVALID_PARAMETER", `unknown rebalancing "${rebalancing}"`);
  const rf = input.riskFreeRate ?? DEFAULT_RISK_FREE_RATE;
  const v0 = input.initialValue ?? 1;
  if (!(v0 > 0 && v0 < Infinity))
    throw new EngineError("INVALID_PARAMETER", `initialValue must be > 0, got ${v0}`);
  const { assets: n, observations: t, data } = panel;
  const dates = input.dates;
  if (dates && dates.length !== t + 1)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `backtest: ${dates.length} dates for ${t} observations (needs ${t + 1})`,
    );
  const period = rebalancing === "none" ? 0 : PERIOD_MONTHS[rebalancing];
  const holdings = new Float64Array(n);
  for (let i = 0; i < n; i++) holdings[i] = v0 * weights[i]!;
  const values = new Float64Array(t + 1);
  const daily = new Float64Array(t);
  values[0] = v0;
  let rebalances = 0;
  for (let s = 0; s < t; s++) {
    if (period > 0 && s > 0) {
      const due = dates
        ? Math.floor(monthKey(dates[s]!) / period) !== Math.floor(monthKey(dates[s - 1]!) / period)
        : s % (period * TRADING_DAYS_PER_MONTH) === 0;
      if (due) {
        const v = values[s]!;
        for (let i = 0; i < n; i++) holdings[i] = v * weights[i]!;
        rebalances++;
      }
    }
    let v = 0;
    const base = s * n;
    for (let i = 0; i < n; i++) {
      const h = holdings[i]! * (1 + data[base + i]!);
      holdings[i] = h;
      v += h;
    }
    values[s + 1] = v;
    daily[s] = values[s]! !== 0 ? v / values[s]! - 1 : 0;
  }
  const result: BacktestResult = {
    values,
    dailyReturns: daily,
    performance: performance(daily, rf),
    rebalancing,
    rebalances,
  };
  const bm = input.benchmark;
  if (!bm) return result;
  if (bm.length !== t)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `backtest: benchmark has ${bm.length} returns for ${t}`,
    );
  const bValues = new Float64Array(t + 1);
  bValues[0] = v0;
  let dm = 0;
  for (let s = 0; s < t; s++) {
    bValues[s + 1] = bValues[s]! * (1 + bm[s]!);
    dm += daily[s]! - bm[s]!;
  }
  dm /= t;
  let te = 0;
  for (let s = 0; s < t; s++) te += (daily[s]! - bm[s]! - dm) ** 2;
  const bPerf = performance(bm, rf);
  return {
    ...result,
    benchmark: {
      values: bValues,
      performance: bPerf,
      excessReturn: result.performance.totalReturn - bPerf.totalReturn,
      trackingError: Math.sqrt(te / (t - 1)) * Math.sqrt(TRADING_DAYS_PER_YEAR),
    },
  };
}
