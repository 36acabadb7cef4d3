/**
 * What the banana challenge reads of the market (the in-memory snapshot, docs/market-data.md):
 * the region's stocks offered on the market's today and their closes on a day.
 */
import type { MonkeyRegion } from "../../contract/banana.ts";
import { dayNumber } from "../../engine/dates.ts";
import type { Db } from "../db/database.ts";
import { marketView, type MarketView } from "../market/market-view.ts";
import { shiftDays, STALE_AFTER_DAYS } from "../market/repository.ts";
import { lastIndexOf, type AssetMeta, type MarketSnapshot } from "../market/snapshot.ts";

export interface OfferedStock {
  readonly meta: AssetMeta;
  readonly index: number;
  readonly close: number;
}

/** A stock of the challenge: kind stock of the simAssets universe. */
export const isBananaStock = (a: AssetMeta): boolean =>
  a.universe === "simAssets" && a.kind === "stock";

/** The close of asset `i` on calendar index `day` or the last one before it (NaN when none). */
export function closeAt(s: MarketSnapshot, i: number, day: number): number {
  const k = lastIndexOf(s, i, day);
  return k < 0 ? Number.NaN : s.closes[i * s.calendar.length + k]!;
}

/** Whether asset `i` has no close in the STALE_AFTER_DAYS days before the view's today. */
export function staleOn(view: MarketView, i: number): boolean {
  if (!view.today) return true;
  const k = lastIndexOf(view.snapshot, i, view.todayIndex);
  if (k < 0) return true;
  return view.snapshot.calendar[k]! < dayNumber(shiftDays(view.today, -STALE_AFTER_DAYS));
}

/** The stocks of the region a banana portfolio may buy today (not stale), in symbol order. */
export function offeredStocks(view: MarketView, region: MonkeyRegion): OfferedStock[] {
  const s = view.snapshot;
  const out: OfferedStock[] = [];
  s.assets.forEach((meta, index) => {
    if (!isBananaStock(meta) || meta.region !== region || staleOn(view, index)) return;
    const close = closeAt(s, index, view.todayIndex);
    if (Number.isFinite(close) && close > 0) out.push({ meta, index, close });
  });
  return out.sort((a, b) => (a.meta.symbol < b.meta.symbol ? -1 : 1));
}

export const bananaMarket = (db: Db) => marketView(db);
