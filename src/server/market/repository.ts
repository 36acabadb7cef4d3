import type { AssetQuery, AssetSummary, HistoryRange, MarketToday } from "../../contract/market.ts";
import { dayNumber, isoDate } from "../../engine/dates.ts";
import type { Db } from "../db/database.ts";
import { marketView, type MarketView } from "./market-view.ts";
import { hasEurUsd, holdingProblem } from "./holdable.ts";
import { isoOf, lastIndexOf, seriesOf, type MarketSnapshot } from "./snapshot.ts";

/** An asset is stale when its last price is more than this many days before the market's today. */
export const STALE_AFTER_DAYS = 14;

/** The market's today, its source and how many instruments it has (from memory: no scan). */
export async function marketToday(db: Db): Promise<MarketToday> {
  const view = await marketView(db);
  return { today: view.today, source: view.source, assets: view.snapshot.assets.length };
}

/** An ISO day moved by a number of calendar days (negative: earlier). */
export const shiftDays = (iso: string, days: number): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** Every asset as of the market's today: its first and last day with a price up to today. */
function summaries(view: MarketView): AssetSummary[] {
  const s = view.snapshot;
  const staleBefore = view.today ? shiftDays(view.today, -STALE_AFTER_DAYS) : null;
  return s.assets.map((a, i) => {
    const lastIndex = view.todayIndex < 0 ? -1 : lastIndexOf(s, i, view.todayIndex);
    const lastDate = lastIndex < 0 ? null : isoOf(s, lastIndex);
    return {
      symbol: a.symbol,
      name: a.name,
      kind: a.kind,
      universe: a.universe as AssetSummary["universe"],
      exchange: a.exchange,
      assetClass: a.assetClass,
      region: a.region,
      country: a.country,
      currency: a.currency,
      sector: a.sector,
      firstDate: lastIndex < 0 ? null : isoOf(s, s.first[i]!),
      lastDate,
      stale: lastDate === null || (staleBefore !== null && lastDate < staleBefore),
    };
  });
}

/** The summaries of a view, made once per snapshot and day (both immutable). */
const summaryCache = new WeakMap<MarketSnapshot, { todayIndex: number; list: AssetSummary[] }>();
function summariesOf(view: MarketView): AssetSummary[] {
  const hit = summaryCache.get(view.snapshot);
  if (hit && hit.todayIndex === view.todayIndex) return hit.list;
  const list = summaries(view);
  summaryCache.set(view.snapshot, { todayIndex: view.todayIndex, list });
  return list;
}

const universeOrder = (a: AssetSummary) =>
  `${a.universe}\u0000${a.exchange ?? "\uffff"}\u0000${a.assetClass ?? "\uffff"}\u0000${a.name}`;

/** Lists assets by product, exchange, asset class, region and name; stale ones only on request. */
export async function listAssets(db: Db, query: AssetQuery): Promise<AssetSummary[]> {
  const view = await marketView(db);
  const q = query.q?.toLocaleLowerCase();
  const universe = query.product === "simMonk" ? "simAssets" : query.product;
  // Lists for a portfolio (a product's universe, or a portfolio currency) offer only what it can
  // hold: no yield, no currency the data cannot convert (docs/market-data.md, "Holdable
  // instruments"); the markets' own list keeps everything, in its own currency.
  const forPortfolio = query.currency !== undefined || (universe && universe !== "market");
  const eurUsd = hasEurUsd(view);
  const list = summariesOf(view).filter(
    (a) =>
      (!forPortfolio || holdingProblem(a, query.currency ?? null, eurUsd) === null) &&
      (!universe || a.universe === universe) &&
      (!query.exchange || a.exchange === query.exchange) &&
      (!query.assetClass || a.assetClass === query.assetClass) &&
      (!query.region || a.region === query.region) &&
      (!q || a.name.toLocaleLowerCase().includes(q) || a.symbol.toLocaleLowerCase().includes(q)) &&
      (query.includeStale === "true" || !a.stale),
  );
  return list.sort((a, b) => (universeOrder(a) < universeOrder(b) ? -1 : 1));
}

export async function assetSummary(db: Db, symbol: string): Promise<AssetSummary | null> {
  const view = await marketView(db);
  const i = view.snapshot.index.get(symbol);
  return i === undefined ? null : summariesOf(view)[i]!;
}

const rangeMonths: Record<Exclude<HistoryRange, "max">, number> = {
  "1m": 1,
  "3m": 3,
  "6m": 6,
  "1y": 12,
  "3y": 36,
  "5y": 60,
};

/** Closing prices of an asset over a range ending at its last price (up to the market's today). */
export async function priceHistory(
  db: Db,
  symbol: string,
  range: HistoryRange,
  lastDate: string,
): Promise<{ dates: string[]; closes: number[] }> {
  const view = await marketView(db);
  const i = view.snapshot.index.get(symbol);
  if (i === undefined || view.todayIndex < 0) return { dates: [], closes: [] };
  let from = Number.NEGATIVE_INFINITY;
  if (range !== "max") {
    const d = new Date(`${lastDate}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - rangeMonths[range]);
    from = dayNumber(d.toISOString().slice(0, 10));
  }
  const s = seriesOf(view.snapshot, i, from, view.todayIndex);
  return { dates: Array.from(s.dates, isoDate), closes: Array.from(s.values) };
}

/** The last `count` closes of an asset up to the market's today (for volatility windows). */
export async function lastCloses(db: Db, symbol: string, count: number): Promise<Float64Array> {
  const view = await marketView(db);
  const i = view.snapshot.index.get(symbol);
  if (i === undefined || view.todayIndex < 0) return new Float64Array(0);
  const s = seriesOf(view.snapshot, i, Number.NEGATIVE_INFINITY, view.todayIndex);
  return s.values.slice(Math.max(0, s.values.length - count));
}
