// Investment simulator against independent computations: numpy on the same random numbers
// (scripts/reference/simulate.py, figures stored below), and the closed form of one lognormal asset.
import { describe, expect, it } from "vitest";
import { averageAnnualInflation, simulateInvestment } from "../../src/engine/simulate.ts";
import { createRandom } from "../../src/engine/random.ts";
import { expectClose } from "./analytics-helpers.ts";

/** Output of `python3 scripts/reference/simulate.py` (numpy 1.x/2.x, jsrandom.py draws). */
const NUMPY = {
  monthlyLogMean: 0.013085817711631007,
  monthlyLogVolatility: 0.04927775571699236,
  percentiles: {
    5: {
      1: 9572.759024750183,
      12: 11758.278945616641,
      24: 14871.690314630729,
      36: 18240.95989817664,
    },
    25: {
      1: 10023.346385146733,
      12: 13284.859509895488,
      24: 17571.46478213691,
      36: 22626.41651497779,
    },
    50: {
      1: 10369.471704706466,
      12: 14885.849706699195,
      24: 20132.79096741593,
      36: 26822.52909615671,
    },
    75: {
      1: 10732.61010152311,
      12: 16431.734112451228,
      24: 23261.167246446777,
      36: 31592.707922484864,
    },
    95: {
      1: 11211.864518830018,
      12: 19303.073369874484,
      24: 27838.886252667286,
      36: 39075.2527788065,
    },
  } as Record<number, Record<number, number>>,
  invested36: 17904.124356393844,
  goalProbability: 0.61,
  historical: { 1: 9833.448213901658, 12: 16274.625098274088, 36: 25830.866539925424 } as Record<
    number,
    number
  >,
};

/** Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9). */
function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
    -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p > low && p < 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    return (
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
    );
  }
  const q = p < 0.5 ? Math.sqrt(-2 * Math.log(p)) : Math.sqrt(-2 * Math.log(1 - p));
  const x =
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  return p < 0.5 ? x : -x;
}

/** Standard normal distribution function (Zelen and Severo 26.2.17, |error| < 7.5e-8). */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const poly =
    t *
    (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) * poly;
  return x >= 0 ? 1 - tail : tail;
}

describe("investment simulator against numpy on the same draws (relative 1e-9)", () => {
  const rnd = createRandom(77);
  const daily = Float64Array.from({ length: 756 }, () => 0.0003 + 0.011 * rnd.normal());
  const r = simulateInvestment(daily, {
    initialAmount: 10_000,
    monthlyContribution: 250,
    years: 3,
    paths: 300,
    seed: 11,
    annualInflation: 0.02,
    goal: 25_000,
  });

  it("draws with numpy's monthly log mean and volatility", () => {
    expectClose(r.monthlyLogMean, NUMPY.monthlyLogMean, 1e-9);
    expectClose(r.monthlyLogVolatility, NUMPY.monthlyLogVolatility, 1e-9);
  });
  it("gives numpy's percentiles 5/25/50/75/95 in today's money at months 1, 12, 24 and 36", () => {
    expect(r.percentiles.map((p) => p.percentile)).toEqual([5, 25, 50, 75, 95]);
    for (const p of r.percentiles)
      for (const k of [1, 12, 24, 36])
        expectClose(p.values[k]!, NUMPY.percentiles[p.percentile]![k]!, 1e-9);
  });
  it("gives numpy's money put in, goal probability and historical replay", () => {
    expectClose(r.invested[36]!, NUMPY.invested36, 1e-12);
    expect(r.goalProbability).toBe(NUMPY.goalProbability);
    expect(r.historical.months).toBe(36);
    for (const k of [1, 12, 36]) expectClose(r.historical.values[k]!, NUMPY.historical[k]!, 1e-9);
  });
  it("is reproducible from its seed, and another seed gives other paths", () => {
    const again = simulateInvestment(daily, {
      initialAmount: 10_000,
      monthlyContribution: 250,
      years: 3,
      paths: 300,
      seed: 11,
      annualInflation: 0.02,
      goal: 25_000,
    });
    expect(Array.from(again.percentiles[2]!.values)).toEqual(Array.from(r.percentiles[2]!.values));
    const other = simulateInvestment(daily, {
      initialAmount: 10_000,
      monthlyContribution: 250,
      years: 3,
      paths: 300,
      seed: 12,
    });
    expect(other.percentiles[2]!.values[36]).not.toBe(r.percentiles[2]!.values[36]);
  });
});

describe("one lognormal asset against the closed form (GBM)", () => {
  // Without contributions V_k = A exp(k m + s sqrt(k) Z): the p-quantile is A exp(k m + s sqrt(k) z_p),
  // and P(V_M >= G) = 1 - Phi((ln(G / A) - M m) / (s sqrt(M))).
  const rnd = createRandom(5);
  const daily = Float64Array.from({ length: 1260 }, () => 0.0004 + 0.012 * rnd.normal());
  const A = 10_000;
  const years = 10;
  const M = years * 12;
  const paths = 40_000;
  const r = simulateInvestment(daily, {
    initialAmount: A,
    monthlyContribution: 0,
    years,
    paths,
    seed: 3,
    goal: 20_000,
  });
  const { monthlyLogMean: m, monthlyLogVolatility: s } = r;

  it("the normal quantiles used are right (scipy.stats.norm.ppf to 1e-8)", () => {
    expect(Math.abs(normalQuantile(0.05) - -1.6448536269514729)).toBeLessThan(1e-8);
    expect(Math.abs(normalQuantile(0.25) - -0.6744897501960817)).toBeLessThan(1e-8);
    expect(normalQuantile(0.5)).toBe(0);
    expect(Math.abs(normalQuantile(0.95) - 1.6448536269514722)).toBeLessThan(1e-8);
  });
  it("percentiles at 1, 5 and 10 years within 3% of the lognormal quantiles (40 000 paths)", () => {
    // The sampling error of the 5% quantile is about s sqrt(k) sqrt(p(1-p)) / (phi(z_p) sqrt(N)):
    // 0.6% of the value at 10 years here; 3% is five of those.
    for (const q of r.percentiles)
      for (const k of [12, 60, M]) {
        const exact = A * Math.exp(k * m + s * Math.sqrt(k) * normalQuantile(q.percentile / 100));
        expectClose(q.values[k]!, exact, 0.03);
      }
  });
  it("the probability of reaching the goal within 0.01 of the closed form", () => {
    const exact = 1 - normalCdf((Math.log(20_000 / A) - M * m) / (s * Math.sqrt(M)));
    expect(exact).toBeGreaterThan(0.1);
    expect(exact).toBeLessThan(0.9);
    expect(Math.abs(r.goalProbability! - exact)).toBeLessThan(0.01);
  });
  it("inflation divides every figure by (1 + i)^(k / 12)", () => {
    const real = simulateInvestment(daily, {
      initialAmount: A,
      monthlyContribution: 100,
      years: 2,
      paths: 500,
      seed: 3,
      annualInflation: 0.03,
    });
    const nominal = simulateInvestment(daily, {
      initialAmount: A,
      monthlyContribution: 100,
      years: 2,
      paths: 500,
      seed: 3,
    });
    for (let j = 0; j < 5; j++)
      for (const k of [0, 7, 24])
        expectClose(
          real.percentiles[j]!.values[k]! * 1.03 ** (k / 12),
          nominal.percentiles[j]!.values[k]!,
          1e-12,
        );
    expectClose(real.invested[24]! * 1.03 ** 2, A + 2400, 1e-12);
    expectClose(real.historical.values[24]! * 1.03 ** 2, nominal.historical.values[24]!, 1e-12);
  });
});

describe("averageAnnualInflation", () => {
  it("an index growing 2% a year gives 2% over the last ten years, and all of a shorter index", () => {
    const index = Float64Array.from({ length: 200 }, (_, k) => 100 * 1.02 ** (k / 12));
    const ten = averageAnnualInflation(index, 10);
    expectClose(ten.rate, 0.02, 1e-12);
    expect(ten.months).toBe(120);
    expect(ten.first).toBe(79);
    expect(averageAnnualInflation(index.subarray(0, 30), 10).months).toBe(29);
    expect(() => averageAnnualInflation(index.subarray(0, 12))).toThrow(/13 needed/);
  });
});
