/**
 * Monitoring of a saved portfolio: return, risk and risk-return over time from its value path
 * since it was saved. Formulas: docs/analytics.md, "Monitoring".
 */
import { EngineError } from "./errors.ts";
import { TRADING_DAYS_PER_MONTH, TRADING_DAYS_PER_YEAR } from "./stats.ts";

export const DEFAULT_MONITOR_WINDOW = 63;

export interface Monitoring {
  /** V_t / V_0 - 1. */
  readonly return: Float64Array;
  /**
   * (V_t / V_0)^(252 / t) - 1 from one month (21 days) on; before that the plain return (an
   * annualised figure of a few days says nothing).
   */
  readonly annualizedReturn: Float64Array;
  /**
   * Annualised volatility of the daily returns of the last min(t, window) days (sample sd times
   * sqrt(252)); 0 for t < 2.
   */
  readonly volatility: Float64Array;
  /** annualizedReturn / volatility; 0 when the volatility is 0. */
  readonly riskReturn: Float64Array;
}

/** Figures for each day t = 0 … T of a value path V_0 … V_T (amounts or an index). */
export function monitorPortfolio(
  values: Float64Array,
  windowDays = DEFAULT_MONITOR_WINDOW,
): Monitoring {
  const n = values.length;
  if (n < 1) throw new EngineError("NOT_ENOUGH_HISTORY", "monitorPortfolio: no values");
  if (!(Number.isInteger(windowDays) && windowDays >= 2))
    throw new EngineError(
      "INVALID_PARAMETER",
      `windowDays must be an integer >= 2, got ${windowDays}`,
    );
  for (let t = 0; t < n; t++)
    if (!(values[t]! > 0 && values[t]! < Infinity))
      throw new EngineError("INVALID_INPUT", `monitorPortfolio: value ${values[t]} at ${t}`);
  const ret = new Float64Array(n);
  const ann = new Float64Array(n);
  const vol = new Float64Array(n);
  const rr = new Float64Array(n);
  const daily = new Float64Array(n);
  const v0 = values[0]!;
  for (let t = 1; t < n; t++) daily[t] = values[t]! / values[t - 1]! - 1;
  for (let t = 0; t < n; t++) {
    const g = values[t]! / v0;
    ret[t] = g - 1;
    ann[t] = t >= TRADING_DAYS_PER_MONTH ? g ** (TRADING_DAYS_PER_YEAR / t) - 1 : g - 1;
    const k = Math.min(t, windowDays);
    if (k >= 2) {
      // Two passes over at most `windowDays` returns: exact, and cheap at these sizes.
      let m = 0;
      for (let s = t - k + 1; s <= t; s++) m += daily[s]!;
      m /= k;
      let ss = 0;
      for (let s = t - k + 1; s <= t; s++) ss += (daily[s]! - m) ** 2;
      vol[t] = Math.sqrt((ss / (k - 1)) * TRADING_DAYS_PER_YEAR);
    }
    rr[t] = vol[t]! > 1e-14 ? ann[t]! / vol[t]! : 0;
  }
  return { return: ret, annualizedReturn: ann, volatility: vol, riskReturn: rr };
}
