/**
 * Drawdowns of a value path: the underwater series (how far below its previous high the value
 * is each day) and the falls from one high to the next, with their depth, trough, recovery and
 * length. Formulas: docs/analytics.md, "Portfolio history".
 */
import { EngineError } from "../errors.ts";

/** One fall from a high until the value is back at that high (or the path ends). */
export interface Drawdown {
  /** Index (into the value path) of the high the fall starts from. */
  readonly peak: number;
  /** Index of the lowest value of the fall (the first, when it is reached more than once). */
  readonly trough: number;
  /** First index after the trough where the value is back at the high or above; null: not recovered. */
  readonly recovery: number | null;
  /** 1 - V_trough / V_peak: the fall as a positive fraction. */
  readonly depth: number;
  /** Trading days from the high to the recovery, or to the path's last value when not recovered. */
  readonly length: number;
  readonly toTrough: number;
  /** Trading days from the trough to the recovery; null when not recovered. */
  readonly toRecovery: number | null;
}

function checkValues(values: Float64Array): void {
  if (values.length < 1) throw new EngineError("NOT_ENOUGH_HISTORY", "drawdowns: no values");
  if (!(values[0]! > 0 && values[0]! < Infinity))
    throw new EngineError("INVALID_INPUT", `drawdowns: first value ${values[0]} (must be > 0)`);
  for (let t = 1; t < values.length; t++)
    if (!(values[t]! >= 0 && values[t]! < Infinity))
      throw new EngineError("INVALID_INPUT", `drawdowns: value ${values[t]} at ${t}`);
}

/** V_t / max_{s <= t} V_s - 1 for each t: 0 at a new high, negative below it. */
export function underwater(
  values: Float64Array,
  out: Float64Array = new Float64Array(values.length),
): Float64Array {
  checkValues(values);
  let high = values[0]!;
  for (let t = 0; t < values.length; t++) {
    const v = values[t]!;
    if (v > high) high = v;
    out[t] = v / high - 1;
  }
  return out;
}

/** Every fall of the path, oldest first: the maximal runs of days below the previous high. */
export function drawdownEpisodes(values: Float64Array): Drawdown[] {
  const dd = underwater(values);
  const last = values.length - 1;
  const out: Drawdown[] = [];
  let peak = -1;
  let trough = -1;
  for (let t = 0; t <= last; t++) {
    const d = dd[t]!;
    if (d < 0) {
      // The day before a run below the high is the high itself (its underwater value is 0).
      if (peak < 0) {
        peak = t - 1;
        trough = t;
      } else if (d < dd[trough]!) trough = t;
      continue;
    }
    if (peak >= 0) {
      out.push(episode(dd, peak, trough, t));
      peak = -1;
    }
  }
  if (peak >= 0) out.push(episode(dd, peak, trough, null, last));
  return out;
}

function episode(
  dd: Float64Array,
  peak: number,
  trough: number,
  recovery: number | null,
  last = 0,
): Drawdown {
  return {
    peak,
    trough,
    recovery,
    depth: -dd[trough]!,
    length: (recovery ?? last) - peak,
    toTrough: trough - peak,
    toRecovery: recovery === null ? null : recovery - trough,
  };
}

/** The `count` deepest falls, deepest first (equal depths: the older first). */
export function worstDrawdowns(values: Float64Array, count = 5): Drawdown[] {
  if (!(Number.isInteger(count) && count >= 0))
    throw new EngineError("INVALID_PARAMETER", `count must be an integer >= 0, got ${count}`);
  return drawdownEpisodes(values)
    .sort((a, b) => b.depth - a.depth || a.peak - b.peak)
    .slice(0, count);
}
