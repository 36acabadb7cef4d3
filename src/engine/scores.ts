/**
 * Scores on a 0-100 scale where higher is better. Formulas: docs/analytics.md, "Scores".
 */
import { EngineError } from "./errors.ts";

/** Annual volatility at which the market-risk score reaches 0. */
export const MARKET_RISK_ZERO_VOLATILITY = 0.4;

export interface ScoreInputs {
  /** Annualised portfolio volatility (fraction). */
  readonly annualVolatility: number;
  /** Expected annual return of the portfolio (fraction). */
  readonly expectedReturn: number;
  readonly riskFreeRate: number;
  /** Sum of stand-alone volatilities over portfolio volatility (>= 1). */
  readonly diversificationRatio: number;
}

export interface Scores {
  /** 100 (1 - sigma / 40%), clamped to 0..100: 100 = no market risk. */
  readonly marketRisk: number;
  /** 50 + 50 Sharpe, clamped: Sharpe -1 -> 0, 0 -> 50, 1 -> 100. */
  readonly riskReturn: number;
  /** 100 (1 - 1 / DR^2): DR^2 is the effective number of independent bets. */
  readonly diversification: number;
  /** Mean of the three. */
  readonly global: number;
}

const clamp = (x: number) => Math.min(100, Math.max(0, x));

function check(name: string, v: number): void {
  if (!Number.isFinite(v)) throw new EngineError("INVALID_INPUT", `scores: ${name} is ${v}`);
}

export function portfolioScores(inputs: ScoreInputs): Scores {
  const { annualVolatility: vol, expectedReturn, riskFreeRate, diversificationRatio: dr } = inputs;
  check("annualVolatility", vol);
  check("expectedReturn", expectedReturn);
  check("riskFreeRate", riskFreeRate);
  check("diversificationRatio", dr);
  if (vol < 0) throw new EngineError("INVALID_INPUT", "scores: negative volatility");
  const marketRisk = clamp(100 * (1 - vol / MARKET_RISK_ZERO_VOLATILITY));
  const excess = expectedReturn - riskFreeRate;
  // A riskless portfolio: any excess return is an infinite Sharpe ratio.
  const sharpe = vol > 0 ? excess / vol : excess > 0 ? Infinity : excess < 0 ? -Infinity : 0;
  const riskReturn = clamp(50 + 50 * sharpe);
  const diversification = clamp(dr > 1 ? 100 * (1 - 1 / (dr * dr)) : 0);
  return {
    marketRisk,
    riskReturn,
    diversification,
    global: (marketRisk + riskReturn + diversification) / 3,
  };
}

/**
 * Percentile of `score` among the community's scores (mid-rank): 100 (below + equal / 2) / n.
 * An empty community gives 100 (the only portfolio is the best one).
 */
export function communityPercentile(score: number, community: ArrayLike<number>): number {
  check("score", score);
  const n = community.length;
  if (n === 0) return 100;
  let below = 0;
  let equal = 0;
  for (let k = 0; k < n; k++) {
    const c = community[k]!;
    check("community score", c);
    if (c < score) below++;
    else if (c === score) equal++;
  }
  return (100 * (below + equal / 2)) / n;
}
