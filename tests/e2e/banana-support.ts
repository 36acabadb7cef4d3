// Shared by the banana end-to-end tests: a banana portfolio's holdings that the server accepts.
import { expect } from "./fixtures.ts";

export interface UniverseStocks {
  readonly stocks: readonly { symbol: string; close: number }[];
}

/**
 * Whole shares of `count` stocks within the budget: equal parts first, then one share at a time
 * of each while the total stays at most 10,000; at least 9,900 is checked.
 */
export function pickShares(
  universe: UniverseStocks,
  count: number,
): { id: string; shares: number }[] {
  const stocks = [...universe.stocks].sort((a, b) => a.close - b.close).slice(0, count);
  const picks = stocks.map((s) => ({ ...s, shares: Math.floor(10_000 / count / s.close) }));
  let total = picks.reduce((sum, p) => sum + p.shares * p.close, 0);
  for (let added = true; added;) {
    added = false;
    for (const p of picks)
      if (Math.round((total + p.close) * 100) <= 1_000_000) {
        p.shares += 1;
        total += p.close;
        added = true;
      }
  }
  expect(total).toBeGreaterThanOrEqual(9_900);
  return picks.filter((p) => p.shares > 0).map((p) => ({ id: p.symbol, shares: p.shares }));
}
