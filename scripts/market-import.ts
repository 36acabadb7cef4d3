// `npm run market:import -- <folder> [--as-of YYYY-MM-DD]`: loads market data in the documented CSV
// format (docs/market-data.md) into the configured database, in one transaction.
import path from "node:path";
import { loadConfig } from "../src/server/config.ts";
import { openDatabase } from "../src/server/db/database.ts";
import { readDataset } from "../src/server/market/dataset.ts";
import { importDataset } from "../src/server/market/import.ts";

const args = process.argv.slice(2);
const asOfIndex = args.indexOf("--as-of");
const asOf = asOfIndex >= 0 ? (args[asOfIndex + 1] ?? "") : null;
const folder = args.find((a, i) => !a.startsWith("--") && (asOfIndex < 0 || i !== asOfIndex + 1));
if (!folder) {
  console.error("usage: npm run market:import -- <folder> [--as-of YYYY-MM-DD]");
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({
  url: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, "pglite"),
});
try {
  await database.migrate();
  const started = performance.now();
  const dataset = await readDataset(path.resolve(folder), { asOf });
  const stats = await importDataset(database.db, dataset);
  console.log(
    `imported ${stats.assets} assets, ${stats.priceRows} new price rows, ${stats.macroRows} new macro rows in ${((performance.now() - started) / 1000).toFixed(1)} s; market today: ${stats.today ?? "none"}`,
  );
} catch (error) {
  const message = error instanceof Error ? error.message.slice(0, 400) : String(error);
  console.error(`import failed, nothing changed: ${message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
