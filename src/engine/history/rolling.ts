/**
 * Rolling-window return and volatility of a daily return series (12 months = 252 trading days by
 * default). Formulas: docs/analytics.md, "Portfolio history".
 */
import { EngineError } from "../errors.ts";
import { TRADING_DAYS_PER_YEAR } from "../stats.ts";

export interface RollingWindows {
  readonly window: number;
  /**
   * Entry j is the window of returns j … j + window - 1, which ends on value index j + window
   * (dates[j + window]). Empty when the series is shorter than one window.
   */
  readonly returns: Float64Array;
  /** Sample standard deviation (divisor window - 1) of the window's daily returns, times sqrt(252). */
  readonly volatility: Float64Array;
}

/** Compounded return and annualised volatility over every window of `window` consecutive returns. */
export function rollingWindows(
  returns: Float64Array,
  window = TRADING_DAYS_PER_YEAR,
): RollingWindows {
  if (!(Number.isInteger(window) && window >= 2))
    throw new EngineError("INVALID_PARAMETER", `window must be an integer >= 2, got ${window}`);
  const t = returns.length;
  for (let s = 0; s < t; s++)
    if (!(returns[s]! >= -1 && returns[s]! < Infinity))
      throw new EngineError("INVALID_INPUT", `rollingWindows: return ${returns[s]} at ${s}`);
  const count = Math.max(0, t - window + 1);
  const ret = new Float64Array(count);
  const vol = new Float64Array(count);
  const root = Math.sqrt(TRADING_DAYS_PER_YEAR);
  for (let j = 0; j < count; j++) {
    // Each window on its own (product and two-pass variance): exact to rounding, and at most a
    // few million operations for decades of history.
    let growth = 1;
    let sum = 0;
    for (let s = j; s < j + window; s++) {
      const r = returns[s]!;
      growth *= 1 + r;
      sum += r;
    }
    const m = sum / window;
    let ss = 0;
    for (let s = j; s < j + window; s++) {
      const d = returns[s]! - m;
      ss += d * d;
    }
    ret[j] = growth - 1;
    vol[j] = Math.sqrt(ss / (window - 1)) * root;
  }
  return { window, returns: ret, volatility: vol };
}
