// The portfolios API: propose (every ordering, the permissions, lazy portfolios), save with every
// validation rule and the plan's limit (also under concurrency), edit with remainingEditions and
// optimistic concurrency, reset, delete, and the privacy of another client's portfolios.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../src/contract/common.ts";
import { decode } from "../../src/contract/decode.ts";
import type { Tier } from "../../src/contract/permissions.ts";
import { Portfolio, PortfolioList, ProposeResponse } from "../../src/contract/portfolios.ts";
import { estimateCovariance } from "../../src/engine/covariance.ts";
import { expectedReturns } from "../../src/engine/expected.ts";
import {
  benchmarkWindowDays,
  lastObservations,
  type ReturnsPanel,
} from "../../src/engine/panel.ts";
import { alignReturns } from "../../src/engine/returns.ts";
import { sampleVariance } from "../../src/engine/stats.ts";
import { createSession } from "../../src/server/accounts/sessions.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { loadAssets, loadFx } from "../../src/server/analytics/series.ts";
import { optimise } from "../../src/server/analytics/engine-tasks.ts";
import { universeFigures } from "../../src/server/portfolios/propose.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { clients, subscriptions } from "../../src/server/db/schema.ts";
import { createLogger } from "../../src/server/logger.ts";
import type { Dataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { listAssets, shiftDays } from "../../src/server/market/repository.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets } from "../support/databases.ts";

const TODAY = "2026-11-20";

/** The simulated market plus a stock that stopped trading (stale) and one too young to rank. */
function market(): Dataset {
  const simulated = simulatedDataset({ end: TODAY, days: 1100 });
  const base = simulated.prices.get("KO")!;
  const ko = simulated.assets.find((a) => a.symbol === "KO")!;
  return {
    assets: [
      ...simulated.assets,
      { ...ko, symbol: "OLD", name: "Old Co" },
      { ...ko, symbol: "NEW", name: "New Co" },
    ],
    prices: new Map([
      ...simulated.prices,
      ["OLD", { dates: base.dates.slice(0, -100), values: base.values.slice(0, -100) }],
      ["NEW", { dates: base.dates.slice(-300), values: base.values.slice(-300) }],
    ]),
    macro: new Map(),
  };
}

interface Answer<T = any> {
  readonly status: number;
  /** The contract's answer, or an error's msgCode. */
  readonly body: T & { readonly msgCode?: string };
}

describe.each(databaseTargets)("portfolios API on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(database.db, market(), "simulated");
    pool = createAnalyticsPool(2);
  });
  afterAll(async () => {
    await Promise.all([ht?.settled(), tt?.settled()]);
    await pool.close();
    await drop();
  });

  const appOf = (edition: "ht" | "tt" = "ht") =>
    createApp({
      config: loadConfig({ EDITION: edition }),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
      pool,
    });
  let ht: ReturnType<typeof appOf>;
  let tt: ReturnType<typeof appOf>;
  beforeAll(() => {
    ht = appOf("ht");
    tt = appOf("tt");
  });

  async function call<T = any>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    token: string,
    body?: unknown,
    app = ht,
  ): Promise<Answer<T>> {
    const res = await app.request(`/api${url}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  /** A signed-in client with the given tiers. */
  async function client(tiers: Partial<Record<Product, Tier>> = {}) {
    const [row] = await database.db
      .insert(clients)
      .values({
        email: `p-${randomBytes(5).toString("hex")}@example.test`,
        policiesVersion: "2026-01", // the policy in force (POLICY_VERSION's default)
        passwordHash: "unused",
        name: "Test",
        surname: "Client",
        emailConfirmed: true,
      })
      .returning({ id: clients.id });
    const id = row!.id;
    for (const [product, tier] of Object.entries(tiers))
      await database.db.insert(subscriptions).values({
        clientId: id,
        product,
        tier,
        planId: 5,
        active: true,
        expiryDate: new Date(Date.now() + 86_400_000),
      });
    const { token } = await createSession(database.db, id, 1);
    return { id, token };
  }

  const propose = (token: string, answers: Record<string, unknown>, extra = {}, app = ht) =>
    call<ProposeResponse>(
      "POST",
      "/portfolios/propose",
      token,
      {
        currency: "EUR",
        answers: {
          universe: [],
          amount: 10_000,
          maxToLose95: null,
          ordering: "balanced",
          maxAssetsLevel: 1,
          ...answers,
        },
        ...extra,
      },
      app,
    );

  const holdings = (...pairs: [string, number][]) =>
    pairs.map(([id, investedAmount]) => ({ id, investedAmount }));
  const save = (token: string, body: Record<string, unknown> = {}, query = "") =>
    call<Portfolio>("POST", `/portfolios${query}`, token, {
      name: "My portfolio",
      currency: "EUR",
      maxAssetsLevel: 2,
      assets: holdings(["AAPL", 6000], ["SAN.MC", 3000], ["TLT", 1000]),
      ...body,
    });
  const flat = (p: Portfolio) => p.assets.flatMap((g) => g.assets);

  /** The index of the portfolio's market (docs/analytics.md): S&P 500 for USD, EURO STOXX 50 for EUR. */
  const INDEX = { EUR: "STOXX50E_INDEX", USD: "GSPC_INDEX" } as const;

  /**
   * The index's daily returns on a calendar (`dates`: observations + 1 days), computed here from
   * its raw closes: the last close on or before each day (carried forward like a price), p_t /
   * p_{t-1} - 1. Both indices are quoted in their portfolio's currency.
   */
  async function indexReturns(currency: "EUR" | "USD", dates: Int32Array): Promise<Float64Array> {
    const { assets } = await loadAssets(database.db, [INDEX[currency]], "2000-01-01");
    const s = assets[0]!.series;
    let k = -1;
    const level = (day: number) => {
      while (k + 1 < s.dates.length && s.dates[k + 1]! <= day) k++;
      if (k < 0) throw new Error(`no ${INDEX[currency]} close on or before day ${day}`);
      return s.prices[k]!;
    };
    const levels = Array.from(dates, level);
    return Float64Array.from(
      { length: dates.length - 1 },
      (_, t) => levels[t + 1]! / levels[t]! - 1,
    );
  }

  /** The universe's window, computed here from the prices with the engine's pieces. */
  async function universeWindow(product: "simAssets" | "simIndices", currency: "EUR" | "USD") {
    const days = benchmarkWindowDays(5);
    const from = shiftDays(TODAY, -Math.ceil(days * 1.6) - 60);
    const listed = (await listAssets(database.db, { product })).filter((a) => a.symbol !== "NEW");
    const { assets } = await loadAssets(
      database.db,
      listed.map((a) => a.symbol),
      from,
    );
    const fx = await loadFx(database.db, from);
    const aligned = alignReturns(
      assets.map((a) => a.series),
      { currency, fx: fx! },
    );
    const panel = aligned.panel;
    return {
      symbols: assets.map((a) => a.symbol),
      groups: assets.map(
        (a) =>
          listed.find((l) => l.symbol === a.symbol)![
            product === "simIndices" ? "assetClass" : "exchange"
          ]!,
      ),
      sectors: assets.map((a) => a.info.sector ?? ""),
      panel,
      window: lastObservations(panel, days),
      /** The index's returns over the window (its last `days` observations). */
      market: await indexReturns(currency, aligned.dates.subarray(aligned.dates.length - days - 1)),
    };
  }

  /** The equally weighted universe's daily returns: the proxy before issue 24 (a check's foil). */
  function equalWeight(window: ReturnsPanel): Float64Array {
    const { assets: n, observations: t, data } = window;
    return Float64Array.from({ length: t }, (_, s) => {
      let v = 0;
      for (let i = 0; i < n; i++) v += data[s * n + i]!;
      return v / n;
    });
  }

  /** Volatility, and beta = cov(asset, market) / var(market) in closed form, of each asset. */
  function columnStats(window: ReturnsPanel, market: Float64Array = equalWeight(window)) {
    const { assets: n, observations: t, data } = window;
    if (market.length !== t) throw new Error("the market's returns do not cover the window");
    const col = (i: number) => Float64Array.from({ length: t }, (_, s) => data[s * n + i]!);
    const mean = (x: Float64Array) => x.reduce((a, b) => a + b, 0) / x.length;
    const mm = mean(market);
    const vm = market.reduce((a, m) => a + (m - mm) ** 2, 0);
    return Array.from({ length: n }, (_, i) => {
      const x = col(i);
      const mx = mean(x);
      let c = 0;
      for (let s = 0; s < t; s++) c += (x[s]! - mx) * (market[s]! - mm);
      return { vol: Math.sqrt(sampleVariance(x) * 252), beta: c / vm };
    });
  }

  describe("propose", () => {
    it("balanced: the lowest volatility of each stock exchange in turn, one asset of a sector in five, equal amounts", async () => {
      const { token } = await client();
      const res = await propose(token, { maxAssetsLevel: 2 });
      expect(res.status).toBe(200);
      expect(decode(ProposeResponse, res.body).ok).toBe(true);
      const u = await universeWindow("simAssets", "EUR");
      const stats = columnStats(u.window);
      // Free plan: maxAssets 5 even though level 2 offers 10.
      expect(res.body.assets).toHaveLength(5);
      expect(res.body.method).toBe("equal");
      expect(res.body.assets.map((a) => a.investedAmount)).toEqual([2000, 2000, 2000, 2000, 2000]);
      // Round robin over the exchanges (ordered by their least volatile stock), each exchange's
      // stocks by volatility; then the diversification rule: one stock of a sector among five.
      const byGroup = new Map<string, number[]>();
      u.symbols.forEach((_, i) =>
        byGroup.set(u.groups[i]!, [...(byGroup.get(u.groups[i]!) ?? []), i]),
      );
      const queues = [...byGroup.values()]
        .map((q) => q.sort((a, b) => stats[a]!.vol - stats[b]!.vol))
        .sort((a, b) => stats[a[0]!]!.vol - stats[b[0]!]!.vol);
      const order: number[] = [];
      for (let round = 0; order.length < u.symbols.length; round++)
        for (const q of queues) if (q[round] !== undefined) order.push(q[round]!);
      const taken = new Set<string>();
      const expected: string[] = [];
      for (const i of order)
        if (expected.length < 5 && !taken.has(u.sectors[i]!)) {
          taken.add(u.sectors[i]!);
          expected.push(u.symbols[i]!);
        }
      expect(res.body.assets.map((a) => a.symbol)).toEqual(expected);
      expect(res.body.assets.map((a) => a.symbol)).not.toContain("OLD");
      expect(res.body.withinMaxToLose).toBeNull();
      expect(res.body.minimumDesiredRiskAmount).toBeCloseTo(110, 9);
      expect(res.body.simulated).toBe(true);
      expect(res.body.cvar95Amount).toBeGreaterThanOrEqual(res.body.var95Amount);
      expect(res.body.var95Amount).toBeGreaterThan(0);
    });

    it("marketRisk: the lowest betas to the index of the portfolio's market (EURO STOXX 50 for EUR)", async () => {
      const { token } = await client({ simAssets: "standard" });
      const res = await propose(token, { ordering: "marketRisk", maxAssetsLevel: 2 });
      expect(res.status).toBe(200);
      expect(res.body.market).toBe("STOXX50E_INDEX");
      const u = await universeWindow("simAssets", "EUR");
      const lowest = (stats: { beta: number }[]) =>
        u.symbols
          .map((symbol, i) => ({ symbol, beta: stats[i]!.beta }))
          .sort((a, b) => a.beta - b.beta || a.symbol.localeCompare(b.symbol))
          .slice(0, 10)
          .map((s) => s.symbol);
      const expected = lowest(columnStats(u.window, u.market));
      expect(res.body.assets.map((a) => a.symbol)).toEqual(expected);
      // The equally weighted universe (the proxy before issue 24) ranks them otherwise.
      expect(lowest(columnStats(u.window))).not.toEqual(expected);
    });

    it("expectedReturn and riskReturn: the engine's expected returns, alone and over volatility", async () => {
      const { token } = await client({ simAssets: "advanced" });
      const u = await universeWindow("simAssets", "USD");
      const stats = columnStats(u.window, u.market);
      // Bayes-Stein towards r_f + beta ERP, the betas against the S&P 500 (the engine's estimator
      // is checked against numpy in tests/engine/risk-reference.test.ts).
      const mu = expectedReturns(u.window, estimateCovariance(u.window).cholesky, {
        market: u.market,
      }).expected;
      const byReturn = u.symbols
        .map((symbol, i) => ({ symbol, mu: mu[i]!, ratio: mu[i]! / stats[i]!.vol }))
        .sort((a, b) => b.mu - a.mu);
      const res = await propose(
        token,
        { ordering: "expectedReturn", maxAssetsLevel: 1 },
        { currency: "USD" },
      );
      expect(res.status).toBe(200);
      expect(res.body.market).toBe("GSPC_INDEX");
      expect(res.body.assets.map((a) => a.symbol)).toEqual(
        byReturn.slice(0, 5).map((s) => s.symbol),
      );
      const rr = await propose(
        token,
        { ordering: "riskReturn", maxAssetsLevel: 1 },
        { currency: "USD" },
      );
      expect(rr.status).toBe(200);
      const byRatio = [...byReturn].sort((a, b) => b.ratio - a.ratio);
      expect(rr.body.assets.map((a) => a.symbol)).toEqual(byRatio.slice(0, 5).map((s) => s.symbol));
      expect(rr.body.minimumDesiredRiskAmount).toBeCloseTo(174, 9);
    });

    it("ranks and weighs by the figures the full analysis shows: each beta and expected return of the same assets to 1e-12", async () => {
      const { token } = await client({ simAssets: "advanced" });
      const days = benchmarkWindowDays(5);
      const from = shiftDays(TODAY, -Math.ceil(days * 1.6) - 60);
      const bme = (await listAssets(database.db, { product: "simAssets" }))
        .filter((a) => a.exchange === "BME")
        .map((a) => a.symbol);
      expect(bme.length).toBeGreaterThan(5);
      const { assets } = await loadAssets(database.db, bme, from);
      const fx = await loadFx(database.db, from);
      // What propose computes for a universe of these assets (the same function, on the pool).
      const proposal = await universeFigures(database.db, pool, assets, "EUR", fx, 5);
      expect(proposal.market).toBe("STOXX50E_INDEX");
      const analysis = await call("POST", "/analytics/analyse", token, {
        currency: "EUR",
        benchmark: 5,
        assets: bme.map((symbol) => ({ symbol, investedAmount: 1000 })),
      });
      expect(analysis.status).toBe(200);
      expect(analysis.body.expectedReturn.market).toBe("STOXX50E_INDEX");
      const shown = new Map<string, { beta: number; expectedReturn: number }>(
        analysis.body.assets.map((a: { symbol: string }) => [a.symbol, a]),
      );
      // The betas also in closed form against the index's own closes.
      const aligned = alignReturns(
        assets.map((a) => a.series),
        { currency: "EUR", fx: fx! },
      );
      const market = await indexReturns(
        "EUR",
        aligned.dates.subarray(aligned.dates.length - days - 1),
      );
      const closed = columnStats(lastObservations(aligned.panel, days), market);
      assets.forEach((a, i) => {
        const s = shown.get(a.symbol)!;
        expect(Math.abs(proposal.stats.betas[i]! - s.beta), a.symbol).toBeLessThanOrEqual(1e-12);
        expect(
          Math.abs(proposal.stats.expected[i]! - s.expectedReturn),
          a.symbol,
        ).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(proposal.stats.betas[i]! - closed[i]!.beta), a.symbol).toBeLessThanOrEqual(
          1e-10,
        );
      });
      // The API's proposal of five of them: the five highest expected returns the analysis shows.
      const res = await propose(token, {
        ordering: "expectedReturn",
        universe: ["BME"],
        maxAssetsLevel: 1,
      });
      expect(res.status).toBe(200);
      expect(res.body.market).toBe("STOXX50E_INDEX");
      const top = [...shown.entries()]
        .sort(([a, x], [b, y]) => y.expectedReturn - x.expectedReturn || a.localeCompare(b))
        .slice(0, 5)
        .map(([symbol]) => symbol);
      expect(res.body.assets.map((a) => a.symbol)).toEqual(top);
    });

    it("minimization: the engine's minimum-risk choice of N assets, each at the minimum weight or more", async () => {
      const { token } = await client({ simIndices: "advanced" });
      const res = await call<ProposeResponse>("POST", "/portfolios/propose?stc=simIndices", token, {
        currency: "EUR",
        answers: {
          universe: [],
          amount: 10_000,
          maxToLose95: null,
          ordering: "minimization",
          maxAssetsLevel: 1,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.method).toBe("minimum-risk");
      const u = await universeWindow("simIndices", "EUR");
      const n = u.symbols.length;
      const direct = optimise({
        panel: u.panel,
        amounts: new Float64Array(n).fill(1),
        benchmark: 5,
        lower: new Float64Array(n),
        upper: new Float64Array(n).fill(1),
        desiredAssets: 5,
      });
      if (!direct.ok) throw new Error("the direct optimisation failed");
      const held = [...direct.weights.keys()]
        .filter((i) => direct.weights[i]! > 1e-6)
        .sort((a, b) => direct.weights[b]! - direct.weights[a]!);
      // The engine's choice is held, completed to the 5 asked for (tests/server/propose-count.test.ts
      // checks the weights: minimum risk with 5% at least each).
      const symbols = res.body.assets.map((a) => a.symbol);
      for (const i of held) expect(symbols).toContain(u.symbols[i]!);
      expect(res.body.assets).toHaveLength(5);
      for (const a of res.body.assets) expect(a.investedAmount).toBeGreaterThanOrEqual(500 - 0.01);
    });

    it("answers amounts in cents that sum exactly to the amount", async () => {
      const { token } = await client({ simAssets: "standard" });
      const res = await propose(token, { amount: 1000.01, maxAssetsLevel: 2 });
      expect(res.status).toBe(200);
      const cents = res.body.assets.map((a) => Math.round(a.investedAmount * 100));
      expect(cents.reduce((s, c) => s + c, 0)).toBe(100_001);
      for (const a of res.body.assets)
        expect(a.investedAmount * 100).toBeCloseTo(Math.round(a.investedAmount * 100), 6);
      expect(res.body.assets.reduce((s, a) => s + a.percentage, 0)).toBeCloseTo(100, 9);
    });

    it("keeps to the chosen exchanges or asset classes", async () => {
      const { token } = await client({ simIndices: "advanced" });
      const res = await call<ProposeResponse>("POST", "/portfolios/propose?stc=simIndices", token, {
        currency: "EUR",
        answers: {
          universe: ["fixed_income"],
          amount: 5000,
          maxToLose95: null,
          ordering: "balanced",
          maxAssetsLevel: 1,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.assets.map((a) => a.symbol).sort()).toEqual(
        ["EURGOV10Y_TR", "IEF", "LQD", "TLT"].sort(),
      );
      const stocks = await propose(token, { universe: ["BME"], maxAssetsLevel: 1 });
      expect(stocks.body.assets.every((a) => a.symbol.endsWith(".MC"))).toBe(true);
    });

    it.each([
      [{}, "marketRisk"],
      [{}, "expectedReturn"],
      [{ simAssets: "standard" }, "riskReturn"],
      [{ simAssets: "standard" }, "minimization"],
    ] as const)(
      "refuses an ordering the plan does not have (%o, %s) with 403 FORBIDDEN",
      async (tiers, ordering) => {
        const { token } = await client(tiers);
        const res = await propose(token, { ordering });
        expect(res.status).toBe(403);
        expect(res.body.msgCode).toBe("FORBIDDEN");
      },
    );

    it("with autoCreate, what the q3 answer names, within maxToLose95 (balanced: not the highest return)", async () => {
      const { token } = await client({ simAssets: "advanced" });
      const res = await propose(token, { maxToLose95: 800, maxAssetsLevel: 2 });
      expect(res.status).toBe(200);
      expect(res.body.method).toBe("balanced");
      expect(res.body.withinMaxToLose).toBe(true);
      const top = await propose(token, {
        ordering: "expectedReturn",
        maxToLose95: 800,
        maxAssetsLevel: 2,
      });
      expect(top.body.method).toBe("highest-return");
      expect(top.body.withinMaxToLose).toBe(true);
      expect(top.body.cvar95Amount).toBeLessThanOrEqual(800 + 0.5);
      // Rounding to cents moves the CVaR by far less than a cent per thousand.
      expect(res.body.cvar95Amount).toBeLessThanOrEqual(800 + 0.5);
      const equal = await client({ simAssets: "standard" });
      const same = await propose(equal.token, { maxToLose95: 800, maxAssetsLevel: 2 });
      // Without autoCreate the same answers give equal amounts.
      expect(same.body.method).toBe("equal");
      expect(same.body.withinMaxToLose).toBeNull();
    });

    it("falls back to minimum risk when no mix keeps the loss within maxToLose95", async () => {
      const { token } = await client({ simAssets: "advanced" });
      const res = await propose(token, { maxToLose95: 1, maxAssetsLevel: 2 });
      expect(res.status).toBe(200);
      expect(res.body.method).toBe("minimum-risk");
      expect(res.body.withinMaxToLose).toBe(false);
      expect(res.body.cvar95Amount).toBeGreaterThan(1);
    });

    it("offers lazy portfolios in the tt edition only, with the plan's permission", async () => {
      const advanced = await client({ simIndices: "advanced" });
      const lazy = { lazyPortfolio: "balanced-60-40" };
      const inHt = await propose(advanced.token, lazy, {}, ht);
      expect(inHt.status).toBe(403);
      expect(inHt.body.msgCode).toBe("FORBIDDEN");
      const res = await call<ProposeResponse>(
        "POST",
        "/portfolios/propose?stc=simIndices&ctx=tt",
        advanced.token,
        {
          currency: "EUR",
          answers: {
            universe: [],
            amount: 10_000,
            maxToLose95: null,
            ordering: "balanced",
            maxAssetsLevel: 1,
            ...lazy,
          },
        },
        tt,
      );
      expect(res.status).toBe(200);
      expect(res.body.method).toBe("lazy");
      expect(res.body.assets.map((a) => [a.symbol, a.investedAmount])).toEqual([
        ["VT", 6000],
        ["IEF", 4000],
      ]);
      const permanent = await propose(
        advanced.token,
        { lazyPortfolio: "permanent", amount: 1000 },
        { currency: "USD" },
        tt,
      );
      // Permission of the product of `stc`: simAssets has none for this client.
      expect(permanent.status).toBe(403);
      const usd = await call<ProposeResponse>(
        "POST",
        "/portfolios/propose?stc=simIndices",
        advanced.token,
        {
          currency: "USD",
          answers: {
            universe: [],
            amount: 1000,
            maxToLose95: null,
            ordering: "balanced",
            maxAssetsLevel: 1,
            lazyPortfolio: "permanent",
          },
        },
        tt,
      );
      expect(usd.status).toBe(200);
      expect(usd.body.assets.map((a) => a.symbol)).toEqual(["SPY", "TLT", "GLD", "CASH_USD"]);
      const tooMuch = await call(
        "POST",
        "/portfolios/propose?stc=simIndices",
        advanced.token,
        {
          currency: "EUR",
          answers: {
            universe: [],
            amount: 5_000_000.01,
            maxToLose95: null,
            ordering: "balanced",
            maxAssetsLevel: 1,
            lazyPortfolio: "all-weather",
          },
        },
        tt,
      );
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body.msgCode).toBe("TOTAL_TOO_HIGH");
      const standard = await client({ simAssets: "standard" });
      const noPermission = await propose(standard.token, lazy, {}, tt);
      expect(noPermission.status).toBe(403);
    });

    it("requires a session", async () => {
      const res = await ht.request("/api/portfolios/propose", { method: "POST" });
      expect(res.status).toBe(401);
    });
  });

  describe("save", () => {
    it("saves with 201: saved, version 1, remainingEditions of the plan, grouped holdings", async () => {
      const { token } = await client({ simAssets: "standard" });
      const res = await save(token, {
        answers: {
          universe: [],
          amount: 10_000,
          maxToLose95: 300,
          ordering: "balanced",
          maxAssetsLevel: 2,
        },
      });
      expect(res.status).toBe(201);
      const decoded = decode(Portfolio, res.body);
      if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
      const p = decoded.value;
      expect(p).toMatchObject({
        name: "My portfolio",
        product: "simAssets",
        currency: "EUR",
        benchmark: 5,
        benchmarkSeries: null,
        saved: true,
        version: 1,
        remainingEditions: 3,
        totalInvested: 10_000,
        initialInvested: 10_000,
        maxAssetsLevel: 2,
        monkeyRegion: null,
      });
      expect(p.answers?.maxToLose95).toBe(300);
      // Stocks by exchange, funds by asset class.
      expect(p.assets.map((g) => [g.stockExchange, g.assetClass])).toEqual([
        ["BME", null],
        ["NASDAQ", null],
        [null, "fixed_income"],
      ]);
      expect(flat(p).map((a) => [a.id, a.investedAmount, a.percentage])).toEqual([
        ["SAN.MC", 3000, 30],
        ["AAPL", 6000, 60],
        ["TLT", 1000, 10],
      ]);
      expect(flat(p)[1]!.volatilities[5]).toBeGreaterThan(0.1);
      expect(flat(p)[1]).toMatchObject({ currency: "USD", stale: false, name: "Apple Inc." });
      // Monitoring has its first day: the save day, worth what was invested. The answer came once
      // the portfolio was committed; the valuation follows it.
      await ht.settled();
      const valued = (await call<Portfolio>("GET", `/portfolios/${p.id}`, token)).body;
      expect(valued.valuation).toMatchObject({ date: TODAY, value: 10_000, return: 0 });
      expect(valued.valuation!.risk).toBeGreaterThan(0);
      const advanced = await client({ simAssets: "advanced" });
      expect((await save(advanced.token)).body.remainingEditions).toBe(20);
    });

    it("refuses a plan without the save permission with 403 SAVE_FORBIDDEN", async () => {
      const { token } = await client();
      const res = await save(token);
      expect(res.status).toBe(403);
      expect(res.body.msgCode).toBe("SAVE_FORBIDDEN");
    });

    it.each([
      ["CURRENCY_UNDEFINED", { currency: null }],
      ["TOO_FEW_ASSETS", { assets: [] }],
      ["TOO_FEW_ASSETS", { assets: holdings(["AAPL", 0], ["KO", -10]) }],
      [
        "TOO_MANY_ASSETS",
        {
          maxAssetsLevel: 1,
          assets: holdings(["AAPL", 1], ["KO", 1], ["PG", 1], ["JNJ", 1], ["V", 1], ["DIS", 1]),
        },
      ],
      [
        // Level 3 allows 30, the standard plan's maxAssets 10.
        "TOO_MANY_ASSETS",
        {
          maxAssetsLevel: 3,
          assets: holdings(
            ...["AAPL", "MSFT", "AMZN", "NVDA", "GOOGL", "JPM", "JNJ", "KO", "XOM", "PG", "V"].map(
              (s) => [s, 100] as [string, number],
            ),
          ),
        },
      ],
      ["TOTAL_TOO_HIGH", { assets: holdings(["AAPL", 4_000_000], ["KO", 1_000_000.01]) }],
    ])("refuses with 400 %s", async (msgCode, body) => {
      const { token, id } = await client({ simAssets: "standard" });
      const res = await save(token, body);
      expect(res.status).toBe(400);
      expect(res.body.msgCode).toBe(msgCode);
      const list = await call<PortfolioList>("GET", "/portfolios", token);
      expect(list.body.portfolios, `client ${id}`).toEqual([]);
    });

    it("accepts the limits themselves: 5,000,000 in total, the plan's maxAssets", async () => {
      const { token } = await client({ simAssets: "standard" });
      const big = await save(token, { assets: holdings(["AAPL", 4_000_000], ["KO", 1_000_000]) });
      expect(big.status).toBe(201);
      const ten = await save(token, {
        maxAssetsLevel: 2,
        assets: holdings(
          ...["AAPL", "MSFT", "AMZN", "NVDA", "GOOGL", "JPM", "JNJ", "KO", "XOM", "PG"].map(
            (s) => [s, 100] as [string, number],
          ),
        ),
      });
      expect(ten.status).toBe(201);
      const advanced = await client({ simAssets: "advanced" });
      const eleven = await save(advanced.token, {
        maxAssetsLevel: 3,
        assets: holdings(
          ...["AAPL", "MSFT", "AMZN", "NVDA", "GOOGL", "JPM", "JNJ", "KO", "XOM", "PG", "V"].map(
            (s) => [s, 100] as [string, number],
          ),
        ),
      });
      expect(eleven.status).toBe(201);
    });

    it("drops assets of zero or less, and rounds amounts to cents", async () => {
      const { token } = await client({ simAssets: "standard" });
      const res = await save(token, {
        assets: holdings(["AAPL", 1000.004], ["KO", 0], ["MSFT", -5], ["PG", 0.004]),
      });
      expect(res.status).toBe(201);
      expect(flat(res.body).map((a) => [a.id, a.investedAmount])).toEqual([["AAPL", 1000]]);
      expect(res.body.totalInvested).toBe(1000);
    });

    it.each([
      ["an unknown symbol", "NOPE"],
      ["an index", "GSPC_INDEX"],
      ["a stale asset", "OLD"],
    ])("refuses %s with 400 UNKNOWN_ASSET naming it", async (_what, symbol) => {
      const { token } = await client({ simAssets: "standard" });
      const res = await save(token, { assets: holdings(["AAPL", 100], [symbol, 100]) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        msgCode: "UNKNOWN_ASSET",
        issues: [{ path: "assets", message: symbol }],
      });
    });

    it("refuses a symbol given twice", async () => {
      const { token } = await client({ simAssets: "standard" });
      const res = await save(token, { assets: holdings(["AAPL", 100], ["AAPL", 100]) });
      expect(res.status).toBe(400);
      expect(res.body.msgCode).toBe("INVALID_REQUEST");
    });

    it("stops at the plan's saveLimit: the 6th save of the standard plan is SAVE_LIMIT_REACHED", async () => {
      const { token } = await client({ simAssets: "standard", simIndices: "advanced" });
      for (let i = 0; i < 5; i++) expect((await save(token, { name: `P${i}` })).status).toBe(201);
      const sixth = await save(token, { name: "P6" });
      expect(sixth.status).toBe(403);
      expect(sixth.body.msgCode).toBe("SAVE_LIMIT_REACHED");
      // Limits are per product.
      const other = await save(token, { assets: holdings(["SPY", 100]) }, "?stc=simIndices");
      expect(other.status).toBe(201);
      const limits = await call("GET", "/client/check-portfolios-limit", token);
      expect(limits.body.find((l: any) => l.category === "simAssets").availablePortfolios).toBe(0);
    });

    it("lets exactly one of several concurrent saves take the last slot", async () => {
      const { token } = await client({ simAssets: "standard" });
      for (let i = 0; i < 4; i++) expect((await save(token)).status).toBe(201);
      const all = await Promise.all(
        ["A", "B", "C", "D", "E", "F"].map((name) => save(token, { name })),
      );
      expect(all.map((r) => r.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
      expect(all.filter((r) => r.status === 403).map((r) => r.body.msgCode)).toEqual(
        Array(5).fill("SAVE_LIMIT_REACHED"),
      );
      const list = await call<PortfolioList>("GET", "/portfolios", token);
      expect(list.body.portfolios).toHaveLength(5);
    });

    it("refuses banana portfolios, made and changed only through the banana challenge", async () => {
      const { token } = await client({ simMonk: "advanced" });
      const eu = { monkeyRegion: "eu", assets: holdings(["SAN.MC", 5000], ["SAP.DE", 5000]) };
      for (const body of [eu, { assets: eu.assets }]) {
        const refused = await save(token, body, "?stc=simMonk");
        expect(refused.status).toBe(400);
        expect(refused.body.msgCode).toBe("BANANA_THROUGH_CHALLENGE");
      }
      const list = await call<PortfolioList>("GET", "/portfolios?stc=simMonk", token);
      expect(list.body.portfolios).toHaveLength(0);
      // One made through the challenge cannot be edited here either (the window and the whole shares
      // are the banana service's).
      const universe = await call<{ stocks: { symbol: string; close: number }[] }>(
        "GET",
        "/banana/universe?region=eu",
        token,
      );
      const stock = [...universe.body.stocks].sort((a, b) => a.close - b.close)[0]!;
      const shares = Math.floor(10_000 / stock.close);
      const banana = await call<{ id: number; version: number }>(
        "POST",
        "/banana/portfolios",
        token,
        {
          name: "Bananas",
          region: "eu",
          assets: [{ id: stock.symbol, shares }],
        },
      );
      expect(banana.status).toBe(201);
      const edit = await call<Portfolio>(
        "PUT",
        `/portfolios/${banana.body.id}?stc=simMonk`,
        token,
        {
          version: banana.body.version,
          assets: holdings([stock.symbol, 100]),
        },
      );
      expect(edit.status).toBe(400);
      expect(edit.body.msgCode).toBe("BANANA_THROUGH_CHALLENGE");
    });
  });

  describe("list, read, edit, reset, delete", () => {
    it("lists the client's portfolios of the product, newest first, with their valuation", async () => {
      const { token } = await client({ simAssets: "standard", simIndices: "advanced" });
      await save(token, { name: "First" });
      await save(token, { name: "Second" });
      await save(token, { name: "Index", assets: holdings(["SPY", 100]) }, "?stc=simIndices");
      await ht.settled(); // the first valuations follow the saves' answers
      const list = await call<PortfolioList>("GET", "/portfolios", token);
      expect(list.status).toBe(200);
      expect(decode(PortfolioList, list.body).ok).toBe(true);
      expect(list.body.portfolios.map((p) => p.name)).toEqual(["Second", "First"]);
      expect(list.body.portfolios.every((p) => p.valuation?.date === TODAY)).toBe(true);
      expect(list.body.simulated).toBe(true);
      const indices = await call<PortfolioList>("GET", "/portfolios?stc=simIndices", token);
      expect(indices.body.portfolios.map((p) => p.name)).toEqual(["Index"]);
    });

    it("answers 404 NOT_FOUND for another client's portfolio, whatever the call", async () => {
      const owner = await client({ simAssets: "advanced" });
      const other = await client({ simAssets: "advanced" });
      const { body } = await save(owner.token);
      const url = `/portfolios/${body.id}`;
      const calls = [
        call("GET", url, other.token),
        call("PUT", url, other.token, { version: 1, assets: holdings(["KO", 10]) }),
        call("POST", `${url}/reset`, other.token, { version: 1 }),
        call("DELETE", url, other.token),
        call("GET", `${url}/analysis`, other.token),
        call("GET", `${url}/history`, other.token),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(res.body.msgCode).toBe("NOT_FOUND");
      }
      for (const ext of ["csv", "pdf"]) {
        const res = await ht.request(`/api${url}/export.${ext}`, {
          headers: { Authorization: `Bearer ${other.token}` },
        });
        expect(res.status).toBe(404);
      }
      expect((await call("GET", url, owner.token)).status).toBe(200);
    });

    it("edits while editions remain: the standard plan's 3, then 403 NO_EDITIONS_LEFT", async () => {
      const { token } = await client({ simAssets: "standard" });
      const { body: saved } = await save(token);
      let version = saved.version;
      for (const remaining of [2, 1, 0]) {
        const res = await call<Portfolio>("PUT", `/portfolios/${saved.id}`, token, {
          version,
          assets: holdings(["AAPL", 5000], ["KO", 2000 + remaining]),
        });
        expect(res.status).toBe(200);
        expect(res.body.remainingEditions).toBe(remaining);
        expect(res.body.version).toBe(version + 1);
        version = res.body.version;
      }
      const fourth = await call("PUT", `/portfolios/${saved.id}`, token, {
        version,
        assets: holdings(["AAPL", 1]),
      });
      expect(fourth.status).toBe(403);
      expect(fourth.body.msgCode).toBe("NO_EDITIONS_LEFT");
      const stored = await call<Portfolio>("GET", `/portfolios/${saved.id}`, token);
      expect(flat(stored.body).map((a) => [a.id, a.investedAmount])).toEqual([
        ["AAPL", 5000],
        ["KO", 2000],
      ]);
      expect(stored.body.initialInvested).toBe(10_000);
      expect(stored.body.totalInvested).toBe(7000);
    });

    it("applies the composition rules to an edition, and zero removes an asset", async () => {
      const { token } = await client({ simAssets: "standard" });
      const { body: saved } = await save(token);
      const tooHigh = await call("PUT", `/portfolios/${saved.id}`, token, {
        version: 1,
        assets: holdings(["AAPL", 5_000_001]),
      });
      expect(tooHigh.status).toBe(400);
      expect(tooHigh.body.msgCode).toBe("TOTAL_TOO_HIGH");
      const none = await call("PUT", `/portfolios/${saved.id}`, token, {
        version: 1,
        assets: holdings(["AAPL", 0]),
      });
      expect(none.body.msgCode).toBe("TOO_FEW_ASSETS");
      const unknown = await call("PUT", `/portfolios/${saved.id}`, token, {
        version: 1,
        assets: holdings(["AAPL", 10], ["OLD", 10]),
      });
      expect(unknown.body.msgCode).toBe("UNKNOWN_ASSET");
      const res = await call<Portfolio>("PUT", `/portfolios/${saved.id}`, token, {
        version: 1,
        name: "Renamed",
        benchmark: 4,
        assets: holdings(["AAPL", 6000], ["SAN.MC", 0], ["TLT", 1000]),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: "Renamed", benchmark: 4, remainingEditions: 2 });
      expect(flat(res.body).map((a) => a.id)).toEqual(["AAPL", "TLT"]);
    });

    it("refuses an edition read at an older version with 412 PORTFOLIO_CONFLICT", async () => {
      const { token } = await client({ simAssets: "advanced" });
      const { body: saved } = await save(token);
      const url = `/portfolios/${saved.id}`;
      const both = await Promise.all([
        call("PUT", url, token, { version: 1, assets: holdings(["AAPL", 100]) }),
        call("PUT", url, token, { version: 1, assets: holdings(["KO", 100]) }),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 412]);
      expect(both.find((r) => r.status === 412)!.body.msgCode).toBe("PORTFOLIO_CONFLICT");
      const stale = await call("PUT", url, token, { version: 1, assets: holdings(["PG", 100]) });
      expect(stale.status).toBe(412);
      const stored = await call<Portfolio>("GET", url, token);
      expect(stored.body.version).toBe(2);
      expect(stored.body.remainingEditions).toBe(19);
    });

    it("refuses editions and deletions once the plan no longer has them", async () => {
      const { token, id } = await client({ simAssets: "standard" });
      const { body: saved } = await save(token);
      await database.db
        .update(subscriptions)
        .set({ active: false })
        .where(eq(subscriptions.clientId, id));
      const edit = await call("PUT", `/portfolios/${saved.id}`, token, {
        version: 1,
        assets: holdings(["AAPL", 100]),
      });
      expect(edit.status).toBe(403);
      expect(edit.body.msgCode).toBe("EDIT_FORBIDDEN");
      const reset = await call("POST", `/portfolios/${saved.id}/reset`, token, { version: 1 });
      expect(reset.body.msgCode).toBe("EDIT_FORBIDDEN");
      const del = await call("DELETE", `/portfolios/${saved.id}`, token);
      expect(del.status).toBe(403);
      expect(del.body.msgCode).toBe("DELETE_FORBIDDEN");
      // Still readable.
      expect((await call("GET", `/portfolios/${saved.id}`, token)).status).toBe(200);
      await database.db
        .update(subscriptions)
        .set({ active: true })
        .where(eq(subscriptions.clientId, id));
    });

    it("resets the chosen amounts (or all) in its answer, storing nothing", async () => {
      const { token } = await client({ simAssets: "standard" });
      const { body: saved } = await save(token);
      const url = `/portfolios/${saved.id}`;
      const one = await call<Portfolio>("POST", `${url}/reset`, token, {
        version: 1,
        ids: ["AAPL"],
      });
      expect(one.status).toBe(200);
      expect(flat(one.body).map((a) => [a.id, a.investedAmount])).toEqual([
        ["SAN.MC", 3000],
        ["AAPL", 0],
        ["TLT", 1000],
      ]);
      expect(one.body.totalInvested).toBe(4000);
      const all = await call<Portfolio>("POST", `${url}/reset`, token, { version: 1 });
      expect(flat(all.body).every((a) => a.investedAmount === 0 && a.percentage === 0)).toBe(true);
      expect(all.body.totalInvested).toBe(0);
      expect(all.body.version).toBe(1);
      expect(all.body.remainingEditions).toBe(3);
      const stored = await call<Portfolio>("GET", url, token);
      expect(stored.body.totalInvested).toBe(10_000);
      const unknown = await call("POST", `${url}/reset`, token, { version: 1, ids: ["KO"] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.msgCode).toBe("UNKNOWN_ASSET");
      const stale = await call("POST", `${url}/reset`, token, { version: 2 });
      expect(stale.status).toBe(412);
      // The edition that follows stores the new amounts; what stays at 0 is removed.
      const edited = await call<Portfolio>("PUT", url, token, {
        version: 1,
        assets: flat(all.body).map((a) => ({
          id: a.id,
          investedAmount: a.id === "TLT" ? 2500 : 0,
        })),
      });
      expect(flat(edited.body).map((a) => [a.id, a.investedAmount])).toEqual([["TLT", 2500]]);
    });

    it("deletes with the permission, freeing the slot", async () => {
      const { token } = await client({ simAssets: "standard" });
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await save(token)).body.id);
      expect((await save(token)).status).toBe(403);
      const del = await call("DELETE", `/portfolios/${ids[0]}`, token);
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ status: "accepted" });
      expect((await call("GET", `/portfolios/${ids[0]}`, token)).status).toBe(404);
      expect((await call("GET", `/portfolios/${ids[0]}/history`, token)).status).toBe(404);
      expect((await save(token)).status).toBe(201);
    });
  });
});
