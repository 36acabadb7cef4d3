/**
 * The market in memory (docs/market-data.md, "In memory"): every close of every instrument in one
 * asset-major matrix over one calendar, in typed arrays on SharedArrayBuffers, loaded once per
 * data version. Requests read it instead of scanning the price table, and worker threads receive
 * the same buffers without a copy.
 */
import { sql } from "drizzle-orm";
import { dayNumber, isoDate } from "../../engine/dates.ts";
import { resultRows, type Db } from "../db/database.ts";
import type { Dataset } from "./dataset.ts";

export interface AssetMeta {
  readonly symbol: string;
  readonly name: string;
  readonly kind: string;
  readonly universe: string;
  readonly exchange: string | null;
  readonly assetClass: string | null;
  readonly region: string | null;
  readonly country: string | null;
  readonly currency: string;
  readonly sector: string | null;
}

export interface Levels {
  readonly dates: Int32Array;
  readonly values: Float64Array;
}

export type SnapshotSource = "imported" | "simulated" | "empty";

/** What a worker needs to rebuild a snapshot: plain data and shared buffers (structured-cloneable). */
export interface SnapshotTransfer {
  readonly version: string;
  readonly source: SnapshotSource;
  readonly assets: readonly AssetMeta[];
  readonly calendar: Int32Array;
  readonly closes: Float64Array;
  readonly first: Int32Array;
  readonly last: Int32Array;
  readonly macro: readonly (readonly [string, Levels])[];
}

export interface MarketSnapshot extends SnapshotTransfer {
  readonly index: ReadonlyMap<string, number>;
  readonly macroByName: ReadonlyMap<string, Levels>;
  /** Calendar index of a day number (the day itself or the last calendar day before it), or -1. */
  indexAtOrBefore(day: number): number;
}

const shared = (bytes: number) =>
  typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);

export function snapshotOf(t: SnapshotTransfer): MarketSnapshot {
  const index = new Map(t.assets.map((a, i) => [a.symbol, i]));
  const cal = t.calendar;
  return {
    ...t,
    index,
    macroByName: new Map(t.macro),
    indexAtOrBefore(day: number) {
      let lo = 0;
      let hi = cal.length - 1;
      if (hi < 0 || day < cal[0]!) return -1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (cal[mid]! <= day) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
  };
}

/** Reads the whole market in three queries (one row per series, its days and values as arrays). */
export async function loadSnapshot(
  db: Db,
  version: string,
  source: SnapshotSource,
): Promise<MarketSnapshot> {
  const assetRows = resultRows(
    await db.execute(
      sql`select symbol, name, kind, universe, exchange, asset_class, region, country, currency, sector from assets order by symbol`,
    ),
  );
  const priceRows = resultRows(
    await db.execute(
      sql`select symbol, array_agg((date - date '1970-01-01') order by date) as d, array_agg(close order by date) as v from prices group by symbol`,
    ),
  );
  const macroRows = resultRows(
    await db.execute(
      sql`select series, array_agg((date - date '1970-01-01') order by date) as d, array_agg(value order by date) as v from macro_values group by series`,
    ),
  );
  const assets: AssetMeta[] = assetRows.map((r) => ({
    symbol: r.symbol as string,
    name: r.name as string,
    kind: r.kind as string,
    universe: r.universe as string,
    exchange: (r.exchange as string | null) ?? null,
    assetClass: (r.asset_class as string | null) ?? null,
    region: (r.region as string | null) ?? null,
    country: (r.country as string | null) ?? null,
    currency: r.currency as string,
    sector: (r.sector as string | null) ?? null,
  }));
  return buildSnapshot(
    version,
    source,
    assets,
    new Map(priceRows.map((r) => [r.symbol as string, { d: numbers(r.d), v: numbers(r.v) }])),
    macroRows.map((r) => [r.series as string, { d: numbers(r.d), v: numbers(r.v) }] as const),
  );
}

/** The snapshot of a dataset as the import would store it (benchmarks, tests, the simulated market). */
export function snapshotFromDataset(
  dataset: Dataset,
  version = "dataset",
  source: SnapshotSource = "imported",
): MarketSnapshot {
  const days = (dates: readonly string[]) => dates.map(dayNumber);
  return buildSnapshot(
    version,
    source,
    [...dataset.assets].sort((a, b) => (a.symbol < b.symbol ? -1 : 1)),
    new Map([...dataset.prices].map(([k, v]) => [k, { d: days(v.dates), v: v.values }])),
    [...dataset.macro].map(([k, v]) => [k, { d: days(v.dates), v: v.values }] as const),
  );
}

type RawSeries = { readonly d: readonly number[]; readonly v: readonly number[] };

function buildSnapshot(
  version: string,
  source: SnapshotSource,
  assetList: readonly AssetMeta[],
  series: ReadonlyMap<string, RawSeries>,
  macroList: readonly (readonly [string, RawSeries])[],
): MarketSnapshot {
  const assets: AssetMeta[] = assetList.map((a) => ({
    symbol: a.symbol,
    name: a.name,
    kind: a.kind,
    universe: a.universe,
    exchange: a.exchange,
    assetClass: a.assetClass,
    region: a.region,
    country: a.country,
    currency: a.currency,
    sector: a.sector,
  }));
  // The calendar: every day any instrument has a price.
  const days = new Set<number>();
  for (const s of series.values()) for (const d of s.d) days.add(d);
  const calendar = new Int32Array(shared(days.size * 4));
  calendar.set(Int32Array.from(days).sort());
  const slot = new Map<number, number>();
  calendar.forEach((d, i) => slot.set(d, i));
  const n = assets.length;
  const T = calendar.length;
  const closes = new Float64Array(shared(n * T * 8)).fill(Number.NaN);
  const first = new Int32Array(shared(n * 4)).fill(-1);
  const last = new Int32Array(shared(n * 4)).fill(-1);
  assets.forEach((a, i) => {
    const s = series.get(a.symbol);
    if (!s || s.d.length === 0) return;
    const row = i * T;
    for (let k = 0; k < s.d.length; k++) closes[row + slot.get(s.d[k]!)!] = s.v[k]!;
    first[i] = slot.get(s.d[0]!)!;
    last[i] = slot.get(s.d[s.d.length - 1]!)!;
  });
  const macro = macroList.map(
    ([name, m]) => [name, { dates: Int32Array.from(m.d), values: Float64Array.from(m.v) }] as const,
  );
  return snapshotOf({
    version,
    source: T === 0 ? "empty" : source,
    assets,
    calendar,
    closes,
    first,
    last,
    macro,
  });
}

/** PGlite answers arrays as arrays; node-postgres too, with numbers as strings for some types. */
function numbers(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === "string")
    return value
      .replace(/^\{|\}$/g, "")
      .split(",")
      .filter(Boolean)
      .map(Number);
  return [];
}

export const transferOf = (s: MarketSnapshot): SnapshotTransfer => ({
  version: s.version,
  source: s.source,
  assets: s.assets,
  calendar: s.calendar,
  closes: s.closes,
  first: s.first,
  last: s.last,
  macro: s.macro,
});

/** The closes of one asset up to calendar index `end` (inclusive), without the days it has none. */
export function seriesOf(
  s: MarketSnapshot,
  assetIndex: number,
  fromDay: number,
  end: number,
): { dates: Int32Array; values: Float64Array } {
  const T = s.calendar.length;
  const lo = Math.max(s.first[assetIndex]!, s.indexAtOrBefore(fromDay - 1) + 1);
  const hi = Math.min(s.last[assetIndex]!, end);
  if (s.first[assetIndex]! < 0 || hi < lo)
    return { dates: new Int32Array(0), values: new Float64Array(0) };
  const row = s.closes.subarray(assetIndex * T + lo, assetIndex * T + hi + 1);
  let count = 0;
  for (let k = 0; k < row.length; k++) if (row[k] === row[k]) count++;
  const dates = new Int32Array(count);
  const values = new Float64Array(count);
  for (let k = 0, j = 0; k < row.length; k++) {
    const v = row[k]!;
    if (v !== v) continue;
    dates[j] = s.calendar[lo + k]!;
    values[j++] = v;
  }
  return { dates, values };
}

/** The last calendar index at or before `end` on which the asset has a price, or -1. */
export function lastIndexOf(s: MarketSnapshot, assetIndex: number, end: number): number {
  const T = s.calendar.length;
  const hi = Math.min(s.last[assetIndex]!, end);
  for (let k = hi; k >= s.first[assetIndex]! && k >= 0; k--)
    if (!Number.isNaN(s.closes[assetIndex * T + k]!)) return k;
  return -1;
}

export const isoOf = (s: MarketSnapshot, index: number): string => isoDate(s.calendar[index]!);
export const dayOf = dayNumber;
