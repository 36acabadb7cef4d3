/**
 * Growth of an invested amount over a return history: V_0 = amount, V_t = V_{t-1} (1 + r_t).
 * Formulas: docs/analytics.md, "Portfolio history".
 */
import { EngineError } from "../errors.ts";

/** The value path V_0 … V_T of `initial` invested before the first of the T returns. */
export function growthPath(
  returns: Float64Array,
  initial = 1,
  out: Float64Array = new Float64Array(returns.length + 1),
): Float64Array {
  if (!(initial > 0 && initial < Infinity))
    throw new EngineError("INVALID_PARAMETER", `growth: initial value must be > 0, got ${initial}`);
  if (out.length !== returns.length + 1)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `growth: ${out.length} values for ${returns.length} returns`,
    );
  let v = initial;
  out[0] = v;
  for (let t = 0; t < returns.length; t++) {
    const r = returns[t]!;
    if (!(r >= -1 && r < Infinity))
      throw new EngineError("INVALID_INPUT", `growth: return ${r} at ${t}`);
    v *= 1 + r;
    out[t + 1] = v;
  }
  return out;
}
