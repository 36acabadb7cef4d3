// The weights of a proposal by what q3 names (src/engine/optimize/proposal.ts) against numpy/scipy
// (scripts/reference/propose.py → reference/propose.json: SLSQP on a fixed 6-asset problem) and
// against closed forms (a linear objective within box bounds fills by priority).
import { describe, expect, it } from "vitest";
import { matrix } from "../../src/engine/linalg.ts";
import { historicalRisk } from "../../src/engine/optimize/cvar.ts";
import { proposalWeights } from "../../src/engine/optimize/proposal.ts";
import reference from "./reference/propose.json" with { type: "json" };

const n = reference.mu.length;
const covariance = matrix(n, n, Float64Array.from(reference.covariance.flat()));
const mu = Float64Array.from(reference.mu);
const betas = Float64Array.of(0.9, 1.1, 0.7, 1.4, 1.2, 0.2);
const lower = new Float64Array(n).fill(0.05);
const upper = new Float64Array(n).fill(0.3);

// 250 seeded one-month scenarios with the covariance's scale (a fixed LCG: the same every run).
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
const scenarios = matrix(
  250,
  n,
  Float64Array.from({ length: 250 * n }, (_, k) => mu[k % n]! / 12 + rand() * 0.12),
);

const quad = (w: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) s += w[i]! * covariance.data[i * n + j]! * w[j]!;
  return s;
};
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a).reduce((s, v, i) => s + v * b[i]!, 0);
const run = (objective: Parameters<typeof proposalWeights>[0]["objective"], maxCvar?: number) => {
  const r = proposalWeights({
    objective,
    covariance,
    scenarios,
    lower,
    upper,
    expectedReturns: mu,
    betas,
    ...(maxCvar !== undefined ? { maxCvar } : {}),
  });
  if (!r.ok) throw new Error(r.reason.code);
  return r.value;
};
const expectFeasible = (w: Float64Array) => {
  expect(dot(w, new Float64Array(n).fill(1))).toBeCloseTo(1, 12);
  for (const v of w) {
    expect(v).toBeGreaterThanOrEqual(0.05 - 1e-12);
    expect(v).toBeLessThanOrEqual(0.3 + 1e-12);
  }
};

describe("proposalWeights", () => {
  it("minimum-risk: the variance of scipy's bounded minimum-variance portfolio", () => {
    const w = run("minimum-risk");
    expectFeasible(w);
    expect(Math.abs(quad(w) - reference.minimumVariance.variance)).toBeLessThan(
      1e-6 * reference.minimumVariance.variance,
    );
    w.forEach((v, i) => expect(v).toBeCloseTo(reference.minimumVariance.weights[i]!, 5));
  });

  it("best-risk-return: scipy's highest expected return over volatility within the bounds", () => {
    const w = run("best-risk-return");
    expectFeasible(w);
    const ratio = dot(mu, w) / Math.sqrt(quad(w));
    expect(Math.abs(ratio - reference.bestRatio.ratio)).toBeLessThan(
      1e-6 * reference.bestRatio.ratio,
    );
    w.forEach((v, i) => expect(v).toBeCloseTo(reference.bestRatio.weights[i]!, 4));
  });

  it("highest-return and lowest-beta without a cap: the closed form (fill by priority)", () => {
    // Every asset at 5%, then the 70% left to the highest μ (3, 4, 1, ...) up to 30% each.
    const close = (w: number[]) => w.map((v) => expect.closeTo(v, 12));
    expect(Array.from(run("highest-return"))).toEqual(close([0.05, 0.25, 0.05, 0.3, 0.3, 0.05]));
    // The lowest β first: 5, 2, 0, ...
    expect(Array.from(run("lowest-beta"))).toEqual(close([0.25, 0.05, 0.3, 0.05, 0.05, 0.3]));
  });

  it("highest-return within a CVaR cap keeps the cap and gives up return for it", () => {
    const free = run("highest-return");
    const freeCvar = historicalRisk(scenarios, free, 0.95).cvar;
    const minimum = historicalRisk(scenarios, run("minimum-risk"), 0.95).cvar;
    const cap = (freeCvar + minimum) / 2;
    const w = run("highest-return", cap);
    expectFeasible(w);
    expect(historicalRisk(scenarios, w, 0.95).cvar).toBeLessThanOrEqual(cap + 1e-9);
    expect(dot(mu, w)).toBeLessThan(dot(mu, free));
    // The lowest beta with the same cap.
    const b = run("lowest-beta", cap);
    expect(historicalRisk(scenarios, b, 0.95).cvar).toBeLessThanOrEqual(cap + 1e-9);
  });

  it("best-risk-return keeps only points within a cap, and fails when none is", () => {
    // Just above the loss of the frontier's first point (minimum risk): some points are within.
    const cap = historicalRisk(scenarios, run("minimum-risk"), 0.95).cvar + 1e-9;
    const w = run("best-risk-return", cap);
    expect(historicalRisk(scenarios, w, 0.95).cvar).toBeLessThanOrEqual(cap + 1e-12);
    const none = proposalWeights({
      objective: "best-risk-return",
      covariance,
      scenarios,
      lower,
      upper,
      expectedReturns: mu,
      maxCvar: 1e-6,
    });
    expect(none.ok).toBe(false);
  });
});
