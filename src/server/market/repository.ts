import { and, asc, eq, gte, ilike, or, sql, type SQL } from "drizzle-orm";
import type { AssetQuery, AssetSummary, HistoryRange, MarketToday } from "../../contract/market.ts";
import { resultRows, type Db } from "../db/database.ts";
import { readMeta } from "../db/app-meta.ts";
import { assets, prices } from "../db/schema.ts";

/** An asset is stale when its last price is more than this many days before the market's today. */
export const STALE_AFTER_DAYS = 14;

export async function marketToday(db: Db): Promise<MarketToday> {
  const [row] = resultRows(
    await db.execute(
      sql`select max(date)::text as today, (select count(*)::int from assets) as n from prices`,
    ),
  );
  const source = (await readMeta(db, "market_source")) as MarketToday["source"] | null;
  const today = (row?.today as string | null) ?? null;
  return { today, source: today ? (source ?? "imported") : "empty", assets: Number(row?.n ?? 0) };
}

/** An ISO day moved by a number of calendar days (negative: earlier). */
export const shiftDays = (iso: string, days: number): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** Lists assets by product, exchange, asset class, region and name; stale ones only on request. */
export async function listAssets(db: Db, query: AssetQuery): Promise<AssetSummary[]> {
  const { today } = await marketToday(db);
  const filters: SQL[] = [];
  if (query.product === "simMonk") filters.push(eq(assets.universe, "simAssets"));
  else if (query.product) filters.push(eq(assets.universe, query.product));
  if (query.exchange) filters.push(eq(assets.exchange, query.exchange));
  if (query.assetClass) filters.push(eq(assets.assetClass, query.assetClass));
  if (query.region) filters.push(eq(assets.region, query.region));
  if (query.q) {
    const like = `%${query.q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
    filters.push(or(ilike(assets.name, like), ilike(assets.symbol, like))!);
  }
  const rows = resultRows(
    await db.execute(sql`
      select ${assets}.*, r.first::text as first_date, r.last::text as last_date
      from ${assets}
      left join lateral (select min(date) as first, max(date) as last from ${prices} p where p.symbol = ${assets.symbol}) r on true
      ${filters.length ? sql`where ${and(...filters)}` : sql``}
      order by ${assets.universe}, ${assets.exchange} nulls last, ${assets.assetClass} nulls last, ${assets.name}`),
  );
  const staleBefore = today ? shiftDays(today, -STALE_AFTER_DAYS) : null;
  const list = rows.map((r) => toSummary(r, staleBefore));
  return query.includeStale === "true" ? list : list.filter((a) => !a.stale);
}

function toSummary(r: Record<string, unknown>, staleBefore: string | null): AssetSummary {
  const lastDate = (r.last_date as string | null) ?? null;
  return {
    symbol: r.symbol as string,
    name: r.name as string,
    kind: r.kind as string,
    universe: r.universe as AssetSummary["universe"],
    exchange: (r.exchange as string | null) ?? null,
    assetClass: (r.asset_class as string | null) ?? null,
    region: (r.region as string | null) ?? null,
    country: (r.country as string | null) ?? null,
    currency: r.currency as string,
    sector: (r.sector as string | null) ?? null,
    firstDate: (r.first_date as string | null) ?? null,
    lastDate,
    stale: lastDate === null || (staleBefore !== null && lastDate < staleBefore),
  };
}

export async function assetSummary(db: Db, symbol: string): Promise<AssetSummary | null> {
  const { today } = await marketToday(db);
  const rows = resultRows(
    await db.execute(sql`
      select a.*, (select min(date)::text from ${prices} p where p.symbol = a.symbol) as first_date,
             (select max(date)::text from ${prices} p where p.symbol = a.symbol) as last_date
      from ${assets} a where a.symbol = ${symbol}`),
  );
  return rows[0] ? toSummary(rows[0], today ? shiftDays(today, -STALE_AFTER_DAYS) : null) : null;
}

const rangeMonths: Record<Exclude<HistoryRange, "max">, number> = {
  "1m": 1,
  "3m": 3,
  "6m": 6,
  "1y": 12,
  "3y": 36,
  "5y": 60,
};

/** Closing prices of an asset over a range ending at its last price. */
export async function priceHistory(
  db: Db,
  symbol: string,
  range: HistoryRange,
  lastDate: string,
): Promise<{ dates: string[]; closes: number[] }> {
  const filters = [eq(prices.symbol, symbol)];
  if (range !== "max") {
    const d = new Date(`${lastDate}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - rangeMonths[range]);
    filters.push(gte(prices.date, d.toISOString().slice(0, 10)));
  }
  const rows = await db
    .select({ date: prices.date, close: prices.close })
    .from(prices)
    .where(and(...filters))
    .orderBy(asc(prices.date));
  return { dates: rows.map((r) => r.date), closes: rows.map((r) => r.close) };
}

/** The last `count` closes of an asset (for volatility windows). */
export async function lastCloses(db: Db, symbol: string, count: number): Promise<Float64Array> {
  const rows = resultRows(
    await db.execute(
      sql`select close from (select date, close from ${prices} where symbol = ${symbol} order by date desc limit ${count}) t order by date`,
    ),
  );
  return Float64Array.from(rows, (r) => Number(r.close));
}
