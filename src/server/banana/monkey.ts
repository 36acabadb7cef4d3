/**
 * The monkeys (docs/banana.md, "The monkey"): random portfolios as a benchmark (P. Burns, "Random
 * portfolios for evaluating trading strategies", 2006). A monkey picks `k` distinct stocks of the
 * region uniformly at random (a partial Fisher–Yates shuffle driven by the seeded xoshiro128**
 * generator of src/engine/random.ts), splits the budget equally, buys whole shares (floor of its
 * share of the budget over the close), then spends what is left one share at a time, going round
 * its stocks in draw order, while the total stays within the budget's maximum. Monkey 0 of a seed
 * is "the monkey"; monkeys 0 to 9,999 are the distribution the portfolio is placed in.
 */
import { holdingCents } from "../../contract/banana.ts";
import { toCents } from "../../contract/money.ts";
import { createRandom, type Random } from "../../engine/random.ts";

export interface PricedStock {
  readonly symbol: string;
  readonly price: number;
}

export interface MonkeyHolding {
  /** Index into the universe. */
  readonly index: number;
  readonly shares: number;
}

/** `k` distinct indices of 0..n-1, uniformly (partial Fisher–Yates); the draw order is kept. */
export function drawIndices(random: Random, n: number, k: number, scratch?: Int32Array): number[] {
  const a = scratch && scratch.length >= n ? scratch : new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  const out: number[] = [];
  for (let j = 0; j < k; j++) {
    const r = j + Math.floor(random.next() * (n - j));
    const t = a[j]!;
    a[j] = a[r]!;
    a[r] = t;
    out.push(a[j]!);
  }
  return out;
}

/**
 * Whole shares for equal amounts of `budget` over the chosen stocks, then the rest spent one share
 * at a time round the stocks (draw order) while the total (in cents) stays at most `budget`.
 */
export function buyShares(prices: readonly number[], chosen: readonly number[], budget: number) {
  const maxCents = toCents(budget);
  const each = budget / chosen.length;
  const shares = chosen.map((i) => Math.floor(each / prices[i]!));
  let total = chosen.reduce((s, i, j) => s + holdingCents(shares[j]!, prices[i]!), 0);
  for (let bought = true; bought;) {
    bought = false;
    for (let j = 0; j < chosen.length; j++) {
      const add = toCents(prices[chosen[j]!]!);
      if (total + add <= maxCents) {
        shares[j]!++;
        total += add;
        bought = true;
      }
    }
  }
  return { shares, totalCents: total };
}

/** Monkey number 0 of a seed: the portfolio's own monkey. */
export function drawMonkey(
  seed: number,
  universe: readonly PricedStock[],
  k: number,
  budget: number,
): MonkeyHolding[] {
  const prices = universe.map((u) => u.price);
  const random = createRandom(seed);
  const chosen = drawIndices(random, universe.length, Math.min(k, universe.length));
  const { shares } = buyShares(prices, chosen, budget);
  return chosen.map((index, j) => ({ index, shares: shares[j]! })).filter((h) => h.shares > 0);
}

/**
 * The returns of `count` monkeys from the creation day's closes (`prices0`) to a later day's
 * (`prices1`, same order; a stock without a later close keeps its creation close): value over
 * invested minus 1, by the portfolio's rule (`bananaReturn`): each holding's amount rounded to the
 * cent, then summed, at both dates. Monkey 0 is the portfolio's monkey.
 */
export function monkeyReturns(
  seed: number,
  prices0: readonly number[],
  prices1: readonly number[],
  k: number,
  budget: number,
  count: number,
): Float64Array {
  const n = prices0.length;
  const size = Math.min(k, n);
  const random = createRandom(seed);
  const scratch = new Int32Array(n);
  const out = new Float64Array(count);
  for (let m = 0; m < count; m++) {
    const chosen = drawIndices(random, n, size, scratch);
    const { shares } = buyShares(prices0, chosen, budget);
    let invested = 0;
    let value = 0;
    for (let j = 0; j < chosen.length; j++) {
      const i = chosen[j]!;
      invested += holdingCents(shares[j]!, prices0[i]!);
      const p1 = prices1[i]!;
      value += holdingCents(shares[j]!, Number.isFinite(p1) ? p1 : prices0[i]!);
    }
    out[m] = bananaReturn(1, value, invested);
  }
  return out;
}

/**
 * The one valuation rule of the portfolio and its monkeys: `growth` (the time-weighted return of
 * earlier editions, 1 without any) times the value over the amount invested, both in whole cents
 * (sums of `holdingCents`), minus 1. Equal amounts give exactly 0, so on a day without new closes
 * the portfolio ties with every monkey and stands at the 50th percentile.
 */
export function bananaReturn(growth: number, valueCents: number, investedCents: number): number {
  return investedCents > 0 ? growth * (valueCents / investedCents) - 1 : growth - 1;
}

/** The q-quantile of sorted values, linear between order statistics (numpy's default). */
export function quantileSorted(sorted: Float64Array, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** 100 × (monkeys below + half the monkeys equal) / monkeys. */
export function percentileAmong(returns: Float64Array, r: number): number {
  let below = 0;
  let equal = 0;
  for (const x of returns) {
    if (x < r) below++;
    else if (x === r) equal++;
  }
  return returns.length ? (100 * (below + equal / 2)) / returns.length : 0;
}

export interface Distribution {
  readonly quantiles: number[];
  readonly mean: number;
  readonly percentile: number;
  readonly count: number;
}

/** The monkeys' returns summarised: 21 quantiles (0, 5, ..., 100 %), mean, and where `r` stands. */
export function distributionOf(returns: Float64Array, r: number): Distribution {
  const sorted = Float64Array.from(returns).sort();
  const quantiles = Array.from({ length: 21 }, (_, i) => quantileSorted(sorted, i / 20));
  let sum = 0;
  for (const x of returns) sum += x;
  return {
    quantiles,
    mean: returns.length ? sum / returns.length : 0,
    percentile: percentileAmong(returns, r),
    count: returns.length,
  };
}
