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
  /** Only what a portfolio in this currency can hold (no yields, no unconvertible currencies). */
  currency: Schema.optional(Schema.Literals(["EUR", "USD"])),
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

// ---------------------------------------------------------------------------------------------
// Markets page (docs/market-data.md, "Markets page"): widgets, gainers and losers, sectors.
// Every answer says the data's date (`today`) and whether the prices are simulated.

/**
 * Changes of an instrument at its last close: against the previous close (day), the last close on
 * or before the same day one month and twelve months earlier (month, year) and the last close of
 * the previous calendar year (ytd). Fractions (0.012 = +1.2%), or percentage points for yields
 * (`changeUnit: "points"`). Null when the history does not reach back that far.
 */
export const QuoteChanges = Schema.Struct({
  day: Schema.NullOr(Schema.Number),
  month: Schema.NullOr(Schema.Number),
  ytd: Schema.NullOr(Schema.Number),
  year: Schema.NullOr(Schema.Number),
});
export type QuoteChanges = typeof QuoteChanges.Type;

export const ChangeUnit = Schema.Literals(["relative", "points"]);
export type ChangeUnit = typeof ChangeUnit.Type;

export const MarketQuote = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  currency: Schema.String,
  exchange: Schema.NullOr(Schema.String),
  /** The last day with a price up to the market's today, and its close. */
  lastDate: Schema.NullOr(Schema.String),
  last: Schema.NullOr(Schema.Number),
  changes: QuoteChanges,
  changeUnit: ChangeUnit,
  /** No price in the 14 days before the market's today. */
  stale: Schema.Boolean,
});
export type MarketQuote = typeof MarketQuote.Type;

export const PriceSeries = Schema.Struct({
  dates: Schema.Array(Schema.String),
  closes: Schema.Array(Schema.Number),
});
export type PriceSeries = typeof PriceSeries.Type;

/** What every markets answer carries: the data's date and where the prices come from. */
const MarketStamp = {
  today: Schema.NullOr(Schema.String),
  source: MarketSource,
  simulated: Schema.Boolean,
};

export const WidgetId = Schema.Literals([
  "indices",
  "volatility",
  "currencies",
  "commodities",
  "crypto",
  "yields",
]);
export type WidgetId = typeof WidgetId.Type;

export const MarketWidget = Schema.Struct({
  id: WidgetId,
  /** Each instrument with its last year of closes (longer ranges: the asset view's history). */
  items: Schema.Array(Schema.Struct({ quote: MarketQuote, series: PriceSeries })),
  /** Instruments the page shows when the data has them, absent from this data (their symbols). */
  missing: Schema.Array(Schema.String),
});
export type MarketWidget = typeof MarketWidget.Type;

export const MarketOverview = Schema.Struct({
  ...MarketStamp,
  widgets: Schema.Array(MarketWidget),
});
export type MarketOverview = typeof MarketOverview.Type;

export const MoverPeriod = Schema.Literals(["day", "month", "ytd"]);
export type MoverPeriod = typeof MoverPeriod.Type;

export const Mover = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  currency: Schema.String,
  last: Schema.Number,
  change: Schema.Number,
});
export type Mover = typeof Mover.Type;

export const MoverLists = Schema.Struct({
  /** Up to five stocks that rose most (change > 0), best first. */
  gainers: Schema.Array(Mover),
  /** Up to five stocks that fell most (change < 0), worst first. */
  losers: Schema.Array(Mover),
});

export const ExchangeMovers = Schema.Struct({
  exchange: Schema.String,
  /** Stocks of the exchange with a recent price (stale ones are left out). */
  count: Schema.Number,
  day: MoverLists,
  month: MoverLists,
  ytd: MoverLists,
});
export type ExchangeMovers = typeof ExchangeMovers.Type;

export const MarketMovers = Schema.Struct({
  ...MarketStamp,
  exchanges: Schema.Array(ExchangeMovers),
});
export type MarketMovers = typeof MarketMovers.Type;

/** Equal-weighted mean change of the sector's stocks (those with the figure), per period. */
export const SectorRow = Schema.Struct({
  sector: Schema.String,
  count: Schema.Number,
  day: Schema.NullOr(Schema.Number),
  month: Schema.NullOr(Schema.Number),
  ytd: Schema.NullOr(Schema.Number),
  year: Schema.NullOr(Schema.Number),
});
export type SectorRow = typeof SectorRow.Type;

export const MarketSectors = Schema.Struct({
  ...MarketStamp,
  /** `all`, then each region of the stock universe (`usa`, `eu`). */
  regions: Schema.Array(Schema.Struct({ region: Schema.String, sectors: Schema.Array(SectorRow) })),
});
export type MarketSectors = typeof MarketSectors.Type;

/** The asset view: the asset's answer with the data's date and its quote. */
export const AssetView = Schema.Struct({
  ...AssetDetail.fields,
  today: Schema.NullOr(Schema.String),
  source: MarketSource,
  quote: MarketQuote,
});
export type AssetView = typeof AssetView.Type;
