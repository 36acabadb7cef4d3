// When a saved portfolio's next valuation comes (the empty monitoring of a new portfolio names it):
// on the replay clock, the next market day and the calendar moment it becomes the market's today;
// read after that moment, the history holds that day's valuation; a clock that does not move
// (MARKET_AS_OF, the simulated market) has no next day to name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoDate } from "../../src/engine/dates.ts";
import { decode } from "../../src/contract/decode.ts";
import { PortfolioHistory, type Portfolio } from "../../src/contract/portfolios.ts";
import type { Dataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { configureMarket, marketView } from "../../src/server/market/market-view.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";
import { openMarketApp, type MarketApp } from "../support/market-app.ts";

const HELD = { AAPL: 6000, "SAN.MC": 3000, TLT: 1000 };

/**
 * The simulated market imported as historical data whose series mostly end 30 trading days before
 * its last day (as delisted stocks do): the replay starts weeks before the last day, so the clock
 * has days ahead. The held assets, the indices and EUR/USD run to the end.
 */
function historicalData(): Dataset {
  const full = simulatedDataset({ end: "2026-11-20", days: 900 });
  const keep = (symbol: string) =>
    symbol in HELD || symbol === "EURUSD" || symbol.endsWith("_INDEX");
  return {
    ...full,
    prices: new Map(
      [...full.prices].map(([symbol, s]) =>
        keep(symbol)
          ? [symbol, s]
          : [symbol, { dates: s.dates.slice(0, -30), values: s.values.slice(0, -30) }],
      ),
    ),
  };
}

describe.each(databaseTargets)("the next valuation of a saved portfolio on $name", (target) => {
  let market: MarketApp;
  let clock = new Date("2026-12-01T12:00:00.000Z");
  const replay = () => configureMarket(market.database.db, { speed: 1, now: () => clock });
  beforeAll(async () => {
    market = await openMarketApp(target, { workers: 1 });
    replay();
    await importDataset(market.database.db, historicalData());
  }, 120_000);
  afterAll(async () => {
    await market.close();
  });

  it("names the next market day and when it comes, and values the portfolio on it once there", async () => {
    const { token } = await signedInClient(market.database, { simAssets: "advanced" });
    const view = await marketView(market.database.db);
    const today = view.today!;
    const tomorrow = isoDate(view.snapshot.calendar[view.todayIndex + 1]!);
    const dayAfter = isoDate(view.snapshot.calendar[view.todayIndex + 2]!);
    expect(today < "2026-11-01").toBe(true);

    const saved = await market.api.call<Portfolio>("POST", "/portfolios", {
      token,
      body: {
        name: "New",
        currency: "EUR",
        maxAssetsLevel: 2,
        assets: Object.entries(HELD).map(([id, investedAmount]) => ({ id, investedAmount })),
      },
    });
    expect(saved.status).toBe(201);
    await market.app.settled();

    const first = await market.api.call("GET", `/portfolios/${saved.body.id}/history`, { token });
    expect(first.status).toBe(200);
    expect(decode(PortfolioHistory, first.body).ok).toBe(true);
    expect(first.body.dates).toEqual([today]);
    // One trading day per calendar day from the moment the replay started.
    expect(first.body.nextValuation).toEqual({ date: tomorrow, at: "2026-12-02T12:00:00.000Z" });

    // Past that moment the market's today is that day: reading the history values it.
    clock = new Date("2026-12-02T12:05:00.000Z");
    const second = await market.api.call("GET", `/portfolios/${saved.body.id}/history`, { token });
    expect(second.body.dates).toEqual([today, tomorrow]);
    expect(second.body.values[1]).not.toBe(10_000);
    expect(second.body.nextValuation).toEqual({ date: dayAfter, at: "2026-12-03T12:00:00.000Z" });

    // A market fixed on a day (MARKET_AS_OF) has no next day to name.
    configureMarket(market.database.db, { asOf: tomorrow });
    const fixed = await market.api.call("GET", `/portfolios/${saved.body.id}/history`, { token });
    expect(fixed.body.dates).toEqual([today, tomorrow]);
    expect(fixed.body.nextValuation).toBeNull();
    replay();
  }, 120_000);
});
