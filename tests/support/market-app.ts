// The set-up of the API tests over a market (analytics, simulator, education, markets, portfolios):
// an app with no mail and no captcha on a fresh database with a dataset imported, and the
// real dataset's files ($MARKET_DATA_DIR) for the tests that check against it.
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Mailer } from "../../src/server/accounts/mailer.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { createLogger } from "../../src/server/logger.ts";
import type { Dataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { apiAgent, type ApiAgent } from "./accounts.ts";
import type { TestDatabaseTarget } from "./databases.ts";

export type TestApp = ReturnType<typeof createApp>;

/** The pool of an app whose tests run no analytics task: a task run is refused. */
export const unusedPool: AnalyticsPool = {
  run: async () => Promise.reject(new Error("unused")),
  useSnapshot: () => {},
  close: async () => {},
};

export interface TestAppOptions {
  /** The environment the configuration is read from (nothing set: the defaults). */
  readonly env?: Record<string, string>;
  /** Whether the bot check lets every answer through (by default none passes). */
  readonly captchaPasses?: boolean;
  /** Where emails go (by default an outbox that keeps nothing). */
  readonly mailer?: Mailer;
}

/** The app over `database` and `pool`: a silent logger, an outbox that keeps nothing, a bot check that asks nothing. */
export function testApp(
  database: Database,
  pool: AnalyticsPool = unusedPool,
  options: TestAppOptions = {},
): TestApp {
  const passes = options.captchaPasses ?? false;
  return createApp({
    config: loadConfig(options.env ?? {}),
    database,
    logger: createLogger("silent"),
    version: "test",
    mailer: options.mailer ?? { kind: "outbox", send: async () => {} },
    botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => passes },
    pool,
  });
}

export interface MarketApp {
  readonly database: Database;
  readonly pool: AnalyticsPool;
  readonly app: TestApp;
  /** Calls the app's API with no network address, as the app's own `request` does. */
  readonly api: ApiAgent;
  /** Stops the pool's workers and drops the database. */
  close(): Promise<void>;
}

/**
 * A fresh database of `target` with `datasets` imported in turn (as the simulated source), a pool
 * of `workers` analytics workers (none: `unusedPool`) and the app over them.
 */
export async function openMarketApp(
  target: TestDatabaseTarget,
  options: TestAppOptions & { datasets?: readonly Dataset[]; workers?: number } = {},
): Promise<MarketApp> {
  const { database, drop } = await target.open();
  for (const dataset of options.datasets ?? [])
    await importDataset(database.db, dataset, "simulated");
  const pool = options.workers ? createAnalyticsPool(options.workers) : unusedPool;
  const app = testApp(database, pool, options);
  return {
    database,
    pool,
    app,
    api: apiAgent(app, null),
    close: async () => {
      // Saves are answered before their valuation: the ones still running end first.
      await app.settled();
      await pool.close();
      await drop();
    },
  };
}

/** The real dataset's folder ($MARKET_DATA_DIR), or null: the tests on it are skipped without it. */
export const marketDataDir: string | null = process.env.MARKET_DATA_DIR
  ? path.resolve(process.env.MARKET_DATA_DIR)
  : null;
/** Whether $MARKET_DATA_DIR holds a dataset. */
export const hasMarketData: boolean =
  marketDataDir !== null && existsSync(path.join(marketDataDir, "assets.csv"));

/**
 * A new temporary folder in the import format with only the `keep` instruments of the real
 * dataset: their rows of assets.csv and their price files. The caller removes it.
 */
export async function sampleOfMarketData(keep: readonly string[], prefix: string): Promise<string> {
  if (!marketDataDir) throw new Error("MARKET_DATA_DIR is not set");
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const lines = (await readFile(path.join(marketDataDir, "assets.csv"), "utf8")).split("\n");
  await writeFile(
    path.join(dir, "assets.csv"),
    [lines[0], ...lines.filter((l) => keep.some((s) => l.startsWith(`${s},`)))].join("\n") + "\n",
  );
  await mkdir(path.join(dir, "prices"));
  for (const s of keep)
    await copyFile(
      path.join(marketDataDir, "prices", `${s}.csv`),
      path.join(dir, "prices", `${s}.csv`),
    );
  return dir;
}
