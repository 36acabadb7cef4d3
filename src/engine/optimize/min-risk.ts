/**
 * Minimum risk: min w'Σw subject to Σw = 1 and lo ≤ w ≤ hi (long-only, 0 ≤ lo ≤ hi ≤ 1), solved
 * exactly by the primal active-set method (./active-set-qp.ts). Kept assets are the same problem
 * with their bounds (./bounds.ts).
 */
import { dot, quadForm, type Matrix } from "../linalg.ts";
import { solveQp, type KktReport } from "./active-set-qp.ts";
import {
  budgetRow,
  checkCovariance,
  checkVector,
  fillByPriority,
  isFailure,
  resolveBounds,
  scaledHessian,
} from "./problem.ts";
import { fail, succeed, type OptimizationResult } from "./result.ts";

export interface MinimumRiskRequest {
  /** Covariance of the assets' returns (any horizon: the risk is reported on the same one). */
  readonly covariance: Matrix;
  /** Minimum weight per asset (default 0). */
  readonly lower?: Float64Array;
  /** Maximum weight per asset (default 1). */
  readonly upper?: Float64Array;
  /** Expected returns, only to report the portfolio's expected return. */
  readonly expectedReturns?: Float64Array;
}

export interface PortfolioSolution {
  readonly weights: Float64Array;
  /** w'Σw */
  readonly variance: number;
  /** √(w'Σw) */
  readonly risk: number;
  /** μ'w, or null when no expected returns were given. */
  readonly expectedReturn: number | null;
  /** KKT residuals at exit, in units of the mean diagonal of Σ. */
  readonly kkt: KktReport;
  readonly iterations: number;
}

export function portfolioVariance(cov: Matrix, w: Float64Array): number {
  return Math.max(0, quadForm(cov, w));
}

export function minimumRisk(request: MinimumRiskRequest): OptimizationResult<PortfolioSolution> {
  const { covariance: cov, expectedReturns: mu } = request;
  const bad = checkCovariance(cov) ?? checkVector(mu, cov.rows);
  if (bad) return fail(bad.code, bad.detail);
  const n = cov.rows;
  const bounds = resolveBounds(n, request.lower, request.upper);
  if (isFailure(bounds)) return fail(bounds.code, bounds.detail);
  const { G } = scaledHessian(cov);
  const diag = new Float64Array(n);
  for (let i = 0; i < n; i++) diag[i] = G[i * n + i]!;
  const start = fillByPriority(bounds.lower, bounds.upper, diag);
  const qp = solveQp(
    {
      n,
      hessian: G,
      equalities: [budgetRow(n)],
      rhs: [1],
      lower: bounds.lower,
      upper: bounds.upper,
    },
    start,
  );
  if (qp.status !== "optimal") return fail("NOT_CONVERGED", { iterations: qp.iterations });
  const variance = portfolioVariance(cov, qp.x);
  return succeed({
    weights: qp.x,
    variance,
    risk: Math.sqrt(variance),
    expectedReturn: mu ? dot(mu, qp.x) : null,
    kkt: qp.kkt,
    iterations: qp.iterations,
  });
}
