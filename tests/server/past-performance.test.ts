// The past of a saved portfolio (GET /api/portfolios/:id/past-performance) and the choice of its
// benchmark (PUT /api/portfolios/:id/benchmark-series), on both databases: the engine's figures on
// the same inputs, every plan of the permissions table (each section shown exactly with its
// permissions, the rest null and named in `locked`), a benchmark that is not one of the choices
// refused with UNKNOWN_BENCHMARK in the user's language and nothing changed; and, on the real
// dataset, a USD portfolio of SPY and TLT against numpy and the README's 2008 fall of the S&P 500.
import { rm } from "node:fs/promises";
import { setupI18n } from "@lingui/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages as en } from "../../locales/en/messages.po";
import { messages as es } from "../../locales/es/messages.po";
import { products } from "../../src/contract/common.ts";
import { decode } from "../../src/contract/decode.ts";
import {
  PAST_PERFORMANCE_SECTIONS,
  PastPerformance,
  pastPerformancePermissions,
} from "../../src/contract/past-performance.ts";
import { hasPermission, permissionsByTier, type Tier } from "../../src/contract/permissions.ts";
import { Portfolio, PortfolioHistory } from "../../src/contract/portfolios.ts";
import { dayNumber, indexOnOrBefore, isoDate } from "../../src/engine/dates.ts";
import { HISTORY_SECTIONS, pastPerformance } from "../../src/engine/history/past-performance.ts";
import { benchmarkWindowDays } from "../../src/engine/panel.ts";
import { alignReturns } from "../../src/engine/returns.ts";
import { factorChanges } from "../../src/engine/whatif/factors.ts";
import { loadFactors } from "../../src/server/analytics/factors.ts";
import { loadAssets, loadFx } from "../../src/server/analytics/series.ts";
import type { Database } from "../../src/server/db/database.ts";
import { portfolios, portfolioValuations } from "../../src/server/db/schema.ts";
import { readDataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { configureMarket } from "../../src/server/market/market-view.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { msgCodeText } from "../../src/ui/msg-code-text.ts";
import { apiAgent, type ApiAgent } from "../support/accounts.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";
import {
  clientWithSavedPortfolio,
  insertSavedPortfolio,
  SAVED_HOLDINGS,
  SAVED_ON,
  type SavedPortfolioOptions,
} from "../support/saved-portfolios.ts";
import {
  hasMarketData,
  openMarketApp,
  sampleOfMarketData,
  testApp,
  type MarketApp,
} from "../support/market-app.ts";

const TODAY = SAVED_ON;
const HOLDINGS = SAVED_HOLDINGS;

/** A saved portfolio of `clientId` named "Past" (any product, whatever the plan). */
const insertPortfolio = (
  database: Database,
  clientId: number,
  options: Omit<SavedPortfolioOptions, "name"> = {},
) => insertSavedPortfolio(database, clientId, { name: "Past", ...options });

function decoded(body: unknown): PastPerformance {
  const d = decode(PastPerformance, body);
  if (!d.ok) throw new Error(`not a PastPerformance: ${JSON.stringify(d.issues).slice(0, 600)}`);
  return d.value;
}

/** The stored row, to show that a refused call changed nothing. */
async function stored(database: Database, id: number) {
  const [row] = await database.db.select().from(portfolios).where(eq(portfolios.id, id));
  return {
    benchmarkSeries: row!.benchmarkSeries,
    version: row!.version,
    updatedAt: row!.updatedAt.toISOString(),
  };
}

describe.each(databaseTargets)("a saved portfolio's past on $name", (target) => {
  let m: MarketApp;
  let api: ApiAgent;
  let database: Database;
  let advanced: { id: number; token: string };
  beforeAll(async () => {
    m = await openMarketApp(target, {
      datasets: [simulatedDataset({ end: TODAY })],
      workers: 2,
    });
    api = m.api;
    database = m.database;
    advanced = await signedInClient(database, { simAssets: "advanced" });
  });
  afterAll(async () => m.close());

  const pastOf = (id: number, token: string, query = "") =>
    api.get(`/portfolios/${id}/past-performance${query}`, token);

  it("every section, the same figures the engine gives on the same inputs", async () => {
    const id = await insertPortfolio(database, advanced.id);
    const res = await pastOf(id, advanced.token);
    expect(res.status).toBe(200);
    const body = decoded(res.body);
    expect(body.locked).toEqual([]);
    expect(body.unavailable).toEqual([]);

    // The engine on the same inputs: the holdings' whole common history, the EURO STOXX 50 (the
    // market of a EUR portfolio) carried forward on its days, the what-if factors.
    const loaded = await loadAssets(database.db, ["AAPL", "SAN.MC", "TLT"], "1900-01-01");
    const fx = await loadFx(database.db, "1900-01-01");
    const aligned = alignReturns(
      loaded.assets.map((a) => a.series),
      { currency: "EUR", fx: fx! },
    );
    const stoxx = (await loadAssets(database.db, ["STOXX50E_INDEX"], "1900-01-01")).assets[0]!;
    const benchmark = factorChanges(
      [{ factor: "market", dates: stoxx.series.dates, values: stoxx.series.prices }],
      aligned.dates,
    ).data;
    const direct = pastPerformance({
      panel: aligned.panel,
      dates: aligned.dates,
      amounts: Float64Array.from(HOLDINGS, (h) => h.investedAmount),
      windowDays: benchmarkWindowDays(5),
      benchmark: { start: 0, returns: benchmark },
      sections: HISTORY_SECTIONS,
      factors: (await loadFactors(database.db, "EUR")).series,
    });
    const t = aligned.panel.observations;
    const to = isoDate(aligned.dates[t]!);

    expect(body.history).toEqual({
      from: isoDate(aligned.dates[0]!),
      to,
      observations: t,
      limitedBy: ["AAPL", "SAN.MC", "TLT"],
    });
    expect(body.window).toEqual({
      benchmark: 5,
      from: isoDate(aligned.dates[t - 756]!),
      to,
      observations: 756,
    });
    expect(body.benchmark).toMatchObject({
      series: "STOXX50E_INDEX",
      chosen: false,
      currency: "EUR",
      from: body.history.from,
    });
    expect(body.benchmarkChoices.map((c) => c.series)).toContain("SPY");
    expect(body.benchmarkChoices.map((c) => c.series)).not.toContain("AAPL");

    const g = body.growth!;
    expect([g.method, g.from, g.to, g.observations, g.dataDate]).toEqual([
      "current-weights-daily",
      body.history.from,
      to,
      t,
      to,
    ]);
    expect(g.full.portfolio[0]).toBe(10_000);
    expect(body.dates).toEqual(Array.from(aligned.dates, isoDate));
    expect([g.full.start, g.full.portfolio.length]).toEqual([0, t + 1]);
    g.full.portfolio.forEach((v, k) =>
      expect(Math.abs(v - direct.growth!.portfolio[k]!)).toBeLessThanOrEqual(0.005),
    );
    expect(g.window.portfolio[0]).toBe(10_000);
    expect(g.window.benchmark![0]).toBe(10_000);
    expect(body.dates[g.window.start]).toBe(body.window.from);

    const years = body.calendarYears!.years;
    expect(years.map((y) => y.year)).toEqual(direct.calendarYears!.map((y) => y.year));
    years.forEach((y, i) => {
      const e = direct.calendarYears![i]!;
      expect([y.partial, y.portfolio, y.benchmark]).toEqual([e.partial, e.portfolio, e.benchmark]);
      expect(y.difference).toBe(y.portfolio - y.benchmark!);
    });
    expect(years[0]!.partial).toBe(true);

    const r = body.rolling!;
    expect(r.windowDays).toBe(252);
    expect([r.start, r.portfolioReturn.length]).toEqual([252, t - 251]);
    // Chart series are rounded to 1e-6.
    r.portfolioVolatility.forEach((v, k) =>
      expect(Math.abs(v - direct.rolling!.portfolio.volatility[k]!)).toBeLessThanOrEqual(5e-7),
    );

    const d = body.drawdowns!;
    expect(d.portfolio.maxDrawdown).toBe(direct.drawdowns!.portfolio.maxDrawdown);
    expect(d.portfolio.worst).toEqual(
      direct.drawdowns!.portfolio.worst.map((f) => ({
        depth: f.depth,
        start: isoDate(aligned.dates[f.peak]!),
        trough: isoDate(aligned.dates[f.trough]!),
        recovery: f.recovery === null ? null : isoDate(aligned.dates[f.recovery]!),
        length: f.length,
        toTrough: f.toTrough,
        toRecovery: f.toRecovery,
      })),
    );
    expect(d.benchmark!.worst).toHaveLength(direct.drawdowns!.benchmark!.worst.length);

    const c = body.correlation!;
    const order = Array.from(direct.correlation!.dendrogram.order);
    expect(c.order).toEqual(order);
    expect(c.assets.map((a) => a.symbol)).toEqual(order.map((i) => HOLDINGS[i]!.symbol));
    expect(c.matrix[0]![1]).toBe(direct.correlation!.matrix[order[0]! * 3 + order[1]!]);
    expect(c.observations).toBe(756);

    const reg = body.regression!;
    const fit = direct.regression!.ok ? direct.regression!.fit : null;
    expect(reg.factors.map((f) => f.factor)).toEqual(fit!.factors);
    reg.factors.forEach((f, a) => {
      expect(f.beta.estimate).toBe(fit!.betas[a]);
      expect(f.beta.standardError).toBe(fit!.standardErrors[a]);
    });
    expect(reg.factors.find((f) => f.factor === "market")!.series).toBe("STOXX50E_INDEX");
    expect(reg.alphaAnnualised.estimate).toBeCloseTo((fit!.alpha * 252) / 5, 14);
    expect([reg.from, reg.observations, reg.periodDays]).toEqual([
      isoDate(aligned.dates[t - 1260]!),
      1260,
      5,
    ]);
  });

  it("shows each section exactly to the plans with its permissions, and names what is locked", async () => {
    const plans = products.flatMap((product) =>
      (Object.keys(permissionsByTier[product]) as Tier[]).map((tier) => ({ product, tier })),
    );
    const seen = new Map<string, Set<boolean>>();
    for (const { product, tier } of plans) {
      const permissions = permissionsByTier[product][tier]!;
      const { client, id } = await clientWithSavedPortfolio(database, product, tier, {
        name: "Past",
      });
      const res = await api.get(`/portfolios/${id}/past-performance?stc=${product}`, client.token);
      expect([product, tier, res.status]).toEqual([product, tier, 200]);
      const body = decoded(res.body);
      for (const section of PAST_PERFORMANCE_SECTIONS) {
        const allowed = pastPerformancePermissions[section].every((p) =>
          hasPermission(permissions, p),
        );
        expect([product, tier, section, body[section] !== null]).toEqual([
          product,
          tier,
          section,
          allowed,
        ]);
        seen.set(section, (seen.get(section) ?? new Set()).add(allowed));
      }
      const drawn = ["growth", "calendarYears", "rolling", "drawdowns"] as const;
      expect(body.dates.length > 0).toBe(drawn.some((x) => body[x] !== null));
      const benchmark = hasPermission(permissions, "monitoring.portfolioReturn");
      expect([body.benchmark !== null, body.benchmarkChoices.length > 0]).toEqual([
        benchmark,
        benchmark,
      ]);
      const expected = [
        "monitoring.portfolioReturn",
        "monitoring.portfolioRisk",
        "analysis.componentRisk2",
      ].filter((p) => !hasPermission(permissions, p as "analysis.componentRisk2"));
      expect([...body.locked].sort()).toEqual(expected.sort());
    }
    // Every section met a plan with it and one without: the walk is not vacuous.
    for (const section of PAST_PERFORMANCE_SECTIONS) expect(seen.get(section)!.size).toBe(2);
  });

  it("stores the chosen benchmark without an edition, and compares with it", async () => {
    const id = await insertPortfolio(database, advanced.id);
    const before = await stored(database, id);
    const res = await api.put(
      `/portfolios/${id}/benchmark-series`,
      { series: "SPY" },
      advanced.token,
    );
    expect(res.status).toBe(200);
    const portfolio = decode(Portfolio, res.body);
    if (!portfolio.ok) throw new Error("not a Portfolio");
    expect(portfolio.value.benchmarkSeries).toBe("SPY");
    // A setting, not an edition: the version and the editions left do not move.
    expect(portfolio.value.version).toBe(before.version);

    const past = decoded((await pastOf(id, advanced.token)).body);
    // SPY is quoted in USD: converted into the portfolio's euros, day by day.
    expect(past.benchmark).toMatchObject({ series: "SPY", chosen: true, currency: "USD" });
    expect(past.calendarYears!.years.every((y) => y.benchmark !== null)).toBe(true);

    // Another benchmark for one answer: the stored one stays.
    const other = decoded((await pastOf(id, advanced.token, "?benchmarkSeries=GSPC_INDEX")).body);
    expect(other.benchmark).toMatchObject({ series: "GSPC_INDEX", chosen: true });
    expect((await stored(database, id)).benchmarkSeries).toBe("SPY");

    // null goes back to the market of the portfolio's currency.
    const reset = await api.put(
      `/portfolios/${id}/benchmark-series`,
      { series: null },
      advanced.token,
    );
    expect(reset.body.benchmarkSeries).toBeNull();
    expect(decoded((await pastOf(id, advanced.token)).body).benchmark).toMatchObject({
      series: "STOXX50E_INDEX",
      chosen: false,
    });
  });

  it("the monitoring's return since saving has the stored benchmark beside it (issue 27), SPY in euros by hand", async () => {
    const id = await insertPortfolio(database, advanced.id);
    const { assets } = await loadAssets(database.db, ["SPY"], "2026-01-01");
    const fx = (await loadFx(database.db, "2026-01-01"))!;
    const spy = assets[0]!.series;
    // Five valuation days, the last the market's today (so none is computed by the read).
    const days = Array.from(spy.dates.slice(-5), isoDate);
    expect(days.at(-1)).toBe(TODAY);
    await database.db.insert(portfolioValuations).values(
      days.map((date, k) => ({
        portfolioId: id,
        date,
        value: 10_000 + k,
        return: k / 10_000,
        risk: 0.05,
        score: 50,
      })),
    );
    const history = async () => {
      const res = await api.get(`/portfolios/${id}/history`, advanced.token);
      expect(res.status).toBe(200);
      const d = decode(PortfolioHistory, res.body);
      if (!d.ok) throw new Error("not a PortfolioHistory");
      return d.value;
    };
    // No choice: the market of the portfolio's currency.
    expect((await history()).benchmark).toMatchObject({ series: "STOXX50E_INDEX", chosen: false });

    await api.put(`/portfolios/${id}/benchmark-series`, { series: "SPY" }, advanced.token);
    const body = await history();
    expect(body.dates).toEqual(days);
    // The portfolio's own figures do not move with the comparison.
    expect(body.returns).toEqual(days.map((_, k) => k / 10_000));
    expect(body.benchmark).toMatchObject({ series: "SPY", chosen: true });
    const inEuros = (iso: string) => {
      const day = dayNumber(iso);
      return (
        spy.prices[indexOnOrBefore(spy.dates, day)]! / fx.rates[indexOnOrBefore(fx.dates, day)]!
      );
    };
    days.forEach((d, k) =>
      expect(body.benchmark!.returns[k]).toBeCloseTo(inEuros(d) / inEuros(days[0]!) - 1, 6),
    );
    expect(body.benchmark!.returns[0]).toBe(0);
  });

  it("refuses a benchmark that is not one of the choices with UNKNOWN_BENCHMARK, in the user's language, changing nothing", async () => {
    const id = await insertPortfolio(database, advanced.id);
    await api.put(`/portfolios/${id}/benchmark-series`, { series: "TLT" }, advanced.token);
    const before = await stored(database, id);
    // Unknown, a stock (not an index or a fund), a yield, the volatility index, an exchange rate.
    for (const series of ["NOPE", "AAPL", "US10Y", "VIX_INDEX", "EURUSD"]) {
      const res = await api.put(`/portfolios/${id}/benchmark-series`, { series }, advanced.token);
      expect([series, res.status, res.body]).toEqual([
        series,
        400,
        { msgCode: "UNKNOWN_BENCHMARK", issues: [{ path: "series", message: series }] },
      ]);
    }
    const query = await pastOf(id, advanced.token, "?benchmarkSeries=AAPL");
    expect([query.status, query.body]).toEqual([
      400,
      { msgCode: "UNKNOWN_BENCHMARK", issues: [{ path: "benchmarkSeries", message: "AAPL" }] },
    ]);
    const malformed = await api.put(
      `/portfolios/${id}/benchmark-series`,
      { series: "a b" },
      advanced.token,
    );
    expect([malformed.status, malformed.body.msgCode]).toEqual([400, "INVALID_REQUEST"]);
    expect(await stored(database, id)).toEqual(before);
    // The app shows the code's text in the user's language.
    const text = (locale: "en" | "es") =>
      setupI18n({ locale, messages: { [locale]: locale === "en" ? en : es } })._(
        msgCodeText.UNKNOWN_BENCHMARK,
      );
    expect(text("en")).toMatch(/not one of the indices and funds/);
    expect(text("es")).toMatch(/no está entre los índices y fondos/);
  });

  it("a stored benchmark the market no longer has: the default one, and the answer says so", async () => {
    const id = await insertPortfolio(database, advanced.id);
    await database.db
      .update(portfolios)
      .set({ benchmarkSeries: "GONE" })
      .where(eq(portfolios.id, id));
    const body = decoded((await pastOf(id, advanced.token)).body);
    expect(body.benchmark).toMatchObject({ series: "STOXX50E_INDEX", chosen: false });
    expect(body.unavailable).toEqual([{ section: "benchmark", reason: "benchmark-unavailable" }]);
  });

  it("without the monitoring permission the benchmark cannot be chosen: 403 PLAN_FEATURE_LOCKED", async () => {
    const free = await signedInClient(database, {});
    const id = await insertPortfolio(database, free.id);
    const before = await stored(database, id);
    const put = await api.put(`/portfolios/${id}/benchmark-series`, { series: "SPY" }, free.token);
    expect([put.status, put.body.msgCode]).toEqual([403, "PLAN_FEATURE_LOCKED"]);
    const get = await pastOf(id, free.token, "?benchmarkSeries=SPY");
    expect([get.status, get.body.msgCode]).toEqual([403, "PLAN_FEATURE_LOCKED"]);
    expect(await stored(database, id)).toEqual(before);
  });

  it("another client's portfolio does not exist for this one; a session is needed", async () => {
    const other = await signedInClient(database, { simAssets: "advanced" });
    const id = await insertPortfolio(database, other.id);
    expect((await pastOf(id, advanced.token)).status).toBe(404);
    const put = await api.put(
      `/portfolios/${id}/benchmark-series`,
      { series: "SPY" },
      advanced.token,
    );
    expect(put.status).toBe(404);
    expect((await api.get(`/portfolios/${id}/past-performance`)).status).toBe(401);
  });
});

// The real dataset ($MARKET_DATA_DIR): a sample of its files, the market on 2024-05-31.
describe.skipIf(!hasMarketData)("a saved portfolio's past on the real dataset", () => {
  let database: Database;
  let drop: () => Promise<void>;
  let m: MarketApp;
  let dir: string;
  let client: { id: number; token: string };
  beforeAll(async () => {
    dir = await sampleOfMarketData(
      ["SPY", "TLT", "GSPC_INDEX", "STOXX50E_INDEX", "EURUSD", "BTC-USD", "BRENT_USD", "VIX_INDEX"],
      "past-real-",
    );
    m = await openMarketApp(databaseTargets[0]!, { workers: 1 });
    ({ database } = m);
    drop = () => m.close();
    await importDataset(database.db, await readDataset(dir), "imported");
    configureMarket(database.db, { asOf: "2024-05-31" });
    client = await signedInClient(database, { simIndices: "advanced" });
  });
  afterAll(async () => {
    await drop();
    await rm(dir, { recursive: true });
  });

  // scripts/reference/history_real.py (numpy): SPY 6,000 and TLT 4,000, USD, from the files.
  const numpy = {
    from: "2002-07-30",
    to: "2024-05-31",
    observations: 5497,
    stoxxFrom: "2007-03-30",
    years: {
      2002: { partial: true, portfolio: 0.03774315504380832, benchmark: -0.02543255278140788 },
      2008: {
        partial: false,
        portfolio: -0.11844639751215436,
        benchmark: -0.38485793674575675,
        stoxx: -0.46651168460303216,
      },
      2011: {
        partial: false,
        portfolio: 0.1589581749576976,
        benchmark: -3.180560414661748e-5,
        stoxx: -0.19614717050448738,
      },
    } as Record<number, { partial: boolean; portfolio: number; benchmark: number; stoxx?: number }>,
    benchmarkFall: {
      depth: 0.5677538894035712,
      start: "2007-10-09",
      trough: "2009-03-09",
      recovery: "2013-03-28",
      length: 1376,
    },
    portfolioFall: {
      depth: 0.2992293352628813,
      start: "2007-12-06",
      trough: "2009-03-09",
      recovery: "2010-09-08",
      length: 693,
    },
    rolling: { count: 5246, lastReturn: 0.12169145646935053, lastVolatility: 0.10866234940786423 },
    correlation: 0.06200645954069907,
  };

  it("SPY and TLT against the S&P 500: numpy's years, falls, rolling window and correlation", async () => {
    const id = await insertPortfolio(database, client.id, {
      product: "simIndices",
      currency: "USD",
      holdings: [
        { symbol: "SPY", investedAmount: 6000 },
        { symbol: "TLT", investedAmount: 4000 },
      ],
    });
    const api = apiAgent(testApp(database, m.pool), null);
    const res = await api.get(`/portfolios/${id}/past-performance?stc=simIndices`, client.token);
    expect(res.status).toBe(200);
    const body = decoded(res.body);
    expect(body.history).toEqual({
      from: numpy.from,
      to: numpy.to,
      observations: numpy.observations,
      limitedBy: ["TLT"],
    });
    expect(body.benchmark).toMatchObject({ series: "GSPC_INDEX", chosen: false, from: numpy.from });
    // Funds and indices with an asset class or a market's own: not the VIX, not the EUR/USD rate.
    expect(body.benchmarkChoices.map((c) => c.series).sort()).toEqual(
      ["GSPC_INDEX", "SPY", "STOXX50E_INDEX", "TLT"].sort(),
    );
    const years = new Map(body.calendarYears!.years.map((y) => [y.year, y]));
    expect(years.size).toBe(23);
    for (const [year, e] of Object.entries(numpy.years)) {
      const y = years.get(Number(year))!;
      expect(y.partial).toBe(e.partial);
      expect(Math.abs(y.portfolio - e.portfolio)).toBeLessThan(1e-12);
      expect(Math.abs(y.benchmark! - e.benchmark)).toBeLessThan(1e-12);
    }
    expect(years.get(2024)!.partial).toBe(true);
    // The README's 2008 fall of the S&P 500, peak to trough: -56.8%.
    const fall = body.drawdowns!.benchmark!.worst[0]!;
    expect({ ...fall, depth: 0 }).toMatchObject({ ...numpy.benchmarkFall, depth: 0 });
    expect(Math.abs(fall.depth - numpy.benchmarkFall.depth)).toBeLessThan(1e-12);
    expect(Math.abs(fall.depth - 0.568)).toBeLessThan(0.001);
    const own = body.drawdowns!.portfolio.worst[0]!;
    expect({ ...own, depth: 0 }).toMatchObject({ ...numpy.portfolioFall, depth: 0 });
    expect(Math.abs(own.depth - numpy.portfolioFall.depth)).toBeLessThan(1e-12);
    const r = body.rolling!;
    expect(r.portfolioReturn).toHaveLength(numpy.rolling.count);
    // Chart series are rounded to 1e-6.
    expect(Math.abs(r.portfolioReturn.at(-1)! - numpy.rolling.lastReturn)).toBeLessThanOrEqual(
      5e-7,
    );
    expect(
      Math.abs(r.portfolioVolatility.at(-1)! - numpy.rolling.lastVolatility),
    ).toBeLessThanOrEqual(5e-7);
    const c = body.correlation!;
    expect(Math.abs(c.matrix[0]![1]! - numpy.correlation)).toBeLessThan(1e-12);
    // The regression on the factors the sample has (no macro files: no rates or inflation).
    const reg = body.regression!;
    expect(reg.factors.map((f) => [f.factor, f.series])).toEqual([
      ["market", "GSPC_INDEX"],
      ["crypto", "BTC-USD"],
      ["commodities", "BRENT_USD"],
    ]);
    const beta = reg.factors[0]!.beta;
    expect(beta.estimate).toBeGreaterThan(0.2);
    expect(beta.estimate).toBeLessThan(0.8);
    expect(reg.rSquared).toBeGreaterThan(0);

    // The EURO STOXX 50 in dollars, from its first day: numpy's 2008 and 2011.
    const stoxx = decoded(
      (
        await api.get(
          `/portfolios/${id}/past-performance?stc=simIndices&benchmarkSeries=STOXX50E_INDEX`,
          client.token,
        )
      ).body,
    );
    expect(stoxx.benchmark).toMatchObject({ currency: "EUR", from: numpy.stoxxFrom });
    const sy = new Map(stoxx.calendarYears!.years.map((y) => [y.year, y]));
    expect(sy.get(2007)!.benchmark).toBeNull();
    for (const year of [2008, 2011])
      expect(Math.abs(sy.get(year)!.benchmark! - numpy.years[year]!.stoxx!)).toBeLessThan(1e-12);
  });
});
