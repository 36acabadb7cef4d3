/**
 * The banana challenge (simMonk, docs/banana.md): stock portfolios of one region bought in whole
 * shares at a day's close with a fixed budget, each against its monkey (a random portfolio of the
 * same size, region and day) and 10,000 more monkeys, and ranked against the community.
 */
import { Schema } from "effect";
import { Currency } from "./analytics.ts";
import { RowVersion } from "./common.ts";
import { toCents } from "./money.ts";
import { MonkeyRegion } from "./portfolios.ts";

export { MonkeyRegion };
export type MonkeyRegion = typeof MonkeyRegion.Type;

/** PRODUCT.md, "Banana challenge": 10,000 in the region's currency, the total between 9,900 and 10,000. */
export const BANANA_MIN_INVESTMENT = 9_900;
export const BANANA_MAX_INVESTMENT = 10_000;
/** Section 9: 1 to 50 stocks. */
export const BANANA_MIN_ASSETS = 1;
export const BANANA_MAX_ASSETS = 50;
/** Section 9: edits between 10:00 and 22:00 UTC. */
export const BANANA_WINDOW_OPENS_HOUR = 10;
export const BANANA_WINDOW_CLOSES_HOUR = 22;
/** Random portfolios drawn for the percentile (P. Burns, 2006). */
export const BANANA_MONKEYS = 10_000;
/** Section 6: statistics after 1 day, annualised returns after 30 days. */
export const BANANA_STATS_AFTER_DAYS = 1;
export const BANANA_ANNUALISED_AFTER_DAYS = 30;
/** The index each region is compared with. */
export const REGION_INDEX = { eu: "STOXX50E_INDEX", usa: "GSPC_INDEX" } as const;
export const REGION_CURRENCY = { eu: "EUR", usa: "USD" } as const;

/**
 * The challenge's one rounding rule: an amount in whole cents. A holding's amount is its shares
 * times the close, rounded to the cent (`holdingCents`); totals and values are sums of those
 * amounts, for the portfolio and for every monkey alike (docs/banana.md, "Valuation"). Whole
 * cents are `toCents` (contract/money.ts).
 */

/** A holding's amount in whole cents: shares × close, rounded to the cent. */
export const holdingCents = (shares: number, price: number): number => toCents(shares * price);

/** Section 5: min rounded down and max rounded up to 2 decimals, in cents. */
export const budgetCents = (
  min = BANANA_MIN_INVESTMENT,
  max = BANANA_MAX_INVESTMENT,
): { min: number; max: number } => ({
  min: Math.floor(Math.round(min * 1e6) / 1e4),
  max: Math.ceil(Math.round(max * 1e6) / 1e4),
});

/**
 * Section 5: the total equals the minimum or the maximum investment or lies between them (compared
 * in whole cents after rounding the total to cents).
 */
export function budgetProblem(
  total: number,
  min = BANANA_MIN_INVESTMENT,
  max = BANANA_MAX_INVESTMENT,
): "TOTAL_TOO_LOW" | "TOTAL_TOO_HIGH" | null {
  const cents = toCents(total);
  const bounds = budgetCents(min, max);
  if (cents < bounds.min) return "TOTAL_TOO_LOW";
  if (cents > bounds.max) return "TOTAL_TOO_HIGH";
  return null;
}

/** Section 6: editing only between 10:00 (inclusive) and 22:00 (exclusive) UTC. */
export function editWindowOpen(now: Date): boolean {
  const h = now.getUTCHours();
  return h >= BANANA_WINDOW_OPENS_HOUR && h < BANANA_WINDOW_CLOSES_HOUR;
}

/** The next moment the window opens or closes (whichever comes first after `now`). */
export function nextWindowChange(now: Date): Date {
  const at = (day: number, hour: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + day, hour));
  const h = now.getUTCHours();
  if (h < BANANA_WINDOW_OPENS_HOUR) return at(0, BANANA_WINDOW_OPENS_HOUR);
  if (h < BANANA_WINDOW_CLOSES_HOUR) return at(0, BANANA_WINDOW_CLOSES_HOUR);
  return at(1, BANANA_WINDOW_OPENS_HOUR);
}

/** Whole days between two ISO days. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Annualised from a return over `days` calendar days: (1 + r)^(365 / days) − 1. */
export const annualise = (r: number, days: number): number => (1 + r) ** (365 / days) - 1;

const Symbol = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9._-]{1,32}$/)));
const Name = Schema.String.pipe(
  Schema.check(Schema.isTrimmed(), Schema.isMinLength(1), Schema.isMaxLength(80)),
);
/** Shares as sent: any number; the server refuses a fractional one (FRACTIONAL_SHARES). */
const Shares = Schema.Number.pipe(
  Schema.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1e9)),
);
export const ShareInput = Schema.Struct({ id: Symbol, shares: Shares });
export type ShareInput = typeof ShareInput.Type;

/** Create a banana portfolio; the region is checked by the server (BANANA_REGION_REQUIRED). */
export const CreateBananaRequest = Schema.Struct({
  name: Name,
  region: Schema.NullOr(MonkeyRegion),
  assets: Schema.Array(ShareInput).pipe(Schema.check(Schema.isMaxLength(500))),
});
export type CreateBananaRequest = typeof CreateBananaRequest.Type;

/** An edition inside the window: the version read, and the new shares (0 sells all). */
export const UpdateBananaRequest = Schema.Struct({
  version: RowVersion,
  assets: Schema.Array(ShareInput).pipe(Schema.check(Schema.isMaxLength(500))),
});
export type UpdateBananaRequest = typeof UpdateBananaRequest.Type;

export const RegionQuery = Schema.Struct({ region: MonkeyRegion });

/** A stock the picker offers: not stale, of the region, with the day's close. */
export const BananaStock = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  exchange: Schema.String,
  sector: Schema.NullOr(Schema.String),
  close: Schema.Number,
});
export type BananaStock = typeof BananaStock.Type;

export const BananaUniverse = Schema.Struct({
  region: MonkeyRegion,
  currency: Currency,
  /** The market day whose closes price the shares. */
  date: Schema.String,
  simulated: Schema.Boolean,
  minInvestment: Schema.Number,
  maxInvestment: Schema.Number,
  maxAssets: Schema.Number,
  stocks: Schema.Array(BananaStock),
});
export type BananaUniverse = typeof BananaUniverse.Type;

export const BananaHolding = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  exchange: Schema.String,
  shares: Schema.Number,
  /** Close of the day the shares were bought (creation or last edition). */
  price: Schema.Number,
  investedAmount: Schema.Number,
});
export type BananaHolding = typeof BananaHolding.Type;

/** Where a portfolio stands among the 10,000 monkeys on a day. */
export const MonkeyDistribution = Schema.Struct({
  /** Monkey returns at the 0th, 5th, ..., 100th percentiles (21 values, fractions). */
  quantiles: Schema.Array(Schema.Number),
  mean: Schema.Number,
  /** Percent of the monkeys whose return is below the portfolio's (ties count half). */
  percentile: Schema.Number,
  count: Schema.Number,
});
export type MonkeyDistribution = typeof MonkeyDistribution.Type;

/** Figures of a day; returns are fractions since creation (null until 1 day old). */
export const BananaFigures = Schema.Struct({
  date: Schema.String,
  value: Schema.Number,
  ageDays: Schema.Number,
  return: Schema.NullOr(Schema.Number),
  /** Only once 30 days old. */
  annualisedReturn: Schema.NullOr(Schema.Number),
  monkeyReturn: Schema.NullOr(Schema.Number),
  indexReturn: Schema.NullOr(Schema.Number),
  distribution: Schema.NullOr(MonkeyDistribution),
});
export type BananaFigures = typeof BananaFigures.Type;

export const EditWindow = Schema.Struct({
  open: Schema.Boolean,
  /** When it closes (while open) or opens next (while closed), ISO instant. */
  changesAt: Schema.String,
});
export type EditWindow = typeof EditWindow.Type;

export const BananaPortfolio = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  region: MonkeyRegion,
  currency: Currency,
  version: Schema.Number,
  remainingEditions: Schema.NullOr(Schema.Number),
  createdOn: Schema.String,
  pricedOn: Schema.String,
  totalInvested: Schema.Number,
  holdings: Schema.Array(BananaHolding),
  monkey: Schema.Struct({
    seed: Schema.Number,
    holdings: Schema.Array(BananaHolding),
    totalInvested: Schema.Number,
  }),
  figures: Schema.NullOr(BananaFigures),
  /** Position in the region's ranking (null until valued). */
  rank: Schema.NullOr(Schema.Number),
  window: EditWindow,
});
export type BananaPortfolio = typeof BananaPortfolio.Type;

export const BananaList = Schema.Struct({
  portfolios: Schema.Array(BananaPortfolio),
  /** Portfolios the client may still create per region (check-portfolios-limit's simMonk). */
  capacity: Schema.Struct({ eu: Schema.Number, usa: Schema.Number }),
  simulated: Schema.Boolean,
});
export type BananaList = typeof BananaList.Type;

export const BananaHistory = Schema.Struct({
  dates: Schema.Array(Schema.String),
  returns: Schema.Array(Schema.Number),
  monkeyReturns: Schema.Array(Schema.Number),
  indexReturns: Schema.Array(Schema.NullOr(Schema.Number)),
  percentiles: Schema.Array(Schema.Number),
});
export type BananaHistory = typeof BananaHistory.Type;

export const RankingQuery = Schema.Struct({
  region: MonkeyRegion,
  page: Schema.optional(Schema.String.pipe(Schema.check(Schema.isPattern(/^[1-9][0-9]{0,6}$/)))),
});

export const RankingRow = Schema.Struct({
  rank: Schema.Number,
  /** The owner's alias; null when none was chosen (shown as "anonymous"), never the email. */
  alias: Schema.NullOr(Schema.String),
  name: Schema.String,
  return: Schema.Number,
  annualisedReturn: Schema.NullOr(Schema.Number),
  ageDays: Schema.Number,
  own: Schema.Boolean,
  /** The portfolio's id, only for the client's own rows. */
  portfolioId: Schema.NullOr(Schema.Number),
});
export type RankingRow = typeof RankingRow.Type;

export const BananaRanking = Schema.Struct({
  region: MonkeyRegion,
  page: Schema.Number,
  pageSize: Schema.Number,
  total: Schema.Number,
  date: Schema.NullOr(Schema.String),
  rows: Schema.Array(RankingRow),
  /** The client's own portfolios' ranks in the region. */
  ownRanks: Schema.Array(Schema.Struct({ portfolioId: Schema.Number, rank: Schema.Number })),
});
export type BananaRanking = typeof BananaRanking.Type;

export const RANKING_PAGE_SIZE = 20;
