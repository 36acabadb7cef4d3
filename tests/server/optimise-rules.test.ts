// The server enforces the specification's optimisation rules (sections 5 and 9) on
// POST /api/analytics/optimise, by the same function the optimise machine's guards call: the
// client's level (30), the asset count within the plan's maximum, a desired number of assets at
// level 3, the maximum loss at 95% reaching the minimum desired risk (1.1% EUR, 1.74% USD), and
// the permission of the level chosen. An answer that cannot meet a constraint names it.
import { execFileSync, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OptimiseResponse } from "../../src/contract/analytics.ts";
import { decode } from "../../src/contract/decode.ts";
import type { Product } from "../../src/contract/common.ts";
import { optimisationViolations } from "../../src/contract/optimisation-rules.ts";
import { permissionsFor, type Tier } from "../../src/contract/permissions.ts";
import type { Database } from "../../src/server/db/database.ts";
import { lastObservations } from "../../src/engine/panel.ts";
import { alignReturns } from "../../src/engine/returns.ts";
import { prepareAt } from "../../src/server/analytics/analyse.ts";
import { rankCandidates, universeCandidates } from "../../src/server/analytics/optimise.ts";
import { assetsAt } from "../../src/server/analytics/series.ts";
import { marketView } from "../../src/server/market/market-view.ts";
import { listAssets, shiftDays } from "../../src/server/market/repository.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import type { ApiAgent } from "../support/accounts.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";
import { openMarketApp } from "../support/market-app.ts";

const assets = [
  { symbol: "AAPL", investedAmount: 6000 },
  { symbol: "SAN.MC", investedAmount: 3000 },
  { symbol: "TLT", investedAmount: 1000 },
];
const eleven = ["AAPL", "MSFT", "AMZN", "NVDA", "GOOGL", "JPM", "JNJ", "KO", "XOM", "PG", "V"].map(
  (symbol) => ({ symbol, investedAmount: 1000 }),
);

describe.each(databaseTargets)("optimisation rules enforced by the server, on $name", (target) => {
  let database: Database;
  let api: ApiAgent;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, api, close } = await openMarketApp(target, {
      datasets: [simulatedDataset({ end: "2026-11-20" })],
      workers: 2,
    }));
  }, 120_000);
  afterAll(() => close());

  const session = async (tier: Tier, level = 30, product: Product = "simAssets") =>
    (await signedInClient(database, { [product]: tier }, level)).token;

  const optimise = (body: unknown, token: string) =>
    api.call<{
      msgCode?: string;
      issues?: { path: string; message: string }[];
      status?: string;
    }>("POST", "/analytics/optimise?stc=simAssets", { body, token });
  const blockedBy = (r: Awaited<ReturnType<typeof optimise>>) =>
    r.status === 422 && r.body.msgCode === "OPTIMISATION_BLOCKED"
      ? r.body.issues!.map((i) => i.message)
      : [`status ${r.status} ${r.body.msgCode ?? r.body.status}`];

  it("needs the client's level 30 at every level", async () => {
    const low = await session("advanced", 29);
    const ok = await session("advanced", 30);
    const o1 = { currency: "EUR", assets, maxToLose95: 5000 };
    const o3 = {
      ...o1,
      assets: [...assets, { symbol: "GLD", investedAmount: 0 }],
      desiredAssetsAmount: 2,
    };
    expect(blockedBy(await optimise(o1, low))).toEqual(["CLIENT_LEVEL_BELOW_THRESHOLD"]);
    expect(blockedBy(await optimise(o3, low))).toEqual(["CLIENT_LEVEL_BELOW_THRESHOLD"]);
    expect((await optimise(o1, ok)).status).toBe(200);
    expect((await optimise(o3, ok)).status).toBe(200);
    // The first calls start the workers and load the market into them.
  }, 90_000);

  it("blocks a maximum loss below the minimum desired risk, to the cent, per currency", async () => {
    const token = await session("advanced");
    // 10,000 invested: 1.1% is 110 (EUR), 1.74% is 174 (USD).
    const eur = (maxToLose95?: number) => ({
      currency: "EUR",
      assets,
      ...(maxToLose95 === undefined ? {} : { maxToLose95 }),
    });
    const usd = (maxToLose95: number) => ({ ...eur(maxToLose95), currency: "USD" });
    expect(blockedBy(await optimise(eur(), token))).toEqual(["MAX_LOSS_REQUIRED"]);
    expect(blockedBy(await optimise(eur(109.99), token))).toEqual(["MAX_LOSS_BELOW_MINIMUM_RISK"]);
    expect(blockedBy(await optimise(usd(173.99), token))).toEqual(["MAX_LOSS_BELOW_MINIMUM_RISK"]);
    expect(blockedBy(await optimise(usd(160), token))).toEqual(["MAX_LOSS_BELOW_MINIMUM_RISK"]);
    // Reaching the minimum is enough for the rule (the answer may still name the loss it cannot meet).
    for (const body of [eur(110), usd(174)]) {
      const r = await optimise(body, token);
      expect(r.status).toBe(200);
    }
  });

  it("needs the asset count within the plan's maximum (every asset of the request)", async () => {
    // The standard plan allows 10 assets; the advanced 30.
    const standard = await session("standard");
    const body = { currency: "USD", assets: eleven, maxToLose95: 5000 };
    expect(blockedBy(await optimise(body, standard))).toEqual(["ASSET_COUNT_ABOVE_LIMIT"]);
    expect((await optimise({ ...body, assets: eleven.slice(0, 10) }, standard)).status).toBe(200);
    expect((await optimise(body, await session("advanced"))).status).toBe(200);
  });

  it("the limit is the portfolio's own too (maxAssetsLevel 1: 5 assets)", async () => {
    const token = await session("advanced");
    const six = { currency: "USD", assets: eleven.slice(0, 6), maxToLose95: 5000 };
    expect((await optimise(six, token)).status).toBe(200);
    expect(blockedBy(await optimise({ ...six, maxAssetsLevel: 1 }, token))).toEqual([
      "ASSET_COUNT_ABOVE_LIMIT",
    ]);
    expect(
      (await optimise({ ...six, assets: eleven.slice(0, 5), maxAssetsLevel: 1 }, token)).status,
    ).toBe(200);
  });

  it("level 3 needs a desired amount within the maximum", async () => {
    const token = await session("advanced");
    const base = { currency: "EUR", assets, maxToLose95: 5000, level: 3 };
    expect(blockedBy(await optimise(base, token))).toEqual(["DESIRED_AMOUNT_REQUIRED"]);
    expect(blockedBy(await optimise({ ...base, desiredAssetsAmount: 31 }, token))).toEqual([
      "DESIRED_AMOUNT_ABOVE_LIMIT",
    ]);
    expect((await optimise({ ...base, desiredAssetsAmount: 2 }, token)).status).toBe(200);
  });

  describe("o2 and o3 propose the market's assets without a symbol typed", () => {
    const three = [
      { symbol: "AAPL", investedAmount: 4000 },
      { symbol: "MSFT", investedAmount: 3000 },
      { symbol: "NVDA", investedAmount: 3000 },
    ];
    const optimal = (r: Awaited<ReturnType<typeof optimise>>) => {
      const decoded = decode(OptimiseResponse, r.body);
      if (!decoded.ok || decoded.value.status !== "optimal")
        throw new Error(`expected optimal: ${JSON.stringify(r.body)}`);
      return decoded.value;
    };
    const held = (a: ReturnType<typeof optimal>) =>
      a.assets.filter((x) => x.weight > 1e-9).map((x) => x.symbol);

    it("o2: new assets of the plan's universe, at most the portfolio's limit held", async () => {
      const token = await session("advanced");
      const r = await optimise(
        { currency: "USD", assets: three, maxToLose95: 5000, level: 2, maxAssetsLevel: 1 },
        token,
      );
      expect(r.status).toBe(200);
      const answer = optimal(r);
      const added = held(answer).filter((s) => !three.some((a) => a.symbol === s));
      expect(added.length).toBeGreaterThan(0);
      for (const s of added)
        expect(answer.assets.find((a) => a.symbol === s)!.currentWeight).toBe(0);
      // maxAssetsLevel 1: 5 assets at most, new ones included.
      expect(held(answer).length).toBeLessThanOrEqual(5);
      const universe = await listAssets(database.db, { product: "simAssets" });
      for (const s of added) expect(universe.find((a) => a.symbol === s)?.kind).toBe("stock");
      // Three technology stocks: the optimiser lowers the risk with what it was offered.
      expect(answer.volatility).toBeLessThan(answer.current.volatility);
    });

    it("ranks the universe by beta to the portfolio (numpy reference), in both currencies", async () => {
      const view = await marketView(database.db);
      const universe = (await universeCandidates(database.db, "simAssets")).filter(
        (s) => !three.some((a) => a.symbol === s),
      );
      const request = { currency: "USD" as const, assets: three };
      const ranked = rankCandidates(view, request, universe);
      const symbols = ranked.map((r) => r.symbol);
      for (const a of three) expect(symbols).not.toContain(a.symbol);
      // EUR stocks are converted, not left out.
      expect(symbols).toContain("SAN.MC");
      expect(symbols).toContain("KO");
      for (let k = 1; k < ranked.length; k++)
        expect(ranked[k]!.beta).toBeGreaterThanOrEqual(ranked[k - 1]!.beta);
      // numpy: cov(r_j, r_p) / var(r_p) on the same window of returns, for the first and the last
      // (the development machines and CI have python3-numpy; without it only the order is checked).
      if (spawnSync("python3", ["-c", "import numpy"]).status !== 0) return;
      const p = prepareAt(view, request);
      for (const { symbol, beta } of [ranked[0]!, ranked.at(-1)!]) {
        const [c] = assetsAt(view, [symbol], shiftDays(p.from, -14)).assets;
        const aligned = alignReturns([...p.assets.map((a) => a.series), c!.series], {
          currency: "USD",
          fx: p.fx!,
        });
        const panel = lastObservations(aligned.panel, p.days);
        const rows = Array.from({ length: panel.observations }, (_, t) =>
          Array.from({ length: 4 }, (_, i) => panel.data[t * 4 + i]!),
        );
        const script =
          "import json,sys,numpy as np\n" +
          "r=np.array(json.load(sys.stdin));p=r[:,:3]@np.array([0.4,0.3,0.3]);c=r[:,3]\n" +
          "print(repr(float(np.cov(c,p)[0,1]/np.var(p,ddof=1))))";
        const out = execFileSync("python3", ["-c", script], { input: JSON.stringify(rows) });
        const reference = Number(out.toString().trim());
        expect(Math.abs(beta - reference)).toBeLessThan(1e-9 * Math.max(1, Math.abs(reference)));
      }
    });

    it("o3: exactly the number asked for, from the portfolio and the market", async () => {
      const token = await session("advanced");
      for (const desired of [5, 8]) {
        const r = await optimise(
          {
            currency: "USD",
            assets: three,
            maxToLose95: 5000,
            level: 3,
            desiredAssetsAmount: desired,
          },
          token,
        );
        expect(r.status).toBe(200);
        expect(held(optimal(r))).toHaveLength(desired);
      }
    });

    it("a limit from the portfolio's q3 answer is named as such, not as the plan's", async () => {
      const token = await session("advanced");
      const r = await optimise(
        {
          currency: "USD",
          assets: three,
          maxToLose95: 5000,
          level: 3,
          desiredAssetsAmount: 12,
          maxAssetsLevel: 2,
        },
        token,
      );
      expect(blockedBy(r)).toEqual(["DESIRED_AMOUNT_ABOVE_LIMIT"]);
      const v = optimisationViolations(
        {
          currency: "USD",
          assets: three,
          maxToLose95: 5000,
          level: 3,
          desiredAssetsAmount: 12,
          maxAssetsLevel: 2,
        },
        permissionsFor("simAssets", "advanced"),
        30,
      );
      expect(v).toEqual([
        {
          code: "DESIRED_AMOUNT_ABOVE_LIMIT",
          detail: { desiredAssetsAmount: 12, maxAssets: 10, fromPortfolio: 1 },
        },
      ]);
      const plan = optimisationViolations(
        { currency: "USD", assets: three, maxToLose95: 5000, level: 3, desiredAssetsAmount: 12 },
        permissionsFor("simAssets", "standard"),
        30,
      );
      expect(plan[0]!.detail.fromPortfolio).toBe(0);
    });
  });

  it("refuses a level the plan lacks even when the options look like a lower one", async () => {
    const standard = await session("standard");
    const o1 = { currency: "EUR", assets, maxToLose95: 5000 };
    expect((await optimise(o1, standard)).status).toBe(200);
    for (const level of [2, 3]) {
      const r = await optimise({ ...o1, level, desiredAssetsAmount: 2 }, standard);
      expect([level, r.status, r.body.msgCode]).toEqual([level, 403, "PLAN_FEATURE_LOCKED"]);
    }
  });

  it("names the constraint it cannot meet: the minimum-risk portfolio loses more than the maximum", async () => {
    const token = await session("advanced");
    const r = await optimise({ currency: "EUR", assets, maxToLose95: 110 }, token);
    const decoded = decode(OptimiseResponse, r.body);
    if (!decoded.ok || decoded.value.status !== "infeasible")
      throw new Error("expected infeasible");
    expect(decoded.value.reason.code).toBe("MAX_LOSS_EXCEEDED");
    expect(decoded.value.reason.detail.maxToLose95).toBe(110);
    expect(decoded.value.reason.detail.cvar95Amount).toBeGreaterThan(110);
  });

  it("reports the current and optimised portfolios on one method, and the frontier that holds them", async () => {
    const token = await session("advanced");
    const r = await optimise({ currency: "EUR", benchmark: 4, assets, maxToLose95: 5000 }, token);
    const decoded = decode(OptimiseResponse, r.body);
    if (!decoded.ok || decoded.value.status !== "optimal") throw new Error("expected optimal");
    const o = decoded.value;
    expect(o.assets.map((a) => a.currentWeight)).toEqual([0.6, 0.3, 0.1]);
    // The minimum-risk portfolio is the frontier's first point, and no riskier than the current.
    expect(o.frontier.length).toBeGreaterThan(1);
    expect(o.volatility).toBeCloseTo(o.frontier[0]!.volatility, 9);
    expect(o.expectedReturn).toBeCloseTo(o.frontier[0]!.expectedReturn, 6);
    expect(o.volatility).toBeLessThanOrEqual(o.current.volatility + 1e-12);
    for (let k = 1; k < o.frontier.length; k++) {
      expect(o.frontier[k]!.volatility).toBeGreaterThanOrEqual(
        o.frontier[k - 1]!.volatility - 1e-12,
      );
      expect(o.frontier[k]!.expectedReturn).toBeGreaterThan(o.frontier[k - 1]!.expectedReturn);
    }
    // The current portfolio lies on or under the frontier: no more return at its risk.
    expect(o.current.cvar95).toBeGreaterThanOrEqual(o.current.var95);
    expect(o.current.var95Amount).toBeCloseTo(o.current.var95 * 10_000, 6);
    expect(o.cvar95Amount).toBeCloseTo(o.cvar95 * 10_000, 6);
  });

  it("places each holding on the frontier's axes (issue 27): numpy's monthly volatility, the analysis's expected return", async () => {
    const token = await session("advanced");
    const request = { currency: "EUR" as const, benchmark: 4 as const, assets };
    const r = await optimise({ ...request, maxToLose95: 5000 }, token);
    const decoded = decode(OptimiseResponse, r.body);
    if (!decoded.ok || decoded.value.status !== "optimal") throw new Error("expected optimal");
    const o = decoded.value;
    // The holding's expected return is the one its analysis shows (same window, same estimator).
    const analysis = await api.call<{ assets: { symbol: string; expectedReturn: number }[] }>(
      "POST",
      "/analytics/analyse?stc=simAssets",
      { body: request, token },
    );
    expect(analysis.status).toBe(200);
    for (const a of o.assets) {
      const shown = analysis.body.assets.find((x) => x.symbol === a.symbol)!;
      expect(a.expectedReturn).toBeCloseTo(shown.expectedReturn, 10);
    }
    // Its volatility: sqrt(21 x the variance of its daily returns, divisor T) over the window
    // (the Ledoit-Wolf target keeps the sample variances: the diagonal is not shrunk), by hand.
    const p = prepareAt(await marketView(database.db), request);
    const panel = lastObservations(p.aligned.panel, p.days);
    const column = (i: number) =>
      Array.from({ length: panel.observations }, (_, t) => panel.data[t * panel.assets + i]!);
    o.assets.forEach((a, i) => {
      const x = column(i);
      const mean = x.reduce((s, v) => s + v, 0) / x.length;
      const variance = x.reduce((s, v) => s + (v - mean) ** 2, 0) / x.length;
      expect(a.volatility).toBeCloseTo(Math.sqrt(21 * variance), 12);
    });
    // numpy, where the machine has it: np.var (ddof 0) of each column, times 21, square root.
    if (spawnSync("python3", ["-c", "import numpy"]).status === 0) {
      const rows = Array.from({ length: panel.observations }, (_, t) =>
        Array.from({ length: panel.assets }, (_, i) => panel.data[t * panel.assets + i]!),
      );
      const script =
        "import json,sys,numpy as np\n" +
        "r=np.array(json.load(sys.stdin));print(json.dumps(np.sqrt(21*np.var(r,axis=0)).tolist()))";
      const out = execFileSync("python3", ["-c", script], { input: JSON.stringify(rows) });
      const reference = JSON.parse(out.toString()) as number[];
      o.assets.forEach((a, i) => expect(a.volatility).toBeCloseTo(reference[i]!, 12));
    }
    // A one-asset portfolio's risk is the frontier's measure: the holdings' points lie right of
    // (or on) the minimum-risk end.
    for (const a of o.assets)
      expect(a.volatility!).toBeGreaterThanOrEqual(o.frontier[0]!.volatility - 1e-12);
  });

  it("leaves out what the plan gates: the optimised expected return and the frontier need expectedReturnsOptimPortfolio", async () => {
    const body = { currency: "EUR", benchmark: 4, assets, maxToLose95: 5000, level: 1 };
    const figures = async (tier: Tier) => {
      const r = await optimise(body, await session(tier));
      const decoded = decode(OptimiseResponse, r.body);
      if (!decoded.ok || decoded.value.status !== "optimal")
        throw new Error(`${tier}: not optimal`);
      return decoded.value;
    };
    const withIt = await figures("advanced");
    expect(permissionsFor("simAssets", "advanced").analysis.expectedReturnsOptimPortfolio).toBe(
      true,
    );
    expect(typeof withIt.expectedReturn).toBe("number");
    expect(typeof withIt.current.expectedReturn).toBe("number");
    expect(withIt.frontier.length).toBeGreaterThan(1);

    const standard = permissionsFor("simAssets", "standard");
    expect(standard.optimization.portfolio).toBe(true);
    expect(standard.analysis.expectedReturnsOptimPortfolio).toBe(false);
    const without = await figures("standard");
    expect(without.expectedReturn).toBeNull();
    expect(without.frontier).toEqual([]);
    expect(without.current.expectedReturn === null).toBe(!standard.analysis.expectedReturns);
    // The holdings' points are drawn beside the frontier: their expected returns go with it.
    expect(withIt.assets.every((a) => typeof a.expectedReturn === "number")).toBe(true);
    expect(without.assets.every((a) => a.expectedReturn === null)).toBe(true);
    // The optimisation itself is the same answer.
    expect(without.assets.map((a) => a.weight)).toEqual(withIt.assets.map((a) => a.weight));
    expect(without.cvar95Amount).toBe(withIt.cvar95Amount);
  });

  it("maximum-return within the loss cap: the CVaR at 95% stays within maxToLose95", async () => {
    const token = await session("advanced");
    const r = await optimise(
      { currency: "EUR", assets, maxToLose95: 1500, objective: "maximum-return" },
      token,
    );
    const decoded = decode(OptimiseResponse, r.body);
    if (!decoded.ok || decoded.value.status !== "optimal") throw new Error("expected optimal");
    expect(decoded.value.method).toBe("cvar-cap");
    expect(decoded.value.cvar95Amount).toBeLessThanOrEqual(1500 + 1e-6);
    expect(decoded.value.expectedReturn).toBeGreaterThanOrEqual(
      decoded.value.frontier[0]!.expectedReturn - 1e-9,
    );
  });
});
