import { Schema } from "effect";

export const Currency = Schema.Literals(["EUR", "USD"]);
export type Currency = typeof Currency.Type;

/** Benchmark = look-back window: 1 = 1 month, 2 = 3 months, 3 = 6 months, 4 = 1 year, 5 = 3 years, 6 = 5 years. */
export const Benchmark = Schema.Literals([1, 2, 3, 4, 5, 6]);

const Symbol = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9._-]{1,32}$/)));
const Amount = Schema.Number.pipe(
  Schema.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1e9)),
);

/**
 * A holding: an asset and the money invested in it, in the portfolio currency. One shape from the
 * wizard to the database and back (issue 26): the analytics requests, the proposal, the screens'
 * portfolios and the stored holdings all say `{ symbol, investedAmount }`. The portfolio API alone
 * names the asset `id`, as the specification's "Portfolio asset: id, investedAmount" does
 * (`toHolding` in ./portfolios.ts reads one as a holding).
 */
export const Holding = Schema.Struct({ symbol: Symbol, investedAmount: Amount });
export type Holding = typeof Holding.Type;

/** The holdings of an analytics request: 1 to 500, each invested above 0. */
const Holdings = Schema.Array(Holding).pipe(
  Schema.check(Schema.isMinLength(1), Schema.isMaxLength(500)),
);

/** A portfolio to analyse, saved or not: every figure can be reproduced from these inputs. */
export const AnalyseRequest = Schema.Struct({
  currency: Currency,
  benchmark: Schema.optional(Benchmark),
  assets: Holdings,
  /** Monte Carlo VaR too (paths and seed), on request. */
  monteCarlo: Schema.optional(
    Schema.Struct({
      paths: Schema.Number.pipe(
        Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1000, maximum: 100_000 })),
      ),
      seed: Schema.Number.pipe(
        Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 2 ** 31 - 1 })),
      ),
    }),
  ),
});
export type AnalyseRequest = typeof AnalyseRequest.Type;

const VarFigure = Schema.Struct({
  method: Schema.Literals(["parametric", "historical", "monte-carlo"]),
  confidence: Schema.Number,
  horizonDays: Schema.Number,
  var: Schema.Number,
  cvar: Schema.Number,
  varAmount: Schema.Number,
  cvarAmount: Schema.Number,
  scaling: Schema.optional(Schema.Literals(["overlapping", "sqrt-time"])),
  scenarios: Schema.optional(Schema.Number),
  seed: Schema.optional(Schema.Number),
});

const BreakdownEntry = Schema.Struct({
  key: Schema.String,
  amount: Schema.Number,
  weight: Schema.Number,
  assets: Schema.Number,
});

export const FullAssetFigures = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  /** The holding's invested amount, as requested. */
  investedAmount: Schema.Number,
  weight: Schema.Number,
  /** Stand-alone risk over the horizon, |w| sigma sqrt(h). */
  standAlone: Schema.Number,
  marginal: Schema.Number,
  contribution: Schema.Number,
  /** Share of the portfolio's risk, in percent (sums to 100). */
  percentage: Schema.Number,
  varContributionAmount: Schema.Number,
  expectedReturn: Schema.Number,
  historicalReturn: Schema.Number,
  beta: Schema.Number,
  requiredReturn: Schema.Number,
});

/** Every figure of an analysis, as the engine computes it (inside the server). */
export const FullAnalysis = Schema.Struct({
  currency: Currency,
  window: Schema.Struct({
    benchmark: Schema.Number,
    observations: Schema.Number,
    from: Schema.String,
    to: Schema.String,
    horizonDays: Schema.Number,
    confidence: Schema.Number,
    covariance: Schema.String,
    shrinkage: Schema.NullOr(Schema.Number),
    ridge: Schema.Number,
    /** Assets whose prices end before the market's today: the window ends on their last common day. */
    limitedBy: Schema.Array(Schema.String),
    simulated: Schema.Boolean,
  }),
  totalInvested: Schema.Number,
  assets: Schema.Array(FullAssetFigures),
  volatility: Schema.Struct({
    daily: Schema.Number,
    horizon: Schema.Number,
    annual: Schema.Number,
  }),
  var: Schema.Struct({
    parametric: VarFigure,
    historical: VarFigure,
    monteCarlo: Schema.NullOr(VarFigure),
  }),
  diversification: Schema.Struct({
    standAloneSum: Schema.Number,
    portfolio: Schema.Number,
    benefit: Schema.Number,
    reduction: Schema.Number,
    ratio: Schema.Number,
    standAloneVarSumAmount: Schema.Number,
    portfolioVarAmount: Schema.Number,
  }),
  currencyRisk: Schema.NullOr(
    Schema.Struct({
      exposure: Schema.Number,
      fxVolatility: Schema.Number,
      standAlone: Schema.Number,
      contribution: Schema.Number,
      percentage: Schema.Number,
      volatility: Schema.Number,
      volatilityWithoutCurrency: Schema.Number,
      varShareAmount: Schema.Number,
    }),
  ),
  expectedReturn: Schema.Struct({
    portfolio: Schema.Number,
    shrinkage: Schema.Number,
    /**
     * The market proxy of the betas and the CAPM prior: the index of the portfolio's market
     * ("GSPC_INDEX", "STOXX50E_INDEX+GDAXI_INDEX"), or null for the equally weighted assets when
     * the market has no such index over the window.
     */
    market: Schema.optional(Schema.NullOr(Schema.String)),
  }),
  requiredReturn: Schema.Struct({
    portfolio: Schema.Number,
    riskFreeRate: Schema.Number,
    targetSharpe: Schema.Number,
  }),
  scores: Schema.Struct({
    marketRisk: Schema.Number,
    riskReturn: Schema.Number,
    diversification: Schema.Number,
    global: Schema.Number,
    communityGlobal: Schema.NullOr(Schema.Number),
  }),
  breakdown: Schema.Record(Schema.String, Schema.Array(BreakdownEntry)),
  /**
   * The portfolio's historical returns over the horizon in the window (the scenarios of the
   * historical VaR: overlapping 21-day windows, or daily returns times sqrt(21) for short windows),
   * for the loss-distribution chart.
   */
  distribution: Schema.Array(Schema.Number),
});
export type FullAnalysis = typeof FullAnalysis.Type;

const Gated = <S extends Schema.Top>(s: S) => Schema.NullOr(s);

/** Per asset, the figures of an analysis answer; null where the plan lacks the permission. */
export const AssetFigures = Schema.Struct({
  ...FullAssetFigures.fields,
  standAlone: Gated(Schema.Number),
  marginal: Gated(Schema.Number),
  contribution: Gated(Schema.Number),
  percentage: Gated(Schema.Number),
  varContributionAmount: Gated(Schema.Number),
  expectedReturn: Gated(Schema.Number),
  historicalReturn: Gated(Schema.Number),
  beta: Gated(Schema.Number),
  requiredReturn: Gated(Schema.Number),
});
export type AssetFigures = typeof AssetFigures.Type;

/**
 * The answer of an analysis (docs/api.md): every figure the plan's permissions allow; a figure a
 * permission gates is null (an empty breakdown) for a plan without it, and `locked` names those
 * permissions (e.g. "analysis.var"), so a screen can say what unlocks them.
 */
export const AnalysisResponse = Schema.Struct({
  ...FullAnalysis.fields,
  assets: Schema.Array(AssetFigures),
  var: Gated(FullAnalysis.fields.var),
  diversification: Gated(
    Schema.Struct({
      ...FullAnalysis.fields.diversification.fields,
      benefit: Gated(Schema.Number),
      reduction: Gated(Schema.Number),
    }),
  ),
  expectedReturn: Gated(FullAnalysis.fields.expectedReturn),
  requiredReturn: Gated(FullAnalysis.fields.requiredReturn),
  scores: Schema.Struct({
    marketRisk: Gated(Schema.Number),
    riskReturn: Gated(Schema.Number),
    diversification: Gated(Schema.Number),
    global: Gated(Schema.Number),
    communityGlobal: Schema.NullOr(Schema.Number),
  }),
  distribution: Gated(Schema.Array(Schema.Number)),
  locked: Schema.Array(Schema.String),
});
export type AnalysisResponse = typeof AnalysisResponse.Type;

const Weight = Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 })));

/** Optimisation of a portfolio (PRODUCT.md "Optimisation"): minimum risk within per-asset limits, a desired number of assets, or a cap on the loss at 95%. */
export const OptimiseRequest = Schema.Struct({
  currency: Currency,
  benchmark: Schema.optional(Benchmark),
  assets: Schema.Array(
    Schema.Struct({
      symbol: Symbol,
      /** 0: an asset of the universe the optimisation may add (levels 2 and 3). */
      investedAmount: Schema.Number.pipe(
        Schema.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1e9)),
      ),
      /** Keep the asset, within these weights (keepAssetsWeight). */
      minWeight: Schema.optional(Weight),
      maxWeight: Schema.optional(Weight),
      keep: Schema.optional(Schema.Boolean),
    }),
  ).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(500))),
  desiredAssetsAmount: Schema.optional(
    Schema.Number.pipe(
      Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 500 })),
    ),
  ),
  /** The largest loss at 95% over a month the investor accepts, in the portfolio currency. */
  maxToLose95: Schema.optional(Schema.Number.pipe(Schema.check(Schema.isGreaterThan(0)))),
  /**
   * What to optimise (o1): the minimum risk (default), or the highest expected return whose loss
   * at 95% (CVaR) stays within maxToLose95.
   */
  objective: Schema.optional(Schema.Literals(["minimum-risk", "maximum-return"])),
  /**
   * The optimisation level the user chose (1 current assets, 2 construction, 3 desired number of
   * assets); the server checks the permission of this level and of the one the options imply.
   */
  level: Schema.optional(Schema.Literals([1, 2, 3])),
  /**
   * The portfolio's maxAssetsLevel (q3's number of assets): the asset count may not exceed
   * min(the plan's maxAssets, the level's count), as when the portfolio is saved.
   */
  maxAssetsLevel: Schema.optional(
    Schema.NullOr(
      Schema.Number.pipe(
        Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 99 })),
      ),
    ),
  ),
});
export type OptimiseRequest = typeof OptimiseRequest.Type;

/** Risk and return of a portfolio as the optimisation reports them (one month; return annual). */
const OptimisedFigures = {
  /** Over one month (21 trading days), as fractions and amounts of the total. */
  volatility: Schema.Number,
  var95: Schema.Number,
  cvar95: Schema.Number,
  var95Amount: Schema.Number,
  cvar95Amount: Schema.Number,
  /**
   * Expected return, annual (Bayes-Stein towards CAPM, as the analysis); null for a plan without
   * its permission (expectedReturnsOptimPortfolio for the optimised portfolio, expectedReturns
   * for the current one).
   */
  expectedReturn: Schema.NullOr(Schema.Number),
};

export const OptimiseResponse = Schema.Union([
  Schema.Struct({
    status: Schema.Literal("optimal"),
    method: Schema.Literals(["minimum-risk", "desired-number", "cvar-cap"]),
    currency: Currency,
    window: Schema.Struct({
      benchmark: Schema.Number,
      from: Schema.String,
      to: Schema.String,
      limitedBy: Schema.Array(Schema.String),
      simulated: Schema.Boolean,
    }),
    assets: Schema.Array(
      Schema.Struct({
        symbol: Schema.String,
        weight: Schema.Number,
        /** The optimised holding: the money to invest in it (weight × the total invested). */
        investedAmount: Schema.Number,
        /** The asset's weight in the portfolio as given (0 for an asset of the universe). */
        currentWeight: Schema.Number,
        /**
         * The asset alone on the frontier's axes (issue 27): its monthly volatility (the square
         * root of its entry of the frontier's covariance) and its annual expected return (the
         * frontier's); the expected return is null where the frontier is (the plan).
         */
        volatility: Schema.optional(Schema.Number),
        expectedReturn: Schema.optional(Schema.NullOr(Schema.Number)),
      }),
    ),
    ...OptimisedFigures,
    /** The portfolio as given, on the same window, horizon and method. */
    current: Schema.Struct(OptimisedFigures),
    /**
     * The efficient frontier over the same assets and bounds: monthly volatility against annual
     * expected return, from the minimum-risk portfolio to the highest expected return (empty for a
     * plan without expectedReturnsOptimPortfolio: it is drawn in expected returns).
     */
    frontier: Schema.Array(
      Schema.Struct({ volatility: Schema.Number, expectedReturn: Schema.Number }),
    ),
    /** Relative gap to the best possible answer (desired number of assets; 0 when proven optimal). */
    gap: Schema.NullOr(Schema.Number),
  }),
  Schema.Struct({
    status: Schema.Literal("infeasible"),
    /** Which constraint cannot be met, with the numbers that show it. */
    reason: Schema.Struct({
      code: Schema.String,
      detail: Schema.Record(Schema.String, Schema.Number),
    }),
  }),
]);
export type OptimiseResponse = typeof OptimiseResponse.Type;

/**
 * The investment simulator's limits (PRODUCT.md "Markets and the investment simulator"): the
 * request schema enforces them on the server and the simulator machine's guards mirror them.
 */
export const SIMULATION_LIMITS = {
  minYears: 1,
  maxYears: 40,
  maxInitialAmount: 1e9,
  maxMonthlyContribution: 1e8,
  maxGoal: 1e12,
  minPaths: 100,
  maxPaths: 50_000,
  defaultPaths: 10_000,
  /** Runs with more paths than this are "large": the screen shows their progress. */
  largePaths: 20_000,
} as const;

/** The series each currency's inflation adjustment reads (monthly price indices of the dataset). */
export const INFLATION_SERIES = { USD: "US_CPI", EUR: "EA_HICP" } as const;

/**
 * The simulator's assumptions (PRODUCT.md "Simulator assumptions"): `equilibrium` (default) draws
 * lognormal months with the portfolio's CAPM expected return and its long-run volatility;
 * `historical` draws blocks of 12 consecutive months of the common history; `own` uses the
 * expected return and volatility the person typed.
 */
export const SimulationMode = Schema.Literals(["equilibrium", "historical", "own"]);
export type SimulationMode = typeof SimulationMode.Type;

export const SIMULATION_ASSUMPTIONS = {
  /** An assumed annual return above this is cautioned (world equities: about 5-7 % above inflation). */
  returnCaution: 0.12,
  /** The equity premium of the CAPM (the analysis' default). */
  equityRiskPremium: 0.05,
  /** What a person may type in "my own" assumptions: annual return and volatility, as fractions. */
  minOwnReturn: -0.5,
  maxOwnReturn: 0.5,
  minOwnVolatility: 0,
  maxOwnVolatility: 1,
} as const;

/** Why the figures deserve a caution: the horizon is longer than the history, or the return is high. */
export const SimulationCaution = Schema.Literals(["horizon-beyond-history", "return-above-bound"]);
export type SimulationCaution = typeof SimulationCaution.Type;

export const SimulationAssumptionsRequest = Schema.Union([
  Schema.Struct({ mode: Schema.Literal("equilibrium") }),
  Schema.Struct({ mode: Schema.Literal("historical") }),
  Schema.Struct({
    mode: Schema.Literal("own"),
    annualReturn: Schema.Number.pipe(
      Schema.check(
        Schema.isBetween({
          minimum: SIMULATION_ASSUMPTIONS.minOwnReturn,
          maximum: SIMULATION_ASSUMPTIONS.maxOwnReturn,
        }),
      ),
    ),
    annualVolatility: Schema.Number.pipe(
      Schema.check(
        Schema.isBetween({
          minimum: SIMULATION_ASSUMPTIONS.minOwnVolatility,
          maximum: SIMULATION_ASSUMPTIONS.maxOwnVolatility,
        }),
      ),
    ),
  }),
]);
export type SimulationAssumptionsRequest = typeof SimulationAssumptionsRequest.Type;

/**
 * Investment simulator: initial amount, monthly contributions, horizon (1 to 40 years); Monte
 * Carlo percentiles beside the historical path; optionally in today's money and with a goal.
 * Either the initial amount or the contribution must be positive.
 */
export const SimulateRequest = Schema.Struct({
  currency: Currency,
  benchmark: Schema.optional(Benchmark),
  assets: Holdings,
  initialAmount: Schema.Number.pipe(
    Schema.check(
      Schema.isGreaterThanOrEqualTo(0),
      Schema.isLessThanOrEqualTo(SIMULATION_LIMITS.maxInitialAmount),
    ),
  ),
  monthlyContribution: Schema.Number.pipe(
    Schema.check(
      Schema.isGreaterThanOrEqualTo(0),
      Schema.isLessThanOrEqualTo(SIMULATION_LIMITS.maxMonthlyContribution),
    ),
  ),
  years: Schema.Number.pipe(
    Schema.check(
      Schema.isInt(),
      Schema.isBetween({
        minimum: SIMULATION_LIMITS.minYears,
        maximum: SIMULATION_LIMITS.maxYears,
      }),
    ),
  ),
  paths: Schema.optional(
    Schema.Number.pipe(
      Schema.check(
        Schema.isInt(),
        Schema.isBetween({
          minimum: SIMULATION_LIMITS.minPaths,
          maximum: SIMULATION_LIMITS.maxPaths,
        }),
      ),
    ),
  ),
  seed: Schema.optional(
    Schema.Number.pipe(
      Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 2 ** 31 - 1 })),
    ),
  ),
  /** Express every figure in today's money, deflated by the CPI (USD) or HICP (EUR) inflation. */
  inflation: Schema.optional(Schema.Boolean),
  /** A value to reach at the horizon (in today's money with `inflation`). */
  goal: Schema.optional(
    Schema.Number.pipe(
      Schema.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(SIMULATION_LIMITS.maxGoal)),
    ),
  ),
  /** The assumptions the paths are drawn with (default: equilibrium). */
  assumptions: Schema.optional(SimulationAssumptionsRequest),
}).check(
  Schema.makeFilter((r) =>
    r.initialAmount > 0 || r.monthlyContribution > 0
      ? undefined
      : { path: ["initialAmount"], issue: "An initial amount or a monthly contribution above 0" },
  ),
);
export type SimulateRequest = typeof SimulateRequest.Type;

export const SimulateResponse = Schema.Struct({
  currency: Currency,
  /**
   * The model (docs/analytics.md "Investment simulator"): i.i.d. lognormal monthly growth
   * (equilibrium and own assumptions) or blocks of 12 months of the history (historical).
   */
  method: Schema.Literals(["monte-carlo-lognormal", "block-bootstrap"]),
  /** The assumptions the percentiles and the goal's probability follow from, as printed on screen. */
  assumptions: Schema.Struct({
    mode: SimulationMode,
    /** Expected growth over one year minus 1 (arithmetic), as a fraction. */
    annualReturn: Schema.Number,
    /** Standard deviation of one year's log growth, as a fraction. */
    annualVolatility: Schema.Number,
    /** The history the assumptions rest on (the longest common history); null for own assumptions. */
    history: Schema.NullOr(
      Schema.Struct({
        from: Schema.String,
        to: Schema.String,
        observations: Schema.Number,
        /** observations / 252 */
        years: Schema.Number,
      }),
    ),
    /** Equilibrium: annualReturn = riskFreeRate + beta equityRiskPremium. */
    capm: Schema.NullOr(
      Schema.Struct({
        riskFreeRate: Schema.Number,
        equityRiskPremium: Schema.Number,
        beta: Schema.Number,
        /** The index the betas are measured against; null: the equally weighted assets (no index data). */
        market: Schema.NullOr(Schema.String),
        /** The betas' window (the portfolio's benchmark window). */
        from: Schema.String,
        to: Schema.String,
        observations: Schema.Number,
      }),
    ),
    /** Historical: the number of 12-month blocks drawn from. */
    blocks: Schema.NullOr(Schema.Number),
    cautions: Schema.Array(SimulationCaution),
  }),
  months: Schema.Number,
  invested: Schema.Array(Schema.Number),
  percentiles: Schema.Array(
    Schema.Struct({ percentile: Schema.Number, values: Schema.Array(Schema.Number) }),
  ),
  historical: Schema.Struct({
    months: Schema.Number,
    values: Schema.Array(Schema.Number),
    /** The replayed past: first and last day (null when no whole month was available). */
    from: Schema.NullOr(Schema.String),
    to: Schema.NullOr(Schema.String),
  }),
  paths: Schema.Number,
  seed: Schema.Number,
  /** Mean and volatility of the monthly log return the paths were drawn with. */
  monthlyLogMean: Schema.Number,
  monthlyLogVolatility: Schema.Number,
  /** The portfolio's benchmark window (the CAPM betas' window). */
  window: Schema.Struct({
    benchmark: Schema.Number,
    from: Schema.String,
    to: Schema.String,
    simulated: Schema.Boolean,
    observations: Schema.Number,
  }),
  /** The inflation adjustment: figures in today's money, deflated at `annualRate` a year. */
  inflation: Schema.NullOr(
    Schema.Struct({
      series: Schema.String,
      annualRate: Schema.Number,
      from: Schema.String,
      to: Schema.String,
    }),
  ),
  /** The goal and the share of paths that reach it at the horizon. */
  goal: Schema.NullOr(Schema.Struct({ amount: Schema.Number, probability: Schema.Number })),
});
export type SimulateResponse = typeof SimulateResponse.Type;

const Shock = (minimum: number, maximum: number) =>
  Schema.optional(
    Schema.NullOr(Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum, maximum })))),
  );

/**
 * The shocks of a custom what-if (specification, "What-if state"): return factors as fractions
 * (-0.2 = the stock market falls 20%), level factors in percentage points (+1 = one point).
 */
export const WhatIfShocks = Schema.Struct({
  /** Stock market return. */
  dRV: Shock(-1, 5),
  /** Change of the 10-year yield, points. */
  dRF: Shock(-10, 10),
  /** Bitcoin return. */
  dCrypto: Shock(-1, 20),
  /** Commodities return. */
  dMMPP: Shock(-1, 5),
  /** Change of year-on-year inflation, points. */
  inflation: Shock(-10, 20),
});
export type WhatIfShocks = typeof WhatIfShocks.Type;

/** Past windows a backtest can run over, counted back from the portfolio's last common day. */
export const BACKTEST_WINDOWS = { "1y": 252, "3y": 756, "5y": 1260, "10y": 2520 } as const;
export const BacktestId = Schema.Literals(["1y", "3y", "5y", "10y"]);
export const Rebalancing = Schema.Literals(["none", "monthly", "quarterly", "annual"]);
export const ScenarioType = Schema.Literals([0, 1, 2, 3]);

/** An instrument of the market as the import names it (a symbol of assets.csv). */
export const SeriesId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[A-Za-z0-9._-]{1,32}$/)),
);

/**
 * A what-if on a portfolio. Type priority (specification): a backtest when `backTesting` is given,
 * else the real scenario `scenarioType`, else the custom `shocks` (at least one non-null).
 */
export const WhatIfRequest = Schema.Struct({
  currency: Currency,
  benchmark: Schema.optional(Benchmark),
  assets: Holdings,
  backTesting: Schema.optional(Schema.NullOr(BacktestId)),
  rebalancing: Schema.optional(Rebalancing),
  /**
   * Backtest: the index or fund it is compared with (a saved portfolio's stored choice, issue 27);
   * absent or null, or no longer in the market data: the market of the currency.
   */
  benchmarkSeries: Schema.optional(Schema.NullOr(SeriesId)),
  scenarioType: Schema.optional(Schema.NullOr(ScenarioType)),
  shocks: Schema.optional(WhatIfShocks),
});
export type WhatIfRequest = typeof WhatIfRequest.Type;

export const WhatIfFactor = Schema.Literals([
  "market",
  "rates",
  "crypto",
  "commodities",
  "inflation",
]);
export type WhatIfFactor = typeof WhatIfFactor.Type;

/** The series each factor was measured with, e.g. market = STOXX50E_INDEX for a EUR portfolio. */
const FactorSources = Schema.Array(Schema.Struct({ factor: WhatIfFactor, series: Schema.String }));

const Betas = Schema.Struct({
  /** Weekly periods of the regression and its window. */
  periods: Schema.Number,
  from: Schema.String,
  to: Schema.String,
  factors: Schema.Array(WhatIfFactor),
  excluded: Schema.Array(WhatIfFactor),
});

const WhatIfAsset = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  /** The holding's invested amount, as requested. */
  investedAmount: Schema.Number,
  /** Return over the shock or scenario (fraction) and the gain (+) or loss (-) it means. */
  return: Schema.Number,
  change: Schema.Number,
  /** Sensitivity to each factor (custom shocks); empty for other kinds. */
  betas: Schema.Record(Schema.String, Schema.Number),
  /** Scenario only: history, spliced (proxy before its first price) or proxy. */
  method: Schema.NullOr(Schema.Literals(["history", "spliced", "proxy"])),
});

const PerformanceFigures = Schema.Struct({
  totalReturn: Schema.Number,
  annualizedReturn: Schema.Number,
  volatility: Schema.Number,
  maxDrawdown: Schema.Number,
  sharpe: Schema.Number,
});

export const WhatIfResponse = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("custom"),
    currency: Currency,
    totalInvested: Schema.Number,
    totalChange: Schema.Number,
    totalReturn: Schema.Number,
    assets: Schema.Array(WhatIfAsset),
    shocks: WhatIfShocks,
    /** Shocks given to factors without a beta: they move nothing. */
    ignored: Schema.Array(WhatIfFactor),
    sensitivities: Betas,
    sources: FactorSources,
    simulated: Schema.Boolean,
  }),
  Schema.Struct({
    kind: Schema.Literal("scenario"),
    currency: Currency,
    scenario: Schema.Struct({
      type: ScenarioType,
      id: Schema.String,
      start: Schema.String,
      end: Schema.String,
    }),
    totalInvested: Schema.Number,
    totalChange: Schema.Number,
    totalReturn: Schema.Number,
    assets: Schema.Array(WhatIfAsset),
    factorMoves: Schema.Record(Schema.String, Schema.Number),
    missingFactors: Schema.Array(WhatIfFactor),
    /** The portfolio's value over the scenario (first = total invested, last = + totalChange). */
    path: Schema.optional(
      Schema.Struct({ dates: Schema.Array(Schema.String), values: Schema.Array(Schema.Number) }),
    ),
    sensitivities: Schema.NullOr(Betas),
    sources: FactorSources,
    simulated: Schema.Boolean,
  }),
  Schema.Struct({
    kind: Schema.Literal("backtest"),
    currency: Currency,
    backTesting: BacktestId,
    rebalancing: Rebalancing,
    rebalances: Schema.Number,
    from: Schema.String,
    to: Schema.String,
    totalInvested: Schema.Number,
    /** Value path in the portfolio currency (initial value = total invested), with its dates. */
    dates: Schema.Array(Schema.String),
    values: Schema.Array(Schema.Number),
    performance: PerformanceFigures,
    benchmark: Schema.NullOr(
      Schema.Struct({
        series: Schema.String,
        /** The series' name in the market data (for a series the screens have no name of). */
        name: Schema.optional(Schema.String),
        /** Whether it is the person's choice (`benchmarkSeries`) rather than the currency's market. */
        chosen: Schema.optional(Schema.Boolean),
        values: Schema.Array(Schema.Number),
        performance: PerformanceFigures,
        excessReturn: Schema.Number,
        trackingError: Schema.Number,
      }),
    ),
    limitedBy: Schema.Array(Schema.String),
    simulated: Schema.Boolean,
  }),
]);
export type WhatIfResponse = typeof WhatIfResponse.Type;
