/**
 * Per-asset bounds from the optimisation state: kept assets (keepAssets) with their minimum and
 * maximum weights (keepAssetsWeight); the other assets are either free within [0, othersMax] or
 * dropped (weight 0).
 */
import { failure, type OptimizationFailure } from "./result.ts";

export interface KeptAsset {
  /** Index of the asset in the covariance / scenario columns. */
  readonly index: number;
  /** Minimum weight (fraction, 0..1). A positive minimum guarantees the asset stays held. */
  readonly min: number;
  /** Maximum weight (fraction, 0..1). */
  readonly max: number;
}

export interface KeptBoundsOptions {
  /** "limit" (default): other assets within [0, othersMax]; "drop": other assets at 0. */
  readonly others?: "limit" | "drop";
  /** Upper bound of the assets not kept (default 1). */
  readonly othersMax?: number;
}

export interface KeptBounds {
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly kept: readonly number[];
}

export function boundsWithKeptAssets(
  n: number,
  kept: readonly KeptAsset[],
  options: KeptBoundsOptions = {},
): KeptBounds | OptimizationFailure {
  const othersMax = options.others === "drop" ? 0 : (options.othersMax ?? 1);
  if (!(othersMax >= 0 && othersMax <= 1)) return failure("INVALID_INPUT", { othersMax });
  const lower = new Float64Array(n);
  const upper = new Float64Array(n).fill(othersMax);
  const seen = new Set<number>();
  for (const k of kept) {
    if (!Number.isInteger(k.index) || k.index < 0 || k.index >= n || seen.has(k.index))
      return failure("INVALID_INPUT", { keptIndex: k.index });
    if (!(k.min >= 0 && k.max <= 1 && Number.isFinite(k.min) && Number.isFinite(k.max)))
      return failure("INVALID_INPUT", { asset: k.index, min: k.min, max: k.max });
    if (k.min > k.max)
      return failure("BOUNDS_INFEASIBLE", { asset: k.index, lower: k.min, upper: k.max });
    seen.add(k.index);
    lower[k.index] = k.min;
    upper[k.index] = k.max;
  }
  return { lower, upper, kept: kept.map((k) => k.index) };
}
