/** A custom what-if: the shocks of the specification applied through each asset's sensitivities. */
import { EngineError } from "../errors.ts";
import { weightsFromAmounts } from "../panel.ts";
import { SHOCK_OF_FACTOR, WHATIF_FACTORS, type WhatIfFactor } from "./factors.ts";
import type { Sensitivities } from "./sensitivities.ts";

/** The shocks of a custom what-if; at least one must be given. */
export interface Shocks {
  /** Stock market return (fraction). */
  readonly dRV?: number | null;
  /** Change of the 10-year yield, percentage points. */
  readonly dRF?: number | null;
  /** Bitcoin return (fraction). */
  readonly dCrypto?: number | null;
  /** Commodities return (fraction). */
  readonly dMMPP?: number | null;
  /** Change of year-on-year inflation, percentage points. */
  readonly inflation?: number | null;
}

export interface ShockResult {
  /** Return of each asset (fraction, not below -1). */
  readonly assetReturns: Float64Array;
  /** Gain (+) or loss (-) of each asset in the portfolio currency. */
  readonly assetChanges: Float64Array;
  readonly totalChange: number;
  readonly totalReturn: number;
  /** Shocks given for factors without a beta (no data or no variance): they move nothing. */
  readonly ignored: readonly WhatIfFactor[];
}

/**
 * A custom shock: dr_i = sum_k beta_ik shock_k (factors not shocked stay at 0; the intercept is
 * left out, as a shock is instantaneous), floored at -100% (a long position cannot lose more than
 * its value); change_i = amount_i dr_i.
 */
export function applyShocks(
  sensitivities: Sensitivities,
  amounts: Float64Array,
  shocks: Shocks,
): ShockResult {
  const n = sensitivities.assets;
  if (amounts.length !== n)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `applyShocks: ${amounts.length} amounts for ${n} assets`,
    );
  const { total } = weightsFromAmounts(amounts);
  let given = 0;
  for (const f of WHATIF_FACTORS) {
    const v = shocks[SHOCK_OF_FACTOR[f]];
    if (v === undefined || v === null) continue;
    if (!Number.isFinite(v))
      throw new EngineError("INVALID_PARAMETER", `shock ${SHOCK_OF_FACTOR[f]} is ${v}`);
    given++;
  }
  if (given === 0)
    throw new EngineError("INVALID_PARAMETER", "a custom what-if needs at least one shock");
  const k = sensitivities.factors.length;
  const shockOf = sensitivities.factors.map((f) => shocks[SHOCK_OF_FACTOR[f]] ?? 0);
  const ignored = WHATIF_FACTORS.filter(
    (f) =>
      shocks[SHOCK_OF_FACTOR[f]] != null &&
      shocks[SHOCK_OF_FACTOR[f]] !== 0 &&
      !sensitivities.factors.includes(f),
  );
  const assetReturns = new Float64Array(n);
  const assetChanges = new Float64Array(n);
  let totalChange = 0;
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let a = 0; a < k; a++) r += sensitivities.betas[i * k + a]! * shockOf[a]!;
    r = Math.max(-1, r);
    assetReturns[i] = r;
    assetChanges[i] = amounts[i]! * r;
    totalChange += assetChanges[i]!;
  }
  return { assetReturns, assetChanges, totalChange, totalReturn: totalChange / total, ignored };
}
