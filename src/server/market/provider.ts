import { sql } from "drizzle-orm";
import { resultRows, type Database } from "../db/database.ts";
import type { Logger } from "../logger.ts";
import { readDataset, type Dataset } from "./dataset.ts";
import { importDataset, type ImportStats } from "./import.ts";

/**
 * A source of daily market data. The folder import is the first implementation; an online source
 * (a vendor's API) implements the same interface and is scheduled the same way.
 */
export interface MarketDataProvider {
  readonly name: string;
  /** The data up to the latest available day (the importer keeps only days it does not have). */
  fetch(): Promise<Dataset>;
}

export const folderProvider = (folder: string, asOf: string | null = null): MarketDataProvider => ({
  name: `folder ${folder}`,
  fetch: () => readDataset(folder, { asOf }),
});

/** Advisory-lock key of the daily update: one instance runs it, the others skip. */
const UPDATE_LOCK_KEY = 727_100_002;

/** Runs one update; on PostgreSQL only the instance that holds the lock does the work. */
export async function runUpdate(
  database: Database,
  provider: MarketDataProvider,
  logger: Logger,
): Promise<ImportStats | null> {
  const data = await provider.fetch();
  // A transaction-scoped lock: taken and released on the connection of the import's transaction
  // (a session lock through the pool could be released on another connection).
  const stats = await database.db.transaction(async (tx) => {
    if (database.driver === "postgres") {
      const rows = resultRows(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${UPDATE_LOCK_KEY}) as ok`),
      );
      if (rows[0]?.ok !== true) return null;
    }
    return importDataset(tx, data);
  });
  if (stats) logger.info("market data updated", { provider: provider.name, ...stats });
  return stats;
}

/** Calls the provider once a day at `hourUtc`; returns a function that stops the schedule. */
export function scheduleDailyUpdates(options: {
  database: Database;
  provider: MarketDataProvider;
  logger: Logger;
  hourUtc: number;
  now?: () => Date;
  /** Called after an update that added prices (the daily valuation of saved portfolios). */
  onUpdated?: (stats: ImportStats) => Promise<unknown>;
}): () => void {
  const now = options.now ?? (() => new Date());
  let lastRunDay = now().toISOString().slice(0, 10);
  const timer = setInterval(() => {
    const current = now();
    const day = current.toISOString().slice(0, 10);
    if (day === lastRunDay || current.getUTCHours() < options.hourUtc) return;
    lastRunDay = day;
    runUpdate(options.database, options.provider, options.logger)
      .then(async (stats) => {
        if (stats && stats.priceRows > 0) await options.onUpdated?.(stats);
      })
      .catch((error: unknown) =>
        options.logger.error("market data update failed", {
          provider: options.provider.name,
          error,
        }),
      );
  }, 5 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
