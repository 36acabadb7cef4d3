/**
 * Loss at 95% over return scenarios (historical simulation):
 *  - maximumReturnWithCvarCap: max μ'w subject to CVaR95(w) ≤ cap, Σw = 1, lo ≤ w ≤ hi;
 *  - minimumCvar: min CVaR95(w) subject to Σw = 1, lo ≤ w ≤ hi.
 * Both are the Rockafellar–Uryasev linear programme (./cvar-lp.ts), solved exactly by a simplex
 * that exploits its structure. The historical VaR95 of the solution is reported beside its CVaR95.
 *
 * Conventions: losses are positive fractions of the amount invested (loss_s = −r_s'w); scenarios
 * must be on the horizon of the cap (e.g. one-month returns for a "bad month" cap).
 *   VaR_β  = the ⌈βS⌉-th smallest loss (the β-quantile of the empirical loss distribution),
 *   CVaR_β = VaR_β + Σ_s (loss_s − VaR_β)⁺ / ((1 − β) S),
 * which is the minimum of the Rockafellar–Uryasev function ζ + Σ (loss_s − ζ)⁺ / ((1 − β) S), and
 * the mean of the (1 − β)S worst losses when that count is an integer.
 */
import { dot, type Matrix } from "../linalg.ts";
import { createCvarLp, type CvarLp, type LpCertificate } from "./cvar-lp.ts";
import { checkVector, fillByPriority, isFailure, resolveBounds } from "./problem.ts";
import { fail, succeed, type OptimizationResult } from "./result.ts";

export const DEFAULT_CONFIDENCE = 0.95;

export interface CvarRequest {
  /** Scenario returns, S × n row-major: row s holds every asset's return in scenario s. */
  readonly scenarios: Matrix;
  readonly lower?: Float64Array;
  readonly upper?: Float64Array;
  /** Confidence level β (default 0.95). */
  readonly confidence?: number;
  /** Expected returns (default: the scenario means); reported, and maximised under a cap. */
  readonly expectedReturns?: Float64Array;
}

export interface CvarCapRequest extends CvarRequest {
  /** The largest CVaR95 allowed, as a fraction of the amount (e.g. maxToLose95 / totalInvested). */
  readonly maxCvar: number;
}

export interface CvarSolution {
  readonly weights: Float64Array;
  readonly expectedReturn: number;
  /** CVaR of the solution recomputed from the scenarios (fraction of the amount). */
  readonly cvar: number;
  /** Historical VaR of the solution at the same confidence (fraction of the amount). */
  readonly var: number;
  /**
   * The smallest CVaR the bounds allow, when it was solved (always for minimumCvar; for a cap, only
   * when the path from the maximum-return portfolio reached it; otherwise null).
   */
  readonly minimumCvar: number | null;
  /** Optimality certificate of the LP, in units of the largest |scenario return|. */
  readonly certificate: LpCertificate;
  readonly iterations: number;
}

export interface HistoricalRisk {
  readonly var: number;
  readonly cvar: number;
}

/** Historical VaR and CVaR of the portfolio w over the scenarios (losses as positive fractions). */
export function historicalRisk(
  scenarios: Matrix,
  w: Float64Array,
  confidence = DEFAULT_CONFIDENCE,
): HistoricalRisk {
  const S = scenarios.rows;
  const n = scenarios.cols;
  const loss = new Float64Array(S);
  for (let s = 0; s < S; s++) {
    let v = 0;
    const base = s * n;
    for (let j = 0; j < n; j++) v -= scenarios.data[base + j]! * w[j]!;
    loss[s] = v;
  }
  const sorted = Float64Array.from(loss).sort();
  const k = Math.min(S, Math.max(1, Math.ceil(confidence * S - 1e-9)));
  const valueAtRisk = sorted[k - 1]!;
  let excess = 0;
  for (let s = 0; s < S; s++) if (loss[s]! > valueAtRisk) excess += loss[s]! - valueAtRisk;
  return { var: valueAtRisk, cvar: valueAtRisk + excess / ((1 - confidence) * S) };
}

interface Prepared {
  readonly lp: CvarLp;
  readonly n: number;
  readonly S: number;
  /** Scenario returns were divided by this. */
  readonly scale: number;
  readonly mu: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly confidence: number;
  readonly columnVariance: Float64Array;
}

function prepare(request: CvarRequest): Prepared | OptimizationResult<never> {
  const { scenarios } = request;
  const S = scenarios.rows;
  const n = scenarios.cols;
  const confidence = request.confidence ?? DEFAULT_CONFIDENCE;
  if (S < 1 || n < 1 || scenarios.data.length !== S * n)
    return fail("INVALID_INPUT", { scenarios: S, assets: n });
  if (!(confidence > 0 && confidence < 1)) return fail("INVALID_INPUT", { confidence });
  const bad = checkVector(request.expectedReturns, n);
  if (bad) return fail(bad.code, bad.detail);
  let scale = 0;
  for (let t = 0; t < S * n; t++) {
    const v = scenarios.data[t]!;
    if (!Number.isFinite(v))
      return fail("INVALID_INPUT", { scenario: Math.floor(t / n), asset: t % n });
    scale = Math.max(scale, Math.abs(v));
  }
  if (scale === 0) scale = 1;
  const bounds = resolveBounds(n, request.lower, request.upper);
  if (isFailure(bounds)) return fail(bounds.code, bounds.detail);
  const returns = new Float64Array(S * n);
  const mean = new Float64Array(n);
  const columnVariance = new Float64Array(n);
  for (let s = 0; s < S; s++)
    for (let j = 0; j < n; j++) {
      const v = scenarios.data[s * n + j]! / scale;
      returns[j * S + s] = v;
      mean[j]! += v;
    }
  for (let j = 0; j < n; j++) {
    mean[j]! /= S;
    let v = 0;
    for (let s = 0; s < S; s++) v += (returns[j * S + s]! - mean[j]!) ** 2;
    columnVariance[j] = v / S;
  }
  const mu = request.expectedReturns
    ? Float64Array.from(request.expectedReturns)
    : mean.map((m) => m * scale);
  const lp = createCvarLp({
    n,
    S,
    returns,
    beta: confidence,
    lower: bounds.lower,
    upper: bounds.upper,
  });
  return {
    lp,
    n,
    S,
    scale,
    mu,
    lower: bounds.lower,
    upper: bounds.upper,
    confidence,
    columnVariance,
  };
}

const isPrepared = (p: Prepared | OptimizationResult<never>): p is Prepared => "lp" in p;

function solution(
  p: Prepared,
  request: CvarRequest,
  minimumCvar: number | null,
): OptimizationResult<CvarSolution> {
  const certificate = p.lp.certificate();
  const weights = p.lp.weights();
  const risk = historicalRisk(request.scenarios, weights, p.confidence);
  return succeed({
    weights,
    expectedReturn: dot(p.mu, weights),
    cvar: risk.cvar,
    var: risk.var,
    minimumCvar,
    certificate,
    iterations: p.lp.iterations(),
  });
}

/** The portfolio of smallest CVaR (at the confidence level) within the bounds. */
export function minimumCvar(request: CvarRequest): OptimizationResult<CvarSolution> {
  const p = prepare(request);
  if (!isPrepared(p)) return p;
  p.lp.crash(fillByPriority(p.lower, p.upper, p.columnVariance));
  p.lp.configureMinCvar();
  const status = p.lp.run();
  if (status !== "optimal") return fail("NOT_CONVERGED", { iterations: p.lp.iterations() });
  return solution(p, request, p.lp.objective() * p.scale);
}

/**
 * The portfolio of highest expected return whose CVaR does not exceed `maxCvar`. When the cap is
 * below the smallest achievable CVaR the answer is CVAR_CAP_INFEASIBLE with that minimum.
 */
export function maximumReturnWithCvarCap(
  request: CvarCapRequest,
): OptimizationResult<CvarSolution> {
  if (!Number.isFinite(request.maxCvar)) return fail("INVALID_INPUT", { maxCvar: request.maxCvar });
  const p = prepare(request);
  if (!isPrepared(p)) return p;
  const cap = request.maxCvar / p.scale;
  const muScale = p.mu.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;
  const muScaled = p.mu.map((v) => v / muScale);
  // Start at the maximum-return vertex; when its CVaR is above the cap, walk the min-CVaR simplex
  // from there until the cap is met (or the minimum CVaR proves it cannot be).
  p.lp.crash(
    fillByPriority(
      p.lower,
      p.upper,
      muScaled.map((v) => -v),
    ),
  );
  let minimum: number | null = null;
  if (p.lp.cvarValue() > cap) {
    p.lp.configureMinCvar();
    const status = p.lp.run({ stopBelow: cap });
    if (status === "optimal") {
      minimum = p.lp.objective();
      if (minimum > cap + 1e-9)
        return fail("CVAR_CAP_INFEASIBLE", {
          maxCvar: request.maxCvar,
          minimumCvar: minimum * p.scale,
        });
    } else if (status !== "stopped")
      return fail("NOT_CONVERGED", { iterations: p.lp.iterations() });
  }
  p.lp.configureMaxReturn(muScaled, Math.max(cap, minimum ?? cap));
  const status = p.lp.run();
  if (status !== "optimal") return fail("NOT_CONVERGED", { iterations: p.lp.iterations() });
  return solution(p, request, minimum === null ? null : minimum * p.scale);
}
