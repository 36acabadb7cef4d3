/**
 * The plans on an analysis answer (docs/api.md): every figure a permission gates is left out
 * (null, or an empty breakdown) for a plan without it, with the same one permissions table the
 * screens use, and `locked` names what was left out.
 */
import type { AnalysisResponse, FullAnalysis, OptimiseResponse } from "../../contract/analytics.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";

export function redactAnalysis(full: FullAnalysis, p: ProductPermissions): AnalysisResponse {
  const a = p.analysis;
  const s = p.scoring;
  const locked = [
    ...Object.entries(a)
      .filter(([, allowed]) => !allowed)
      .map(([k]) => `analysis.${k}`),
    ...Object.entries(s)
      .filter(([, allowed]) => !allowed)
      .map(([k]) => `scoring.${k}`),
  ];
  const keep = <T>(allowed: boolean, value: T): T | null => (allowed ? value : null);
  return {
    ...full,
    assets: full.assets.map((x) => ({
      ...x,
      standAlone: keep(a.diversificationRisk, x.standAlone),
      marginal: keep(a.componentRisk1, x.marginal),
      contribution: keep(a.componentRisk1, x.contribution),
      varContributionAmount: keep(a.componentRisk1 && a.var, x.varContributionAmount),
      percentage: keep(a.componentRisk2, x.percentage),
      expectedReturn: keep(a.expectedReturns, x.expectedReturn),
      historicalReturn: keep(a.expectedReturns, x.historicalReturn),
      beta: keep(a.expectedReturns, x.beta),
      requiredReturn: keep(a.requiredReturns, x.requiredReturn),
    })),
    var: keep(a.var, full.var),
    distribution: keep(a.var, full.distribution),
    diversification: a.diversificationRisk
      ? {
          ...full.diversification,
          benefit: keep(a.diversificationRiskReduction, full.diversification.benefit),
          reduction: keep(a.diversificationRiskReduction, full.diversification.reduction),
        }
      : null,
    currencyRisk: keep(a.currencyRisk, full.currencyRisk),
    expectedReturn: keep(a.expectedReturns, full.expectedReturn),
    requiredReturn: keep(a.requiredReturns, full.requiredReturn),
    breakdown: a.breakdown ? full.breakdown : {},
    scores: {
      marketRisk: keep(s.marketRisk, full.scores.marketRisk),
      riskReturn: keep(s.riskReturn, full.scores.riskReturn),
      diversification: keep(s.diversification, full.scores.diversification),
      global: keep(s.global, full.scores.global),
      communityGlobal: keep(s.communityGlobal, full.scores.communityGlobal),
    },
    locked,
  };
}

/**
 * The plans on an optimisation answer: the optimised portfolio's expected return, and the efficient
 * frontier drawn in expected returns, need `expectedReturnsOptimPortfolio`; the current portfolio's
 * expected return needs `expectedReturns`, as in its analysis. Weights and risk figures are the
 * optimisation itself (its level's permission, checked before it runs).
 */
export function redactOptimisation(
  answer: OptimiseResponse,
  p: ProductPermissions,
): OptimiseResponse {
  if (answer.status !== "optimal") return answer;
  const optimised = p.analysis.expectedReturnsOptimPortfolio;
  return {
    ...answer,
    expectedReturn: optimised ? answer.expectedReturn : null,
    frontier: optimised ? answer.frontier : [],
    // Each asset's point is drawn beside the frontier, in expected returns as it is.
    assets: answer.assets.map((a) =>
      a.expectedReturn === undefined || (optimised && p.analysis.expectedReturns)
        ? a
        : { ...a, expectedReturn: null },
    ),
    current: {
      ...answer.current,
      expectedReturn: p.analysis.expectedReturns ? answer.current.expectedReturn : null,
    },
  };
}
