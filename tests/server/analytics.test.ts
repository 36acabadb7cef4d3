import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AnalysisResponse,
  OptimiseResponse,
  SimulateResponse,
} from "../../src/contract/analytics.ts";
import { optimise } from "../../src/server/analytics/tasks.ts";
import { decode } from "../../src/contract/decode.ts";
import { analysePortfolio } from "../../src/engine/analysis.ts";
import { alignReturns } from "../../src/engine/returns.ts";
import { loadAssets, loadFx } from "../../src/server/analytics/series.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { createLogger } from "../../src/server/logger.ts";
import type { Dataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { advancedSession, databaseTargets } from "../support/databases.ts";

/** The simulated market plus a stock that stopped trading 100 business days ago and a young one. */
function marketWithAStoppedStock(): Dataset {
  const simulated = simulatedDataset({ end: "2026-11-20", days: 1400 });
  const base = simulated.prices.get("KO")!;
  const stopped = {
    dates: base.dates.slice(0, -100),
    values: base.values.slice(0, -100).map((v) => v * 1.5),
  };
  const young = {
    dates: base.dates.slice(-300),
    values: base.values.slice(-300).map((v) => v * 0.7),
  };
  const ko = simulated.assets.find((a) => a.symbol === "KO")!;
  return {
    assets: [
      ...simulated.assets,
      { ...ko, symbol: "OLD", name: "Old Co" },
      { ...ko, symbol: "NEW", name: "New Co" },
    ],
    prices: new Map([...simulated.prices, ["OLD", stopped], ["NEW", young]]),
    macro: new Map(),
  };
}

describe.each(databaseTargets)("analytics API on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(database.db, marketWithAStoppedStock(), "simulated");
    pool = createAnalyticsPool(2);
  });
  afterAll(async () => {
    await pool.close();
    await drop();
  });

  const app = () =>
    createApp({
      config: loadConfig({}),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
      pool,
    });
  let token: Promise<string>;
  beforeAll(() => {
    token = advancedSession(database);
  });
  const headers = async () => ({
    "Content-Type": "application/json",
    Authorization: `Bearer ${await token}`,
  });
  const post = async (body: unknown) =>
    app().request("/api/analytics/analyse", {
      method: "POST",
      headers: await headers(),
      body: JSON.stringify(body),
    });

  const portfolio = {
    currency: "EUR",
    benchmark: 4,
    assets: [
      { symbol: "AAPL", amount: 6000 },
      { symbol: "SAN.MC", amount: 3000 },
      { symbol: "TLT", amount: 1000 },
    ],
  };

  it("answers 503 with Retry-After when the analytics queue is full, never an endless wait", async () => {
    const full = createAnalyticsPool({ size: 1, maxQueued: 0 });
    try {
      // The one worker is busy with a long job; nothing may wait behind it.
      const { syntheticMarket } = await import("../../src/engine/synthetic.ts");
      const big = syntheticMarket({ assets: 200, days: 1300, seed: 1 });
      const long = full.run("analyse", {
        panel: big.panel,
        amounts: new Float64Array(200).fill(1),
        benchmark: 5,
        monteCarlo: { paths: 20000, seed: 1 },
      });
      const res = await createApp({
        config: loadConfig({}),
        database,
        logger: createLogger("silent"),
        version: "test",
        mailer: { kind: "outbox", send: async () => {} },
        botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
        pool: full,
      }).request("/api/analytics/analyse", {
        method: "POST",
        headers: await headers(),
        body: JSON.stringify(portfolio),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(await res.json()).toEqual({ msgCode: "SERVER_BUSY" });
      await long;
    } finally {
      await full.close();
    }
  });

  it("answers the engine's figures for the same inputs, decoded by the contract", async () => {
    const res = await post(portfolio);
    expect(res.status).toBe(200);
    const decoded = decode(AnalysisResponse, await res.json());
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const body = decoded.value;
    // Reproduce from the same inputs with the engine directly.
    const { assets } = await loadAssets(database.db, ["AAPL", "SAN.MC", "TLT"], "2000-01-01");
    const fx = await loadFx(database.db, "2000-01-01");
    const aligned = alignReturns(
      assets.map((a) => a.series),
      { currency: "EUR", fx: fx! },
    );
    const direct = analysePortfolio({
      panel: aligned.panel,
      amounts: Float64Array.of(6000, 3000, 1000),
      currency: "EUR",
      benchmark: 4,
      fx: { returns: aligned.fxReturns, foreign: aligned.foreign },
    });
    // An advanced plan: nothing is left out.
    expect(body.locked).toEqual([]);
    expect(body.var!.parametric.varAmount).toBeCloseTo(direct.var.parametric.varAmount, 6);
    expect(body.var!.historical.cvarAmount).toBeCloseTo(direct.var.historical.cvarAmount, 6);
    expect(body.volatility.annual).toBeCloseTo(direct.volatility.annual, 10);
    expect(body.assets.map((a) => a.percentage!).reduce((s, x) => s + x, 0)).toBeCloseTo(100, 9);
    // The loss distribution drawn on screen is the historical VaR's scenarios.
    expect(body.distribution).toHaveLength(direct.var.historical.scenarios!);
    const sorted = [...body.distribution!].sort((a, b) => a - b);
    const tail = sorted.slice(0, Math.max(1, Math.floor(sorted.length * 0.05)));
    expect(-tail.reduce((s, x) => s + x, 0) / tail.length).toBeCloseTo(
      direct.var.historical.cvar,
      2,
    );
    expect(body.window).toMatchObject({
      benchmark: 4,
      observations: 252,
      horizonDays: 21,
      confidence: 0.95,
      to: "2026-11-20",
      simulated: true,
      limitedBy: [],
    });
    // AAPL is a dollar asset in a euro portfolio: currency risk is measured.
    expect(body.currencyRisk?.exposure).toBeCloseTo(0.7, 10);
    expect(body.breakdown.currency?.map((e) => e.key).sort()).toEqual(["EUR", "USD"]);
  });

  it("uses the latest common window when an asset stopped trading, and says so", async () => {
    const res = await post({
      currency: "EUR",
      benchmark: 3,
      assets: [
        { symbol: "KO", amount: 1000 },
        { symbol: "OLD", amount: 1000 },
      ],
    });
    const json = await res.json();
    const decoded = decode(AnalysisResponse, json);
    expect(decoded.ok, JSON.stringify(json).slice(0, 300)).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.value.window.limitedBy).toEqual(["OLD"]);
    expect(decoded.value.window.to < "2026-11-20").toBe(true);
  });

  it("refuses bad input with a msgCode and names the problem", async () => {
    expect((await post({ ...portfolio, currency: "GBP" })).status).toBe(400);
    expect((await post({ ...portfolio, assets: [] })).status).toBe(400);
    expect((await post({ ...portfolio, assets: [{ symbol: "AAPL", amount: -5 }] })).status).toBe(
      400,
    );
    const twice = await post({
      ...portfolio,
      assets: [
        { symbol: "AAPL", amount: 5 },
        { symbol: "AAPL", amount: 6 },
      ],
    });
    expect(await twice.json()).toMatchObject({
      msgCode: "INVALID_REQUEST",
      issues: [{ path: "assets", message: "AAPL appears twice" }],
    });
    const unknown = await post({ ...portfolio, assets: [{ symbol: "NOPE", amount: 5 }] });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      msgCode: "UNKNOWN_ASSET",
      issues: [{ path: "assets", message: "NOPE" }],
    });
  });

  const postTo = async (path: string, body: unknown) =>
    app().request(`/api/analytics/${path}`, {
      method: "POST",
      headers: await headers(),
      body: JSON.stringify(body),
    });

  it("optimises to the engine's minimum-risk portfolio, including assets not yet held and the market's", async () => {
    const body = {
      currency: "EUR",
      benchmark: 4,
      assets: [...portfolio.assets, { symbol: "GLD", amount: 0 }],
      maxToLose95: 5000,
    };
    const decoded = decode(OptimiseResponse, await (await postTo("optimise", body)).json());
    expect(decoded.ok).toBe(true);
    if (!decoded.ok || decoded.value.status !== "optimal")
      throw new Error("expected an optimal answer");
    // A new asset makes it o2: the server also offers the universe's most diversifying assets
    // (docs/optimisation.md §6), after those of the request, each at amount 0.
    const symbols = decoded.value.assets.map((a) => a.symbol);
    expect(symbols.slice(0, 4)).toEqual(["AAPL", "SAN.MC", "TLT", "GLD"]);
    expect(symbols.length).toBeGreaterThan(4);
    const { assets } = await loadAssets(database.db, symbols, "2000-01-01");
    const fx = await loadFx(database.db, "2000-01-01");
    const aligned = alignReturns(
      assets.map((a) => a.series),
      { currency: "EUR", fx: fx! },
    );
    const n = symbols.length;
    // The plan's 30 assets are more than those offered: the bound does not bind, minimum risk.
    const direct = optimise({
      panel: aligned.panel,
      amounts: Float64Array.from(symbols, (_, i) => [6000, 3000, 1000][i] ?? 1e-9),
      benchmark: 4,
      lower: new Float64Array(n),
      upper: new Float64Array(n).fill(1),
    });
    expect(direct.ok).toBe(true);
    if (!direct.ok) return;
    decoded.value.assets.forEach((a, i) => expect(a.weight).toBeCloseTo(direct.weights[i]!, 9));
    expect(decoded.value.assets.reduce((sum, a) => sum + a.amount, 0)).toBeCloseTo(10_000, 6);
    expect(decoded.value.volatility).toBeCloseTo(direct.volatility, 12);
  });

  it("keeps a chosen asset within its weights and respects the desired number of assets", async () => {
    const kept = decode(
      OptimiseResponse,
      await (
        await postTo("optimise", {
          ...portfolio,
          maxToLose95: 5000,
          assets: portfolio.assets.map((a) =>
            a.symbol === "AAPL" ? { ...a, keep: true, minWeight: 0.3, maxWeight: 0.4 } : a,
          ),
        })
      ).json(),
    );
    expect(
      kept.ok && kept.value.status === "optimal" && kept.value.assets[0]!.weight,
    ).toBeGreaterThanOrEqual(0.3 - 1e-9);
    expect(
      kept.ok && kept.value.status === "optimal" && kept.value.assets[0]!.weight,
    ).toBeLessThanOrEqual(0.4 + 1e-9);
    const five = [...portfolio.assets, { symbol: "GLD", amount: 0 }, { symbol: "KO", amount: 0 }];
    const two = decode(
      OptimiseResponse,
      await (
        await postTo("optimise", {
          ...portfolio,
          assets: five,
          desiredAssetsAmount: 2,
          maxToLose95: 5000,
        })
      ).json(),
    );
    expect(
      two.ok &&
        two.value.status === "optimal" &&
        two.value.assets.filter((a) => a.weight > 1e-9).length,
    ).toBeLessThanOrEqual(2);
  });

  it("says which constraint cannot be met: a loss cap below the smallest possible loss", async () => {
    const answer = decode(
      OptimiseResponse,
      await (
        await postTo("optimise", {
          ...portfolio,
          // The smallest loss the rules accept (1.1% of 10,000), below what any mix can reach.
          maxToLose95: 110,
          objective: "maximum-return",
        })
      ).json(),
    );
    expect(answer.ok).toBe(true);
    if (!answer.ok || answer.value.status !== "infeasible") throw new Error("expected infeasible");
    expect(answer.value.reason.code).toBe("CVAR_CAP_INFEASIBLE");
    expect(answer.value.reason.detail.minimumCvar).toBeGreaterThan(
      answer.value.reason.detail.maxCvar!,
    );
  });

  it("simulates investing: percentiles in order, month 0 is the initial amount, contributions add up", async () => {
    const res = await postTo("simulate", {
      ...portfolio,
      initialAmount: 10_000,
      monthlyContribution: 200,
      years: 5,
      paths: 2000,
      seed: 9,
    });
    const decoded = decode(SimulateResponse, await res.json());
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const { percentiles, invested, months } = decoded.value;
    expect(months).toBe(60);
    expect(invested[60]).toBe(10_000 + 60 * 200);
    expect(percentiles.map((q) => q.percentile)).toEqual([5, 25, 50, 75, 95]);
    for (const q of percentiles) expect(q.values[0]).toBe(10_000);
    for (let k = 1; k <= 60; k++)
      for (let j = 1; j < 5; j++)
        expect(percentiles[j]!.values[k]!).toBeGreaterThanOrEqual(percentiles[j - 1]!.values[k]!);
    // The same seed gives the same figures.
    const again = await (
      await postTo("simulate", {
        ...portfolio,
        initialAmount: 10_000,
        monthlyContribution: 200,
        years: 5,
        paths: 2000,
        seed: 9,
      })
    ).json();
    expect((again as { percentiles: unknown }).percentiles).toEqual(percentiles);
    expect(
      (
        await postTo("simulate", {
          ...portfolio,
          initialAmount: 10_000,
          monthlyContribution: 200,
          years: 0,
        })
      ).status,
    ).toBe(400);
  });

  it("says when the history is too short for the window", async () => {
    // NEW has 300 prices: enough for the 1-year window (252 returns), not for 3 years (756).
    const ok = await post({
      currency: "EUR",
      benchmark: 4,
      assets: [
        { symbol: "NEW", amount: 1000 },
        { symbol: "KO", amount: 1000 },
      ],
    });
    expect(ok.status).toBe(200);
    const res = await post({
      currency: "EUR",
      benchmark: 5,
      assets: [
        { symbol: "NEW", amount: 1000 },
        { symbol: "KO", amount: 1000 },
      ],
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ msgCode: "NOT_ENOUGH_HISTORY" });
  });
});

describe("the analytics pool", () => {
  it("refuses at once when its queue is full, and keeps a worker free of heavy jobs", async () => {
    const pool = createAnalyticsPool({ size: 2, maxQueued: 2 });
    try {
      const { syntheticMarket } = await import("../../src/engine/synthetic.ts");
      const big = syntheticMarket({ assets: 200, days: 1300, seed: 1 });
      const small = syntheticMarket({ assets: 5, days: 300, seed: 2 });
      const heavy = () =>
        pool.run(
          "analyse",
          {
            panel: big.panel,
            amounts: new Float64Array(200).fill(1),
            benchmark: 5,
            monteCarlo: { paths: 5000, seed: 1 },
          },
          { heavy: true },
        );
      const lightJob = () =>
        pool.run("analyse", {
          panel: small.panel,
          amounts: new Float64Array(5).fill(1),
          benchmark: 4,
        });
      // Both workers started and warm (a cold start on a loaded machine can outlast a heavy job).
      await Promise.all([lightJob(), lightJob()]);
      const finished: string[] = [];
      // Three heavy jobs: one runs, two wait (the second worker is kept for light ones).
      const heavies = [heavy(), heavy(), heavy()].map((p, i) =>
        p.then(() => finished.push(`heavy${i}`)),
      );
      const light = lightJob().then(() => finished.push("light"));
      // The queue holds 2: a fifth job is refused at once with a wait to retry after.
      await expect(heavy()).rejects.toMatchObject({ name: "PoolBusy", retryAfterSeconds: 1 });
      await Promise.all([...heavies, light]);
      expect(finished[0]).toBe("light");
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("runs jobs in parallel workers, so a long one does not hold a short one back", async () => {
    const pool = createAnalyticsPool(2);
    try {
      const { syntheticMarket } = await import("../../src/engine/synthetic.ts");
      const big = syntheticMarket({ assets: 200, days: 1300, seed: 1 });
      const small = syntheticMarket({ assets: 5, days: 300, seed: 2 });
      const finished: string[] = [];
      const long = pool
        .run("analyse", {
          panel: big.panel,
          amounts: new Float64Array(200).fill(1),
          benchmark: 5,
          monteCarlo: { paths: 20000, seed: 1 },
        })
        .then(() => finished.push("long"));
      const short = pool
        .run("analyse", { panel: small.panel, amounts: new Float64Array(5).fill(1), benchmark: 4 })
        .then(() => finished.push("short"));
      await Promise.all([long, short]);
      expect(finished).toEqual(["short", "long"]);
      await expect(
        pool.run("analyse", {
          panel: small.panel,
          amounts: new Float64Array(5).fill(1),
          benchmark: 6,
        }),
      ).rejects.toMatchObject({ code: "NOT_ENOUGH_HISTORY" });
    } finally {
      await pool.close();
    }
  });
});
