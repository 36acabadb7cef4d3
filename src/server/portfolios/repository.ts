import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Holding } from "../../contract/analytics.ts";
import type { Product } from "../../contract/common.ts";
import type {
  AssetGroup,
  Portfolio,
  PortfolioAsset,
  Valuation,
  WizardAnswers,
} from "../../contract/portfolios.ts";
import type { Db } from "../db/database.ts";
import { portfolioAssets, portfolios, portfolioValuations } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { assetFacts, isFund, isStale, type AssetFacts, type VolatilityLookup } from "./assets.ts";

export type PortfolioRow = typeof portfolios.$inferSelect;
export type ValuationRow = typeof portfolioValuations.$inferSelect;

/** A stored holding: the one shape of a holding (issue 26), as the analytics requests take it. */
export type { Holding };

export interface StoredPortfolio {
  readonly row: PortfolioRow;
  readonly holdings: readonly Holding[];
}

/** A portfolio of the client, or 404: another client's portfolio does not exist for this one. */
export async function ownPortfolio(db: Db, clientId: number, id: number): Promise<StoredPortfolio> {
  const [row] = await db
    .select()
    .from(portfolios)
    .where(and(eq(portfolios.id, id), eq(portfolios.clientId, clientId)));
  if (!row) throw new ApiFailure(404, "NOT_FOUND");
  return { row, holdings: (await holdingsOf(db, [id])).get(id) ?? [] };
}

export async function holdingsOf(db: Db, ids: readonly number[]): Promise<Map<number, Holding[]>> {
  const out = new Map<number, Holding[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select()
    .from(portfolioAssets)
    .where(inArray(portfolioAssets.portfolioId, [...ids]))
    .orderBy(asc(portfolioAssets.portfolioId), asc(portfolioAssets.position));
  for (const r of rows) {
    const list = out.get(r.portfolioId) ?? [];
    list.push({ symbol: r.symbol, investedAmount: r.investedAmount });
    out.set(r.portfolioId, list);
  }
  return out;
}

/** The client's portfolios of a product, newest first. */
export async function clientPortfolios(
  db: Db,
  clientId: number,
  product: Product,
): Promise<StoredPortfolio[]> {
  const rows = await db
    .select()
    .from(portfolios)
    .where(and(eq(portfolios.clientId, clientId), eq(portfolios.product, product)))
    .orderBy(desc(portfolios.createdAt), desc(portfolios.id));
  const holdings = await holdingsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ row, holdings: holdings.get(row.id) ?? [] }));
}

/** The latest valuation of each portfolio. */
export async function latestValuations(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, ValuationRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([portfolioValuations.portfolioId])
    .from(portfolioValuations)
    .where(inArray(portfolioValuations.portfolioId, [...ids]))
    .orderBy(asc(portfolioValuations.portfolioId), desc(portfolioValuations.date));
  return new Map(rows.map((r) => [r.portfolioId, r]));
}

export async function valuationHistory(db: Db, id: number): Promise<ValuationRow[]> {
  return db
    .select()
    .from(portfolioValuations)
    .where(eq(portfolioValuations.portfolioId, id))
    .orderBy(asc(portfolioValuations.date));
}

/** Number of saved portfolios of the client for a product (for simMonk, in one region). */
export async function savedCount(
  db: Db,
  clientId: number,
  product: Product,
  region: string | null,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(portfolios)
    .where(
      and(
        eq(portfolios.clientId, clientId),
        eq(portfolios.product, product),
        eq(portfolios.saved, true),
        product === "simMonk" && region ? eq(portfolios.monkeyRegion, region) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

export function toValuation(v: ValuationRow): Valuation {
  return {
    date: v.date,
    value: v.value,
    return: v.return,
    risk: v.risk,
    score: v.score,
    communityPercentile: v.communityPercentile,
  };
}

/** Display order of the asset classes (PRODUCT.md, "Products"). */
const CLASS_ORDER = [
  "equity",
  "fixed_income",
  "commodities",
  "crypto",
  "money_market",
  "real_estate",
];

interface GroupKey {
  readonly fund: boolean;
  readonly key: string;
}

const groupKeyOf = (facts: AssetFacts | undefined): GroupKey =>
  facts && isFund(facts)
    ? { fund: true, key: facts.assetClass ?? "other" }
    : { fund: false, key: facts?.exchange ?? "other" };

/** The group an asset is shown under: its stock exchange, or its asset class for a fund. */
export const groupNameOf = (facts: AssetFacts | undefined): string => groupKeyOf(facts).key;

function compareGroups(a: GroupKey, b: GroupKey): number {
  if (a.fund !== b.fund) return a.fund ? 1 : -1;
  if (!a.fund) return a.key.localeCompare(b.key);
  const rank = (k: string) => {
    const i = CLASS_ORDER.indexOf(k);
    return i < 0 ? CLASS_ORDER.length : i;
  };
  return rank(a.key) - rank(b.key) || a.key.localeCompare(b.key);
}

export interface PortfolioView {
  readonly facts: Map<string, AssetFacts>;
  readonly today: string | null;
  readonly volatilities: Awaited<ReturnType<VolatilityLookup>>;
}

/** What the answers need about the assets of several portfolios, in two queries. */
export async function viewOf(
  db: Db,
  volatilities: VolatilityLookup,
  symbols: readonly string[],
  today: string | null,
): Promise<PortfolioView> {
  const unique = [...new Set(symbols)];
  const [facts, vols] = await Promise.all([
    assetFacts(db, unique),
    volatilities(db, unique, today),
  ]);
  return { facts, today, volatilities: vols };
}

/**
 * The contract's Portfolio: holdings grouped by stock exchange (stocks) or asset class (funds),
 * each with its share of the total and its volatilities.
 */
export function toPortfolio(
  stored: StoredPortfolio,
  view: PortfolioView,
  valuation: ValuationRow | null,
  holdings: readonly Holding[] = stored.holdings,
): Portfolio {
  const { row } = stored;
  const total = holdings.reduce((s, h) => s + h.investedAmount, 0);
  const groups = new Map<string, { key: GroupKey; assets: PortfolioAsset[] }>();
  for (const h of holdings) {
    const facts = view.facts.get(h.symbol);
    const key = groupKeyOf(facts);
    const id = `${key.fund ? "class" : "exchange"}:${key.key}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { key, assets: [] }));
    group.assets.push({
      id: h.symbol,
      name: facts?.name ?? h.symbol,
      investedAmount: h.investedAmount,
      percentage: total > 0 ? (h.investedAmount / total) * 100 : 0,
      volatilities: view.volatilities.get(h.symbol) ?? {
        1: null,
        2: null,
        3: null,
        4: null,
        5: null,
        6: null,
      },
      currency: facts?.currency ?? "EUR",
      stale: facts ? isStale(facts, view.today) : true,
    });
  }
  const assets: AssetGroup[] = [...groups.values()]
    .sort((a, b) => compareGroups(a.key, b.key))
    .map((g, i) => ({
      stockExchange: g.key.fund ? null : g.key.key,
      stockExchangeId: g.key.fund ? null : g.key.key,
      assetClass: g.key.fund ? g.key.key : null,
      assetClassId: g.key.fund ? g.key.key : null,
      position: i + 1,
      assets: g.assets,
    }));
  return {
    id: row.id,
    name: row.name,
    product: row.product as Product,
    currency: row.currency === "USD" ? "USD" : "EUR",
    benchmark: row.benchmark as Portfolio["benchmark"],
    benchmarkSeries: row.benchmarkSeries,
    assets,
    totalInvested: total,
    initialInvested: row.initialInvested,
    maxAssetsLevel: row.maxAssetsLevel,
    saved: row.saved,
    remainingEditions: row.remainingEditions,
    monkeyRegion: row.monkeyRegion === "eu" || row.monkeyRegion === "usa" ? row.monkeyRegion : null,
    answers: (row.answers as WizardAnswers | null) ?? null,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    valuation: valuation ? toValuation(valuation) : null,
  };
}
