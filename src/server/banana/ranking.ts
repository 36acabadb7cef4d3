/**
 * The community ranking per region (docs/banana.md, "Ranking"): every banana portfolio at least
 * 1 day old, by return since creation (highest first, then the older portfolio). Positions are
 * numbered once per valuation run (`numberRanking`, one statement over the region); a request
 * reads a page as a range of positions through the index (region, ranking_position), the total
 * as the last position, and the client's own positions directly: no request scans the table.
 * Names are the owners' aliases, never their emails.
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

/** Numbers every ranked portfolio's position in its region; unranked ones lose theirs. */
export async function numberRanking(db: Db): Promise<void> {
  await db.execute(sql`
    update banana_portfolios b set ranking_position = r.pos
    from (select portfolio_id,
                 row_number() over (partition by region
                                    order by ranking_return desc, portfolio_id)::int as pos
          from banana_portfolios where ranking_return is not null) r
    where b.portfolio_id = r.portfolio_id and b.ranking_position is distinct from r.pos`);
  await db.execute(sql`
    update banana_portfolios set ranking_position = null
    where ranking_return is null and ranking_position is not null`);
}

/** Position of a portfolio in its region (1 = best), or null when it is not ranked yet. */
export async function rankOf(db: Db, portfolioId: number): Promise<number | null> {
  const [row] = resultRows(
    await db.execute(sql`
      select ranking_position from banana_portfolios where portfolio_id = ${portfolioId}`),
  );
  return row?.ranking_position == null ? null : Number(row.ranking_position);
}

/**
 * A page of a region's ranking for a client. Every row's portfolio id is sent to a client allowed
 * to open other members' portfolios (`communityPortfolio`); otherwise only its own rows' ids.
 */
export async function ranking(
  db: Db,
  region: MonkeyRegion,
  page: number,
  clientId: number,
  { communityPortfolio = false, pageSize = RANKING_PAGE_SIZE } = {},
): Promise<BananaRanking> {
  const offset = (page - 1) * pageSize;
  // A page is a range of positions (the owners joined to its 20 rows only), the total the last
  // position, the client's own positions read directly: three index reads, at once.
  const [pageRows, lastRows, ownRows] = await Promise.all([
    db.execute(sql`
      select b.portfolio_id, b.ranking_position, b.ranking_return,
             b.created_on::text as created_on, b.latest_date::text as latest_date,
             p.name, p.client_id, c.alias
      from banana_portfolios b
      join portfolios p on p.id = b.portfolio_id
      join clients c on c.id = p.client_id
      where b.region = ${region} and b.ranking_position > ${offset}
        and b.ranking_position <= ${offset + pageSize}
      order by b.ranking_position`),
    db.execute(sql`
      select ranking_position from banana_portfolios
      where region = ${region} and ranking_position is not null
      order by ranking_position desc limit 1`),
    db.execute(sql`
      select b.portfolio_id, b.ranking_position from banana_portfolios b
      join portfolios p on p.id = b.portfolio_id
      where p.client_id = ${clientId} and p.product = 'simMonk' and b.region = ${region}
        and b.ranking_position is not null
      order by b.ranking_position`),
  ]);
  const rows = resultRows(pageRows);
  const [last] = resultRows(lastRows);
  const ownRanks = resultRows(ownRows).map((o) => ({
    portfolioId: Number(o.portfolio_id),
    rank: Number(o.ranking_position),
  }));
  return {
    region,
    page,
    pageSize,
    total: Number(last?.ranking_position ?? 0),
    date: (rows[0]?.latest_date as string | undefined) ?? null,
    rows: rows.map((r) => {
      const ret = Number(r.ranking_return);
      const age = daysBetween(r.created_on as string, r.latest_date as string);
      const mine = Number(r.client_id) === clientId;
      return {
        rank: Number(r.ranking_position),
        alias: (r.alias as string | null) ?? null,
        name: r.name as string,
        return: ret,
        annualisedReturn: age >= BANANA_ANNUALISED_AFTER_DAYS ? annualise(ret, age) : null,
        ageDays: age,
        own: mine,
        portfolioId: mine || communityPortfolio ? Number(r.portfolio_id) : null,
      };
    }),
    ownRanks,
  };
}
