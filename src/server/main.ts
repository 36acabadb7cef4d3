import { readFileSync } from "node:fs";
import path from "node:path";
import { createApp } from "./app.ts";
import { listen } from "./listen.ts";
import { loadConfig, mailDeliveryProblem } from "./config.ts";
import { openDatabase } from "./db/database.ts";
import { recordInstallation } from "./db/app-meta.ts";
import { createLogger } from "./logger.ts";
import { accountServices } from "./accounts/services.ts";
import { seedDemoAccounts } from "./accounts/seed.ts";
import { ensureMarketData } from "./market/startup.ts";
import { configureMarket } from "./market/market-view.ts";
import { createAnalyticsPool } from "./analytics/pool.ts";
import { valuePortfolios } from "./portfolios/valuation.ts";
import { valueBananas } from "./banana/valuation.ts";
import { syncPlans } from "./billing/catalog.ts";
import { scheduleBillingJobs } from "./billing/jobs.ts";

const bootStarted = performance.now();
const config = loadConfig();
// Without SMTP, only a loopback server may start: its emails are read in the development outbox.
const mailProblem = mailDeliveryProblem(config);
if (mailProblem) {
  console.error(mailProblem);
  process.exit(1);
}
const logger = createLogger(config.logLevel, { service: "api", edition: config.edition });
const version = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as {
    version: string;
  }
).version;

const database = await openDatabase({
  url: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, "pglite"),
  onError: (error) => logger.warn("idle database connection lost", { error }),
});
await database.migrate();
// The market clock (docs/market-data.md): a replay of imported data, or MARKET_AS_OF.
configureMarket(database.db, { speed: config.marketReplaySpeed, asOf: config.marketAsOf });
await recordInstallation(database.db);
if (config.seedDemoAccounts) {
  const created = await seedDemoAccounts(database.db, config.policyVersion);
  if (created) logger.info("demo accounts created", { count: created });
}
const { mailer, botCheck } = await accountServices(config, database, logger);
const pool = createAnalyticsPool({
  maxWaitMs: config.analyticsMaxWaitMs,
  perAccount: config.analyticsPerAccount,
});
// Saved portfolios are valued after each market update, and at start when today's row is missing.
const valueSavedPortfolios = (onlyMissing: boolean) =>
  valuePortfolios(database.db, pool, undefined, { onlyMissing, logger })
    .then((run) => {
      if (run.valued || run.skipped) logger.info("portfolios valued", { ...run });
    })
    .catch((error: unknown) => logger.error("portfolio valuation failed", { error }))
    // Banana portfolios against their monkeys and the ranking (docs/banana.md).
    .then(() => valueBananas(database.db, undefined, { logger }))
    .then((run) => {
      if (run?.valued) logger.info("banana portfolios valued", { ...run });
    })
    .catch((error: unknown) => logger.error("banana valuation failed", { error }));
const stopMarketUpdates = await ensureMarketData(config, database, logger, () =>
  valueSavedPortfolios(false),
);
void valueSavedPortfolios(true);
const app = createApp({ config, database, logger, version, mailer, botCheck, pool });
await syncPlans(database.db);
// Renewals, scheduled changes, trial ends and reconciliation of unknown outcomes: now, then every minute.
const stopBillingJobs = scheduleBillingJobs(
  app.billingDeps,
  app.billing,
  config.billingJobIntervalMs,
);
const server = listen({ fetch: app.fetch, port: config.port, hostname: config.host }, (port) => {
  logger.info("listening", {
    url: `http://${config.host}:${port}`,
    database: database.driver,
    coldStartMs: Math.round(performance.now() - bootStarted),
  });
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal });
  const timer = setTimeout(() => {
    logger.error("shutdown timed out; exiting", { timeoutMs: config.shutdownTimeoutMs });
    process.exit(1);
  }, config.shutdownTimeoutMs);
  timer.unref();
  // Stop accepting connections, let requests in flight finish, then release the database.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const http = server as unknown as {
    closeIdleConnections?: () => void;
    closeAllConnections?: () => void;
  };
  http.closeIdleConnections?.();
  const force = setTimeout(
    () => http.closeAllConnections?.(),
    Math.min(5_000, config.shutdownTimeoutMs / 2),
  );
  force.unref();
  await closed;
  stopMarketUpdates();
  stopBillingJobs();
  // Valuations that follow answers already sent (a save's first valuation) finish first.
  await app.settled();
  await pool.close();
  await database.close();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
