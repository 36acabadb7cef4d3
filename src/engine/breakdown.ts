/**
 * Breakdown of a portfolio's amounts by asset, exchange, asset class, currency, sector and region.
 */
import { EngineError } from "./errors.ts";
import { weightsFromAmounts } from "./panel.ts";

/** What the breakdown needs to know of an asset (assets.csv columns). */
export interface AssetInfo {
  readonly symbol: string;
  /** Stock exchange (stocks); empty for funds. */
  readonly exchange?: string;
  readonly assetClass?: string;
  readonly currency: string;
  readonly sector?: string;
  readonly region?: string;
}

export const BREAKDOWN_DIMENSIONS = [
  "asset",
  "exchange",
  "assetClass",
  "currency",
  "sector",
  "region",
] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

/** Key of the group of assets with no value for a dimension (a fund has no exchange). */
export const OTHER = "other";

export interface BreakdownEntry {
  readonly key: string;
  /** Amount in the portfolio currency. */
  readonly amount: number;
  /** Fraction of the total (the entries of a dimension sum to 1). */
  readonly weight: number;
  /** Number of assets in the group. */
  readonly assets: number;
}

export type Breakdown = Record<BreakdownDimension, BreakdownEntry[]>;

const keyOf = (a: AssetInfo, d: BreakdownDimension): string => {
  const v = d === "asset" ? a.symbol : a[d];
  return v === undefined || v === "" ? OTHER : v;
};

/** Groups by each dimension; entries sorted by amount, largest first (ties by key). */
export function breakdown(assets: readonly AssetInfo[], amounts: Float64Array): Breakdown {
  if (assets.length !== amounts.length)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `breakdown: ${assets.length} assets, ${amounts.length} amounts`,
    );
  const { total } = weightsFromAmounts(amounts);
  const out = {} as Breakdown;
  for (const d of BREAKDOWN_DIMENSIONS) {
    const groups = new Map<string, { amount: number; assets: number }>();
    assets.forEach((a, i) => {
      const key = keyOf(a, d);
      const g = groups.get(key) ?? { amount: 0, assets: 0 };
      g.amount += amounts[i]!;
      g.assets += 1;
      groups.set(key, g);
    });
    out[d] = [...groups]
      .map(([key, g]) => ({ key, amount: g.amount, weight: g.amount / total, assets: g.assets }))
      .sort((a, b) => b.amount - a.amount || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  return out;
}
