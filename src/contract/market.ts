import { Schema } from "effect";
import { Product } from "./common.ts";

export const MarketSource = Schema.Literals(["imported", "simulated", "empty"]);

/** The market's "today": the latest day with a price, and where the prices come from. */
export const MarketToday = Schema.Struct({
  today: Schema.NullOr(Schema.String),
  source: MarketSource,
  assets: Schema.Number,
});
export type MarketToday = typeof MarketToday.Type;

export const AssetSummary = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  universe: Schema.Literals(["simAssets", "simIndices", "market"]),
  exchange: Schema.NullOr(Schema.String),
  assetClass: Schema.NullOr(Schema.String),
  region: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  currency: Schema.String,
  sector: Schema.NullOr(Schema.String),
  firstDate: Schema.NullOr(Schema.String),
  lastDate: Schema.NullOr(Schema.String),
  /** No price in the last 14 days before the market's today: not offered for new portfolios. */
  stale: Schema.Boolean,
});
export type AssetSummary = typeof AssetSummary.Type;

export const AssetList = Schema.Struct({
  assets: Schema.Array(AssetSummary),
  simulated: Schema.Boolean,
});

const Flag = Schema.Literals(["true", "false"]);

export const AssetQuery = Schema.Struct({
  product: Schema.optional(Schema.Union([Product, Schema.Literal("market")])),
  exchange: Schema.optional(Schema.String),
  assetClass: Schema.optional(Schema.String),
  region: Schema.optional(Schema.String),
  q: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(80)))),
  includeStale: Schema.optional(Flag),
});
export type AssetQuery = typeof AssetQuery.Type;

export const HistoryRange = Schema.Literals(["1m", "3m", "6m", "1y", "3y", "5y", "max"]);
export type HistoryRange = typeof HistoryRange.Type;

export const AssetDetailQuery = Schema.Struct({ range: Schema.optional(HistoryRange) });

export const SymbolParam = Schema.Struct({
  symbol: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9._-]{1,32}$/))),
});

/** Annualised volatility of daily log returns per benchmark window (1 = 1 month ... 6 = 5 years). */
export const Volatilities = Schema.Struct({
  1: Schema.NullOr(Schema.Number),
  2: Schema.NullOr(Schema.Number),
  3: Schema.NullOr(Schema.Number),
  4: Schema.NullOr(Schema.Number),
  5: Schema.NullOr(Schema.Number),
  6: Schema.NullOr(Schema.Number),
});

export const AssetDetail = Schema.Struct({
  asset: AssetSummary,
  history: Schema.Struct({
    dates: Schema.Array(Schema.String),
    closes: Schema.Array(Schema.Number),
  }),
  volatilities: Volatilities,
  simulated: Schema.Boolean,
});
export type AssetDetail = typeof AssetDetail.Type;
