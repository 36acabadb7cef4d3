/**
 * Efficient frontier: for targets t from the return of the minimum-risk portfolio to the maximum
 * expected return the bounds allow, the minimum-variance portfolio with μ'w = t:
 *
 *   min w'Σw   subject to   Σw = 1,  μ'w = t,  lo ≤ w ≤ hi,
 *
 * solved by the active-set QP with two equalities. Each point starts from a feasible blend of the
 * previous point and the maximum-return portfolio, so consecutive solves share most of their
 * working set.
 */
import { dot, type Matrix } from "../linalg.ts";
import { solveQp, type KktReport } from "./active-set-qp.ts";
import { portfolioVariance } from "./min-risk.ts";
import {
  budgetRow,
  checkCovariance,
  checkVector,
  fillByPriority,
  isFailure,
  resolveBounds,
  scaledHessian,
  type Bounds,
} from "./problem.ts";
import { fail, succeed, type OptimizationResult } from "./result.ts";

export const DEFAULT_FRONTIER_POINTS = 20;

export interface FrontierRequest {
  readonly covariance: Matrix;
  readonly expectedReturns: Float64Array;
  readonly lower?: Float64Array;
  readonly upper?: Float64Array;
  /** Number of points (default 20, at least 2). */
  readonly points?: number;
}

export interface FrontierPoint {
  /** The return the point was asked for. */
  readonly targetReturn: number;
  /** μ'w (equal to the target within 1e-9 of max |μ|). */
  readonly expectedReturn: number;
  readonly variance: number;
  readonly risk: number;
  readonly weights: Float64Array;
  readonly kkt: KktReport;
}

export interface EfficientFrontier {
  /** From minimum risk to maximum expected return; a single point when the two coincide. */
  readonly points: readonly FrontierPoint[];
  readonly minimumRiskReturn: number;
  readonly maximumReturn: number;
}

export interface TargetReturnRequest {
  readonly covariance: Matrix;
  readonly expectedReturns: Float64Array;
  readonly targetReturn: number;
  readonly lower?: Float64Array;
  readonly upper?: Float64Array;
}

interface Prepared {
  readonly n: number;
  readonly G: Float64Array;
  readonly bounds: Bounds;
  readonly mu: Float64Array;
  /** μ / max|μ|, the second equality row. */
  readonly muRow: Float64Array;
  readonly muScale: number;
}

function prepare(
  cov: Matrix,
  mu: Float64Array,
  lower?: Float64Array,
  upper?: Float64Array,
): Prepared | OptimizationResult<never> {
  const bad = checkCovariance(cov) ?? checkVector(mu, cov.rows);
  if (bad) return fail(bad.code, bad.detail);
  const n = cov.rows;
  const bounds = resolveBounds(n, lower, upper);
  if (isFailure(bounds)) return fail(bounds.code, bounds.detail);
  let muScale = 0;
  for (let i = 0; i < n; i++) muScale = Math.max(muScale, Math.abs(mu[i]!));
  if (muScale === 0) muScale = 1;
  const muRow = new Float64Array(n);
  for (let i = 0; i < n; i++) muRow[i] = mu[i]! / muScale;
  return { n, G: scaledHessian(cov).G, bounds, mu, muRow, muScale };
}

const isPrepared = (p: Prepared | OptimizationResult<never>): p is Prepared => "G" in p;

function solveTarget(p: Prepared, cov: Matrix, target: number, start: Float64Array) {
  const { n, G, bounds, muRow, muScale } = p;
  const qp = solveQp(
    {
      n,
      hessian: G,
      equalities: [budgetRow(n), muRow],
      rhs: [1, target / muScale],
      lower: bounds.lower,
      upper: bounds.upper,
    },
    start,
  );
  if (qp.status !== "optimal") return null;
  const variance = portfolioVariance(cov, qp.x);
  return {
    targetReturn: target,
    expectedReturn: dot(p.mu, qp.x),
    variance,
    risk: Math.sqrt(variance),
    weights: qp.x,
    kkt: qp.kkt,
  } satisfies FrontierPoint;
}

const blend = (a: Float64Array, b: Float64Array, theta: number) => {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (1 - theta) * a[i]! + theta * b[i]!;
  return out;
};

const negate = (v: Float64Array) => v.map((x) => -x);

/** The minimum-variance portfolio with expected return exactly `targetReturn`. */
export function minimumRiskForReturn(
  request: TargetReturnRequest,
): OptimizationResult<FrontierPoint> {
  const p = prepare(request.covariance, request.expectedReturns, request.lower, request.upper);
  if (!isPrepared(p)) return p;
  const t = request.targetReturn;
  const low = fillByPriority(p.bounds.lower, p.bounds.upper, p.mu);
  const high = fillByPriority(p.bounds.lower, p.bounds.upper, negate(p.mu));
  const rLow = dot(p.mu, low);
  const rHigh = dot(p.mu, high);
  const slack = 1e-12 * p.muScale;
  if (!Number.isFinite(t) || t < rLow - slack || t > rHigh + slack)
    return fail("TARGET_RETURN_INFEASIBLE", {
      targetReturn: t,
      minimumReturn: rLow,
      maximumReturn: rHigh,
    });
  const theta = rHigh > rLow ? Math.min(1, Math.max(0, (t - rLow) / (rHigh - rLow))) : 0;
  const point = solveTarget(p, request.covariance, t, blend(low, high, theta));
  return point ? succeed(point) : fail("NOT_CONVERGED", { targetReturn: t });
}

export function efficientFrontier(request: FrontierRequest): OptimizationResult<EfficientFrontier> {
  const count = request.points ?? DEFAULT_FRONTIER_POINTS;
  if (!Number.isInteger(count) || count < 2) return fail("INVALID_INPUT", { points: count });
  const p = prepare(request.covariance, request.expectedReturns, request.lower, request.upper);
  if (!isPrepared(p)) return p;
  const { n, G, bounds } = p;
  const cov = request.covariance;

  // First point: minimum risk (budget only).
  const diag = new Float64Array(n);
  for (let i = 0; i < n; i++) diag[i] = G[i * n + i]!;
  const minRisk = solveQp(
    {
      n,
      hessian: G,
      equalities: [budgetRow(n)],
      rhs: [1],
      lower: bounds.lower,
      upper: bounds.upper,
    },
    fillByPriority(bounds.lower, bounds.upper, diag),
  );
  if (minRisk.status !== "optimal") return fail("NOT_CONVERGED", { point: 0 });
  const high = fillByPriority(bounds.lower, bounds.upper, negate(p.mu));
  const r0 = dot(p.mu, minRisk.x);
  const r1 = dot(p.mu, high);
  const variance0 = portfolioVariance(cov, minRisk.x);
  const first: FrontierPoint = {
    targetReturn: r0,
    expectedReturn: r0,
    variance: variance0,
    risk: Math.sqrt(variance0),
    weights: minRisk.x,
    kkt: minRisk.kkt,
  };
  if (!(r1 - r0 > 1e-12 * p.muScale))
    return succeed({ points: [first], minimumRiskReturn: r0, maximumReturn: Math.max(r0, r1) });

  const points: FrontierPoint[] = [first];
  let previous = first;
  for (let k = 1; k < count; k++) {
    const target = k === count - 1 ? r1 : r0 + ((r1 - r0) * k) / (count - 1);
    const rPrev = previous.expectedReturn;
    const theta = k === count - 1 ? 1 : Math.min(1, Math.max(0, (target - rPrev) / (r1 - rPrev)));
    const point = solveTarget(p, cov, target, blend(previous.weights, high, theta));
    if (!point) return fail("NOT_CONVERGED", { point: k, targetReturn: target });
    points.push(point);
    previous = point;
  }
  return succeed({ points, minimumRiskReturn: r0, maximumReturn: r1 });
}
