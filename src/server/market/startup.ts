import type { ServerConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Logger } from "../logger.ts";
import { importDataset, type ImportStats } from "./import.ts";
import { folderProvider, scheduleDailyUpdates } from "./provider.ts";
import { marketToday } from "./repository.ts";
import { simulatedDataset } from "./simulated.ts";

/**
 * Gives a new database its market: the folder of MARKET_DATA_DIR when configured, otherwise the
 * deterministic simulated market. With a folder, it is re-read daily for new days.
 */
export async function ensureMarketData(
  config: ServerConfig,
  database: Database,
  logger: Logger,
  /** Called after each daily update that added prices. */
  onUpdated?: (stats: ImportStats) => Promise<unknown>,
): Promise<() => void> {
  const provider = config.marketDataDir
    ? folderProvider(config.marketDataDir, config.marketAsOf)
    : null;
  const { source } = await marketToday(database.db);
  if (source === "empty") {
    const started = performance.now();
    const stats = provider
      ? await importDataset(database.db, await provider.fetch())
      : await importDataset(
          database.db,
          simulatedDataset({ end: config.simulatedMarketEnd }),
          "simulated",
        );
    logger.info(provider ? "market data imported" : "simulated market generated", {
      ...stats,
      ms: Math.round(performance.now() - started),
    });
  }
  if (!provider || config.marketAsOf) return () => {};
  return scheduleDailyUpdates({
    database,
    provider,
    logger,
    hourUtc: config.marketUpdateHourUtc,
    ...(onUpdated ? { onUpdated } : {}),
  });
}
