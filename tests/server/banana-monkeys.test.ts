// The banana challenge's random portfolios (docs/banana.md, "The monkey") against an independent
// computation with numpy on the same draws: scripts/banana-monkeys-numpy.py re-implements the seeded
// generator, the draw and the whole-share purchase in Python and computes the returns, mean,
// standard deviation, quantiles and percentile with numpy, valuing every monkey as the portfolio is
// valued (each holding's amount rounded to the cent, then summed). Its figures are stored below;
// the tolerance is 1e-12 (the same IEEE operations, only the order of the sums differs).
import { describe, expect, it } from "vitest";
import { holdingCents } from "../../src/contract/banana.ts";
import { createRandom } from "../../src/engine/random.ts";
import {
  bananaReturn,
  buyShares,
  distributionOf,
  drawIndices,
  drawMonkey,
  monkeyReturns,
  percentileAmong,
  quantileSorted,
} from "../../src/server/banana/monkey.ts";

/** The universe of the Python script: closes from about 5 to 2,900, returns from -10% to +10%. */
function universe(n: number) {
  const p0: number[] = [];
  const p1: number[] = [];
  for (let i = 0; i < n; i++) {
    const raw = 5 + 7.3 * i + (i % 7) * 40.25 + (i % 13 === 12 ? 2500 : 0);
    // Python's round(x, 2) on these values (no exact halves among them).
    const price = Math.round(raw * 100) / 100;
    p0.push(price);
    p1.push(price * (1 + 0.01 * (((i * 37) % 21) - 10)));
  }
  return { p0, p1 };
}

const SEED = 20261124;
const numpy = [
  {
    k: 1,
    monkey0: [[4, 51]],
    mean: 0.0006220573597132917,
    std: 0.06195554915457728,
    q05: -0.09999999999999998,
    q50: 0.0,
    q95: 0.09000000000000008,
    percentile: 60.66,
  },
  {
    k: 8,
    monkey0: [
      [4, 7],
      [20, 4],
      [2, 12],
      [18, 4],
      [36, 4],
      [26, 3],
      [1, 23],
      [29, 4],
    ],
    mean: 0.0029718276510950032,
    std: 0.02038860664570698,
    q05: -0.030567453323739002,
    q50: 0.0030373940069640115,
    q95: 0.03674523780629663,
    percentile: 79.56,
  },
  {
    k: 40,
    monkey0: [
      [4, 2],
      [20, 1],
      [2, 3],
      [18, 1],
      [36, 1],
      [26, 1],
      [1, 5],
      [29, 1],
      [17, 2],
      [10, 2],
      [21, 2],
      [32, 1],
      [3, 2],
      [15, 2],
      [22, 2],
      [13, 1],
      [16, 2],
      [34, 1],
      [7, 5],
      [31, 1],
      [6, 1],
      [19, 1],
      [35, 1],
      [8, 3],
      [5, 2],
      [0, 54],
      [14, 3],
      [11, 1],
      [28, 1],
      [9, 1],
    ],
    mean: -0.0026426280407245407,
    std: 0.021670420346261515,
    q05: -0.02928878034003223,
    q50: -0.00462290011265476,
    q95: 0.03377760642958792,
    percentile: 77.53,
  },
];

const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b)).toBeLessThan(tol);

describe("random portfolios (monkeys)", () => {
  const { p0, p1 } = universe(40);
  const stocks = p0.map((price, i) => ({ symbol: `S${i}`, price }));

  it.each(numpy)("10,000 monkeys of $k stocks match numpy on the same draws", (ref) => {
    const returns = monkeyReturns(SEED, p0, p1, ref.k, 10_000, 10_000);
    expect(returns).toHaveLength(10_000);
    const mean = returns.reduce((s, x) => s + x, 0) / returns.length;
    const std = Math.sqrt(returns.reduce((s, x) => s + (x - mean) ** 2, 0) / returns.length);
    close(mean, ref.mean);
    close(std, ref.std);
    const sorted = Float64Array.from(returns).sort();
    close(quantileSorted(sorted, 0.05), ref.q05);
    close(quantileSorted(sorted, 0.5), ref.q50);
    close(quantileSorted(sorted, 0.95), ref.q95);
    close(percentileAmong(returns, 0.02), ref.percentile, 1e-9);
    const d = distributionOf(returns, 0.02);
    close(d.quantiles[1]!, ref.q05);
    close(d.quantiles[10]!, ref.q50);
    close(d.quantiles[19]!, ref.q95);
    close(d.mean, ref.mean);
    expect(d.quantiles).toHaveLength(21);
    // The portfolio's own monkey is monkey 0 of the seed.
    const monkey = drawMonkey(SEED, stocks, ref.k, 10_000);
    expect(monkey.map((m) => [m.index, m.shares])).toEqual(ref.monkey0);
    // Valued as the portfolio is: each holding's amount rounded to the cent, then summed.
    const amount = (p: number[]) =>
      monkey.reduce((s, m) => s + Math.round(m.shares * p[m.index]! * 100), 0);
    expect(returns[0]!).toBe(amount(p1) / amount(p0) - 1);
  });

  it("draws distinct stocks, each equally likely (chi-square over 40,000 draws)", () => {
    const random = createRandom(7);
    const counts = new Array<number>(40).fill(0);
    for (let m = 0; m < 10_000; m++) {
      const chosen = drawIndices(random, 40, 4);
      expect(new Set(chosen).size).toBe(4);
      for (const i of chosen) counts[i]!++;
    }
    const expected = 40_000 / 40;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    // 39 degrees of freedom: the 99.9% quantile is 72.05.
    expect(chi2).toBeLessThan(72.05);
  });

  it("buys whole shares within the budget and spends what is left", () => {
    const prices = [333.33, 90.1, 2600, 12.5];
    const { shares, totalCents } = buyShares(prices, [0, 1, 2, 3], 10_000);
    shares.forEach((s) => expect(Number.isInteger(s)).toBe(true));
    expect(totalCents).toBe(shares.reduce((s, n, j) => s + Math.round(n * prices[j]! * 100), 0));
    expect(totalCents).toBeLessThanOrEqual(1_000_000);
    // Nothing more fits: the rest is below the cheapest price.
    expect(1_000_000 - totalCents).toBeLessThan(1250);
  });

  it("on a day without new closes the portfolio ties with every monkey: percentile 50, exactly", () => {
    // Closes with many decimals, so that an unrounded value and a total rounded to the cent differ.
    const prices = p0.map((p, i) => p + 0.003 * ((i * 7) % 11) + 1e-4);
    const returns = monkeyReturns(SEED, prices, prices, 8, 10_000, 10_000);
    expect(returns.every((r) => r === 0)).toBe(true);
    const shares = [3, 7, 11];
    const held = [2, 9, 30];
    const cents = shares.reduce((s, n, j) => s + holdingCents(n, prices[held[j]!]!), 0);
    // The old rule: the value unrounded over the total rounded to the cent (off by up to 5e-7).
    const unrounded = shares.reduce((s, n, j) => s + n * prices[held[j]!]!, 0);
    expect(unrounded / (Math.round(unrounded * 100) / 100) - 1).not.toBe(0);
    const ret = bananaReturn(1, cents, cents);
    expect(ret).toBe(0);
    expect(distributionOf(returns, ret).percentile).toBe(50);
  });

  it("the same seed gives the same monkeys; another seed others", () => {
    const a = monkeyReturns(1, p0, p1, 5, 10_000, 100);
    const b = monkeyReturns(1, p0, p1, 5, 10_000, 100);
    const c = monkeyReturns(2, p0, p1, 5, 10_000, 100);
    expect([...a]).toEqual([...b]);
    expect([...a]).not.toEqual([...c]);
  });
});
