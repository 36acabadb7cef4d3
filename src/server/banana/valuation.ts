/**
 * Daily valuation of banana portfolios (docs/banana.md, "Valuation"): on a market day, each
 * portfolio's value (whole shares × the day's close), its return since creation (time-weighted
 * across editions through `growth`), its monkey's return, the region's index return, and where it
 * stands among its 10,000 monkeys; one row per portfolio and day (upserted), and the latest return
 * for the ranking once the portfolio is 1 day old. Runs with the valuation job of saved portfolios
 * (after each market update and at start) and after each creation and edition.
 */
import { sql } from "drizzle-orm";
import {
  BANANA_MAX_INVESTMENT,
  BANANA_MONKEYS,
  holdingCents,
  REGION_INDEX,
  type MonkeyRegion,
} from "../../contract/banana.ts";
import { toCents } from "../../contract/money.ts";
import { dayNumber, isoDate } from "../../engine/dates.ts";
import { pgArray, resultRows, type Db } from "../db/database.ts";
import type { Logger } from "../logger.ts";
import { marketView } from "../market/market-view.ts";
import type { MarketSnapshot } from "../market/snapshot.ts";
import { closeAt } from "./market.ts";
import { bananaReturn, distributionOf, monkeyReturns } from "./monkey.ts";
import { numberRanking } from "./ranking.ts";
import type { StoredMonkey } from "./service.ts";

export interface BananaRun {
  readonly date: string | null;
  readonly valued: number;
}

const priceOn = (s: MarketSnapshot, symbol: string, day: number): number => {
  const i = s.index.get(symbol);
  return i === undefined ? Number.NaN : closeAt(s, i, day);
};

/** Values banana portfolios on `date` (default: the market's today). */
export async function valueBananas(
  db: Db,
  date?: string,
  options: { ids?: readonly number[]; logger?: Logger } = {},
): Promise<BananaRun> {
  const view = await marketView(db);
  if (!view.today) return { date: null, valued: 0 };
  const s = view.snapshot;
  const dayIdx = date
    ? Math.min(s.indexAtOrBefore(dayNumber(date)), view.todayIndex)
    : view.todayIndex;
  if (dayIdx < 0) return { date: null, valued: 0 };
  const asOf = isoDate(s.calendar[dayIdx]!);
  const rows = resultRows(
    await db.execute(sql`
      select b.portfolio_id, b.region, b.created_on::text as created_on, b.seed, b.universe,
             b.monkey, p.growth
      from banana_portfolios b join portfolios p on p.id = b.portfolio_id
      where b.created_on <= ${asOf}::date
      ${options.ids ? sql`and b.portfolio_id = any(${pgArray(options.ids)}::int[])` : sql``}
      order by b.portfolio_id`),
  );
  if (rows.length === 0) return { date: asOf, valued: 0 };
  const shares = resultRows(
    await db.execute(sql`
      select portfolio_id, symbol, shares, invested_amount from portfolio_assets
      where portfolio_id = any(${pgArray(rows.map((r) => Number(r.portfolio_id)))}::int[])`),
  );
  const held = new Map<number, { symbol: string; shares: number; invested: number }[]>();
  for (const h of shares) {
    const id = Number(h.portfolio_id);
    const list = held.get(id) ?? [];
    list.push({
      symbol: h.symbol as string,
      shares: Number(h.shares ?? 0),
      invested: Number(h.invested_amount),
    });
    held.set(id, list);
  }
  let valued = 0;
  for (const r of rows) {
    const id = Number(r.portfolio_id);
    try {
      const region = r.region as MonkeyRegion;
      const createdOn = r.created_on as string;
      const createdIdx = s.indexAtOrBefore(dayNumber(createdOn));
      const universe = r.universe as { symbol: string; price: number }[];
      const monkey = r.monkey as StoredMonkey;
      // One rule for the portfolio and every monkey (bananaReturn): each holding's amount in
      // whole cents, summed, at the purchase closes and at the day's.
      let investedCents = 0;
      let valueCents = 0;
      for (const h of held.get(id) ?? []) {
        const p = priceOn(s, h.symbol, dayIdx);
        const invested = toCents(h.invested);
        investedCents += invested;
        valueCents += Number.isFinite(p) ? holdingCents(h.shares, p) : invested;
      }
      const value = valueCents / 100;
      const ret = bananaReturn(Number(r.growth), valueCents, investedCents);
      let mInvested = 0;
      let mValue = 0;
      for (const h of monkey.holdings) {
        const p = priceOn(s, h.symbol, dayIdx);
        mInvested += holdingCents(h.shares, h.price);
        mValue += holdingCents(h.shares, Number.isFinite(p) ? p : h.price);
      }
      const monkeyReturn = bananaReturn(1, mValue, mInvested);
      const i0 = priceOn(s, REGION_INDEX[region], createdIdx);
      const i1 = priceOn(s, REGION_INDEX[region], dayIdx);
      const indexReturn = i0 > 0 && Number.isFinite(i1) ? i1 / i0 - 1 : null;
      const p0 = universe.map((u) => u.price);
      const p1 = universe.map((u) => priceOn(s, u.symbol, dayIdx));
      const returns = monkeyReturns(
        Number(r.seed),
        p0,
        p1,
        monkey.size,
        BANANA_MAX_INVESTMENT,
        BANANA_MONKEYS,
      );
      const d = distributionOf(returns, ret);
      await db.execute(sql`
        insert into banana_valuations (portfolio_id, date, value, return, monkey_return,
          index_return, percentile, monkeys_mean, quantiles)
        values (${id}, ${asOf}::date, ${value}, ${ret}, ${monkeyReturn}, ${indexReturn},
          ${d.percentile}, ${d.mean}, ${JSON.stringify(d.quantiles)}::jsonb)
        on conflict (portfolio_id, date) do update set value = excluded.value,
          return = excluded.return, monkey_return = excluded.monkey_return,
          index_return = excluded.index_return, percentile = excluded.percentile,
          monkeys_mean = excluded.monkeys_mean, quantiles = excluded.quantiles, created_at = now()`);
      // The ranking follows the latest day; returns count once the portfolio is 1 day old.
      await db.execute(sql`
        update banana_portfolios set latest_date = ${asOf}::date,
          ranking_return = case when ${asOf}::date > created_on then ${ret}::float8 else null end
        where portfolio_id = ${id} and (latest_date is null or latest_date <= ${asOf}::date)`);
      valued++;
    } catch (error) {
      options.logger?.warn("banana valuation failed", { portfolioId: id, error });
    }
  }
  // Whatever valued them (the job, a creation, an edition, a client's catch-up on the replay
  // clock), the ranking is numbered again, so it always follows the returns stored.
  if (valued) await numberRanking(db);
  return { date: asOf, valued };
}
