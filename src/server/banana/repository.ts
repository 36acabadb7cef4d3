/** Reading banana portfolios as the contract answers them (src/contract/banana.ts). */
import { sql } from "drizzle-orm";
import {
  annualise,
  BANANA_ANNUALISED_AFTER_DAYS,
  BANANA_MONKEYS,
  BANANA_STATS_AFTER_DAYS,
  daysBetween,
  editWindowOpen,
  holdingCents,
  nextWindowChange,
  type BananaFigures,
  type BananaHolding,
  type BananaPortfolio,
  type MonkeyRegion,
} from "../../contract/banana.ts";
import { toCents } from "../../contract/money.ts";
import { dayNumber } from "../../engine/dates.ts";
import { pgArray, resultRows, type Db } from "../db/database.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { MarketSnapshot } from "../market/snapshot.ts";
import { closeAt } from "./market.ts";
import { rankOf } from "./ranking.ts";
import type { StoredBanana, StoredMonkey } from "./service.ts";

interface Row {
  readonly id: number;
  readonly clientId: number;
  readonly name: string;
  readonly region: MonkeyRegion;
  readonly currency: "EUR" | "USD";
  readonly version: number;
  readonly remainingEditions: number | null;
  readonly createdOn: string;
  readonly pricedOn: string;
  readonly totalInvested: number;
  readonly growth: number;
  readonly seed: number;
  readonly monkey: StoredMonkey;
}

const rowOf = (r: Record<string, unknown>): Row => ({
  id: Number(r.id),
  clientId: Number(r.client_id),
  name: r.name as string,
  region: r.region as MonkeyRegion,
  currency: r.currency === "USD" ? "USD" : "EUR",
  version: Number(r.version),
  remainingEditions: r.remaining_editions === null ? null : Number(r.remaining_editions),
  createdOn: r.created_on as string,
  pricedOn: r.priced_on as string,
  totalInvested: Number(r.total_invested),
  growth: Number(r.growth),
  seed: Number(r.seed),
  monkey: r.monkey as StoredMonkey,
});

const select = sql`
  select p.id, p.client_id, p.name, b.region, p.currency, p.version, p.remaining_editions,
         b.created_on::text as created_on, p.priced_on::text as priced_on, p.total_invested,
         p.growth, b.seed, b.monkey
  from banana_portfolios b join portfolios p on p.id = b.portfolio_id`;

/** The client's banana portfolios, newest first. */
export async function clientBananas(db: Db, clientId: number): Promise<Row[]> {
  return resultRows(
    await db.execute(sql`${select} where p.client_id = ${clientId} order by p.id desc`),
  ).map(rowOf);
}

/** One banana portfolio of the client, or 404 (another client's does not exist for this one). */
export async function ownBanana(db: Db, clientId: number, id: number): Promise<Row> {
  const [row] = resultRows(
    await db.execute(sql`${select} where p.id = ${id} and p.client_id = ${clientId}`),
  );
  if (!row) throw new ApiFailure(404, "NOT_FOUND");
  return rowOf(row);
}

/** Any banana portfolio (the community portfolio view), or 404. */
export async function anyBanana(db: Db, id: number): Promise<Row> {
  const [row] = resultRows(await db.execute(sql`${select} where p.id = ${id}`));
  if (!row) throw new ApiFailure(404, "NOT_FOUND");
  return rowOf(row);
}

export async function sharesOf(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, { symbol: string; shares: number; invested: number }[]>> {
  const out = new Map<number, { symbol: string; shares: number; invested: number }[]>();
  if (!ids.length) return out;
  const rows = resultRows(
    await db.execute(sql`
      select portfolio_id, symbol, shares, invested_amount from portfolio_assets
      where portfolio_id = any(${pgArray(ids)}::int[]) order by portfolio_id, position`),
  );
  for (const r of rows) {
    const id = Number(r.portfolio_id);
    const list = out.get(id) ?? [];
    list.push({
      symbol: r.symbol as string,
      shares: Number(r.shares ?? 0),
      invested: Number(r.invested_amount),
    });
    out.set(id, list);
  }
  return out;
}

export const storedOf = (
  row: Row,
  holdings: readonly { symbol: string; shares: number }[],
): StoredBanana => ({
  id: row.id,
  version: row.version,
  region: row.region,
  totalInvested: row.totalInvested,
  growth: row.growth,
  remainingEditions: row.remainingEditions,
  holdings,
});

interface ValuationRow {
  date: string;
  value: number;
  return: number;
  monkeyReturn: number;
  indexReturn: number | null;
  percentile: number;
  mean: number;
  quantiles: number[];
}

const valuationOf = (r: Record<string, unknown>): ValuationRow => ({
  date: r.date as string,
  value: Number(r.value),
  return: Number(r.return),
  monkeyReturn: Number(r.monkey_return),
  indexReturn: r.index_return === null ? null : Number(r.index_return),
  percentile: Number(r.percentile),
  mean: Number(r.monkeys_mean),
  quantiles: (r.quantiles as number[]).map(Number),
});

export async function latestBananaValuations(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, ValuationRow>> {
  if (!ids.length) return new Map();
  const rows = resultRows(
    await db.execute(sql`
      select distinct on (portfolio_id) portfolio_id, date::text as date, value, return,
             monkey_return, index_return, percentile, monkeys_mean, quantiles
      from banana_valuations where portfolio_id = any(${pgArray(ids)}::int[])
      order by portfolio_id, date desc`),
  );
  return new Map(rows.map((r) => [Number(r.portfolio_id), valuationOf(r)]));
}

export async function bananaHistory(db: Db, id: number): Promise<ValuationRow[]> {
  return resultRows(
    await db.execute(sql`
      select date::text as date, value, return, monkey_return, index_return, percentile,
             monkeys_mean, quantiles
      from banana_valuations where portfolio_id = ${id} order by date`),
  ).map(valuationOf);
}

/**
 * Section 6: returns (statistics) once the portfolio is 1 day old, annualised once 30 days old.
 */
export function figuresOf(row: Row, v: ValuationRow | undefined): BananaFigures | null {
  if (!v) return null;
  const age = daysBetween(row.createdOn, v.date);
  const stats = age >= BANANA_STATS_AFTER_DAYS;
  return {
    date: v.date,
    value: v.value,
    ageDays: age,
    return: stats ? v.return : null,
    annualisedReturn: age >= BANANA_ANNUALISED_AFTER_DAYS ? annualise(v.return, age) : null,
    monkeyReturn: stats ? v.monkeyReturn : null,
    indexReturn: stats ? v.indexReturn : null,
    distribution: stats
      ? { quantiles: v.quantiles, mean: v.mean, percentile: v.percentile, count: BANANA_MONKEYS }
      : null,
  };
}

/** The contract's BananaPortfolio. */
export async function toBanana(
  db: Db,
  s: MarketSnapshot,
  row: Row,
  holdings: readonly { symbol: string; shares: number; invested: number }[],
  valuation: ValuationRow | undefined,
  now: Date,
): Promise<BananaPortfolio> {
  const meta = (symbol: string) => {
    const i = s.index.get(symbol);
    const a = i === undefined ? undefined : s.assets[i];
    return { name: a?.name ?? symbol, exchange: a?.exchange ?? "" };
  };
  // The shares were bought at the closes of priced_on (creation or last edition).
  const pricedIdx = s.indexAtOrBefore(dayNumber(row.pricedOn));
  const boughtAt = (symbol: string, shares: number, invested: number) => {
    const i = s.index.get(symbol);
    const p = i === undefined ? Number.NaN : closeAt(s, i, pricedIdx);
    return Number.isFinite(p) ? p : shares > 0 ? invested / shares : 0;
  };
  const mine: BananaHolding[] = holdings.map((h) => ({
    symbol: h.symbol,
    ...meta(h.symbol),
    shares: h.shares,
    price: boughtAt(h.symbol, h.shares, h.invested),
    investedAmount: h.invested,
  }));
  const monkey: BananaHolding[] = row.monkey.holdings.map((h) => ({
    symbol: h.symbol,
    ...meta(h.symbol),
    shares: h.shares,
    price: h.price,
    investedAmount: holdingCents(h.shares, h.price) / 100,
  }));
  return {
    id: row.id,
    name: row.name,
    region: row.region,
    currency: row.currency,
    version: row.version,
    remainingEditions: row.remainingEditions,
    createdOn: row.createdOn,
    pricedOn: row.pricedOn,
    // The sum of the holdings' amounts (each rounded to the cent), as stored since creation.
    totalInvested: mine.reduce((a, h) => a + toCents(h.investedAmount), 0) / 100,
    holdings: mine,
    monkey: {
      seed: row.seed,
      holdings: monkey,
      totalInvested: monkey.reduce((a, h) => a + toCents(h.investedAmount), 0) / 100,
    },
    figures: figuresOf(row, valuation),
    rank: await rankOf(db, row.id),
    window: { open: editWindowOpen(now), changesAt: nextWindowChange(now).toISOString() },
  };
}
