// The market in memory and its clock: the default replay date (three quarters of the instruments
// priced in the 14 days before it), the replay moving one trading day per calendar day, prices
// after "today" invisible, MARKET_AS_OF, later imports moving the replay forward (never back),
// and an import on one instance seen by another.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, resultRows, type Database } from "../../src/server/db/database.ts";
import { readDataset, type Dataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import {
  configureMarket,
  defaultReplayIndex,
  marketView,
} from "../../src/server/market/market-view.ts";
import { listAssets, marketToday, priceHistory } from "../../src/server/market/repository.ts";
import { snapshotFromDataset } from "../../src/server/market/snapshot.ts";
import { loadAssets } from "../../src/server/analytics/series.ts";
import { databaseTargets } from "../support/databases.ts";

/** Weekdays from `start`, `count` of them, as ISO days. */
function weekdays(start: string, count: number): string[] {
  const out: string[] = [];
  const d = new Date(`${start}T00:00:00Z`);
  while (out.length < count) {
    const w = d.getUTCDay();
    if (w !== 0 && w !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/**
 * Four stocks over 200 weekdays from 2024-01-01: A and B trade throughout, C stops after 100
 * days, D after 60. The latest day with three of four priced in the 14 days before it is C's last
 * day plus 14 calendar days (rounded down to a trading day).
 */
function fourStocks(days = 200): Dataset {
  const all = weekdays("2024-01-01", days);
  const series = (n: number) => ({
    dates: all.slice(0, n),
    values: all.slice(0, n).map((_, i) => 100 + i),
  });
  const asset = (symbol: string) => ({
    symbol,
    name: `${symbol} Co`,
    kind: "stock",
    universe: "simAssets",
    exchange: "NYSE",
    assetClass: "equity",
    region: "usa",
    country: "US",
    currency: "USD",
    sector: "Tech",
    firstDate: all[0]!,
    lastDate: all.at(-1)!,
    sourceId: "test",
  });
  return {
    assets: ["A", "B", "C", "D"].map(asset),
    prices: new Map([
      ["A", series(days)],
      ["B", series(days)],
      ["C", series(100)],
      ["D", series(60)],
    ]),
    macro: new Map(),
  };
}

describe("the default replay date", () => {
  it("is the latest day with three quarters of the instruments priced in the 14 days before", () => {
    const s = snapshotFromDataset(fourStocks());
    const cLast = weekdays("2024-01-01", 100).at(-1)!;
    const limit = new Date(`${cLast}T00:00:00Z`);
    limit.setUTCDate(limit.getUTCDate() + 14);
    const replay = s.calendar[defaultReplayIndex(s)]!;
    const expected = weekdays("2024-01-01", 200)
      .filter((d) => d <= limit.toISOString().slice(0, 10))
      .at(-1)!;
    expect(new Date(replay * 86_400_000).toISOString().slice(0, 10)).toBe(expected);
  });

  it("is the last day when every series runs to the end", () => {
    const d = fourStocks();
    const full = { ...d, prices: new Map([...d.prices].map(([k]) => [k, d.prices.get("A")!])) };
    const s = snapshotFromDataset(full);
    expect(defaultReplayIndex(s)).toBe(s.calendar.length - 1);
  });
});

describe.each(databaseTargets)("the market clock on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let now = new Date("2026-11-24T12:00:00Z");
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    configureMarket(database.db, { now: () => now, pollMs: 0 });
  });
  afterAll(() => drop());

  it("replays imported data from the default date, one trading day per calendar day", async () => {
    // The first 150 days are imported; C ends at day 100, D at day 60.
    const data = fourStocks();
    const cut = (n: number): Dataset => ({
      ...data,
      prices: new Map(
        [...data.prices].map(([k, v]) => [
          k,
          { dates: v.dates.slice(0, n), values: v.values.slice(0, n) },
        ]),
      ),
    });
    await importDataset(database.db, cut(150));
    const view = await marketView(database.db);
    const replay = view.snapshot.calendar[defaultReplayIndex(view.snapshot)]!;
    const start = await marketToday(database.db);
    expect(start).toMatchObject({ source: "imported", assets: 4 });
    expect(start.today).toBe(new Date(replay * 86_400_000).toISOString().slice(0, 10));
    // Prices after today are invisible; C is live, D (last priced at day 60) is stale.
    const history = await priceHistory(database.db, "A", "max", start.today!);
    expect(history.dates.at(-1)).toBe(start.today);
    const live = (await listAssets(database.db, {})).map((a) => a.symbol);
    expect(live).toEqual(["A", "B", "C"]);
    const loaded = await loadAssets(database.db, ["A"], "2024-01-01");
    expect(Array.from(loaded.assets[0]!.series.dates).at(-1)).toBe(replay);

    // Three calendar days later, three trading days later.
    now = new Date(now.getTime() + 3 * 86_400_000);
    const later = await marketView(database.db);
    expect(later.todayIndex).toBe(view.todayIndex + 3);
    // Never past the data.
    now = new Date(now.getTime() + 400 * 86_400_000);
    expect((await marketView(database.db)).todayIndex).toBe(later.snapshot.calendar.length - 1);

    // A later import moves the replay forward to the new data's default date, never back.
    now = new Date("2026-11-24T12:00:00Z");
    const before = (await marketView(database.db)).todayIndex;
    await importDataset(database.db, cut(200));
    const moved = await marketView(database.db);
    expect(moved.todayIndex).toBeGreaterThanOrEqual(before);
    expect(moved.todayIndex).toBe(defaultReplayIndex(moved.snapshot));
  });

  it("keeps today fixed with MARKET_AS_OF", async () => {
    configureMarket(database.db, { now: () => now, pollMs: 0, asOf: "2024-03-15" });
    expect((await marketToday(database.db)).today).toBe("2024-03-15");
    now = new Date(now.getTime() + 10 * 86_400_000);
    expect((await marketToday(database.db)).today).toBe("2024-03-15");
    configureMarket(database.db, { now: () => now, pollMs: 0 });
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)("two instances on one PostgreSQL database", () => {
  it("see each other's imports at their next version check", async () => {
    const target = databaseTargets.find((t) => t.name === "postgres")!;
    const { database: a, drop } = await target.open();
    // A second connection pool on the same database: another instance.
    const [row] = resultRows(await a.db.execute(sql`select current_database() as name`));
    const b = await openDatabase({ url: withDatabase(pgUrl!, row!.name as string), pgliteDir: "" });
    try {
      configureMarket(b.db, { pollMs: 0 });
      expect((await marketToday(b.db)).source).toBe("empty");
      const data = fourStocks(30);
      await importDataset(a.db, data, "simulated");
      const seen = await marketToday(b.db);
      expect(seen).toMatchObject({ source: "simulated", assets: 4 });
      expect(seen.today).toBe(weekdays("2024-01-01", 30).at(-1));
    } finally {
      await b.close();
      await drop();
    }
  });
});

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const marketDir = process.env.MARKET_DATA_DIR;
describe.skipIf(!marketDir || !existsSync(path.join(marketDir, "assets.csv")))(
  "the real dataset's replay date",
  () => {
    it("offers about 200 of the 227 instruments live", async () => {
      const s = snapshotFromDataset(await readDataset(marketDir!));
      const k = defaultReplayIndex(s);
      const day = s.calendar[k]!;
      let live = 0;
      for (let i = 0; i < s.assets.length; i++)
        if (
          s.first[i]! >= 0 &&
          s.calendar[s.first[i]!]! <= day &&
          s.calendar[s.last[i]!]! >= day - 14
        )
          live++;
      expect(s.assets.length).toBe(227);
      expect(live).toBeGreaterThanOrEqual(Math.ceil(0.75 * 227));
      expect(live).toBeGreaterThanOrEqual(190);
      // The last series end in 2026; the replay starts well inside the data.
      expect(k).toBeLessThan(s.calendar.length - 1);
    });
  },
);

describe("a reload of the market", () => {
  it("is waited for: no request gets the previous snapshot once a newer version is being loaded", async () => {
    // PGlite runs its queries one after another, so a query sent after the reload's version check
    // answers only once that check is done and the reload is loading the prices.
    const { database, drop } = await databaseTargets.find((t) => t.name === "pglite")!.open();
    try {
      configureMarket(database.db, { pollMs: 60_000 });
      expect((await marketView(database.db)).source).toBe("empty");
      await importDataset(database.db, fourStocks(30), "simulated");
      const reloading = marketView(database.db);
      await database.db.execute(sql`select 1`);
      const during = await marketView(database.db);
      expect(during.source).toBe("simulated");
      expect(during.snapshot.assets).toHaveLength(4);
      expect((await reloading).snapshot).toBe(during.snapshot);
    } finally {
      await drop();
    }
  });
});
