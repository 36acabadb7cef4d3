/**
 * Daily valuation of saved portfolios (docs/portfolios.md, "Valuation"): the value of the holdings
 * bought at the closes of the day they were priced on, the return since saving, the risk and the
 * global score of the holdings as they are, and the community percentile of the score.
 */
import { sql } from "drizzle-orm";
import type { PortfolioAnalysis } from "../../engine/analysis.ts";
import { dayNumber } from "../../engine/dates.ts";
import { BENCHMARK_WINDOW_DAYS, benchmarkWindowDays } from "../../engine/panel.ts";
import { alignReturns, convertPrice, type Currency } from "../../engine/returns.ts";
import { runTask } from "../analytics/analyse.ts";
import { marketIndexAt, marketReturnsOn } from "../analytics/factors.ts";
import type { AnalyticsPool } from "../analytics/pool.ts";
import { lastPriceDays, loadAssets, loadFx } from "../analytics/series.ts";
import { pgArray, resultRows, type Db } from "../db/database.ts";
import type { Logger } from "../logger.ts";
import { marketView } from "../market/market-view.ts";
import { marketToday, shiftDays } from "../market/repository.ts";

export interface HoldingValue {
  readonly symbol: string;
  readonly investedAmount: number;
  /** Worth of the holding on the valuation day, in the portfolio currency. */
  readonly value: number;
}

interface PricedHolding {
  readonly portfolioId: number;
  readonly symbol: string;
  readonly investedAmount: number;
  readonly assetCurrency: Currency;
  readonly priceNow: number | null;
  readonly priceBase: number | null;
  readonly fxNow: number | null;
  readonly fxBase: number | null;
}

/**
 * The holdings of the portfolios with the closes (and EUR/USD) on or before `asOf` and on or before
 * the day each portfolio was priced on.
 */
async function pricedHoldings(db: Db, ids: readonly number[], asOf: string) {
  if (ids.length === 0) return [];
  const rows = resultRows(
    await db.execute(sql`
      select h.portfolio_id, h.symbol, h.invested_amount, a.currency,
        (select p.close from prices p where p.symbol = h.symbol and p.date <= ${asOf}::date
          order by p.date desc limit 1) as price_now,
        (select p.close from prices p where p.symbol = h.symbol and p.date <= pf.priced_on
          order by p.date desc limit 1) as price_base,
        (select p.close from prices p where p.symbol = 'EURUSD' and p.date <= ${asOf}::date
          order by p.date desc limit 1) as fx_now,
        (select p.close from prices p where p.symbol = 'EURUSD' and p.date <= pf.priced_on
          order by p.date desc limit 1) as fx_base
      from portfolio_assets h
      join portfolios pf on pf.id = h.portfolio_id
      join assets a on a.symbol = h.symbol
      where h.portfolio_id = any(${pgArray(ids)}::int[])
      order by h.portfolio_id, h.position`),
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r): PricedHolding => ({
    portfolioId: Number(r.portfolio_id),
    symbol: r.symbol as string,
    investedAmount: Number(r.invested_amount),
    assetCurrency: r.currency === "USD" ? "USD" : "EUR",
    priceNow: num(r.price_now),
    priceBase: num(r.price_base),
    fxNow: num(r.fx_now),
    fxBase: num(r.fx_base),
  }));
}

/**
 * amount × P(now) / P(base), both prices in the portfolio currency (EUR/USD of each day). A
 * holding without a price (cannot happen for a portfolio saved on the market's data) keeps its
 * amount.
 */
function holdingValue(h: PricedHolding, currency: Currency): number {
  if (h.priceNow === null || h.priceBase === null) return h.investedAmount;
  if (h.assetCurrency !== currency && (h.fxNow === null || h.fxBase === null))
    return h.investedAmount;
  const now = convertPrice(h.priceNow, h.assetCurrency, currency, h.fxNow ?? 1);
  const base = convertPrice(h.priceBase, h.assetCurrency, currency, h.fxBase ?? 1);
  return (h.investedAmount * now) / base;
}

/** The worth of each holding of one portfolio on `asOf` (the edition closes the period at it). */
export async function holdingValues(
  db: Db,
  portfolioId: number,
  currency: Currency,
  asOf: string,
): Promise<HoldingValue[]> {
  return (await pricedHoldings(db, [portfolioId], asOf)).map((h) => ({
    symbol: h.symbol,
    investedAmount: h.investedAmount,
    value: holdingValue(h, currency),
  }));
}

/**
 * Parametric VaR95 over a month (a fraction of the value) and the global score of holdings worth
 * `value` each, on the window ending on `asOf`: the same inputs as the analysis (`analyse`), cut at
 * `asOf`. When the assets' common history is shorter than the benchmark's window, the longest
 * window it covers is used; null when it covers none.
 */
export async function riskAndScore(
  db: Db,
  pool: AnalyticsPool,
  portfolio: { readonly currency: Currency; readonly benchmark: number },
  holdings: readonly { readonly symbol: string; readonly value: number }[],
  asOf: string,
): Promise<{ risk: number; score: number; benchmark: number } | null> {
  const symbols = holdings.map((h) => h.symbol);
  const wanted = benchmarkWindowDays(portfolio.benchmark);
  const lastDays = await lastPriceDays(db, symbols);
  const commonEnd = symbols.reduce((min, s) => {
    const last = lastDays.get(s);
    return last && last < min ? last : min;
  }, asOf);
  const from = shiftDays(commonEnd, -Math.ceil(wanted * 1.6) - 60);
  const [{ assets, unknown }, fx] = await Promise.all([
    loadAssets(db, symbols, from),
    loadFx(db, from),
  ]);
  if (unknown.length) return null;
  let aligned;
  try {
    aligned = alignReturns(
      assets.map((a) => a.series),
      { currency: portfolio.currency, to: dayNumber(asOf), ...(fx ? { fx } : {}) },
    );
  } catch {
    return null;
  }
  const observations = aligned.panel.observations;
  const benchmark =
    observations >= wanted
      ? portfolio.benchmark
      : Object.entries(BENCHMARK_WINDOW_DAYS)
          .filter(([, days]) => days <= observations)
          .map(([b]) => Number(b))
          .at(-1);
  if (benchmark === undefined) return null;
  // The same market proxy as the analysis: the index of the portfolio's market over the window.
  const index = marketIndexAt(await marketView(db), portfolio.currency);
  const market = index
    ? marketReturnsOn(index, aligned.dates, benchmarkWindowDays(benchmark))
    : null;
  const result = await runTask<PortfolioAnalysis>(pool, "analyse", {
    panel: aligned.panel,
    amounts: Float64Array.from(holdings, (h) => h.value),
    currency: portfolio.currency,
    benchmark,
    fx: { returns: aligned.fxReturns, foreign: aligned.foreign },
    ...(market ? { market } : {}),
  });
  return { risk: result.var.parametric.var, score: result.scores.global, benchmark };
}

/** Advisory-lock key that serialises the percentile updates of concurrent valuations. */
const PERCENTILE_LOCK_KEY = 727_100_003;

/**
 * The community percentile of every valuation of `product` on `date`: the percentage of the
 * product's other saved portfolios valued that day with a lower global score, ties counting half
 * (the engine's communityPercentile; 100 when the portfolio is the only one).
 */
export async function updatePercentiles(db: Db, product: string, date: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PERCENTILE_LOCK_KEY})`);
    await tx.execute(sql`
      update portfolio_valuations v set community_percentile = r.pct
      from (
        select v2.portfolio_id,
          case when count(*) over () <= 1 then 100.0
          else 100.0 * ((rank() over (order by v2.score) - 1)
                        + (count(*) over (partition by v2.score) - 1) / 2.0)
               / (count(*) over () - 1)
          end as pct
        from portfolio_valuations v2
        join portfolios p on p.id = v2.portfolio_id
        where p.product = ${product} and p.saved and v2.date = ${date}::date
      ) r
      where v.portfolio_id = r.portfolio_id and v.date = ${date}::date`);
  });
}

/** Portfolios valued at the same time. */
const CONCURRENCY = 4;

export interface ValuationRun {
  readonly date: string | null;
  readonly valued: number;
  /** Portfolios whose risk could not be computed (no common history): not valued that day. */
  readonly skipped: number;
}

export interface ValuationOptions {
  /** Only these portfolios (the one just saved or edited); default: every saved portfolio. */
  readonly ids?: readonly number[];
  /** Only portfolios without a valuation on the day (the check at start). */
  readonly onlyMissing?: boolean;
  readonly logger?: Logger;
}

/**
 * Values saved portfolios on `date` (default: the market's today) and upserts the day's row of
 * each, then updates the community percentiles of the products concerned for that day.
 */
export async function valuePortfolios(
  db: Db,
  pool: AnalyticsPool,
  date?: string,
  options: ValuationOptions = {},
): Promise<ValuationRun> {
  const asOf = date ?? (await marketToday(db)).today;
  if (!asOf) return { date: null, valued: 0, skipped: 0 };
  const portfolios = resultRows(
    await db.execute(sql`
      select p.id, p.product, p.currency, p.benchmark, p.total_invested, p.growth
      from portfolios p
      where p.saved and p.priced_on is not null and p.priced_on <= ${asOf}::date
      ${options.ids ? sql`and p.id = any(${pgArray(options.ids)}::int[])` : sql``}
      ${
        options.onlyMissing
          ? sql`and not exists (select 1 from portfolio_valuations v where v.portfolio_id = p.id and v.date = ${asOf}::date)`
          : sql``
      }
      order by p.id`),
  );
  if (portfolios.length === 0) return { date: asOf, valued: 0, skipped: 0 };
  const holdings = await pricedHoldings(
    db,
    portfolios.map((p) => Number(p.id)),
    asOf,
  );
  const byPortfolio = new Map<number, PricedHolding[]>();
  for (const h of holdings)
    byPortfolio.set(h.portfolioId, [...(byPortfolio.get(h.portfolioId) ?? []), h]);
  const products = new Set<string>();
  let valued = 0;
  let skipped = 0;
  const valueOne = async (p: Record<string, unknown>) => {
    const id = Number(p.id);
    const currency: Currency = p.currency === "USD" ? "USD" : "EUR";
    const held = byPortfolio.get(id) ?? [];
    if (held.length === 0) return;
    const values = held.map((h) => ({ symbol: h.symbol, value: holdingValue(h, currency) }));
    const value = values.reduce((s, h) => s + h.value, 0);
    const total = Number(p.total_invested);
    let figures: Awaited<ReturnType<typeof riskAndScore>>;
    try {
      figures = await riskAndScore(
        db,
        pool,
        { currency, benchmark: Number(p.benchmark) },
        values,
        asOf,
      );
    } catch (error) {
      options.logger?.warn("portfolio valuation failed", { portfolioId: id, error });
      figures = null;
    }
    if (!figures) {
      skipped++;
      return;
    }
    const growth = Number(p.growth) * (total > 0 ? value / total : 1);
    await db.execute(sql`
      insert into portfolio_valuations (portfolio_id, date, value, return, risk, score)
      values (${id}, ${asOf}::date, ${value}, ${growth - 1}, ${figures.risk}, ${figures.score})
      on conflict (portfolio_id, date) do update set value = excluded.value,
        return = excluded.return, risk = excluded.risk, score = excluded.score,
        created_at = now()`);
    products.add(p.product as string);
    valued++;
  };
  // A few at a time: the analyses run on the worker pool while the next ones load their prices.
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, portfolios.length) }, async () => {
      while (next < portfolios.length) await valueOne(portfolios[next++]!);
    }),
  );
  for (const product of products) await updatePercentiles(db, product, asOf);
  return { date: asOf, valued, skipped };
}
