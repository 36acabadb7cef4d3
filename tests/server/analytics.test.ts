import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AnalysisResponse,
  OptimiseResponse,
  SimulateResponse,
} from "../../src/contract/analytics.ts";
import type { AssetSummary, AssetView } from "../../src/contract/market.ts";
import { optimise } from "../../src/server/analytics/engine-tasks.ts";
import { decode } from "../../src/contract/decode.ts";
import { analysePortfolio } from "../../src/engine/analysis.ts";
import { alignReturns } from "../../src/engine/returns.ts";
import { loadAssets, loadFx } from "../../src/server/analytics/series.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import type { Database } from "../../src/server/db/database.ts";
import { readDataset, type Dataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { configureMarket } from "../../src/server/market/market-view.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { apiAgent, type ApiAgent } from "../support/accounts.ts";
import { advancedSession, databaseTargets } from "../support/databases.ts";
import {
  hasMarketData,
  openMarketApp,
  sampleOfMarketData,
  testApp,
} from "../support/market-app.ts";

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
  const gld = simulated.assets.find((a) => a.symbol === "GLD")!;
  const index = simulated.assets.find((a) => a.symbol === "STOXX50E_INDEX")!;
  // Instruments no portfolio can hold (issue 24): an index and a fund quoted in pounds, which the
  // data cannot convert (no GBP rate), and a 10-year yield (a level in percent).
  const unholdable = [
    { ...index, symbol: "FTSE_INDEX", name: "FTSE 100", currency: "GBP", region: "uk" },
    { ...gld, symbol: "FUND.L", name: "A London fund", currency: "GBP" },
    { ...index, symbol: "UKY10", name: "A 10-year yield", kind: "rate", assetClass: null },
  ];
  return {
    assets: [
      ...simulated.assets,
      { ...ko, symbol: "OLD", name: "Old Co" },
      { ...ko, symbol: "NEW", name: "New Co" },
      ...unholdable,
    ],
    prices: new Map([
      ...simulated.prices,
      ["OLD", stopped],
      ["NEW", young],
      ...unholdable.map((a) => [a.symbol, base] as const),
    ]),
    macro: new Map(),
  };
}

/** The last close on or before each day of `days` (ascending day numbers), carried forward. */
function closesOn(series: { dates: Int32Array; prices: Float64Array }, days: Int32Array) {
  const out = new Float64Array(days.length);
  let k = -1;
  days.forEach((d, t) => {
    while (k + 1 < series.dates.length && series.dates[k + 1]! <= d) k++;
    out[t] = series.prices[k]!;
  });
  return out;
}

describe.each(databaseTargets)("analytics API on $name", (target) => {
  let database: Database;
  let api: ApiAgent;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, api, close } = await openMarketApp(target, {
      datasets: [marketWithAStoppedStock()],
      workers: 2,
    }));
  });
  afterAll(() => close());

  let token: Promise<string>;
  beforeAll(() => {
    token = advancedSession(database);
  });
  const postTo = async (path: string, body: unknown) =>
    api.request("POST", `/analytics/${path}`, { body, token: await token });
  const post = (body: unknown) => postTo("analyse", body);

  const portfolio = {
    currency: "EUR",
    benchmark: 4,
    assets: [
      { symbol: "AAPL", investedAmount: 6000 },
      { symbol: "SAN.MC", investedAmount: 3000 },
      { symbol: "TLT", investedAmount: 1000 },
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
      const res = await apiAgent(testApp(database, full), null).request(
        "POST",
        "/analytics/analyse",
        { body: portfolio, token: await token },
      );
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(await res.json()).toEqual({ msgCode: "SERVER_BUSY" });
      // The long job is not waited for: closing the pool ends its worker (and the job with it).
      long.catch(() => undefined);
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

  it("measures betas and the CAPM prior against the index of the portfolio's market (closed form)", async () => {
    const res = await post(portfolio);
    const decoded = decode(AnalysisResponse, await res.json());
    if (!decoded.ok) throw new Error("not an analysis");
    const body = decoded.value;
    expect(body.expectedReturn!.market).toBe("STOXX50E_INDEX");
    // The window's calendar (the engine's alignment, checked against numpy elsewhere), and on it
    // each asset's returns and the EURO STOXX 50's, its closes carried forward.
    const symbols = portfolio.assets.map((a) => a.symbol);
    const { assets } = await loadAssets(database.db, [...symbols, "STOXX50E_INDEX"], "2000-01-01");
    const fx = await loadFx(database.db, "2000-01-01");
    const aligned = alignReturns(
      assets.slice(0, 3).map((a) => a.series),
      { currency: "EUR", fx: fx! },
    );
    const n = 252;
    const days = aligned.dates.subarray(aligned.dates.length - n - 1);
    const level = closesOn(assets[3]!.series, days);
    const m = Array.from({ length: n }, (_, t) => level[t + 1]! / level[t]! - 1);
    const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
    const mm = mean(m);
    const vm = m.reduce((a, x) => a + (x - mm) ** 2, 0);
    const start = aligned.panel.observations - n;
    const w = portfolio.assets.map((a) => a.investedAmount / 10_000);
    let expected = 0;
    body.assets.forEach((a, i) => {
      const r = Array.from({ length: n }, (_, t) => aligned.panel.data[(start + t) * 3 + i]!);
      const ri = mean(r);
      const beta = r.reduce((acc, x, t) => acc + (x - ri) * (m[t]! - mm), 0) / vm;
      expect(a.beta!).toBeCloseTo(beta, 10);
      // Bayes-Stein between the historical mean and rf + beta ERP (2% and 5%), by its shrinkage.
      const s = body.expectedReturn!.shrinkage;
      expect(a.expectedReturn!).toBeCloseTo((1 - s) * 252 * ri + s * (0.02 + beta * 0.05), 12);
      expected += w[i]! * a.expectedReturn!;
    });
    expect(body.expectedReturn!.portfolio).toBeCloseTo(expected, 12);
    // The optimisation reports the same expected return for the same portfolio.
    const optimised = decode(
      OptimiseResponse,
      await (await postTo("optimise", { ...portfolio, maxToLose95: 5000 })).json(),
    );
    if (!optimised.ok || optimised.value.status !== "optimal") throw new Error("not optimal");
    expect(optimised.value.current.expectedReturn).toBeCloseTo(body.expectedReturn!.portfolio, 12);
  });

  it("refuses yields and currencies it cannot convert, in analyses, saves and asset lists, and still shows them in markets", async () => {
    for (const [symbol, code] of [
      ["FTSE_INDEX", "CURRENCY_NOT_CONVERTIBLE"],
      ["FUND.L", "CURRENCY_NOT_CONVERTIBLE"],
      ["UKY10", "YIELD_NOT_HOLDABLE"],
    ] as const) {
      const body = {
        currency: "EUR",
        assets: [...portfolio.assets, { symbol, investedAmount: 1000 }],
      };
      for (const path of ["analyse", "what-if", "optimise"]) {
        const extra =
          path === "what-if"
            ? { scenarioType: 1 }
            : path === "optimise"
              ? { maxToLose95: 5000 }
              : {};
        const res = await postTo(path, { ...body, ...extra });
        expect([path, res.status, await res.json()]).toEqual([
          path,
          400,
          { msgCode: code, issues: [{ path: "assets", message: symbol }] },
        ]);
      }
      const saved = await api.request("POST", "/portfolios?stc=simIndices", {
        token: await token,
        body: {
          name: "Not holdable",
          currency: "EUR",
          maxAssetsLevel: 2,
          assets: [
            { id: "TLT", investedAmount: 5000 },
            { id: symbol, investedAmount: 5000 },
          ],
        },
      });
      expect([saved.status, ((await saved.json()) as { msgCode: string }).msgCode]).toEqual([
        400,
        code,
      ]);
    }
    const list = async (query: string) =>
      (
        (await (await api.request("GET", `/market/assets?${query}`)).json()) as {
          assets: AssetSummary[];
        }
      ).assets.map((a) => a.symbol);
    // Not offered for a portfolio: a product's universe or a portfolio currency.
    expect(await list("product=simIndices")).not.toContain("FUND.L");
    expect(await list("product=simIndices")).toContain("GLD");
    for (const ccy of ["EUR", "USD"]) {
      const offered = await list(`currency=${ccy}`);
      expect(offered).toEqual(expect.arrayContaining(["AAPL", "SAN.MC", "STOXX50E_INDEX"]));
      for (const s of ["FTSE_INDEX", "FUND.L", "UKY10"]) expect(offered).not.toContain(s);
    }
    // Still in the markets, in their own currency.
    expect(await list("product=market")).toEqual(expect.arrayContaining(["FTSE_INDEX", "UKY10"]));
    const ftse = (await (
      await api.request("GET", "/market/assets/FTSE_INDEX")
    ).json()) as AssetView;
    expect(ftse.asset.currency).toBe("GBP");
  });

  it("uses the latest common window when an asset stopped trading, and says so", async () => {
    const res = await post({
      currency: "EUR",
      benchmark: 3,
      assets: [
        { symbol: "KO", investedAmount: 1000 },
        { symbol: "OLD", investedAmount: 1000 },
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
    expect(
      (await post({ ...portfolio, assets: [{ symbol: "AAPL", investedAmount: -5 }] })).status,
    ).toBe(400);
    const twice = await post({
      ...portfolio,
      assets: [
        { symbol: "AAPL", investedAmount: 5 },
        { symbol: "AAPL", investedAmount: 6 },
      ],
    });
    expect(await twice.json()).toMatchObject({
      msgCode: "INVALID_REQUEST",
      issues: [{ path: "assets", message: "AAPL appears twice" }],
    });
    const unknown = await post({ ...portfolio, assets: [{ symbol: "NOPE", investedAmount: 5 }] });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      msgCode: "UNKNOWN_ASSET",
      issues: [{ path: "assets", message: "NOPE" }],
    });
  });

  it("takes every holding as { symbol, investedAmount } and refuses the old { symbol, amount } (issue 26)", async () => {
    const bodies = {
      analyse: {},
      optimise: { level: 1, maxToLose95: 5000 },
      simulate: { initialAmount: 10_000, monthlyContribution: 0, years: 5, paths: 500, seed: 1 },
      "what-if": { backTesting: "1y" },
    };
    const old = portfolio.assets.map((a) => ({ symbol: a.symbol, amount: a.investedAmount }));
    for (const [path, rest] of Object.entries(bodies)) {
      // The old shape is no holding: refused with the contract's error, naming the missing field.
      const refused = await postTo(path, { ...portfolio, ...rest, assets: old });
      expect(refused.status, path).toBe(400);
      const answer = (await refused.json()) as {
        msgCode: string;
        issues: { path: string; message: string }[];
      };
      expect(answer.msgCode, path).toBe("INVALID_REQUEST");
      expect(
        answer.issues.map((i) => i.path),
        path,
      ).toEqual(old.map((_, i) => `assets.${i}.investedAmount`));
      // Both fields: the holding's `investedAmount` counts, the stray `amount` is dropped.
      const both = portfolio.assets.map((a) => ({ ...a, amount: 1 }));
      const [withBoth, plain] = await Promise.all([
        postTo(path, { ...portfolio, ...rest, assets: both }),
        postTo(path, { ...portfolio, ...rest }),
      ]);
      expect(plain.status, path).toBe(200);
      expect(await withBoth.json(), path).toEqual(await plain.json());
    }
  });

  it("optimises to the engine's minimum-risk portfolio, including assets not yet held and the market's", async () => {
    const body = {
      currency: "EUR",
      benchmark: 4,
      assets: [...portfolio.assets, { symbol: "GLD", investedAmount: 0 }],
      maxToLose95: 5000,
    };
    const decoded = decode(OptimiseResponse, await (await postTo("optimise", body)).json());
    expect(decoded.ok).toBe(true);
    if (!decoded.ok || decoded.value.status !== "optimal")
      throw new Error("expected an optimal answer");
    // A new asset makes it o2: the server also offers the universe's most diversifying assets
    // (docs/optimisation.md §6), after those of the request, each at invested amount 0.
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
    expect(decoded.value.assets.reduce((sum, a) => sum + a.investedAmount, 0)).toBeCloseTo(
      10_000,
      6,
    );
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
    const five = [
      ...portfolio.assets,
      { symbol: "GLD", investedAmount: 0 },
      { symbol: "KO", investedAmount: 0 },
    ];
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
        { symbol: "NEW", investedAmount: 1000 },
        { symbol: "KO", investedAmount: 1000 },
      ],
    });
    expect(ok.status).toBe(200);
    const res = await post({
      currency: "EUR",
      benchmark: 5,
      assets: [
        { symbol: "NEW", investedAmount: 1000 },
        { symbol: "KO", investedAmount: 1000 },
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

// The real dataset ($MARKET_DATA_DIR): a sample of its files, the market on 2024-05-31.
describe.skipIf(!hasMarketData)("analytics API on the real dataset", () => {
  const FUNDS = ["MSE.PA", "IEAC", "IHYG", "EURGOV10Y_TR", "CASH_EUR"];
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  let dir: string;
  let token: string;
  beforeAll(async () => {
    dir = await sampleOfMarketData(
      [...FUNDS, "STOXX50E_INDEX", "GDAXI_INDEX", "EURUSD", "FTSE_INDEX", "N225_INDEX", "US10Y"],
      "analytics-real-",
    );
    ({ database, drop } = await databaseTargets[0]!.open());
    await importDataset(database.db, await readDataset(dir), "imported");
    configureMarket(database.db, { asOf: "2024-05-31" });
    pool = createAnalyticsPool(1);
    token = await advancedSession(database);
  });
  afterAll(async () => {
    await pool.close();
    await drop();
    await rm(dir, { recursive: true });
  });
  const post = (path: string, body: unknown) =>
    apiAgent(testApp(database, pool), null).request("POST", `/analytics/${path}`, {
      body,
      token,
    });

  // scripts/reference/market_proxy.py (numpy): the holiday rule, Ledoit-Wolf and Bayes-Stein
  // towards CAPM with betas against the EURO STOXX 50 (the documented proxy), and against the
  // equally weighted funds (the former one, 2.33%).
  const numpy = {
    from: "2021-07-08",
    to: "2024-05-31",
    betas: [
      0.9791794515902013, 0.09034810342908627, 0.2582003270479875, -0.01086252100140272,
      0.0001884805891396703,
    ],
    expected: [
      0.10511787891932645, -0.012922069051564873, 0.016503001971571264, -0.049241218516616045,
      0.017580927578793096,
    ],
    shrinkage: 0.2761556363399254,
    portfolio: 0.01540770418030198,
    formerPortfolio: 0.023270236593692414,
  };

  it("five euro funds: the expected return of the documented rule (betas against the EURO STOXX 50), as numpy computes it", async () => {
    const res = await post("analyse", {
      currency: "EUR",
      assets: FUNDS.map((symbol) => ({ symbol, investedAmount: 2000 })),
    });
    expect(res.status).toBe(200);
    const decoded = decode(AnalysisResponse, await res.json());
    if (!decoded.ok) throw new Error("not an analysis");
    const body = decoded.value;
    expect([body.window.from, body.window.to, body.window.observations]).toEqual([
      numpy.from,
      numpy.to,
      756,
    ]);
    expect(body.expectedReturn!.market).toBe("STOXX50E_INDEX+GDAXI_INDEX");
    body.assets.forEach((a, i) => {
      expect(Math.abs(a.beta! - numpy.betas[i]!)).toBeLessThan(1e-9);
      expect(Math.abs(a.expectedReturn! - numpy.expected[i]!)).toBeLessThan(1e-9);
    });
    expect(Math.abs(body.expectedReturn!.shrinkage - numpy.shrinkage)).toBeLessThan(1e-9);
    expect(Math.abs(body.expectedReturn!.portfolio - numpy.portfolio)).toBeLessThan(1e-9);
    expect(Math.abs(body.expectedReturn!.portfolio - numpy.formerPortfolio)).toBeGreaterThan(0.005);
  });

  it("FTSE 100 (GBP) and Nikkei 225 (JPY) cannot be converted, the US 10-year yield is not held", async () => {
    for (const [symbol, code] of [
      ["FTSE_INDEX", "CURRENCY_NOT_CONVERTIBLE"],
      ["N225_INDEX", "CURRENCY_NOT_CONVERTIBLE"],
      ["US10Y", "YIELD_NOT_HOLDABLE"],
    ] as const)
      for (const currency of ["EUR", "USD"]) {
        const res = await post("analyse", {
          currency,
          assets: [
            { symbol: "MSE.PA", investedAmount: 5000 },
            { symbol, investedAmount: 5000 },
          ],
        });
        expect([res.status, ((await res.json()) as { msgCode: string }).msgCode]).toEqual([
          400,
          code,
        ]);
      }
  });
});
