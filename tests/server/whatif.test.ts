// The what-if API: custom shocks, real scenarios and backtests of an unsaved portfolio, on both
// databases, reproduced with the engine from the same inputs; and, on the real dataset, the
// README's 2008 move of the S&P 500 and the numpy reference of a factor-proxy replay.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WhatIfResponse } from "../../src/contract/analytics.ts";
import { decode } from "../../src/contract/decode.ts";
import { backtest } from "../../src/engine/backtest.ts";
import { dayNumber, indexOnOrBefore } from "../../src/engine/dates.ts";
import { lastObservations } from "../../src/engine/panel.ts";
import { alignReturns } from "../../src/engine/returns.ts";
import { applyShocks } from "../../src/engine/whatif/shocks.ts";
import { factorChanges } from "../../src/engine/whatif/factors.ts";
import { factorSensitivities } from "../../src/engine/whatif/sensitivities.ts";
import { loadFactors } from "../../src/server/analytics/factors.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { loadAssets, loadFx } from "../../src/server/analytics/series.ts";
import { whatIfKind } from "../../src/server/analytics/whatif.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { createLogger } from "../../src/server/logger.ts";
import { readDataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { advancedSession, databaseTargets } from "../support/databases.ts";

function appFor(database: Database, pool: AnalyticsPool) {
  const app = createApp({
    config: loadConfig({}),
    database,
    logger: createLogger("silent"),
    version: "test",
    mailer: { kind: "outbox", send: async () => {} },
    botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
    pool,
  });
  const token = advancedSession(database);
  return async (body: unknown) =>
    app.request("/api/analytics/what-if", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${await token}` },
      body: JSON.stringify(body),
    });
}

async function decoded(res: Response) {
  const json = await res.json();
  const d = decode(WhatIfResponse, json);
  if (!d.ok) throw new Error(`not a WhatIfResponse: ${JSON.stringify(json).slice(0, 400)}`);
  return d.value;
}

describe("what-if type priority (specification: backtesting, then real scenario, then custom)", () => {
  const base = { currency: "EUR" as const, assets: [{ symbol: "KO", investedAmount: 1 }] };
  it("picks the kind by priority", () => {
    expect(whatIfKind({ ...base, backTesting: "1y", scenarioType: 0, shocks: { dRV: -0.1 } })).toBe(
      "backtest",
    );
    expect(whatIfKind({ ...base, scenarioType: 0, shocks: { dRV: -0.1 } })).toBe("scenario");
    expect(whatIfKind({ ...base, backTesting: null, scenarioType: 0 })).toBe("scenario");
    expect(whatIfKind({ ...base, scenarioType: null, shocks: { dRV: -0.1 } })).toBe("custom");
    expect(whatIfKind(base)).toBe("custom");
  });
});

describe.each(databaseTargets)("what-if API on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  let post: ReturnType<typeof appFor>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(database.db, simulatedDataset({ end: "2026-11-20" }), "simulated");
    pool = createAnalyticsPool(2);
    post = appFor(database, pool);
  });
  afterAll(async () => {
    await pool.close();
    await drop();
  });

  const assets = [
    { symbol: "AAPL", investedAmount: 6000 },
    { symbol: "SAN.MC", investedAmount: 3000 },
    { symbol: "TLT", investedAmount: 1000 },
  ];

  it("a custom shock equals the engine's betas times the shocks for the same inputs", async () => {
    const shocks = { dRV: -0.2, dRF: 1, dCrypto: null };
    const body = await decoded(await post({ currency: "EUR", assets, shocks }));
    if (body.kind !== "custom") throw new Error(body.kind);
    // Reproduce: the same prices, factor series, window and regression, by hand.
    const symbols = assets.map((a) => a.symbol);
    const loaded = await loadAssets(database.db, symbols, "1900-01-01");
    const fx = await loadFx(database.db, "1900-01-01");
    const aligned = alignReturns(
      loaded.assets.map((a) => a.series),
      { currency: "EUR", fx: fx! },
    );
    const days = Math.min(1260, aligned.panel.observations);
    const dates = aligned.dates.subarray(aligned.dates.length - days - 1);
    const factors = await loadFactors(database.db, "EUR");
    const sens = factorSensitivities(
      lastObservations(aligned.panel, days),
      factorChanges(factors.series, dates),
    );
    const direct = applyShocks(
      sens,
      Float64Array.from(assets, (a) => a.investedAmount),
      shocks,
    );
    expect(body.totalChange).toBeCloseTo(direct.totalChange, 8);
    body.assets.forEach((a, i) => expect(a.change).toBeCloseTo(direct.assetChanges[i]!, 8));
    expect(body.sensitivities.periods).toBe(sens.periods);
    expect(body.sources).toEqual([
      { factor: "market", series: "STOXX50E_INDEX" },
      { factor: "rates", series: "DE10Y" },
      { factor: "crypto", series: "BTC-USD" },
      { factor: "commodities", series: "DBC" },
      { factor: "inflation", series: "EA_HICP" },
    ]);
    // Stocks move with the market (positive betas), long bonds lose when yields rise.
    expect(body.assets[0]!.betas.market).toBeGreaterThan(0.3);
    expect(body.assets[2]!.betas.rates).toBeLessThan(0);
    expect(body.totalChange).toBeLessThan(0);
    expect(body.simulated).toBe(true);
  });

  it("a custom what-if without a non-null shock is refused with its own msgCode", async () => {
    for (const shocks of [undefined, {}, { dRV: null, inflation: null }]) {
      const res = await post({ currency: "EUR", assets, ...(shocks ? { shocks } : {}) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ msgCode: "WHATIF_NEEDS_SHOCK" });
    }
  });

  it("refuses out-of-range scenario types, shocks and backtest ids", async () => {
    for (const bad of [
      { scenarioType: 4 },
      { scenarioType: -1 },
      { shocks: { dRV: -1.5 } },
      { shocks: { dRF: 50 } },
      { backTesting: "2y" },
      { backTesting: "1y", rebalancing: "weekly" },
    ]) {
      const res = await post({ currency: "EUR", assets, ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await res.json()).toMatchObject({ msgCode: "INVALID_REQUEST" });
    }
  });

  it("replays the 2020 pandemic on each asset's prices in the portfolio currency", async () => {
    const body = await decoded(await post({ currency: "USD", assets, scenarioType: 1 }));
    if (body.kind !== "scenario") throw new Error(body.kind);
    expect(body.scenario).toEqual({
      type: 1,
      id: "pandemic-2020",
      start: "2020-02-19",
      end: "2020-03-23",
    });
    const loaded = await loadAssets(database.db, ["AAPL"], "1900-01-01");
    const s = loaded.assets[0]!.series;
    const at = (iso: string) => {
      let k = s.dates.length - 1;
      while (s.dates[k]! > dayNumber(iso)) k--;
      return s.prices[k]!;
    };
    expect(body.assets[0]!.method).toBe("history");
    expect(body.assets[0]!.return).toBeCloseTo(at("2020-03-23") / at("2020-02-19") - 1, 12);
    expect(body.totalChange).toBeCloseTo(
      body.assets.reduce((sum, a) => sum + a.change, 0),
      8,
    );
    expect(body.sensitivities).toBeNull();
    // No asset needed a proxy, and still every factor's move over the window is given: the
    // market's is the S&P 500's close at the end over its close at the start (daily changes
    // compound to that ratio), from the dataset's own closes.
    const index = (await loadAssets(database.db, ["GSPC_INDEX"], "1900-01-01")).assets[0]!.series;
    const close = (iso: string) => {
      let k = index.dates.length - 1;
      while (index.dates[k]! > dayNumber(iso)) k--;
      return index.prices[k]!;
    };
    expect(body.factorMoves.market).toBeCloseTo(close("2020-03-23") / close("2020-02-19") - 1, 12);
    // Every factor with a value on or before the start has its move; the others have none.
    expect(Object.keys(body.factorMoves)).toEqual(expect.arrayContaining(["market", "rates"]));
    const named = body.sources.map((x) => x.factor as string);
    expect(Object.keys(body.factorMoves).every((f) => named.includes(f))).toBe(true);
  });

  it("gives the scenario's value path: from the amount invested to the amount plus the change", async () => {
    const body = await decoded(
      await post({
        currency: "USD",
        assets: [{ symbol: "AAPL", investedAmount: 6000 }],
        scenarioType: 1,
      }),
    );
    if (body.kind !== "scenario" || !body.path) throw new Error("no scenario path");
    const { dates, values } = body.path;
    expect(dates[0]).toBe("2020-02-19");
    expect(dates.at(-1)).toBe("2020-03-23");
    expect(values).toHaveLength(dates.length);
    expect(values[0]).toBeCloseTo(6000, 8);
    expect(values.at(-1)).toBeCloseTo(6000 + body.totalChange, 8);
    // One asset with prices over the window: its value follows its closes.
    const s = (await loadAssets(database.db, ["AAPL"], "1900-01-01")).assets[0]!.series;
    const at = (iso: string) => {
      let k = s.dates.length - 1;
      while (s.dates[k]! > dayNumber(iso)) k--;
      return s.prices[k]!;
    };
    dates.forEach((d, j) => expect(values[j]).toBeCloseTo((6000 * at(d)) / at("2020-02-19"), 8));
  });

  it("a scenario older than the market, with nothing to rebuild it from, is refused", async () => {
    const res = await post({ currency: "EUR", assets, scenarioType: 0 });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ msgCode: "NOT_ENOUGH_HISTORY" });
  });

  it("backtests with monthly rebalancing against the market index, as the engine does", async () => {
    const request = { currency: "EUR", assets, backTesting: "1y", rebalancing: "monthly" };
    const body = await decoded(await post({ ...request, scenarioType: 2, shocks: { dRV: -1 } }));
    if (body.kind !== "backtest") throw new Error(body.kind);
    expect(body.values).toHaveLength(253);
    expect(body.dates).toHaveLength(253);
    expect(body.values[0]).toBeCloseTo(10_000, 9);
    expect(body.rebalances).toBeGreaterThanOrEqual(11);
    expect(body.benchmark?.series).toBe("STOXX50E_INDEX");
    const loaded = await loadAssets(database.db, ["AAPL", "SAN.MC", "TLT"], "1900-01-01");
    const fx = await loadFx(database.db, "1900-01-01");
    const aligned = alignReturns(
      loaded.assets.map((a) => a.series),
      { currency: "EUR", fx: fx! },
    );
    const dates = aligned.dates.slice(aligned.dates.length - 253);
    const market = (await loadFactors(database.db, "EUR")).series.find(
      (f) => f.factor === "market",
    )!;
    const direct = backtest({
      panel: lastObservations(aligned.panel, 252),
      weights: Float64Array.of(0.6, 0.3, 0.1),
      dates,
      rebalancing: "monthly",
      initialValue: 10_000,
      benchmark: factorChanges([market], dates).data,
    });
    expect(body.performance.totalReturn).toBeCloseTo(direct.performance.totalReturn, 10);
    expect(body.performance.maxDrawdown).toBeCloseTo(direct.performance.maxDrawdown, 10);
    expect(body.benchmark!.performance.totalReturn).toBeCloseTo(
      direct.benchmark!.performance.totalReturn,
      10,
    );
    expect(body.values.at(-1)).toBeCloseTo(direct.values.at(-1)!, 6);
  });

  it("backtests against the person's benchmark (issue 27): SPY's own growth in euros over the window", async () => {
    const request = { currency: "EUR", assets, backTesting: "1y", benchmarkSeries: "SPY" };
    const body = await decoded(await post(request));
    if (body.kind !== "backtest") throw new Error(body.kind);
    expect(body.benchmark).toMatchObject({ series: "SPY", chosen: true });
    expect(body.benchmark!.name).toBeTruthy();
    // By hand: SPY's close in dollars on (or before) the window's first and last days, each
    // divided by that day's EUR/USD, as a person converting the fund's prices would.
    const loaded = await loadAssets(database.db, ["AAPL", "SAN.MC", "TLT", "SPY"], "1900-01-01");
    const fx = (await loadFx(database.db, "1900-01-01"))!;
    const aligned = alignReturns(
      loaded.assets.filter((a) => a.symbol !== "SPY").map((a) => a.series),
      { currency: "EUR", fx },
    );
    const first = aligned.dates.at(-253)!;
    const last = aligned.dates.at(-1)!;
    const spy = loaded.assets.find((a) => a.symbol === "SPY")!.series;
    const inEuros = (day: number) =>
      spy.prices[indexOnOrBefore(spy.dates, day)]! / fx.rates[indexOnOrBefore(fx.dates, day)]!;
    expect(body.benchmark!.performance.totalReturn).toBeCloseTo(
      inEuros(last) / inEuros(first) - 1,
      10,
    );
    expect(body.benchmark!.values[0]).toBeCloseTo(10_000, 6);
    expect(body.benchmark!.values.at(-1)).toBeCloseTo((10_000 * inEuros(last)) / inEuros(first), 4);
    // The portfolio's own figures do not depend on what it is compared with.
    const plain = await decoded(await post({ currency: "EUR", assets, backTesting: "1y" }));
    if (plain.kind !== "backtest") throw new Error(plain.kind);
    expect(body.values).toEqual(plain.values);
    expect(body.performance).toEqual(plain.performance);
    expect(plain.benchmark).toMatchObject({ series: "STOXX50E_INDEX", chosen: false });
  });

  it("a chosen benchmark no longer in the data backtests against the market of the currency", async () => {
    const body = await decoded(
      await post({ currency: "EUR", assets, backTesting: "1y", benchmarkSeries: "GONE" }),
    );
    if (body.kind !== "backtest") throw new Error(body.kind);
    expect(body.benchmark).toMatchObject({ series: "STOXX50E_INDEX", chosen: false });
  });

  it("a backtest longer than the common history is refused", async () => {
    const res = await post({ currency: "EUR", assets, backTesting: "10y" });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ msgCode: "NOT_ENOUGH_HISTORY" });
  });
});

const marketDir = process.env.MARKET_DATA_DIR ? path.resolve(process.env.MARKET_DATA_DIR) : null;
describe.skipIf(!marketDir || !existsSync(path.join(marketDir, "assets.csv")))(
  "what-if API on the real dataset",
  () => {
    let database: Database;
    let drop: () => Promise<void>;
    let pool: AnalyticsPool;
    let post: ReturnType<typeof appFor>;
    let dir: string;
    beforeAll(async () => {
      // A sample of the real files: the S&P 500, a young Spanish stock and its factor series.
      dir = await mkdtemp(path.join(tmpdir(), "whatif-real-"));
      const keep = ["GSPC_INDEX", "ANE.MC", "STOXX50E_INDEX", "BRENT_USD", "EURUSD"];
      const lines = (await readFile(path.join(marketDir!, "assets.csv"), "utf8")).split("\n");
      await writeFile(
        path.join(dir, "assets.csv"),
        [lines[0], ...lines.filter((l) => keep.some((s) => l.startsWith(`${s},`)))].join("\n") +
          "\n",
      );
      await mkdir(path.join(dir, "prices"));
      await mkdir(path.join(dir, "macro"));
      for (const s of keep)
        await copyFile(
          path.join(marketDir!, "prices", `${s}.csv`),
          path.join(dir, "prices", `${s}.csv`),
        );
      for (const m of ["DE10Y", "EA_HICP"])
        await copyFile(
          path.join(marketDir!, "macro", `${m}.csv`),
          path.join(dir, "macro", `${m}.csv`),
        );
      ({ database, drop } = await databaseTargets[0]!.open());
      await importDataset(database.db, await readDataset(dir), "imported");
      pool = createAnalyticsPool(1);
      post = appFor(database, pool);
    });
    afterAll(async () => {
      await pool.close();
      await drop();
      await rm(dir, { recursive: true });
    });

    it("the 2008 crisis on a USD S&P 500 portfolio is the README's -56.8% (within 0.1 pp)", async () => {
      const body = await decoded(
        await post({
          currency: "USD",
          assets: [{ symbol: "GSPC_INDEX", investedAmount: 10_000 }],
          scenarioType: 0,
        }),
      );
      if (body.kind !== "scenario") throw new Error(body.kind);
      expect(Math.abs(body.totalReturn - -0.568)).toBeLessThan(0.001);
      expect(body.assets[0]!.method).toBe("history");
    });

    it("a stock listed after the 2020 pandemic is rebuilt from its betas, as numpy does (1e-8)", async () => {
      const reference = JSON.parse(
        readFileSync(
          path.join(import.meta.dirname, "..", "engine", "reference", "market-data.json"),
          "utf8",
        ),
      ).scenarios.proxy[0] as { symbol: string; return: number; betas: number[]; periods: number };
      expect(reference.symbol).toBe("ANE.MC");
      const body = await decoded(
        await post({
          currency: "EUR",
          assets: [{ symbol: "ANE.MC", investedAmount: 5000 }],
          scenarioType: 1,
        }),
      );
      if (body.kind !== "scenario") throw new Error(body.kind);
      expect(body.assets[0]!.method).toBe("proxy");
      expect(body.sensitivities?.periods).toBe(reference.periods);
      expect(body.sensitivities?.factors).toEqual(["market", "rates", "commodities", "inflation"]);
      const betas = body.assets[0]!.betas;
      ["market", "rates", "commodities", "inflation"].forEach((f, k) =>
        expect(Math.abs(betas[f]! - reference.betas[k]!)).toBeLessThan(
          1e-8 * Math.abs(reference.betas[k]!) + 1e-12,
        ),
      );
      expect(Math.abs(body.totalReturn - reference.return)).toBeLessThan(
        1e-8 * Math.abs(reference.return),
      );
      expect(body.missingFactors).toEqual([]);
    });
  },
);
