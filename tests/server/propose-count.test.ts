// The proposal keeps its promise (docs/portfolios.md, "Propose"): for every ordering of q3 it holds
// the number of assets asked for, each at least at the minimum weight, whenever the universe, the
// plan and the loss limit allow it; otherwise it says why it holds fewer.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../src/contract/common.ts";
import { maxAssetsOfLevel } from "../../src/contract/portfolio-rules.ts";
import type { Tier } from "../../src/contract/permissions.ts";
import type { ProposeResponse } from "../../src/contract/portfolios.ts";
import { benchmarkWindowDays } from "../../src/engine/panel.ts";
import { alignReturns } from "../../src/engine/returns.ts";
import { createSession } from "../../src/server/accounts/sessions.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { loadAssets, loadFx } from "../../src/server/analytics/series.ts";
import { optimise } from "../../src/server/analytics/engine-tasks.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { clients, subscriptions } from "../../src/server/db/schema.ts";
import { createLogger } from "../../src/server/logger.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { shiftDays } from "../../src/server/market/repository.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import {
  maximumAssetWeight,
  minimumAssetWeight,
  sectorSlots,
} from "../../src/server/portfolios/propose.ts";
import { databaseTargets } from "../support/databases.ts";

const TODAY = "2026-11-20";
const orderings = [
  "balanced",
  "marketRisk",
  "expectedReturn",
  "riskReturn",
  "minimization",
] as const;

describe("minimumAssetWeight", () => {
  it("is 5%, or half an equal share above 10 assets, so n assets always fit", () => {
    expect(minimumAssetWeight(1)).toBe(0.05);
    expect(minimumAssetWeight(5)).toBe(0.05);
    expect(minimumAssetWeight(10)).toBe(0.05);
    expect(minimumAssetWeight(30)).toBeCloseTo(1 / 60, 12);
    expect(minimumAssetWeight(50)).toBeCloseTo(0.01, 12);
    for (let n = 1; n <= 50; n++)
      expect(n * minimumAssetWeight(n)).toBeLessThanOrEqual(0.5 + 1e-12);
  });
});

describe("the diversification rule", () => {
  it("caps an asset at 1.5 equal shares and a balanced sector at 40% (one asset's cap if more)", () => {
    expect(maximumAssetWeight(1)).toBe(1);
    expect(maximumAssetWeight(5)).toBeCloseTo(0.3, 15);
    expect(maximumAssetWeight(10)).toBeCloseTo(0.15, 15);
    expect([1, 2, 5, 10, 30, 50].map(sectorSlots)).toEqual([1, 1, 1, 2, 8, 13]);
    for (let n = 1; n <= 50; n++) {
      expect(n * maximumAssetWeight(n)).toBeGreaterThanOrEqual(1);
      expect(maximumAssetWeight(n)).toBeGreaterThanOrEqual(minimumAssetWeight(n));
      expect(sectorSlots(n) * maximumAssetWeight(n)).toBeLessThanOrEqual(
        Math.max(0.4, maximumAssetWeight(n)) + 1e-12,
      );
    }
  });
});

describe.each(databaseTargets)("the proposal holds the assets asked for, on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(database.db, simulatedDataset({ end: TODAY, days: 1100 }), "simulated");
    pool = createAnalyticsPool(2);
    app = createApp({
      config: loadConfig({ EDITION: "ht" }),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
      pool,
    });
    // Importing the simulated market takes long on a busy machine.
  }, 300_000);
  afterAll(async () => {
    await pool.close();
    await drop();
  });

  async function client(tiers: Partial<Record<Product, Tier>>) {
    const [row] = await database.db
      .insert(clients)
      .values({
        email: `c-${randomBytes(5).toString("hex")}@example.test`,
        policiesVersion: "2026-01", // the policy in force (POLICY_VERSION's default)
        passwordHash: "unused",
        name: "Test",
        surname: "Client",
        emailConfirmed: true,
      })
      .returning({ id: clients.id });
    for (const [product, tier] of Object.entries(tiers))
      await database.db.insert(subscriptions).values({
        clientId: row!.id,
        product,
        tier,
        planId: 5,
        active: true,
        expiryDate: new Date(Date.now() + 86_400_000),
      });
    return (await createSession(database.db, row!.id, 1)).token;
  }

  async function propose(token: string, answers: Record<string, unknown>) {
    const res = await app.request("/api/portfolios/propose", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        currency: "EUR",
        answers: {
          universe: [],
          amount: 10_000,
          maxToLose95: null,
          ordering: "balanced",
          maxAssetsLevel: 1,
          ...answers,
        },
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as ProposeResponse;
  }

  /** Every asset at the minimum weight or more (a cent of rounding allowed). */
  const expectFloor = (p: ProposeResponse, n: number) => {
    for (const a of p.assets)
      expect(a.investedAmount, a.symbol).toBeGreaterThanOrEqual(
        10_000 * minimumAssetWeight(n) - 0.01,
      );
  };

  describe.each(orderings)("%s", (ordering) => {
    it.each([1, 2])(
      "holds the number of assets of level %i, without a loss limit",
      async (level) => {
        const token = await client({ simAssets: "advanced" });
        const n = maxAssetsOfLevel(level);
        const p = await propose(token, { ordering, maxAssetsLevel: level });
        expect(p.assets).toHaveLength(n);
        expect(p.requestedAssets).toBe(n);
        expect(p.fewerAssetsReason).toBeNull();
        expectFloor(p, n);
      },
    );

    it("holds them within a loss limit the minimum weights allow (autoCreate)", async () => {
      const token = await client({ simAssets: "advanced" });
      // 15% of the amount in a bad month: every mix of these stocks stays within it.
      const p = await propose(token, { ordering, maxAssetsLevel: 1, maxToLose95: 1500 });
      expect(p.withinMaxToLose).toBe(true);
      expect(p.assets).toHaveLength(5);
      expect(p.fewerAssetsReason).toBeNull();
      expect(p.cvar95Amount).toBeLessThanOrEqual(1500 + 0.5);
      expectFloor(p, 5);
    });

    it("keeps the n assets, at the least risk, when no mix keeps the loss within the limit", async () => {
      const token = await client({ simAssets: "advanced" });
      const p = await propose(token, { ordering, maxAssetsLevel: 1, maxToLose95: 1 });
      expect(p.withinMaxToLose).toBe(false);
      expect(p.method).toBe("minimum-risk");
      expect(p.assets).toHaveLength(5);
      expect(p.fewerAssetsReason).toBeNull();
      expectFloor(p, 5);
    });

    it("says the universe is why it holds fewer", async () => {
      const token = await client({ simAssets: "advanced" });
      const all = await propose(token, { ordering, universe: ["BME"], maxAssetsLevel: 3 });
      expect(all.requestedAssets).toBe(30);
      expect(all.assets.length).toBeLessThan(30);
      expect(all.assets.every((a) => a.symbol.endsWith(".MC"))).toBe(true);
      expect(all.fewerAssetsReason).toBe("universe");
    });
  });

  describe("each q3 answer optimises what it names (autoCreate, no loss limit)", () => {
    const named = {
      balanced: "balanced",
      marketRisk: "lowest-beta",
      expectedReturn: "highest-return",
      riskReturn: "best-risk-return",
      minimization: "minimum-risk",
    } as const;
    it.each(orderings)("%s: the method names it, and no asset is above the cap", async (o) => {
      const token = await client({ simAssets: "advanced" });
      const p = await propose(token, { ordering: o, maxAssetsLevel: 2 });
      expect(p.method).toBe(named[o]);
      expect(p.assets).toHaveLength(10);
      expectFloor(p, 10);
      if (o !== "minimization")
        for (const a of p.assets)
          expect(a.investedAmount, a.symbol).toBeLessThanOrEqual(1500 + 0.01);
    });

    it.each(["expectedReturn", "marketRisk"] as const)(
      "%s: the closed form of a linear objective within the bounds (the best five at 15%, five at 5%)",
      async (o) => {
        const token = await client({ simAssets: "advanced" });
        const p = await propose(token, { ordering: o, maxAssetsLevel: 2 });
        // Listed in the ordering's rank: floors 10 × 5% = 50%, the other 50% fills the best up to 15%.
        expect(p.assets.map((a) => a.investedAmount)).toEqual([
          1500, 1500, 1500, 1500, 1500, 500, 500, 500, 500, 500,
        ]);
      },
    );

    it("balanced rests on no sector: at most two of ten assets and 40% per sector", async () => {
      const token = await client({ simAssets: "advanced" });
      // US stocks: the least volatile of NYSE and NASDAQ are four consumer-staples stocks.
      const p = await propose(token, { universe: ["NYSE", "NASDAQ"], maxAssetsLevel: 2 });
      expect(p.method).toBe("balanced");
      const sectors = new Map<string, number>();
      const count = new Map<string, number>();
      const { assets } = await loadAssets(
        database.db,
        p.assets.map((a) => a.symbol),
        shiftDays(TODAY, -30),
      );
      const sectorOf = new Map(assets.map((a) => [a.symbol, a.info.sector ?? "?"]));
      for (const a of p.assets) {
        const s = sectorOf.get(a.symbol)!;
        sectors.set(s, (sectors.get(s) ?? 0) + a.investedAmount);
        count.set(s, (count.get(s) ?? 0) + 1);
      }
      expect(Math.max(...count.values())).toBeLessThanOrEqual(2);
      expect(Math.max(...sectors.values())).toBeLessThanOrEqual(4000 + 0.01);
      expect(sectors.size).toBeGreaterThanOrEqual(5);
    });
  });

  it("says the plan is why it holds fewer (standard: 10 assets at most)", async () => {
    const token = await client({ simAssets: "standard" });
    const p = await propose(token, { maxAssetsLevel: 3 });
    expect(p.requestedAssets).toBe(30);
    expect(p.assets).toHaveLength(10);
    expect(p.fewerAssetsReason).toBe("plan");
  });

  it("minimization: the weights are the engine's minimum risk of the held assets with the floor", async () => {
    const token = await client({ simAssets: "advanced" });
    const p = await propose(token, { ordering: "minimization", maxAssetsLevel: 1 });
    const days = benchmarkWindowDays(5);
    const from = shiftDays(TODAY, -Math.ceil(days * 1.6) - 60);
    const { assets } = await loadAssets(
      database.db,
      p.assets.map((a) => a.symbol),
      from,
    );
    const fx = await loadFx(database.db, from);
    const panel = alignReturns(
      assets.map((a) => a.series),
      { currency: "EUR", fx: fx! },
    ).panel;
    const direct = optimise({
      panel,
      amounts: new Float64Array(5).fill(1),
      benchmark: 5,
      lower: new Float64Array(5).fill(0.05),
      upper: new Float64Array(5).fill(1),
    });
    if (!direct.ok) throw new Error("the direct optimisation failed");
    const bySymbol = new Map(assets.map((a, i) => [a.symbol, direct.weights[i]!]));
    for (const a of p.assets)
      expect(a.investedAmount, a.symbol).toBeCloseTo(bySymbol.get(a.symbol)! * 10_000, 1);
  });
});
