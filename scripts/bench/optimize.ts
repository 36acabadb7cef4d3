// Benchmarks of the portfolio optimiser (src/engine/optimize): `npm run bench -- optim`.
// Inputs are a seeded factor model of daily returns over 5 years (1260 scenarios): a market factor
// (loadings around 1), three style factors and specific risk; the covariance is the model's.
import type { BenchCase } from "../bench.ts";
import type { Matrix } from "../../src/engine/linalg.ts";
import { minimumRiskWithCardinality } from "../../src/engine/optimize/cardinality.ts";
import { maximumReturnWithCvarCap, minimumCvar } from "../../src/engine/optimize/cvar.ts";
import { efficientFrontier } from "../../src/engine/optimize/frontier.ts";
import { minimumRisk } from "../../src/engine/optimize/min-risk.ts";
import { createRandom } from "../../src/engine/random.ts";

const SCENARIOS = 1260;
const FACTOR_VOL = [0.01, 0.005, 0.005, 0.005];

interface Market {
  readonly covariance: Matrix;
  readonly scenarios: Matrix;
  readonly expectedReturns: Float64Array;
}

function market(n: number, seed: number, kind: "market" | "longShort" = "market"): Market {
  const random = createRandom(seed);
  const k = FACTOR_VOL.length;
  const B = new Float64Array(n * k);
  const specific = new Float64Array(n);
  const mu = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let f = 0; f < k; f++)
      B[i * k + f] =
        kind === "market"
          ? f === 0
            ? 1 + 0.3 * random.normal()
            : 0.4 * random.normal()
          : random.normal();
    specific[i] = 0.01 + 0.01 * random.next();
    mu[i] = 0.0003 + 0.0004 * random.normal();
  }
  const cov = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = i === j ? specific[i]! ** 2 : 0;
      for (let f = 0; f < k; f++) s += B[i * k + f]! * B[j * k + f]! * FACTOR_VOL[f]! ** 2;
      cov[i * n + j] = s;
      cov[j * n + i] = s;
    }
  const data = new Float64Array(SCENARIOS * n);
  const factors = new Float64Array(k);
  for (let s = 0; s < SCENARIOS; s++) {
    for (let f = 0; f < k; f++) factors[f] = FACTOR_VOL[f]! * random.normal();
    for (let i = 0; i < n; i++) {
      let r = mu[i]! + specific[i]! * random.normal();
      for (let f = 0; f < k; f++) r += B[i * k + f]! * factors[f]!;
      data[s * n + i] = r;
    }
  }
  return {
    covariance: { rows: n, cols: n, data: cov },
    scenarios: { rows: SCENARIOS, cols: n, data },
    expectedReturns: mu,
  };
}

const must = <T>(r: { ok: true; value: T } | { ok: false; reason: unknown }): T => {
  if (!r.ok) throw new Error(`bench input failed: ${JSON.stringify(r.reason)}`);
  return r.value;
};

const SIZES = [10, 50, 200, 500] as const;
const MIN_RISK_TARGET_MS: Partial<Record<number, number>> = { 50: 2, 500: 100 };

export const cases: BenchCase[] = [
  ...SIZES.map((n): BenchCase => ({
    name: `optim min-risk n=${n}`,
    setup: () => {
      const { covariance } = market(n, n);
      return () => must(minimumRisk({ covariance }));
    },
    ...(MIN_RISK_TARGET_MS[n] !== undefined ? { targetMs: MIN_RISK_TARGET_MS[n] } : {}),
  })),
  {
    // Worst case for the active set: long-short factor loadings, every asset held.
    name: "optim min-risk n=500 every asset held",
    setup: () => {
      const { covariance } = market(500, 500, "longShort");
      return () => must(minimumRisk({ covariance }));
    },
    runs: 7,
  },
  ...SIZES.map((n): BenchCase => ({
    name: `optim min-cvar n=${n} S=${SCENARIOS}`,
    setup: () => {
      const { scenarios } = market(n, n);
      return () => must(minimumCvar({ scenarios }));
    },
    runs: n >= 200 ? 5 : 15,
  })),
  ...SIZES.map((n): BenchCase => ({
    name: `optim cvar-cap n=${n} S=${SCENARIOS} (cap 1.3 × min CVaR)`,
    setup: () => {
      const { scenarios, expectedReturns } = market(n, n);
      const maxCvar = 1.3 * must(minimumCvar({ scenarios })).cvar;
      return () => must(maximumReturnWithCvarCap({ scenarios, expectedReturns, maxCvar }));
    },
    runs: n >= 200 ? 5 : 15,
  })),
  ...SIZES.map((n): BenchCase => ({
    name: `optim desired-assets n=${n} K=${Math.min(10, n / 2)}`,
    setup: () => {
      const { covariance } = market(n, n);
      return () => must(minimumRiskWithCardinality({ covariance, maxAssets: Math.min(10, n / 2) }));
    },
    runs: n >= 200 ? 7 : 15,
  })),
  ...SIZES.map((n): BenchCase => ({
    name: `optim frontier n=${n} 20 points`,
    setup: () => {
      const { covariance, expectedReturns } = market(n, n);
      return () => must(efficientFrontier({ covariance, expectedReturns }));
    },
  })),
];
