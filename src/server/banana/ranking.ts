/**
 * The community ranking per region (docs/banana.md, "Ranking"): every banana portfolio at least
 * 1 day old, by return since creation (highest first, then oldest id), a page at a time. It reads
 * banana_portfolios.ranking_return through the index (region, ranking_return desc nulls last,
 * portfolio_id): a page is an index range scan with a limit, a position is one count over the
 * index. Names are the owners' aliases, never their emails.
 */
import { sql } from "drizzle-orm";
import {
  annualise,
  BANANA_ANNUALISED_AFTER_DAYS,
  daysBetween,
  RANKING_PAGE_SIZE,
  type BananaRanking,
  type MonkeyRegion,
} from "../../contract/banana.ts";
import { resultRows, type Db } from "../db/database.ts";

/** Position of a portfolio in its region (1 = best), or null when it is not ranked yet. */
export async function rankOf(db: Db, portfolioId: number): Promise<number | null> {
  const [row] = resultRows(
    await db.execute(sql`
      select (select count(*)::int from banana_portfolios o
              where o.region = b.region and o.ranking_return is not null
                and (o.ranking_return > b.ranking_return
                     or (o.ranking_return = b.ranking_return and o.portfolio_id < b.portfolio_id))
             ) + 1 as rank
      from banana_portfolios b where b.portfolio_id = ${portfolioId} and b.ranking_return is not null`),
  );
  return row ? Number(row.rank) : null;
}

export async function ranking(
  db: Db,
  region: MonkeyRegion,
  page: number,
  clientId: number,
  pageSize = RANKING_PAGE_SIZE,
): Promise<BananaRanking> {
  const offset = (page - 1) * pageSize;
  const rows = resultRows(
    await db.execute(sql`
      select b.portfolio_id, b.ranking_return, b.created_on::text as created_on,
             b.latest_date::text as latest_date, p.name, p.client_id, c.alias
      from banana_portfolios b
      join portfolios p on p.id = b.portfolio_id
      join clients c on c.id = p.client_id
      where b.region = ${region} and b.ranking_return is not null
      order by b.ranking_return desc nulls last, b.portfolio_id
      limit ${pageSize} offset ${offset}`),
  );
  const [count] = resultRows(
    await db.execute(sql`
      select count(*)::int as n, max(latest_date)::text as date from banana_portfolios
      where region = ${region} and ranking_return is not null`),
  );
  const own = resultRows(
    await db.execute(sql`
      select b.portfolio_id from banana_portfolios b join portfolios p on p.id = b.portfolio_id
      where p.client_id = ${clientId} and b.region = ${region} and b.ranking_return is not null
      order by b.portfolio_id`),
  );
  const ownRanks = [];
  for (const o of own) {
    const rank = await rankOf(db, Number(o.portfolio_id));
    if (rank !== null) ownRanks.push({ portfolioId: Number(o.portfolio_id), rank });
  }
  return {
    region,
    page,
    pageSize,
    total: Number(count?.n ?? 0),
    date: (count?.date as string | null) ?? null,
    rows: rows.map((r, i) => {
      const ret = Number(r.ranking_return);
      const age = daysBetween(r.created_on as string, r.latest_date as string);
      const mine = Number(r.client_id) === clientId;
      return {
        rank: offset + i + 1,
        alias: (r.alias as string | null) ?? null,
        name: r.name as string,
        return: ret,
        annualisedReturn: age >= BANANA_ANNUALISED_AFTER_DAYS ? annualise(ret, age) : null,
        ageDays: age,
        own: mine,
        portfolioId: mine ? Number(r.portfolio_id) : null,
      };
    }),
    ownRanks,
  };
}
