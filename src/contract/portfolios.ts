import { Schema } from "effect";
import { Currency, Benchmark, type Holding } from "./analytics.ts";
import { DbIdParam, Product, RowVersion } from "./common.ts";
import { Volatilities } from "./market.ts";
import { ORDERINGS } from "./portfolio-rules.ts";

const Symbol = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9._-]{1,32}$/)));
const Money = Schema.Number.pipe(
  Schema.check(Schema.isGreaterThanOrEqualTo(-1e9), Schema.isLessThanOrEqualTo(1e9)),
);
const PositiveMoney = Schema.Number.pipe(
  Schema.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1e9)),
);
export const MonkeyRegion = Schema.Literals(["eu", "usa"]);
export const Ordering = Schema.Literals(ORDERINGS);
export type Ordering = typeof Ordering.Type;
const Level = Schema.Number.pipe(
  Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 9 })),
);
const Name = Schema.String.pipe(
  Schema.check(Schema.isTrimmed(), Schema.isMinLength(1), Schema.isMaxLength(80)),
);

/**
 * Lazy portfolios of the second edition (`tt`, permission lazyPortfolios): classic allocations of
 * index funds, weights in percent; `CASH` is the money-market fund of the portfolio currency.
 */
export const LAZY_PORTFOLIOS = {
  "balanced-60-40": { VT: 60, IEF: 40 },
  "all-weather": { VT: 30, TLT: 40, IEF: 15, GLD: 7.5, DBC: 7.5 },
  permanent: { SPY: 25, TLT: 25, GLD: 25, CASH: 25 },
} as const satisfies Record<string, Record<string, number>>;
export const LazyPortfolioId = Schema.Literals(["balanced-60-40", "all-weather", "permanent"]);
export type LazyPortfolioId = typeof LazyPortfolioId.Type;

/** The answers of the three questions (PRODUCT.md, "The three questions"). */
export const WizardAnswers = Schema.Struct({
  /** q1: exchanges (simAssets) or asset classes (simIndices) to choose from; empty = all. */
  universe: Schema.Array(Schema.String.pipe(Schema.check(Schema.isMaxLength(64)))).pipe(
    Schema.check(Schema.isMaxLength(20)),
  ),
  amount: PositiveMoney,
  /** q2: the loss at 95% over a month the investor could bear, in the currency (null: not said). */
  maxToLose95: Schema.NullOr(PositiveMoney),
  /** q3: what matters most, and how many assets (maxAssetsLevel). */
  ordering: Ordering,
  maxAssetsLevel: Level,
  /** q1 in the `tt` edition: start from a lazy portfolio instead. */
  lazyPortfolio: Schema.optional(Schema.NullOr(LazyPortfolioId)),
});
export type WizardAnswers = typeof WizardAnswers.Type;

/** Ask the engine for the proposed portfolio of the answers (summary). */
export const ProposeRequest = Schema.Struct({
  currency: Currency,
  benchmark: Schema.optional(Benchmark),
  answers: WizardAnswers,
});
export type ProposeRequest = typeof ProposeRequest.Type;

/**
 * Why a proposal holds fewer assets than q3 asked for (docs/portfolios.md, "Propose"): the chosen
 * universe has fewer assets with enough history, the plan allows fewer, or the loss limit of q2
 * cannot be kept with every asset at the minimum weight.
 */
export const FewerAssetsReason = Schema.Literals(["universe", "plan", "loss-limit"]);
export type FewerAssetsReason = typeof FewerAssetsReason.Type;

export const ProposedAsset = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  investedAmount: Schema.Number,
  percentage: Schema.Number,
});

export const ProposeResponse = Schema.Struct({
  currency: Currency,
  assets: Schema.Array(ProposedAsset),
  /**
   * How the weights were chosen (docs/portfolios.md, "Propose"): what the q3 answer names —
   * "balanced" (the least risk within the diversification rule), "lowest-beta", "highest-return",
   * "best-risk-return" (highest expected return over volatility), "minimum-risk" — each within
   * q2's loss limit when one is given; "minimum-risk" also when the answer's objective cannot keep
   * the loss within it; "equal" amounts without the plan's autoCreate; a "lazy" model's weights.
   */
  method: Schema.Literals([
    "equal",
    "balanced",
    "lowest-beta",
    "highest-return",
    "best-risk-return",
    "minimum-risk",
    "lazy",
  ]),
  /** Loss at 95% over a month (historical, 21-day scenarios) of the proposal, as an amount. */
  var95Amount: Schema.Number,
  cvar95Amount: Schema.Number,
  /** False when no mix of the chosen assets keeps the loss at 95% within maxToLose95. */
  withinMaxToLose: Schema.NullOr(Schema.Boolean),
  /** The minimum desired risk of the currency (maxToLose95 below it is explained, not changed). */
  minimumDesiredRiskAmount: Schema.Number,
  simulated: Schema.Boolean,
  /** The number of assets q3 asked for (maxAssetsLevel); a lazy portfolio's own number. */
  requestedAssets: Schema.optional(Schema.Number),
  /** Why the proposal holds fewer assets than asked; null when it holds them all. */
  fewerAssetsReason: Schema.optional(Schema.NullOr(FewerAssetsReason)),
  /**
   * The market proxy of the betas and expected returns that ranked and weighted the assets, as
   * the analysis names it (FullAnalysis `expectedReturn.market`): the index of the portfolio's
   * market ("GSPC_INDEX", "STOXX50E_INDEX+GDAXI_INDEX"), or null for the equally weighted
   * universe when the market has no such index over the window. Absent for a lazy portfolio
   * (its model's weights, nothing ranked).
   */
  market: Schema.optional(Schema.NullOr(Schema.String)),
});
export type ProposeResponse = typeof ProposeResponse.Type;

/** A holding of a portfolio (section 3, "Portfolio asset"). */
export const PortfolioAsset = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  investedAmount: Schema.Number,
  percentage: Schema.Number,
  volatilities: Volatilities,
  currency: Schema.String,
  stale: Schema.Boolean,
});
export type PortfolioAsset = typeof PortfolioAsset.Type;

/**
 * A portfolio asset as a holding: the portfolio API names the asset `id` (the specification's
 * "Portfolio asset: id, investedAmount"), every other place `symbol` (`Holding`).
 */
export const toHolding = (asset: {
  readonly id: string;
  readonly investedAmount: number;
}): Holding => ({ symbol: asset.id, investedAmount: asset.investedAmount });

/** Assets grouped by stock exchange (simAssets) or by asset class and position (simIndices). */
export const AssetGroup = Schema.Struct({
  stockExchange: Schema.NullOr(Schema.String),
  stockExchangeId: Schema.NullOr(Schema.String),
  assetClass: Schema.NullOr(Schema.String),
  assetClassId: Schema.NullOr(Schema.String),
  /** Display order of the group. */
  position: Schema.Number,
  assets: Schema.Array(PortfolioAsset),
});
export type AssetGroup = typeof AssetGroup.Type;

/** The latest daily valuation of a saved portfolio (monitoring and the community percentile). */
export const Valuation = Schema.Struct({
  date: Schema.String,
  value: Schema.Number,
  /** Since saving, a fraction. */
  return: Schema.Number,
  /** Loss at 95% over a month as a fraction of the value (parametric, benchmark window). */
  risk: Schema.Number,
  score: Schema.Number,
  /** Percentile of the global score among the product's saved portfolios (0-100). */
  communityPercentile: Schema.NullOr(Schema.Number),
});
export type Valuation = typeof Valuation.Type;

/** Section 3, "Portfolio", with the optimistic-concurrency version and the answers it came from. */
export const Portfolio = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  product: Product,
  currency: Currency,
  benchmark: Benchmark,
  /**
   * The index or fund its past is compared with (`GET /portfolios/:id/past-performance`); null:
   * the market of its currency.
   */
  benchmarkSeries: Schema.NullOr(Schema.String),
  assets: Schema.Array(AssetGroup),
  totalInvested: Schema.Number,
  initialInvested: Schema.Number,
  maxAssetsLevel: Schema.NullOr(Schema.Number),
  saved: Schema.Boolean,
  remainingEditions: Schema.NullOr(Schema.Number),
  monkeyRegion: Schema.NullOr(MonkeyRegion),
  answers: Schema.NullOr(WizardAnswers),
  version: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  valuation: Schema.NullOr(Valuation),
});
export type Portfolio = typeof Portfolio.Type;

export const PortfolioList = Schema.Struct({
  portfolios: Schema.Array(Portfolio),
  simulated: Schema.Boolean,
});
export type PortfolioList = typeof PortfolioList.Type;

const AmountInput = Schema.Struct({ id: Symbol, investedAmount: Money });

/** Save a new portfolio (section 6: the save permission, an unsaved portfolio, under the limit). */
export const SavePortfolioRequest = Schema.Struct({
  name: Name,
  currency: Schema.optional(Schema.NullOr(Currency)),
  benchmark: Schema.optional(Benchmark),
  maxAssetsLevel: Schema.optional(Schema.NullOr(Level)),
  monkeyRegion: Schema.optional(Schema.NullOr(MonkeyRegion)),
  answers: Schema.optional(Schema.NullOr(WizardAnswers)),
  /** An amount of zero or less removes the asset. */
  assets: Schema.Array(AmountInput).pipe(Schema.check(Schema.isMaxLength(500))),
});
export type SavePortfolioRequest = typeof SavePortfolioRequest.Type;

/**
 * An edition of a saved portfolio: the version it was read at (a newer one answers 412
 * PORTFOLIO_CONFLICT), and the new amounts (zero or less removes the asset).
 */
export const UpdatePortfolioRequest = Schema.Struct({
  version: RowVersion,
  name: Schema.optional(Name),
  benchmark: Schema.optional(Benchmark),
  assets: Schema.Array(AmountInput).pipe(Schema.check(Schema.isMaxLength(500))),
});
export type UpdatePortfolioRequest = typeof UpdatePortfolioRequest.Type;

/** Reset invested amounts: of the chosen assets, or of all when `ids` is absent (section 4). */
export const ResetPortfolioRequest = Schema.Struct({
  version: UpdatePortfolioRequest.fields.version,
  ids: Schema.optional(Schema.Array(Symbol)),
});
export type ResetPortfolioRequest = typeof ResetPortfolioRequest.Type;

export const PortfolioIdParam = Schema.Struct({ id: DbIdParam });

/** Daily valuations of a saved portfolio (monitoring: risk, return and risk-return over time). */
export const PortfolioHistory = Schema.Struct({
  dates: Schema.Array(Schema.String),
  values: Schema.Array(Schema.Number),
  returns: Schema.Array(Schema.Number),
  risks: Schema.Array(Schema.Number),
  scores: Schema.Array(Schema.Number),
  /**
   * The benchmark beside the return since saving (issue 27): the stored one, or the market of the
   * portfolio's currency (`chosen` false), as its return since the first of `dates` in the
   * portfolio's currency on each of them (null before its first level). Null without
   * `monitoring.portfolioReturn` or without benchmark data; absent from older servers.
   */
  benchmark: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        series: Schema.String,
        name: Schema.String,
        chosen: Schema.Boolean,
        returns: Schema.Array(Schema.NullOr(Schema.Number)),
      }),
    ),
  ),
  /**
   * The next valuation to come (docs/portfolios.md, "Valuation"): the market day whose closes it
   * uses (`date`) and the calendar moment that day becomes the market's today (`at`, ISO date and
   * time: now when today's valuation is still to come). Null when the market clock does not move
   * (a simulated market, MARKET_AS_OF, the end of the replayed data): the next valuation waits
   * for new prices, on a day nobody can tell.
   */
  nextValuation: Schema.NullOr(Schema.Struct({ date: Schema.String, at: Schema.String })),
});
export type PortfolioHistory = typeof PortfolioHistory.Type;
