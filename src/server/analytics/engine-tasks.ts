// The engine's work as the worker threads run it: each task's input and output, and the function
// that computes it. The task table (tasks.ts) names them; the request modules (analyse, optimise,
// simulate, what-if) read their output types from here, not from the table that runs them.
import type { SimulationAssumptionsRequest } from "../../contract/analytics.ts";
import { estimateCovariance } from "../../engine/covariance.ts";
import { matrix } from "../../engine/linalg.ts";
import { minimumRiskWithCardinality } from "../../engine/optimize/cardinality.ts";
import { maximumReturnWithCvarCap, historicalRisk } from "../../engine/optimize/cvar.ts";
import { minimumRisk } from "../../engine/optimize/min-risk.ts";
import { proposalWeights, type ProposalObjective } from "../../engine/optimize/proposal.ts";
import type { OptimizationFailure } from "../../engine/optimize/result.ts";
import {
  benchmarkWindowDays,
  lastObservations,
  portfolioReturns,
  weightsFromAmounts,
  type ReturnsPanel,
} from "../../engine/panel.ts";
import { backtest, type BacktestResult, type Rebalancing } from "../../engine/backtest.ts";
import { dayNumber } from "../../engine/dates.ts";
import { EngineError } from "../../engine/errors.ts";
import type { Currency, FxSeries, PriceSeries } from "../../engine/returns.ts";
import {
  bootstrapYear,
  equilibriumAssumptions,
  lognormalFromAnnual,
  monthlyReturnsOf,
  simulatePlan,
  type EquilibriumAssumptions,
  type SimulationResult,
} from "../../engine/simulate.ts";
import { applyShocks, type ShockResult, type Shocks } from "../../engine/whatif/shocks.ts";
import { factorChanges, type FactorSeries } from "../../engine/whatif/factors.ts";
import { factorSensitivities, type Sensitivities } from "../../engine/whatif/sensitivities.ts";
import {
  replayScenario,
  scenarioFactorMoves,
  scenarioFactorPanel,
  scenarioOfType,
  type ScenarioResult,
} from "../../engine/whatif/scenarios.ts";
import {
  sampleVariance,
  TRADING_DAYS_PER_MONTH,
  TRADING_DAYS_PER_YEAR,
} from "../../engine/stats.ts";
import { expectedReturns } from "../../engine/expected.ts";

export interface OptimiseInput {
  readonly panel: ReturnsPanel;
  readonly amounts: Float64Array;
  readonly benchmark: number;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  /** Hold at most this many assets (kept ones count); exactly this many in mode "exactly". */
  readonly desiredAssets?: number;
  readonly mode?: "atMost" | "exactly";
  readonly keep?: readonly number[];
  /** The largest loss at 95% over a month accepted, as a fraction of the amount (CVaR constraint). */
  readonly maxLoss95?: number;
  /**
   * What the highest return under `maxLoss95` maximises: the engine's expected returns, the ones
   * the answer reports (without them, the scenarios' means).
   */
  readonly expectedReturns?: Float64Array;
}

export type OptimiseOutput =
  | {
      readonly ok: true;
      readonly method: "minimum-risk" | "desired-number" | "cvar-cap";
      readonly weights: Float64Array;
      /** Monthly (21-day) volatility, and historical VaR95 and CVaR95 of the 21-day scenarios. */
      readonly volatility: number;
      readonly var95: number;
      readonly cvar95: number;
      readonly gap: number | null;
    }
  | { readonly ok: false; readonly reason: OptimizationFailure };

/** Overlapping 21-day compounded returns of each asset: the scenarios of the loss at 95%. */
function monthlyScenarios(panel: ReturnsPanel) {
  const h = TRADING_DAYS_PER_MONTH;
  const n = panel.assets;
  const s = panel.observations - h + 1;
  const out = new Float64Array(s * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < s; k++) {
      let growth = 1;
      for (let t = k; t < k + h; t++) growth *= 1 + panel.data[t * n + i]!;
      out[k * n + i] = growth - 1;
    }
  }
  return matrix(s, n, out);
}

/**
 * What `optimise` and `proposeWeights` work on: the benchmark window's Ledoit-Wolf covariance
 * scaled to a month (21 days), its overlapping 21-day scenarios, and the risk figures both report.
 */
function monthlyRiskInputs(panel: ReturnsPanel, benchmark: number) {
  const window = lastObservations(panel, benchmarkWindowDays(benchmark));
  const daily = estimateCovariance(window).matrix;
  const monthly = matrix(
    daily.rows,
    daily.cols,
    daily.data.map((v) => v * TRADING_DAYS_PER_MONTH),
  );
  const scenarios = monthlyScenarios(window);
  /** Monthly volatility, and historical VaR95 and CVaR95 of the scenarios, of some weights. */
  const risk = (weights: Float64Array) => {
    const h = historicalRisk(scenarios, weights, 0.95);
    let variance = 0;
    const n = weights.length;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) variance += weights[i]! * monthly.data[i * n + j]! * weights[j]!;
    return { volatility: Math.sqrt(Math.max(variance, 0)), var95: h.var, cvar95: h.cvar };
  };
  return { monthly, scenarios, risk };
}

export function optimise(input: OptimiseInput): OptimiseOutput {
  const { monthly, scenarios, risk } = monthlyRiskInputs(input.panel, input.benchmark);
  const bounds = { lower: input.lower, upper: input.upper };
  if (input.maxLoss95 !== undefined) {
    const result = maximumReturnWithCvarCap({
      scenarios,
      ...bounds,
      maxCvar: input.maxLoss95,
      ...(input.expectedReturns ? { expectedReturns: input.expectedReturns } : {}),
    });
    if (!result.ok) return result;
    return {
      ok: true,
      method: "cvar-cap",
      weights: result.value.weights,
      ...risk(result.value.weights),
      gap: null,
    };
  }
  if (input.desiredAssets !== undefined) {
    const result = minimumRiskWithCardinality({
      covariance: monthly,
      maxAssets: input.desiredAssets,
      ...(input.mode ? { mode: input.mode } : {}),
      ...bounds,
      ...(input.keep ? { keep: input.keep } : {}),
    });
    if (!result.ok) return result;
    return {
      ok: true,
      method: "desired-number",
      weights: result.value.weights,
      ...risk(result.value.weights),
      gap: result.value.gap,
    };
  }
  const result = minimumRisk({ covariance: monthly, ...bounds });
  if (!result.ok) return result;
  return {
    ok: true,
    method: "minimum-risk",
    weights: result.value.weights,
    ...risk(result.value.weights),
    gap: 0,
  };
}

export interface ProposeWeightsInput {
  readonly panel: ReturnsPanel;
  readonly benchmark: number;
  readonly objective: ProposalObjective;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly expectedReturns?: Float64Array;
  readonly betas?: Float64Array;
  /** The largest loss at 95% over a month accepted, as a fraction of the amount (CVaR cap). */
  readonly maxLoss95?: number;
}

/**
 * The weights of a proposal by the objective q3 names (src/engine/optimize/proposal.ts) on the
 * benchmark window: monthly Ledoit-Wolf covariance, overlapping 21-day scenarios (as `optimise`).
 */
export function proposeWeights(input: ProposeWeightsInput): OptimiseOutput {
  const { monthly, scenarios, risk } = monthlyRiskInputs(input.panel, input.benchmark);
  const result = proposalWeights({
    objective: input.objective,
    covariance: monthly,
    scenarios,
    lower: input.lower,
    upper: input.upper,
    ...(input.expectedReturns ? { expectedReturns: input.expectedReturns } : {}),
    ...(input.betas ? { betas: input.betas } : {}),
    ...(input.maxLoss95 !== undefined ? { maxCvar: input.maxLoss95 } : {}),
  });
  if (!result.ok) return result;
  const weights = result.value;
  return { ok: true, method: "minimum-risk", weights, ...risk(weights), gap: null };
}

export interface SimulateInput {
  /** The assets' daily returns over their longest common history. */
  readonly panel: ReturnsPanel;
  readonly amounts: Float64Array;
  readonly benchmark: number;
  readonly initialAmount: number;
  readonly monthlyContribution: number;
  readonly years: number;
  readonly paths: number;
  readonly seed: number;
  readonly assumptions: SimulationAssumptionsRequest;
  /** Equilibrium: the market index's daily returns over the benchmark window (none: the engine's proxy). */
  readonly market?: Float64Array;
  readonly riskFreeRate: number;
  readonly equityRiskPremium: number;
  /** Annual inflation to express the figures in today's money. */
  readonly annualInflation?: number;
  readonly goal?: number;
}

export interface SimulateOutput {
  readonly result: SimulationResult;
  readonly annualReturn: number;
  readonly annualVolatility: number;
  readonly equilibrium: EquilibriumAssumptions | null;
  readonly blocks: number | null;
}

/**
 * The assumptions of the request turned into the model of the paths (docs/analytics.md
 * "Investment simulator"), then the plan run on it; the historical replay on the whole panel.
 */
export function simulate(input: SimulateInput): SimulateOutput {
  const { weights } = weightsFromAmounts(input.amounts);
  const history = portfolioReturns(input.panel, weights);
  const plan = {
    initialAmount: input.initialAmount,
    monthlyContribution: input.monthlyContribution,
    years: input.years,
    paths: input.paths,
    seed: input.seed,
    history,
    ...(input.annualInflation !== undefined ? { annualInflation: input.annualInflation } : {}),
    ...(input.goal !== undefined ? { goal: input.goal } : {}),
  };
  const a = input.assumptions;
  if (a.mode === "historical") {
    const monthly = monthlyReturnsOf(history);
    const year = bootstrapYear(monthly);
    return {
      result: simulatePlan({ kind: "block-bootstrap", monthlyReturns: monthly }, plan),
      annualReturn: year.annualReturn,
      annualVolatility: year.annualVolatility,
      equilibrium: null,
      blocks: year.blocks,
    };
  }
  if (a.mode === "own")
    return {
      result: simulatePlan(lognormalFromAnnual(a.annualReturn, a.annualVolatility), plan),
      annualReturn: a.annualReturn,
      annualVolatility: a.annualVolatility,
      equilibrium: null,
      blocks: null,
    };
  const equilibrium = equilibriumAssumptions({
    panel: input.panel,
    weights,
    betaDays: benchmarkWindowDays(input.benchmark),
    ...(input.market ? { market: input.market } : {}),
    riskFreeRate: input.riskFreeRate,
    equityRiskPremium: input.equityRiskPremium,
  });
  return {
    result: simulatePlan(
      lognormalFromAnnual(equilibrium.annualReturn, equilibrium.annualVolatility),
      plan,
    ),
    annualReturn: equilibrium.annualReturn,
    annualVolatility: equilibrium.annualVolatility,
    equilibrium,
    blocks: null,
  };
}

/** Factor betas are estimated over the last 5 years (benchmark 6) of the common history, or all of it. */
export const SENSITIVITY_DAYS = 1260;

export interface WhatIfInput {
  readonly kind: "custom" | "scenario" | "backtest";
  readonly currency: Currency;
  readonly panel: ReturnsPanel;
  /** observations + 1 calendar days of the panel. */
  readonly dates: Int32Array;
  readonly amounts: Float64Array;
  readonly factors: readonly FactorSeries[];
  readonly shocks?: Shocks;
  readonly scenarioType?: number;
  /** Scenario: each asset's whole price history, and EUR/USD with the monthly rates before 2003-12. */
  readonly prices?: readonly PriceSeries[];
  readonly fx?: FxSeries;
  readonly backtest?: {
    readonly days: number;
    readonly rebalancing: Rebalancing;
    /** The chosen benchmark's daily returns over the window (none: the `market` factor's). */
    readonly benchmark?: Float64Array;
  };
}

export interface SensitivityFit {
  readonly sensitivities: Sensitivities;
  /** First and last calendar day of the regression window. */
  readonly from: number;
  readonly to: number;
}

export type WhatIfOutput =
  | { readonly kind: "custom"; readonly fit: SensitivityFit; readonly result: ShockResult }
  | {
      readonly kind: "scenario";
      readonly fit: SensitivityFit | null;
      readonly result: ScenarioResult;
    }
  | {
      readonly kind: "backtest";
      readonly result: BacktestResult;
      readonly dates: Int32Array;
      readonly benchmark: boolean;
    };

/** Betas of every asset on the factors that cover the window (others are excluded). */
function fitSensitivities(input: WhatIfInput): SensitivityFit {
  const days = Math.min(SENSITIVITY_DAYS, input.panel.observations);
  const panel = lastObservations(input.panel, days);
  const dates = input.dates.subarray(input.dates.length - days - 1);
  const usable = input.factors.filter((f) => f.dates.length > 0 && f.dates[0]! <= dates[0]!);
  if (usable.length === 0)
    throw new EngineError("NO_DATA", "what-if: no factor series covers the assets' history");
  const sensitivities = factorSensitivities(panel, factorChanges(usable, dates));
  const missing = input.factors.filter((f) => !usable.includes(f)).map((f) => f.factor);
  return {
    sensitivities: { ...sensitivities, excluded: [...sensitivities.excluded, ...missing] },
    from: dates[0]!,
    to: dates[dates.length - 1]!,
  };
}

export function whatIf(input: WhatIfInput): WhatIfOutput {
  if (input.kind === "custom") {
    const fit = fitSensitivities(input);
    return {
      kind: "custom",
      fit,
      result: applyShocks(fit.sensitivities, input.amounts, input.shocks ?? {}),
    };
  }
  if (input.kind === "scenario") {
    const type = input.scenarioType ?? -1;
    const scenario = scenarioOfType(type);
    const prices = input.prices ?? [];
    const start = dayNumber(scenario.start);
    const end = dayNumber(scenario.end);
    const needsProxy = prices.some(
      (p) => p.dates[0]! > start || p.dates[p.dates.length - 1]! < end,
    );
    const { panel: factors } = scenarioFactorPanel(type, input.factors);
    if (needsProxy && factors.factors.length === 0)
      throw new EngineError(
        "NOT_ENOUGH_HISTORY",
        `scenario ${scenario.id}: assets without prices over the window and no factor data to rebuild them`,
      );
    const fit = needsProxy ? fitSensitivities(input) : null;
    const replay = replayScenario({
      type,
      currency: input.currency,
      assets: prices.map((p) => ({ prices: p })),
      amounts: input.amounts,
      ...(input.fx ? { fx: input.fx } : {}),
      ...(fit ? { sensitivities: fit.sensitivities, factors } : {}),
    });
    // Each factor's move over the window, in every answer (docs/analytics.md), not only when an
    // asset needed the factors to be rebuilt.
    const result =
      fit || factors.factors.length === 0
        ? replay
        : { ...replay, factorMoves: scenarioFactorMoves(factors, type) };
    return { kind: "scenario", fit, result };
  }
  const spec = input.backtest!;
  const panel = lastObservations(input.panel, spec.days);
  const dates = input.dates.slice(input.dates.length - spec.days - 1);
  const market = input.factors.find((f) => f.factor === "market");
  const benchmark =
    spec.benchmark ??
    (market && market.dates[0]! <= dates[0]! ? factorChanges([market], dates).data : undefined);
  const total = input.amounts.reduce((s, a) => s + a, 0);
  const result = backtest({
    panel,
    weights: input.amounts.map((a) => a / total),
    dates,
    rebalancing: spec.rebalancing,
    initialValue: total,
    ...(benchmark ? { benchmark } : {}),
  });
  return { kind: "backtest", result, dates, benchmark: benchmark !== undefined };
}

export interface UniverseStatsInput {
  readonly panel: ReturnsPanel;
  readonly benchmark: number;
  /**
   * Daily returns of the index of the portfolio's market on the panel's observations (the
   * analysis's `market`, prepareAt); without it, the equally weighted universe.
   */
  readonly market?: Float64Array;
}

export interface UniverseStats {
  /** Annualised sample volatility of each asset's daily returns over the benchmark window. */
  readonly volatility: Float64Array;
  /** CAPM beta of each asset against the market proxy (the index, or the equally weighted universe). */
  readonly betas: Float64Array;
  /** The engine's expected returns (Bayes-Stein towards CAPM), annual. */
  readonly expected: Float64Array;
}

/**
 * What the orderings of a proposed portfolio rank the universe by (docs/portfolios.md): the
 * analysis's own estimators on the same window, against the same market proxy.
 */
export function universeStats(input: UniverseStatsInput): UniverseStats {
  const window = lastObservations(input.panel, benchmarkWindowDays(input.benchmark));
  const n = window.assets;
  const t = window.observations;
  const volatility = new Float64Array(n);
  const column = new Float64Array(t);
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < t; s++) column[s] = window.data[s * n + i]!;
    volatility[i] = Math.sqrt(sampleVariance(column) * TRADING_DAYS_PER_YEAR);
  }
  if (input.market && input.market.length !== input.panel.observations)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      "market returns must cover the panel's observations",
    );
  const market = input.market?.subarray(input.panel.observations - t);
  // One asset: nothing to rank or weigh (it is the whole proposal).
  if (n < 2) return { volatility, betas: Float64Array.of(1), expected: new Float64Array(n) };
  const estimate = expectedReturns(window, estimateCovariance(window).cholesky, {
    ...(market ? { market } : {}),
  });
  return { volatility, betas: estimate.betas, expected: estimate.expected };
}

export interface PortfolioRiskInput {
  readonly panel: ReturnsPanel;
  readonly weights: Float64Array;
  readonly benchmark: number;
}

/** Monthly volatility and historical VaR95 / CVaR95 of 21-day scenarios, as `optimise` reports them. */
export function portfolioRisk(input: PortfolioRiskInput): {
  volatility: number;
  var95: number;
  cvar95: number;
} {
  const window = lastObservations(input.panel, benchmarkWindowDays(input.benchmark));
  const h = historicalRisk(monthlyScenarios(window), input.weights, 0.95);
  const daily = estimateCovariance(window).matrix;
  const n = input.weights.length;
  let variance = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      variance += input.weights[i]! * daily.data[i * n + j]! * input.weights[j]!;
  return {
    volatility: Math.sqrt(Math.max(variance, 0) * TRADING_DAYS_PER_MONTH),
    var95: h.var,
    cvar95: h.cvar,
  };
}
