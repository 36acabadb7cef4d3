import { sql } from "drizzle-orm";
import type { Product } from "../../contract/common.ts";
import type { Volatilities as VolatilitiesSchema } from "../../contract/market.ts";
import { volatilityByBenchmark } from "../../engine/volatility.ts";
import { pgArray, resultRows, type Db } from "../db/database.ts";
import { shiftDays, STALE_AFTER_DAYS } from "../market/repository.ts";

/** What the portfolio routes need to know of an asset. */
export interface AssetFacts {
  readonly symbol: string;
  readonly name: string;
  readonly kind: string;
  readonly universe: string;
  readonly exchange: string | null;
  readonly assetClass: string | null;
  readonly region: string | null;
  readonly currency: string;
  readonly lastDate: string | null;
}

/** The assets of `symbols` that exist, with the day of their last price. */
export async function assetFacts(
  db: Db,
  symbols: readonly string[],
): Promise<Map<string, AssetFacts>> {
  if (symbols.length === 0) return new Map();
  const rows = resultRows(
    await db.execute(sql`
      select a.symbol, a.name, a.kind, a.universe, a.exchange, a.asset_class, a.region, a.currency,
             (select max(p.date)::text from prices p where p.symbol = a.symbol) as last_date
      from assets a where a.symbol = any(${pgArray(symbols)}::text[])`),
  );
  return new Map(
    rows.map((r) => [
      r.symbol as string,
      {
        symbol: r.symbol as string,
        name: r.name as string,
        kind: r.kind as string,
        universe: r.universe as string,
        exchange: (r.exchange as string | null) ?? null,
        assetClass: (r.asset_class as string | null) ?? null,
        region: (r.region as string | null) ?? null,
        currency: r.currency as string,
        lastDate: (r.last_date as string | null) ?? null,
      },
    ]),
  );
}

/** Stale: no price in the STALE_AFTER_DAYS days before the market's today (not offered any more). */
export function isStale(asset: AssetFacts, today: string | null): boolean {
  if (asset.lastDate === null) return true;
  return today !== null && asset.lastDate < shiftDays(today, -STALE_AFTER_DAYS);
}

/**
 * Whether a portfolio of `product` may hold the asset: stocks and funds (not indices, rates or
 * currencies); the banana challenge holds stocks of its region only.
 */
export function holdable(asset: AssetFacts, product: Product, region: string | null): boolean {
  if (product === "simMonk")
    return asset.universe === "simAssets" && (region === null || asset.region === region);
  return asset.universe === "simAssets" || asset.universe === "simIndices";
}

/** A fund is grouped by asset class, a stock by stock exchange. */
export const isFund = (asset: Pick<AssetFacts, "universe">): boolean =>
  asset.universe === "simIndices";

type Volatilities = typeof VolatilitiesSchema.Type;

const NO_VOLATILITY: Volatilities = { 1: null, 2: null, 3: null, 4: null, 5: null, 6: null };

/** Closes needed for the longest window (5 years) plus one. */
const CLOSES = 1261;

/**
 * Each asset's volatility per benchmark window (the market's figures), cached per market day: the
 * same day's closes give the same figures.
 */
export function volatilityCache() {
  let day: string | null = null;
  let cache = new Map<string, Volatilities>();
  return async function volatilities(
    db: Db,
    symbols: readonly string[],
    today: string | null,
  ): Promise<Map<string, Volatilities>> {
    if (today !== day) {
      day = today;
      cache = new Map();
    }
    const missing = [...new Set(symbols)].filter((s) => !cache.has(s));
    if (missing.length) {
      const rows = resultRows(
        await db.execute(sql`
          select symbol, close from (
            select symbol, date, close,
                   row_number() over (partition by symbol order by date desc) as rn
            from prices where symbol = any(${pgArray(missing)}::text[])
          ) t where rn <= ${CLOSES} order by symbol, date`),
      );
      const closes = new Map<string, number[]>();
      for (const r of rows) {
        const symbol = r.symbol as string;
        let list = closes.get(symbol);
        if (!list) closes.set(symbol, (list = []));
        list.push(Number(r.close));
      }
      for (const symbol of missing) {
        const list = closes.get(symbol);
        cache.set(
          symbol,
          list ? volatilityByBenchmark(Float64Array.from(list)) : { ...NO_VOLATILITY },
        );
      }
    }
    return new Map(symbols.map((s) => [s, cache.get(s) ?? { ...NO_VOLATILITY }]));
  };
}
export type VolatilityLookup = ReturnType<typeof volatilityCache>;
