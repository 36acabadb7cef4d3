/**
 * One full risk analysis of a portfolio: every figure of the analysis screens from one returns
 * panel and the amounts invested. What the "full analysis" benchmark times.
 */
import { breakdown, type AssetInfo, type Breakdown } from "./breakdown.ts";
import {
  DEFAULT_COVARIANCE_METHOD,
  estimateCovariance,
  type CovarianceMethod,
} from "./covariance.ts";
import { EngineError } from "./errors.ts";
import {
  DEFAULT_RISK_FREE_RATE,
  expectedReturns,
  requiredReturns,
  type ExpectedReturns,
  type RequiredReturns,
} from "./expected.ts";
import {
  benchmarkWindowDays,
  checkedWindow,
  DEFAULT_BENCHMARK,
  validatePanel,
  weightsFromAmounts,
  type ReturnsPanel,
} from "./panel.ts";
import type { Currency } from "./returns.ts";
import {
  componentRisk,
  currencyRisk,
  diversification,
  historicalScenarios,
  historicalVarOf,
  monteCarloVar,
  parametricVar,
  resolveRiskOptions,
  type ComponentRisk,
  type CurrencyRisk,
  type Diversification,
  type VarResult,
} from "./risk.ts";
import { communityPercentile, portfolioScores, type Scores } from "./scores.ts";
import { normalQuantile, TRADING_DAYS_PER_YEAR } from "./stats.ts";

export interface AnalysisInput {
  /** Daily returns in the portfolio currency; the window is taken from the end. */
  readonly panel: ReturnsPanel;
  /** Amounts invested per asset, in the portfolio currency. */
  readonly amounts: Float64Array;
  readonly currency?: Currency;
  /** Look-back window 1..6 (default 5: 3 years). */
  readonly benchmark?: number;
  readonly horizonDays?: number;
  readonly confidence?: number;
  readonly covariance?: CovarianceMethod;
  readonly mean?: "zero" | "sample";
  /** Monte Carlo VaR, only when asked for (paths, seed). */
  readonly monteCarlo?: { readonly paths?: number; readonly seed?: number };
  /** Currency of the assets: daily return of the other currency and the foreign flags. */
  readonly fx?: { readonly returns: Float64Array; readonly foreign: Uint8Array };
  /** Daily returns of the market proxy (same observations as the panel) for the CAPM prior. */
  readonly market?: Float64Array;
  readonly riskFreeRate?: number;
  readonly equityRiskPremium?: number;
  readonly targetSharpe?: number;
  /** Asset metadata for the breakdown. */
  readonly assetInfo?: readonly AssetInfo[];
  /** Global scores of the community, for communityGlobal. */
  readonly communityScores?: ArrayLike<number>;
}

/** A VaR figure with its money amounts (portfolio currency). */
export type VarFigure = VarResult & { readonly varAmount: number; readonly cvarAmount: number };

export interface PortfolioAnalysis {
  readonly window: {
    readonly benchmark: number;
    readonly observations: number;
    readonly horizonDays: number;
    readonly confidence: number;
    readonly covariance: CovarianceMethod;
    readonly shrinkage: number | null;
    readonly ridge: number;
  };
  readonly totalInvested: number;
  readonly weights: Float64Array;
  readonly volatility: {
    readonly daily: number;
    readonly horizon: number;
    readonly annual: number;
  };
  readonly var: {
    readonly parametric: VarFigure;
    readonly historical: VarFigure;
    readonly monteCarlo: VarFigure | null;
  };
  /** The historical VaR's scenarios over the horizon (daily ones scaled by sqrt(h)). */
  readonly distribution: Float64Array;
  readonly componentRisk: ComponentRisk & { readonly varContributionAmounts: Float64Array };
  readonly diversification: Diversification & {
    /** The same figures as parametric (zero-mean) VaR amounts: z times the volatilities, times the total. */
    readonly standAloneVarSumAmount: number;
    readonly portfolioVarAmount: number;
  };
  readonly currencyRisk: (CurrencyRisk & { readonly varShareAmount: number }) | null;
  readonly expectedReturns: ExpectedReturns & { readonly portfolio: number };
  readonly requiredReturns: RequiredReturns;
  readonly scores: Scores & { readonly communityGlobal: number | null };
  readonly breakdown: Breakdown | null;
}

export function analysePortfolio(input: AnalysisInput): PortfolioAnalysis {
  const benchmark = input.benchmark ?? DEFAULT_BENCHMARK;
  const days = benchmarkWindowDays(benchmark);
  validatePanel(input.panel, days, "analysePortfolio");
  // Validated above: the estimators below skip the value scan of this window.
  const panel = checkedWindow(input.panel, days);
  if (input.amounts.length !== panel.assets)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `${input.amounts.length} amounts for ${panel.assets} assets`,
    );
  const { weights, total } = weightsFromAmounts(input.amounts);
  const riskOptions = {
    confidence: input.confidence,
    horizonDays: input.horizonDays,
    mean: input.mean,
  };
  const o = resolveRiskOptions(riskOptions);
  const method = input.covariance ?? DEFAULT_COVARIANCE_METHOD;
  const cov = estimateCovariance(panel, method);
  const rf = input.riskFreeRate ?? DEFAULT_RISK_FREE_RATE;

  const withAmounts = (v: VarResult): VarFigure => ({
    ...v,
    varAmount: v.var * total,
    cvarAmount: v.cvar * total,
  });
  const parametric = withAmounts(parametricVar(cov.matrix, weights, o, cov.means));
  const scenarios = historicalScenarios(panel, weights, o);
  const historical = withAmounts(historicalVarOf(scenarios, o));
  const monteCarlo = input.monteCarlo
    ? withAmounts(
        monteCarloVar(cov.matrix, cov.cholesky, weights, { ...o, ...input.monteCarlo }, cov.means),
      )
    : null;

  const components = componentRisk(cov.matrix, weights, o, cov.means);
  const div = diversification(cov.matrix, weights, o);
  const z = normalQuantile(o.confidence);
  const dailyVol = components.volatility / Math.sqrt(o.horizonDays);

  let currency: PortfolioAnalysis["currencyRisk"] = null;
  if (input.fx) {
    const start = input.panel.observations - days;
    const fxReturns = input.fx.returns;
    if (fxReturns.length !== input.panel.observations)
      throw new EngineError("DIMENSION_MISMATCH", "fx returns must cover the panel's observations");
    const c = currencyRisk(panel, weights, fxReturns.subarray(start), input.fx.foreign, o);
    currency = { ...c, varShareAmount: (c.percentage / 100) * parametric.var * total };
  }

  let market = input.market;
  if (market) {
    if (market.length !== input.panel.observations)
      throw new EngineError(
        "DIMENSION_MISMATCH",
        "market returns must cover the panel's observations",
      );
    market = market.subarray(input.panel.observations - days);
  }
  const expected = expectedReturns(panel, cov.cholesky, {
    riskFreeRate: rf,
    equityRiskPremium: input.equityRiskPremium,
    market,
  });
  let portfolioExpected = 0;
  for (let i = 0; i < weights.length; i++) portfolioExpected += weights[i]! * expected.expected[i]!;
  const required = requiredReturns(cov.matrix, weights, {
    riskFreeRate: rf,
    targetSharpe: input.targetSharpe,
  });

  const annual = dailyVol * Math.sqrt(TRADING_DAYS_PER_YEAR);
  const scores = portfolioScores({
    annualVolatility: annual,
    expectedReturn: portfolioExpected,
    riskFreeRate: rf,
    diversificationRatio: div.ratio,
  });
  const varContributionAmounts = new Float64Array(weights.length);
  for (let i = 0; i < weights.length; i++)
    varContributionAmounts[i] = components.varContribution[i]! * total;

  return {
    window: {
      benchmark,
      observations: days,
      horizonDays: o.horizonDays,
      confidence: o.confidence,
      covariance: method,
      shrinkage: cov.shrinkage,
      ridge: cov.ridge,
    },
    totalInvested: total,
    weights,
    volatility: { daily: dailyVol, horizon: components.volatility, annual },
    var: { parametric, historical, monteCarlo },
    distribution: scenarios.returns.map((r) => r * scenarios.scale),
    componentRisk: { ...components, varContributionAmounts },
    diversification: {
      ...div,
      standAloneVarSumAmount: z * div.standAloneSum * total,
      portfolioVarAmount: z * div.portfolio * total,
    },
    currencyRisk: currency,
    expectedReturns: { ...expected, portfolio: portfolioExpected },
    requiredReturns: required,
    scores: {
      ...scores,
      communityGlobal: input.communityScores
        ? communityPercentile(scores.global, input.communityScores)
        : null,
    },
    breakdown: input.assetInfo ? breakdown(input.assetInfo, input.amounts) : null,
  };
}
