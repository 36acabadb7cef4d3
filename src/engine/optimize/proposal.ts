/**
 * The weights of a proposed portfolio by what q3 names (docs/portfolios.md, "Propose"): every
 * objective within per-asset bounds lo ≤ w ≤ hi, Σw = 1, and optionally a cap on the CVaR 95 of
 * the scenarios (the loss q2 accepts):
 *
 *  - "minimum-risk":     min w'Σw                        (active-set QP, ./min-risk.ts);
 *  - "lowest-beta":      min β'w                         (an LP: filled by priority without a cap,
 *                                                         the CVaR LP of ./cvar.ts with one);
 *  - "highest-return":   max μ'w                         (the same, with μ);
 *  - "best-risk-return": max μ'w / √(w'Σw)               (the point of the efficient frontier within
 *                                                         the bounds with the highest ratio: 41
 *                                                         points, then a golden-section search between
 *                                                         the neighbours of the best one).
 *
 * With a cap, an objective other than the LPs is checked against it (best-risk-return only keeps
 * frontier points within it); the caller decides what to do when the answer is above it.
 */
import type { Matrix } from "../linalg.ts";
import { historicalRisk, maximumReturnWithCvarCap } from "./cvar.ts";
import { efficientFrontier, minimumRiskForReturn } from "./frontier.ts";
import { minimumRisk, portfolioVariance } from "./min-risk.ts";
import { fillByPriority } from "./problem.ts";
import { fail, succeed, type OptimizationResult } from "./result.ts";

export type ProposalObjective =
  "minimum-risk" | "lowest-beta" | "highest-return" | "best-risk-return";

export interface ProposalRequest {
  readonly objective: ProposalObjective;
  /** Covariance of the assets' returns on the horizon of the risk reported (monthly). */
  readonly covariance: Matrix;
  /** Scenario returns S × n on the horizon of the cap (21-day returns). */
  readonly scenarios: Matrix;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  /** Expected returns (highest-return, best-risk-return). */
  readonly expectedReturns?: Float64Array;
  /** Betas to the market (lowest-beta). */
  readonly betas?: Float64Array;
  /** The largest CVaR 95 accepted, as a fraction of the amount. */
  readonly maxCvar?: number;
}

/** Points of the frontier the best risk-return is looked for on, before the refinement. */
export const RATIO_GRID_POINTS = 41;
const GOLDEN = (Math.sqrt(5) - 1) / 2;

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export function proposalWeights(request: ProposalRequest): OptimizationResult<Float64Array> {
  const { covariance, scenarios, lower, upper, maxCvar } = request;
  const n = covariance.rows;
  switch (request.objective) {
    case "minimum-risk": {
      const r = minimumRisk({ covariance, lower, upper });
      return r.ok ? succeed(r.value.weights) : r;
    }
    case "lowest-beta":
    case "highest-return": {
      const source = request.objective === "lowest-beta" ? request.betas : request.expectedReturns;
      if (!source || source.length !== n) return fail("INVALID_INPUT", { scores: n });
      // Maximised: the expected return, or minus the beta.
      const score =
        request.objective === "lowest-beta" ? source.map((b) => -b) : Float64Array.from(source);
      if (maxCvar === undefined)
        return succeed(
          fillByPriority(
            lower,
            upper,
            score.map((s) => -s),
          ),
        );
      const r = maximumReturnWithCvarCap({
        scenarios,
        lower,
        upper,
        maxCvar,
        expectedReturns: score,
      });
      return r.ok ? succeed(r.value.weights) : r;
    }
    case "best-risk-return": {
      const mu = request.expectedReturns;
      if (!mu || mu.length !== n) return fail("INVALID_INPUT", { expectedReturns: n });
      const frontier = efficientFrontier({
        covariance,
        expectedReturns: mu,
        lower,
        upper,
        points: RATIO_GRID_POINTS,
      });
      if (!frontier.ok) return frontier;
      const within = (w: Float64Array) =>
        maxCvar === undefined || historicalRisk(scenarios, w, 0.95).cvar <= maxCvar + 1e-12;
      const ratio = (w: Float64Array) => {
        const risk = Math.sqrt(Math.max(portfolioVariance(covariance, w), 0));
        if (!within(w)) return -Infinity;
        return risk > 0 ? dot(mu, w) / risk : dot(mu, w) >= 0 ? Infinity : -Infinity;
      };
      const points = frontier.value.points;
      let best = -1;
      let bestRatio = -Infinity;
      points.forEach((p, k) => {
        const q = ratio(p.weights);
        if (q > bestRatio) {
          bestRatio = q;
          best = k;
        }
      });
      if (best < 0)
        return fail("CVAR_CAP_INFEASIBLE", {
          maxCvar: maxCvar ?? 0,
          minimumCvar: historicalRisk(scenarios, points[0]!.weights, 0.95).cvar,
        });
      let weights = points[best]!.weights;
      if (points.length > 2) {
        // Golden-section search of the ratio over the target return between the neighbours.
        const at = (t: number) => {
          const r = minimumRiskForReturn({
            covariance,
            expectedReturns: mu,
            targetReturn: t,
            lower,
            upper,
          });
          return r.ok ? { w: r.value.weights, q: ratio(r.value.weights) } : null;
        };
        let a = points[Math.max(0, best - 1)]!.targetReturn;
        let b = points[Math.min(points.length - 1, best + 1)]!.targetReturn;
        let c = b - GOLDEN * (b - a);
        let d = a + GOLDEN * (b - a);
        let fc = at(c);
        let fd = at(d);
        for (let k = 0; k < 48 && fc && fd && b - a > 1e-12 * (Math.abs(a) + Math.abs(b)); k++) {
          if (fc.q >= fd.q) {
            b = d;
            d = c;
            fd = fc;
            c = b - GOLDEN * (b - a);
            fc = at(c);
          } else {
            a = c;
            c = d;
            fc = fd;
            d = a + GOLDEN * (b - a);
            fd = at(d);
          }
        }
        for (const f of [fc, fd])
          if (f && f.q > bestRatio) {
            bestRatio = f.q;
            weights = f.w;
          }
      }
      return succeed(weights);
    }
  }
}
