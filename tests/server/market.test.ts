import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import { AssetDetail, AssetList, MarketToday } from "../../src/contract/market.ts";
import type { Database } from "../../src/server/db/database.ts";
import { ImportError } from "../../src/server/market/csv.ts";
import { readDataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets } from "../support/databases.ts";
import {
  hasMarketData,
  marketDataDir,
  openMarketApp,
  sampleOfMarketData,
  type TestApp,
} from "../support/market-app.ts";

const HEADER =
  "symbol,name,kind,universe,exchange,asset_class,region,country,currency,sector,first_date,last_date,source_id";

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "market-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

const twoAssets = {
  "assets.csv": `${HEADER}\nAAA,"Alpha, Inc.",stock,simAssets,NYSE,equity,usa,US,USD,Tech,2024-01-01,2024-01-05,t\nBBB,Beta,stock,simAssets,XETRA,equity,eu,DE,EUR,Industrials,2024-01-01,2024-01-03,t\n`,
  "prices/AAA.csv":
    "date,close\n2024-01-01,10\n2024-01-02,11\n2024-01-03,12\n2024-01-04,11.5\n2024-01-05,12.5\n",
  "prices/BBB.csv": "date,close\n2024-01-01,50\n2024-01-02,51\n2024-01-03,49\n",
};

describe("reading the import format", () => {
  it.each([
    [
      { "prices/AAA.csv": "date,close\n2024-01-01,10\n2024-01-02,abc\n" },
      'prices/AAA.csv:3: invalid number "abc"',
    ],
    [
      { "prices/AAA.csv": "date,close\n2024-01-02,10\n2024-01-01,11\n" },
      "prices/AAA.csv:3: date 2024-01-01 is not after 2024-01-02",
    ],
    [
      { "prices/AAA.csv": "date,close\n2024-01-01,-3\n" },
      "prices/AAA.csv:2: price must be positive",
    ],
    [{ "prices/AAA.csv": "day,close\n" }, "prices/AAA.csv:1: expected the header"],
    [{ "prices/BBB.csv": undefined }, "prices/BBB.csv: missing"],
    [
      { "assets.csv": `${HEADER}\nAAA,A,bond,simAssets,,,,,USD,,2024-01-01,2024-01-02,t\n` },
      'assets.csv:2: unknown kind "bond"',
    ],
    [
      { "assets.csv": `${HEADER}\nAAA,A,stock,simAssets,,,,,GBP,,2024-01-01,2024-01-02,t\n` },
      "assets.csv:2: a stock must be in EUR or USD",
    ],
  ])("names the file and line of a problem (%#)", async (changes, message) => {
    const files: Record<string, string> = { ...twoAssets };
    for (const [name, content] of Object.entries(changes)) {
      if (content === undefined) delete files[name];
      else files[name] = content;
    }
    const dir = await folder(files);
    const error = await readDataset(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toContain(message);
    await rm(dir, { recursive: true });
  });

  it("keeps only rows up to --as-of and reads quoted names", async () => {
    const dir = await folder(twoAssets);
    const dataset = await readDataset(dir, { asOf: "2024-01-02" });
    expect(dataset.prices.get("AAA")?.dates).toEqual(["2024-01-01", "2024-01-02"]);
    expect(dataset.assets[0]?.name).toBe("Alpha, Inc.");
    await rm(dir, { recursive: true });
  });
});

describe.each(databaseTargets)("market data on $name", (target) => {
  let database: Database;
  let app: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, app, close } = await openMarketApp(target));
  });
  afterAll(() => close());

  it("imports all or nothing, then only new days, and moves today forward", async () => {
    const dir = await folder(twoAssets);
    const first = await importDataset(database.db, await readDataset(dir, { asOf: "2024-01-03" }));
    expect(first).toMatchObject({ assets: 2, priceRows: 6, today: "2024-01-03" });
    const again = await importDataset(database.db, await readDataset(dir, { asOf: "2024-01-03" }));
    expect(again.priceRows).toBe(0);
    const later = await importDataset(database.db, await readDataset(dir));
    expect(later).toMatchObject({ priceRows: 2, today: "2024-01-05" });
    // A failing statement inside the transaction leaves nothing behind.
    const broken = await readDataset(dir);
    const bad = {
      ...broken,
      prices: new Map([
        [
          "AAA",
          {
            dates: [...broken.prices.get("AAA")!.dates, "2024-01-08"],
            values: [...broken.prices.get("AAA")!.values, 13],
          },
        ],
        ["ZZZ", { dates: ["2024-01-08"], values: [1] }],
      ]),
    };
    await expect(importDataset(database.db, bad)).rejects.toThrow();
    const today = decode(MarketToday, await (await app.request("/api/market/today")).json());
    expect(today.ok && today.value).toEqual({ today: "2024-01-05", source: "imported", assets: 2 });
    await rm(dir, { recursive: true });
  });

  it("lists assets by product and flags stale ones", async () => {
    const all = decode(
      AssetList,
      await (await app.request("/api/market/assets?product=simAssets&includeStale=true")).json(),
    );
    expect(all.ok).toBe(true);
    if (!all.ok) return;
    const bbb = all.value.assets.find((a) => a.symbol === "BBB");
    // BBB's last price (2024-01-03) is 2 days before today: not stale. The threshold is 14 days.
    expect(bbb?.stale).toBe(false);
    const eu = decode(
      AssetList,
      await (await app.request("/api/market/assets?product=simMonk&region=eu")).json(),
    );
    expect(eu.ok && eu.value.assets.map((a) => a.symbol)).toEqual(["BBB"]);
    const search = decode(AssetList, await (await app.request("/api/market/assets?q=alph")).json());
    expect(search.ok && search.value.assets.map((a) => a.symbol)).toEqual(["AAA"]);
    expect((await app.request("/api/market/assets?product=bonds")).status).toBe(400);
  });

  it("answers an asset's history and volatility, and 404 for an unknown one", async () => {
    const res = await app.request("/api/market/assets/AAA?range=max");
    const detail = decode(AssetDetail, await res.json());
    expect(detail.ok).toBe(true);
    if (!detail.ok) return;
    expect(detail.value.history.closes).toEqual([10, 11, 12, 11.5, 12.5]);
    // Five prices: not enough for the 1-month window (22 prices).
    expect(detail.value.volatilities[1]).toBeNull();
    expect((await app.request("/api/market/assets/NOPE")).status).toBe(404);
    expect((await app.request("/api/market/assets/AAA?range=2w")).status).toBe(400);
  });
});

describe("the simulated market", () => {
  it("is the same for the same seed and realistic in its volatility", () => {
    const a = simulatedDataset({ end: "2026-11-20" });
    const b = simulatedDataset({ end: "2026-11-20" });
    expect(a.prices.get("AAPL")?.values).toEqual(b.prices.get("AAPL")?.values);
    expect(a.prices.get("AAPL")?.dates.at(-1)).toBe("2026-11-20");
    const closes = a.prices.get("SPY")!.values;
    const logs = closes.slice(1).map((c, i) => Math.log(c / closes[i]!));
    const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
    const vol = Math.sqrt(
      (logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (logs.length - 1)) * 252,
    );
    // SPY is specified at 17% a year; eight years of samples land within 2 points.
    expect(vol).toBeGreaterThan(0.15);
    expect(vol).toBeLessThan(0.19);
    expect(a.assets.map((x) => x.universe)).toEqual(
      expect.arrayContaining(["simAssets", "simIndices", "market"]),
    );
  });
});

describe.skipIf(!hasMarketData)("the real dataset", () => {
  it("imports a sample of real files and matches the published spot checks", async () => {
    const dir = await sampleOfMarketData(["GSPC_INDEX", "IBEX_INDEX", "EURUSD"], "real-");
    const dataset = await readDataset(dir);
    const at = (symbol: string, day: string) => {
      const series = dataset.prices.get(symbol)!;
      return series.values[series.dates.indexOf(day)];
    };
    // Spot checks published with the dataset (README "Spot checks").
    expect(at("GSPC_INDEX", "2008-10-09")).toBeCloseTo(909.92, 2);
    expect(at("GSPC_INDEX", "2020-03-23")).toBeCloseTo(2237.4, 1);
    expect(at("IBEX_INDEX", "2020-03-16")).toBeCloseTo(6107.2, 1);
    expect(at("EURUSD", "2022-09-27")).toBeCloseTo(0.962, 3);
    await rm(dir, { recursive: true });
  });
});
if (!marketDataDir)
  console.info("MARKET_DATA_DIR is not set: the tests on the real dataset are skipped.");
