import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import {
  AssetView,
  MarketMovers,
  MarketOverview,
  MarketSectors,
  type MarketQuote,
} from "../../src/contract/market.ts";
import type { Database } from "../../src/server/db/database.ts";
import { isoDate } from "../../src/engine/dates.ts";
import { readDataset, type Dataset, type Series } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { defaultReplayIndex } from "../../src/server/market/market-view.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { snapshotFromDataset } from "../../src/server/market/snapshot.ts";
import { marketMovers, marketOverview } from "../../src/server/market/widgets.ts";
import { matchesEtag } from "../../src/server/market/widgets-cache.ts";
import { databaseTargets } from "../support/databases.ts";
import {
  hasMarketData,
  marketDataDir,
  openMarketApp,
  type TestApp,
} from "../support/market-app.ts";

/**
 * The markets page's answers, checked against figures recomputed here from the dataset itself
 * (ISO strings and plain arrays, not the server's snapshot or day numbers), to 1e-12.
 */

const END = "2026-11-20";
/** KO's prices stop 30 days before the end: a stale stock. */
const STALE_SYMBOL = "KO";
const STALE_FROM = "2026-10-21";

function marketDataset(upTo: string): Dataset {
  const full = simulatedDataset({ end: END });
  const prices = new Map<string, Series>();
  for (const [symbol, series] of full.prices) {
    const limit = symbol === STALE_SYMBOL ? STALE_FROM : upTo;
    const keep = series.dates.filter((d) => d <= limit).length;
    prices.set(symbol, {
      dates: series.dates.slice(0, keep),
      values: series.values.slice(0, keep),
    });
  }
  const macro = new Map<string, Series>();
  for (const [name, series] of full.macro) {
    const keep = series.dates.filter((d) => d <= upTo).length;
    macro.set(name, { dates: series.dates.slice(0, keep), values: series.values.slice(0, keep) });
  }
  return { ...full, prices, macro };
}

/** ISO day one or twelve months before, the day clamped to the month's length (string arithmetic). */
function isoMonthsBefore(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  let year = y;
  let month = m - months;
  while (month < 1) {
    month += 12;
    year -= 1;
  }
  const length = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ][month - 1]!;
  return `${year}-${String(month).padStart(2, "0")}-${String(Math.min(d, length)).padStart(2, "0")}`;
}

function expectedChanges(series: Series, points = false) {
  const n = series.values.length;
  const last = series.values[n - 1]!;
  const lastDate = series.dates[n - 1]!;
  const base = (iso: string) => {
    let found: number | null = null;
    series.dates.forEach((d, k) => {
      if (d <= iso) found = series.values[k]!;
    });
    return found as number | null;
  };
  const change = (b: number | null) => (b === null ? null : points ? last - b : last / b - 1);
  return {
    last,
    lastDate,
    day: change(series.values[n - 2]!),
    month: change(base(isoMonthsBefore(lastDate, 1))),
    ytd: change(base(`${Number(lastDate.slice(0, 4)) - 1}-12-31`)),
    year: change(base(isoMonthsBefore(lastDate, 12))),
  };
}

const close = (actual: number | null, expected: number | null) => {
  if (expected === null) expect(actual).toBeNull();
  else expect(Math.abs(actual! - expected)).toBeLessThan(1e-12);
};

function expectQuote(quote: MarketQuote, series: Series, points = false) {
  const e = expectedChanges(series, points);
  expect(quote.last).toBe(e.last);
  expect(quote.lastDate).toBe(e.lastDate);
  close(quote.changes.day, e.day);
  close(quote.changes.month, e.month);
  close(quote.changes.ytd, e.ytd);
  close(quote.changes.year, e.year);
}

describe("If-None-Match", () => {
  it("matches weakly, in lists and with *", () => {
    expect(matchesEtag('W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag("*", 'W/"abc"')).toBe(true);
    expect(matchesEtag('W/"abd"', 'W/"abc"')).toBe(false);
    expect(matchesEtag(undefined, 'W/"abc"')).toBe(false);
  });
});

describe.each(databaseTargets)("the markets page's API on $name", (target) => {
  let database: Database;
  let app: TestApp;
  let closeApp: () => Promise<void>;
  const dataset = marketDataset(END);
  const firstDay = "2026-11-19";
  beforeAll(async () => {
    ({
      database,
      app,
      close: closeApp,
    } = await openMarketApp(target, {
      datasets: [marketDataset(firstDay), dataset],
    }));
  }, 120_000);
  afterAll(() => closeApp());

  const get = async <S extends Parameters<typeof decode>[0]>(path: string, schema: S) => {
    const res = await app.request(path);
    expect(res.status).toBe(200);
    const decoded = decode(schema, await res.json());
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
    return decoded.value as S["Type"];
  };

  it("answers every widget with its last close, changes and last year of closes", async () => {
    const overview = await get("/api/market/overview", MarketOverview);
    expect(overview).toMatchObject({ today: END, source: "simulated", simulated: true });
    expect(overview.widgets.map((w) => w.id)).toEqual([
      "indices",
      "volatility",
      "currencies",
      "commodities",
      "crypto",
      "yields",
    ]);
    const widget = (id: string) => overview.widgets.find((w) => w.id === id)!;
    // The simulated market has three of the seven indices, no VIX, no Brent, no ether.
    expect(widget("indices").items.map((i) => i.quote.symbol)).toEqual([
      "GSPC_INDEX",
      "STOXX50E_INDEX",
      "IBEX_INDEX",
    ]);
    expect(widget("indices").missing).toEqual([
      "NDX_INDEX",
      "GDAXI_INDEX",
      "FCHI_INDEX",
      "FTSEMIB_INDEX",
    ]);
    expect(widget("volatility")).toMatchObject({ items: [], missing: ["VIX_INDEX"] });
    expect(widget("commodities").items.map((i) => i.quote.symbol)).toEqual(["GLD"]);
    expect(widget("crypto").missing).toEqual(["ETH-USD"]);

    for (const item of overview.widgets.flatMap((w) => w.items)) {
      const points = item.quote.kind === "rate";
      const series = points
        ? dataset.macro.get(item.quote.symbol)!
        : dataset.prices.get(item.quote.symbol)!;
      expectQuote(item.quote, series, points);
      expect(item.quote.changeUnit).toBe(points ? "points" : "relative");
      expect(item.quote.stale).toBe(false);
      // The series: every close from one year before the last day.
      const from = isoMonthsBefore(item.quote.lastDate!, 12);
      const keep = series.dates
        .map((d, k) => [d, series.values[k]!] as const)
        .filter(([d]) => d >= from);
      expect(item.series.dates).toEqual(keep.map(([d]) => d));
      expect(item.series.closes).toEqual(keep.map(([, v]) => v));
    }
    // Yields are the macro series, their changes in percentage points.
    expect(widget("yields").items.map((i) => i.quote.symbol)).toEqual(["US10Y", "DE10Y"]);
  });

  it("sends Cache-Control and an ETag, 304 for a client that has the answer", async () => {
    for (const path of [
      "/api/market/overview",
      "/api/market/movers",
      "/api/market/sectors",
      "/api/market/assets/SAN.MC?range=3m",
    ]) {
      const first = await app.request(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers.get("cache-control")).toBe(
        "public, max-age=60, stale-while-revalidate=300",
      );
      const again = await app.request(path, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      const other = await app.request(path, { headers: { "If-None-Match": 'W/"other"' } });
      expect(other.status).toBe(200);
    }
    // Each answer has its own tag.
    const tags = await Promise.all(
      ["/api/market/assets/SAN.MC?range=3m", "/api/market/assets/SAN.MC?range=1y"].map(async (p) =>
        (await app.request(p)).headers.get("etag"),
      ),
    );
    expect(tags[0]).not.toBe(tags[1]);
  });

  it("changes the ETag when an import brings a new day", async () => {
    const before = (await app.request("/api/market/overview")).headers.get("etag")!;
    const base = marketDataset(END);
    const extra = "2026-11-23";
    const spy = base.prices.get("SPY")!;
    const prices = new Map(base.prices);
    prices.set("SPY", { dates: [...spy.dates, extra], values: [...spy.values, 700] });
    await importDataset(database.db, { ...base, prices }, "simulated");
    const res = await app.request("/api/market/overview", {
      headers: { "If-None-Match": before },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).not.toBe(before);
    const overview = decode(MarketOverview, await res.json());
    expect(overview.ok && overview.value.today).toBe(extra);
  });

  it("ranks each exchange's gainers and losers over the day, the month and the year to date", async () => {
    const movers = await get("/api/market/movers", MarketMovers);
    expect(movers.simulated).toBe(true);
    const stocks = dataset.assets.filter((a) => a.kind === "stock");
    const exchanges = [...new Set(stocks.map((s) => s.exchange!))];
    expect(movers.exchanges.map((e) => e.exchange).sort()).toEqual(exchanges.sort());
    for (const lists of movers.exchanges) {
      const live = stocks.filter((s) => s.exchange === lists.exchange && s.symbol !== STALE_SYMBOL);
      expect(lists.count).toBe(live.length);
      for (const period of ["day", "month", "ytd"] as const) {
        const changes = live
          .map((s) => ({
            symbol: s.symbol,
            change: expectedChanges(dataset.prices.get(s.symbol)!)[period]!,
          }))
          .sort((a, b) => b.change - a.change);
        const gainers = changes.filter((c) => c.change > 0).slice(0, 5);
        const losers = changes
          .filter((c) => c.change < 0)
          .reverse()
          .slice(0, 5);
        expect(lists[period].gainers.map((g) => g.symbol)).toEqual(gainers.map((g) => g.symbol));
        expect(lists[period].losers.map((g) => g.symbol)).toEqual(losers.map((g) => g.symbol));
        lists[period].gainers.forEach((g, k) => close(g.change, gainers[k]!.change));
        lists[period].losers.forEach((g, k) => close(g.change, losers[k]!.change));
      }
    }
    // The stale stock is in no list.
    const all = movers.exchanges.flatMap((e) =>
      (["day", "month", "ytd"] as const).flatMap((p) => [...e[p].gainers, ...e[p].losers]),
    );
    expect(all.some((m) => m.symbol === STALE_SYMBOL)).toBe(false);
  });

  it("averages each sector's changes over its stocks, overall and per region", async () => {
    const sectors = await get("/api/market/sectors", MarketSectors);
    expect(sectors.regions.map((r) => r.region)).toEqual(["all", "eu", "usa"]);
    const live = dataset.assets.filter((a) => a.kind === "stock" && a.symbol !== STALE_SYMBOL);
    for (const { region, sectors: rows } of sectors.regions) {
      const inRegion = live.filter((a) => region === "all" || a.region === region);
      expect(rows.map((r) => r.sector)).toEqual(
        [...new Set(inRegion.map((a) => a.sector!))].sort(),
      );
      for (const row of rows) {
        const members = inRegion.filter((a) => a.sector === row.sector);
        expect(row.count).toBe(members.length);
        for (const period of ["day", "month", "ytd", "year"] as const) {
          const values = members.map(
            (a) => expectedChanges(dataset.prices.get(a.symbol)!)[period]!,
          );
          close(row[period], values.reduce((s, x) => s + x, 0) / values.length);
        }
      }
    }
  });

  it("opens an asset: its history per range, volatilities, currency, exchange and staleness", async () => {
    const view = await get("/api/market/assets/SAN.MC?range=6m", AssetView);
    const series = dataset.prices.get("SAN.MC")!;
    expect(view).toMatchObject({ today: "2026-11-23", simulated: true });
    expect(view.asset).toMatchObject({ currency: "EUR", exchange: "BME", stale: false });
    expectQuote(view.quote, series);
    const from = isoMonthsBefore(END, 6);
    expect(view.history.dates[0]).toBe(series.dates.find((d) => d >= from));
    expect(view.history.closes.at(-1)).toBe(series.values.at(-1));
    // Annualised volatility of the last 21 and 252 daily log returns, √252, sample variance.
    for (const [window, days] of [
      [1, 21],
      [4, 252],
    ] as const) {
      const closes = series.values.slice(-(days + 1));
      const r = closes.slice(1).map((c, k) => Math.log(c / closes[k]!));
      const m = r.reduce((s, x) => s + x, 0) / r.length;
      const vol = Math.sqrt((r.reduce((s, x) => s + (x - m) ** 2, 0) / (r.length - 1)) * 252);
      expect(Math.abs(view.volatilities[window]! - vol)).toBeLessThan(1e-12);
    }

    const stale = await get("/api/market/assets/KO?range=1m", AssetView);
    expect(stale.asset.stale).toBe(true);
    expect(stale.quote).toMatchObject({ stale: true, lastDate: STALE_FROM });

    // A yield of the simulated market (a macro series): changes in points, no volatilities.
    const us10 = await get("/api/market/assets/US10Y?range=max", AssetView);
    expect(us10.asset).toMatchObject({ kind: "rate", currency: "USD", universe: "market" });
    expectQuote(us10.quote, dataset.macro.get("US10Y")!, true);
    expect(us10.history.closes).toEqual(dataset.macro.get("US10Y")!.values);
    expect(us10.volatilities[1]).toBeNull();

    expect((await app.request("/api/market/assets/NOPE")).status).toBe(404);
    expect((await app.request("/api/market/assets/SAN.MC?range=2w")).status).toBe(400);
  });
});

describe.skipIf(!hasMarketData)("the markets page on the real dataset", () => {
  it("fills the widgets from the real instruments, with changes recomputed from the CSV files", async () => {
    const dataset = await readDataset(marketDataDir!);
    const snapshot = snapshotFromDataset(dataset);
    const todayIndex = defaultReplayIndex(snapshot);
    const today = isoDate(snapshot.calendar[todayIndex]!);
    // The replay date of the real dataset (docs/market-data.md, "Market clock").
    expect(today).toBe("2024-05-31");
    const view = { snapshot, todayIndex, today, source: "imported" as const };
    const overview = marketOverview(view);
    const symbols = (id: string) =>
      overview.widgets.find((w) => w.id === id)!.items.map((i) => i.quote.symbol);
    expect(symbols("indices")).toEqual([
      "GSPC_INDEX",
      "NDX_INDEX",
      "STOXX50E_INDEX",
      "IBEX_INDEX",
      "GDAXI_INDEX",
      "FCHI_INDEX",
    ]);
    expect(overview.widgets.find((w) => w.id === "indices")!.missing).toEqual(["FTSEMIB_INDEX"]);
    expect(symbols("volatility")).toEqual(["VIX_INDEX"]);
    expect(symbols("commodities")).toEqual(["GOLD_USD", "BRENT_USD"]);
    expect(symbols("crypto")).toEqual(["BTC-USD"]);
    expect(symbols("yields")).toEqual(["US10Y", "DE10Y"]);
    // Each quote against the CSV rows up to the replay date.
    for (const item of overview.widgets.flatMap((w) => w.items)) {
      const all = dataset.prices.get(item.quote.symbol)!;
      const keep = all.dates.filter((d) => d <= today).length;
      const series = { dates: all.dates.slice(0, keep), values: all.values.slice(0, keep) };
      expectQuote(item.quote, series, item.quote.kind === "rate");
    }
    // Figures computed with numpy from the CSV files (last close, then day, month, ytd, year).
    const numpy: Record<string, readonly number[]> = {
      GSPC_INDEX: [
        5277.51, 0.008027917211029578, 0.04802122449952262, 0.10643565913250574, 0.2626135512688317,
      ],
      IBEX_INDEX: [
        11322.0, -0.0014287982219400863, 0.04307930424528306, 0.12075707031211325,
        0.25102207686017985,
      ],
      US10Y: [4.514, -0.04, -0.172, 0.648, 0.877],
      "BTC-USD": [
        68356.0, 0.011991827791431042, 0.07139386529991687, 0.6211549863630974, 1.4682602729833176,
      ],
    };
    for (const [symbol, [last, day, month, ytd, year]] of Object.entries(numpy)) {
      const q = overview.widgets
        .flatMap((w) => w.items)
        .find((i) => i.quote.symbol === symbol)!.quote;
      expect(q.last).toBe(last);
      const got = [q.changes.day, q.changes.month, q.changes.ytd, q.changes.year];
      [day, month, ytd, year].forEach((e, k) => expect(Math.abs(got[k]! - e!)).toBeLessThan(1e-9));
    }
    // The six NYSE stocks that end in 2022 are stale on 2024-05-31: in no list of movers.
    const movers = marketMovers(view);
    const nyse = movers.exchanges.find((e) => e.exchange === "NYSE")!;
    expect(nyse.count).toBe(14);
    const listed = movers.exchanges.flatMap((e) =>
      (["day", "month", "ytd"] as const).flatMap((p) =>
        [...e[p].gainers, ...e[p].losers].map((m) => m.symbol),
      ),
    );
    for (const symbol of ["CVX", "LLY", "MRK", "WMT", "GE", "BBY"])
      expect(listed).not.toContain(symbol);
  }, 120_000);
});
