// The server enforces the plans on every analytics call (docs/api.md): a session is needed, and each
// option a permission gates (each what-if type, each optimisation level, Monte Carlo VaR) is
// refused for a plan without it. The table of plans below walks the permissions table: for each
// gated option, the plans of the one permissions table that have it and those that do not.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  optimisationLevel,
  optimisationPermission,
  whatIfKind,
  whatIfPermission,
} from "../../src/contract/analytics-rules.ts";
import { products, type Product } from "../../src/contract/common.ts";
import { permissionsByTier, type Tier } from "../../src/contract/permissions.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { sessions } from "../../src/server/db/schema.ts";
import { hashToken } from "../../src/server/accounts/tokens.ts";
import { createLogger } from "../../src/server/logger.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";

const assets = [
  { symbol: "AAPL", investedAmount: 6000 },
  { symbol: "SAN.MC", investedAmount: 3000 },
  { symbol: "TLT", investedAmount: 1000 },
];

/** Each gated option: the call, its body, and the permission it needs. */
const gated = [
  {
    name: "custom what-if",
    path: "what-if",
    body: { currency: "EUR", assets, shocks: { dRV: -0.1 } },
    needs: ["whatIf", whatIfPermission[whatIfKind({})]],
  },
  {
    name: "real scenario",
    path: "what-if",
    // The 2020 pandemic: inside the simulated market's years.
    body: { currency: "EUR", assets, scenarioType: 1 },
    needs: ["whatIf", whatIfPermission[whatIfKind({ scenarioType: 1 })]],
  },
  {
    name: "backtest",
    path: "what-if",
    body: { currency: "EUR", assets, backTesting: "1y", scenarioType: 1 },
    needs: ["whatIf", whatIfPermission[whatIfKind({ backTesting: "1y" })]],
  },
  {
    name: "optimise o1 (current assets)",
    path: "optimise",
    body: { currency: "EUR", assets, maxToLose95: 5000 },
    needs: ["optimization", optimisationPermission[optimisationLevel({ assets })]],
  },
  {
    name: "optimise o2 (new assets, kept weights)",
    path: "optimise",
    body: {
      currency: "EUR",
      assets: [...assets, { symbol: "GLD", investedAmount: 0 }],
      maxToLose95: 5000,
    },
    needs: ["optimization", "construction"],
  },
  {
    name: "optimise o3 (desired number of assets)",
    path: "optimise",
    body: {
      currency: "EUR",
      assets: [...assets, { symbol: "GLD", investedAmount: 0 }],
      desiredAssetsAmount: 2,
      maxToLose95: 5000,
    },
    needs: ["optimization", "constructionFixAssets"],
  },
  {
    name: "Monte Carlo VaR",
    path: "analyse",
    body: { currency: "EUR", assets, monteCarlo: { paths: 1000, seed: 1 } },
    needs: ["analysis", "var"],
  },
] as const;

describe("the optimisation level and what-if type of a request", () => {
  it("follow the specification's priority and the options given", () => {
    expect(optimisationLevel({ assets })).toBe(1);
    expect(optimisationLevel({ assets: [{ ...assets[0]!, keep: true, minWeight: 0.1 }] })).toBe(2);
    expect(optimisationLevel({ assets: [{ symbol: "X", investedAmount: 0 }] })).toBe(2);
    expect(optimisationLevel({ assets, desiredAssetsAmount: 3 })).toBe(3);
    expect(whatIfKind({ backTesting: "1y", scenarioType: 2 })).toBe("backtest");
  });
});

/** Every plan of the one permissions table: each product's tiers. */
const plans = products.flatMap((product) =>
  (Object.keys(permissionsByTier[product]) as Tier[]).map((tier) => ({ product, tier })),
);

describe.each(databaseTargets)("plans enforced on the analytics calls, on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(database.db, simulatedDataset({ end: "2026-11-20" }), "simulated");
    pool = createAnalyticsPool(2);
    app = createApp({
      config: loadConfig({}),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
      pool,
    });
  });
  afterAll(async () => {
    await pool.close();
    await drop();
  });

  const sessionWith = async (product: Product, tier: Tier) =>
    (await signedInClient(database, { [product]: tier })).token;

  const call = (path: string, body: unknown, token: string | null, product: Product) =>
    app.request(`/api/analytics/${path}?stc=${product}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });

  it("answers 401 to every analytics call without a session", async () => {
    for (const path of ["analyse", "optimise", "simulate", "what-if"]) {
      const res = await call(path, { currency: "EUR", assets }, null, "simAssets");
      expect([path, res.status]).toEqual([path, 401]);
    }
  });

  it("answers 401 to a signed-out or expired session, whatever its plan", async () => {
    // The session and the plan are read in one query: a dead session must not pass through it.
    const signedOut = await sessionWith("simAssets", "advanced");
    const expired = await sessionWith("simAssets", "advanced");
    await database.db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(eq(sessions.tokenHash, hashToken(signedOut)));
    await database.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(sessions.tokenHash, hashToken(expired)));
    for (const token of [signedOut, expired]) {
      const res = await call("analyse", { currency: "EUR", assets }, token, "simAssets");
      expect(res.status).toBe(401);
    }
    const live = await sessionWith("simAssets", "advanced");
    expect((await call("analyse", { currency: "EUR", assets }, live, "simAssets")).status).toBe(
      200,
    );
  });

  it("leaves out of an analysis every figure the plan lacks, for every plan of the table", async () => {
    /** Each gated figure of the answer, and the permission(s) it needs. */
    const figures: [string, (b: any) => unknown, string[]][] = [
      ["var", (b) => b.var, ["analysis.var"]],
      ["distribution", (b) => b.distribution, ["analysis.var"]],
      ["diversification", (b) => b.diversification, ["analysis.diversificationRisk"]],
      ["reduction", (b) => b.diversification?.reduction, ["analysis.diversificationRiskReduction"]],
      ["currencyRisk", (b) => b.currencyRisk, ["analysis.currencyRisk"]],
      ["expectedReturn", (b) => b.expectedReturn, ["analysis.expectedReturns"]],
      ["requiredReturn", (b) => b.requiredReturn, ["analysis.requiredReturns"]],
      ["asset.marginal", (b) => b.assets[0].marginal, ["analysis.componentRisk1"]],
      ["asset.percentage", (b) => b.assets[0].percentage, ["analysis.componentRisk2"]],
      ["asset.expectedReturn", (b) => b.assets[0].expectedReturn, ["analysis.expectedReturns"]],
      ["asset.requiredReturn", (b) => b.assets[0].requiredReturn, ["analysis.requiredReturns"]],
      ["asset.standAlone", (b) => b.assets[0].standAlone, ["analysis.diversificationRisk"]],
      ["scores.global", (b) => b.scores.global, ["scoring.global"]],
      ["scores.riskReturn", (b) => b.scores.riskReturn, ["scoring.riskReturn"]],
      ["scores.marketRisk", (b) => b.scores.marketRisk, ["scoring.marketRisk"]],
      [
        "breakdown",
        (b) => (Object.keys(b.breakdown).length ? b.breakdown : null),
        ["analysis.breakdown"],
      ],
    ];
    const seen = new Map<string, Set<boolean>>();
    for (const { product, tier } of plans) {
      const permissions = permissionsByTier[product][tier]!;
      const has = (path: string) => {
        const [group, name] = path.split(".") as [keyof typeof permissions, string];
        return (permissions[group] as Record<string, boolean>)[name] === true;
      };
      const res = await call(
        "analyse",
        { currency: "EUR", assets },
        await sessionWith(product, tier),
        product,
      );
      expect(res.status).toBe(200);
      const body = await res.json();
      for (const [name, read, needs] of figures) {
        const allowed = needs.every(has);
        const value = read(body);
        expect([product, tier, name, value !== null && value !== undefined]).toEqual([
          product,
          tier,
          name,
          allowed,
        ]);
        seen.set(name, (seen.get(name) ?? new Set()).add(allowed));
      }
      const locked = (body.locked as string[]).sort();
      const expectedLocked = [
        ...Object.entries(permissions.analysis)
          .filter(([, v]) => !v)
          .map(([k]) => `analysis.${k}`),
        ...Object.entries(permissions.scoring)
          .filter(([, v]) => !v)
          .map(([k]) => `scoring.${k}`),
      ].sort();
      expect(locked).toEqual(expectedLocked);
    }
    // Most gated figures met a plan with them and one without (a few, such as the breakdown, are
    // in every plan of the table): the walk is not vacuous.
    const both = [...seen.values()].filter((kinds) => kinds.size === 2).length;
    expect(both).toBeGreaterThanOrEqual(10);
  });

  // Every plan of the permissions table (product x tier), for every gated option.
  it.each(gated)("$name: allowed exactly for the plans with the permission", async (option) => {
    const [group, name] = option.needs;
    let allowed = 0;
    let refused = 0;
    for (const { product, tier } of plans) {
      const permissions = permissionsByTier[product][tier]!;
      const has = (permissions[group] as Record<string, boolean>)[name]!;
      const res = await call(option.path, option.body, await sessionWith(product, tier), product);
      const body = (await res.json()) as { msgCode?: string };
      if (has) {
        expect([product, tier, res.status]).toEqual([product, tier, 200]);
        allowed++;
      } else {
        expect([product, tier, res.status, body.msgCode]).toEqual([
          product,
          tier,
          403,
          "PLAN_FEATURE_LOCKED",
        ]);
        refused++;
      }
    }
    // The table must hold both kinds of plan for every option, or the test proves nothing.
    expect(allowed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});
