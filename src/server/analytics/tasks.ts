import { analysePortfolio, type AnalysisInput } from "../../engine/analysis.ts";
import { estimateCovariance } from "../../engine/covariance.ts";
import { matrix } from "../../engine/linalg.ts";
import { minimumRiskWithCardinality } from "../../engine/optimize/cardinality.ts";
import { maximumReturnWithCvarCap, historicalRisk } from "../../engine/optimize/cvar.ts";
import { minimumRisk } from "../../engine/optimize/min-risk.ts";
import type { OptimizationFailure } from "../../engine/optimize/result.ts";
import {
  benchmarkWindowDays,
  lastObservations,
  portfolioReturns,
  weightsFromAmounts,
  type ReturnsPanel,
} from "../../engine/panel.ts";
import { simulateInvestment, type SimulationResult } from "../../engine/simulate.ts";
import { TRADING_DAYS_PER_MONTH } from "../../engine/stats.ts";

export interface OptimiseInput {
  readonly panel: ReturnsPanel;
  readonly amounts: Float64Array;
  readonly benchmark: number;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  /** Hold at most this many assets (kept ones count). */
  readonly desiredAssets?: number;
  readonly keep?: readonly number[];
  /** The largest loss at 95% over a month accepted, as a fraction of the amount (CVaR constraint). */
  readonly maxLoss95?: number;
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

export function optimise(input: OptimiseInput): OptimiseOutput {
  const window = lastObservations(input.panel, benchmarkWindowDays(input.benchmark));
  const daily = estimateCovariance(window).matrix;
  const monthly = matrix(
    daily.rows,
    daily.cols,
    daily.data.map((v) => v * TRADING_DAYS_PER_MONTH),
  );
  const scenarios = monthlyScenarios(window);
  const bounds = { lower: input.lower, upper: input.upper };
  const risk = (weights: Float64Array) => {
    const h = historicalRisk(scenarios, weights, 0.95);
    let variance = 0;
    const n = weights.length;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) variance += weights[i]! * monthly.data[i * n + j]! * weights[j]!;
    return { volatility: Math.sqrt(Math.max(variance, 0)), var95: h.var, cvar95: h.cvar };
  };
  if (input.maxLoss95 !== undefined) {
    const result = maximumReturnWithCvarCap({ scenarios, ...bounds, maxCvar: input.maxLoss95 });
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

export interface SimulateInput {
  readonly panel: ReturnsPanel;
  readonly amounts: Float64Array;
  readonly benchmark: number;
  readonly initialAmount: number;
  readonly monthlyContribution: number;
  readonly years: number;
  readonly paths: number;
  readonly seed: number;
}

export function simulate(input: SimulateInput): SimulationResult {
  const window = lastObservations(input.panel, benchmarkWindowDays(input.benchmark));
  const { weights } = weightsFromAmounts(input.amounts);
  return simulateInvestment(portfolioReturns(window, weights), {
    initialAmount: input.initialAmount,
    monthlyContribution: input.monthlyContribution,
    years: input.years,
    paths: input.paths,
    seed: input.seed,
  });
}

/** The engine's work, run by the worker threads. */
export const tasks = {
  analyse: (input: AnalysisInput) => analysePortfolio(input),
  optimise,
  simulate,
} as const;

export type TaskName = keyof typeof tasks;
