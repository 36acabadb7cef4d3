import { sql } from "drizzle-orm";
import { pgArray, resultRows, type Db } from "../db/database.ts";
import { appMeta, assets } from "../db/schema.ts";
import type { Dataset, Series } from "./dataset.ts";
import { bumpMarketVersion, invalidateMarket } from "./market-view.ts";

export interface ImportStats {
  readonly assets: number;
  readonly priceRows: number;
  readonly macroRows: number;
  /** The market's "today" after the import: the latest day with a price. */
  readonly today: string | null;
}

export type MarketSource = "imported" | "simulated";

/** Rows after the last stored day only: importing the same folder again adds nothing. */
function newRows(series: Series, lastStored: string | null): { dates: string[]; values: number[] } {
  if (lastStored === null) return series;
  let i = 0;
  while (i < series.dates.length && series.dates[i]! <= lastStored) i++;
  return { dates: series.dates.slice(i), values: series.values.slice(i) };
}

/**
 * Loads a dataset into the database in one transaction: all of it or nothing. Assets are upserted;
 * prices and macro values are appended after each series' last stored day.
 */
export async function importDataset(
  db: Db,
  dataset: Dataset,
  source: MarketSource = "imported",
): Promise<ImportStats> {
  const stats = await db.transaction(async (tx) => {
    for (const a of dataset.assets) {
      const values = {
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
        sourceId: a.sourceId,
      };
      await tx
        .insert(assets)
        .values(values)
        .onConflictDoUpdate({ target: assets.symbol, set: { ...values, updatedAt: sql`now()` } });
    }
    const lastPrices = new Map(
      resultRows(
        await tx.execute(sql`select symbol, max(date)::text as last from prices group by symbol`),
      ).map((r) => [r.symbol as string, r.last as string]),
    );
    let priceRows = 0;
    for (const [symbol, series] of dataset.prices) {
      const rows = newRows(series, lastPrices.get(symbol) ?? null);
      if (rows.dates.length === 0) continue;
      await tx.execute(
        sql`insert into prices (symbol, date, close) select ${symbol}, d, c from unnest(${pgArray(rows.dates)}::date[], ${pgArray(rows.values)}::float8[]) as t(d, c)`,
      );
      priceRows += rows.dates.length;
    }
    const lastMacro = new Map(
      resultRows(
        await tx.execute(
          sql`select series, max(date)::text as last from macro_values group by series`,
        ),
      ).map((r) => [r.series as string, r.last as string]),
    );
    let macroRows = 0;
    for (const [name, series] of dataset.macro) {
      const rows = newRows(series, lastMacro.get(name) ?? null);
      if (rows.dates.length === 0) continue;
      await tx.execute(
        sql`insert into macro_values (series, date, value) select ${name}, d, v from unnest(${pgArray(rows.dates)}::date[], ${pgArray(rows.values)}::float8[]) as t(d, v)`,
      );
      macroRows += rows.dates.length;
    }
    await tx
      .insert(appMeta)
      .values({ key: "market_source", value: source })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: source, updatedAt: sql`now()` } });
    // Every instance sees the new data at its next version check (docs/market-data.md).
    await bumpMarketVersion(tx);
    const today = resultRows(await tx.execute(sql`select max(date)::text as today from prices`))[0]
      ?.today as string | null;
    return { assets: dataset.assets.length, priceRows, macroRows, today: today ?? null };
  });
  invalidateMarket(db);
  return stats;
}
