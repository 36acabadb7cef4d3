import { sql } from "drizzle-orm";
import type { AssetInfo } from "../../engine/breakdown.ts";
import { dayNumber } from "../../engine/dates.ts";
import type { FxSeries, PriceSeries } from "../../engine/returns.ts";
import { pgArray, resultRows, type Db } from "../db/database.ts";

export interface LoadedAsset {
  readonly symbol: string;
  readonly name: string;
  readonly info: AssetInfo;
  readonly series: PriceSeries;
}

/**
 * Loads the closes of several assets from `from` (ISO day) on, in one query, with what the
 * breakdown needs. Unknown symbols are reported, not silently dropped.
 */
export async function loadAssets(
  db: Db,
  symbols: readonly string[],
  from: string,
): Promise<{ assets: LoadedAsset[]; unknown: string[] }> {
  const meta = resultRows(
    await db.execute(
      sql`select symbol, name, exchange, asset_class, currency, sector, region from assets where symbol = any(${pgArray(symbols)}::text[])`,
    ),
  );
  const bySymbol = new Map(meta.map((m) => [m.symbol as string, m]));
  const unknown = symbols.filter((s) => !bySymbol.has(s));
  const rows = resultRows(
    await db.execute(
      sql`select symbol, date::text as date, close from prices where symbol = any(${pgArray(symbols)}::text[]) and date >= ${from}::date order by symbol, date`,
    ),
  );
  const grouped = new Map<string, { dates: number[]; closes: number[] }>();
  for (const r of rows) {
    const symbol = r.symbol as string;
    let g = grouped.get(symbol);
    if (!g) grouped.set(symbol, (g = { dates: [], closes: [] }));
    g.dates.push(dayNumber(r.date as string));
    g.closes.push(Number(r.close));
  }
  const assets: LoadedAsset[] = [];
  for (const symbol of symbols) {
    const m = bySymbol.get(symbol);
    const g = grouped.get(symbol);
    if (!m || !g) continue;
    const currency = m.currency === "USD" ? "USD" : "EUR";
    assets.push({
      symbol,
      name: m.name as string,
      info: {
        symbol,
        currency: m.currency as string,
        ...(m.exchange ? { exchange: m.exchange as string } : {}),
        ...(m.asset_class ? { assetClass: m.asset_class as string } : {}),
        ...(m.sector ? { sector: m.sector as string } : {}),
        ...(m.region ? { region: m.region as string } : {}),
      },
      series: { dates: Int32Array.from(g.dates), prices: Float64Array.from(g.closes), currency },
    });
  }
  return {
    assets,
    unknown: unknown.concat(symbols.filter((s) => bySymbol.has(s) && !grouped.has(s))),
  };
}

/** Daily EUR/USD (USD per EUR) from the EURUSD series. */
export async function loadFx(db: Db, from: string): Promise<FxSeries | null> {
  const rows = resultRows(
    await db.execute(
      sql`select date::text as date, close from prices where symbol = 'EURUSD' and date >= ${from}::date order by date`,
    ),
  );
  if (rows.length === 0) return null;
  return {
    dates: Int32Array.from(rows, (r) => dayNumber(r.date as string)),
    rates: Float64Array.from(rows, (r) => Number(r.close)),
  };
}

/** The last day with a price of each symbol. */
export async function lastPriceDays(
  db: Db,
  symbols: readonly string[],
): Promise<Map<string, string>> {
  const rows = resultRows(
    await db.execute(
      sql`select symbol, max(date)::text as last from prices where symbol = any(${pgArray(symbols)}::text[]) group by symbol`,
    ),
  );
  return new Map(rows.map((r) => [r.symbol as string, r.last as string]));
}
