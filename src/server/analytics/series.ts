import type { AssetInfo } from "../../engine/breakdown.ts";
import { dayNumber } from "../../engine/dates.ts";
import type { FxSeries, PriceSeries } from "../../engine/returns.ts";
import type { Db } from "../db/database.ts";
import { marketView, type MarketView } from "../market/market-view.ts";
import { isoOf, lastIndexOf, seriesOf } from "../market/snapshot.ts";

export interface LoadedAsset {
  readonly symbol: string;
  readonly name: string;
  /** The instrument's kind (`stock`, `etf`, ..., `rate` for a yield). */
  readonly kind: string;
  readonly info: AssetInfo;
  readonly series: PriceSeries;
}

/**
 * The closes of several assets from `from` (ISO day) up to the market's today, with what the
 * breakdown needs, read from the in-memory market. Unknown symbols are reported, not dropped.
 */
export async function loadAssets(
  db: Db,
  symbols: readonly string[],
  from: string,
): Promise<{ assets: LoadedAsset[]; unknown: string[] }> {
  return assetsAt(await marketView(db), symbols, from);
}

/** loadAssets on a market view (also in the analytics workers). */
export function assetsAt(
  view: MarketView,
  symbols: readonly string[],
  from: string,
): { assets: LoadedAsset[]; unknown: string[] } {
  const s = view.snapshot;
  const fromDay = dayNumber(from);
  const assets: LoadedAsset[] = [];
  const unknown: string[] = [];
  for (const symbol of symbols) {
    const i = s.index.get(symbol);
    const series =
      i === undefined || view.todayIndex < 0 ? null : seriesOf(s, i, fromDay, view.todayIndex);
    if (i === undefined || !series || series.dates.length === 0) {
      unknown.push(symbol);
      continue;
    }
    const m = s.assets[i]!;
    assets.push({
      symbol,
      name: m.name,
      kind: m.kind,
      info: {
        symbol,
        currency: m.currency,
        ...(m.exchange ? { exchange: m.exchange } : {}),
        ...(m.assetClass ? { assetClass: m.assetClass } : {}),
        ...(m.sector ? { sector: m.sector } : {}),
        ...(m.region ? { region: m.region } : {}),
      },
      // Only EUR and USD convert into a portfolio's currency; the analytics refuse any other
      // (holdingProblem, prepareAt) before a series is used, so the label here is never wrong.
      series: {
        dates: series.dates,
        prices: series.values,
        currency: m.currency === "USD" ? "USD" : "EUR",
      },
    });
  }
  return { assets, unknown };
}

/** Daily EUR/USD (USD per EUR) from the EURUSD series, up to the market's today. */
export async function loadFx(db: Db, from: string): Promise<FxSeries | null> {
  return fxAt(await marketView(db), from);
}

export function fxAt(view: MarketView, from: string): FxSeries | null {
  const i = view.snapshot.index.get("EURUSD");
  if (i === undefined || view.todayIndex < 0) return null;
  const s = seriesOf(view.snapshot, i, dayNumber(from), view.todayIndex);
  return s.dates.length ? { dates: s.dates, rates: s.values } : null;
}

/** The last day with a price of each symbol, up to the market's today. */
export async function lastPriceDays(
  db: Db,
  symbols: readonly string[],
): Promise<Map<string, string>> {
  return lastDaysAt(await marketView(db), symbols);
}

export function lastDaysAt(view: MarketView, symbols: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const symbol of symbols) {
    const i = view.snapshot.index.get(symbol);
    if (i === undefined || view.todayIndex < 0) continue;
    const k = lastIndexOf(view.snapshot, i, view.todayIndex);
    if (k >= 0) out.set(symbol, isoOf(view.snapshot, k));
  }
  return out;
}
