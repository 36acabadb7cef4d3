// The optimise machine: choose -> o1 | o2 | o3 -> optimising (cancellable) -> summary -> adopt,
// with the specification's rules (sections 3, 5 and 9) as guards that call the function the server
// enforces (src/contract/optimisation-rules.ts), and a result that is never silently stale.
import { describe, expect, it, vi } from "vitest";
import { waitFor } from "xstate";
import {
  requestOf,
  violationsOf,
  type OptimalAnswer,
  type OptimiseInput,
  type OptimisePortfolio,
} from "../../machines/optimise.machine.ts";
import { startOptimisation } from "../../machines/optimise.fixtures.ts";
import { SessionFailure } from "../../machines/session.machine.ts";
import type { OptimiseRequest, OptimiseResponse } from "../../src/contract/analytics.ts";
import { optimisationViolations } from "../../src/contract/optimisation-rules.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";

const advanced = permissionsFor("simAssets", "advanced");
const standard = permissionsFor("simAssets", "standard");

const portfolio = (amounts: Record<string, number> = { AAPL: 6000, "SAN.MC": 4000 }, key = "k1") =>
  ({
    currency: "EUR",
    assets: Object.entries(amounts).map(([symbol, amount]) => ({
      symbol,
      name: symbol,
      investedAmount: amount,
    })),
    key,
  }) satisfies OptimisePortfolio;

const optimal = (weights: number[]): OptimalAnswer => ({
  status: "optimal",
  method: "minimum-risk",
  currency: "EUR",
  window: { benchmark: 5, from: "2023-11-20", to: "2026-11-20", limitedBy: [], simulated: true },
  assets: weights.map((w, i) => ({
    symbol: `S${i}`,
    weight: w,
    investedAmount: w * 10_000,
    currentWeight: 0.5,
  })),
  volatility: 0.03,
  var95: 0.05,
  cvar95: 0.07,
  var95Amount: 500,
  cvar95Amount: 700,
  expectedReturn: 0.06,
  current: {
    volatility: 0.04,
    var95: 0.06,
    cvar95: 0.08,
    var95Amount: 600,
    cvar95Amount: 800,
    expectedReturn: 0.07,
  },
  frontier: [{ volatility: 0.03, expectedReturn: 0.06 }],
  gap: 0,
});

function start(
  input: Partial<OptimiseInput> = {},
  optimise: (
    request: OptimiseRequest,
    signal: AbortSignal,
  ) => Promise<OptimiseResponse> = async () => optimal([0.7, 0.3]),
  adopt: () => Promise<void> = async () => {},
) {
  const adoptSpy = vi.fn(adopt);
  const { actor, calls, signals } = startOptimisation(
    { portfolio: portfolio(), ...input },
    { optimise, adopt: adoptSpy },
  );
  return { actor, calls, signals, adoptSpy };
}

const codes = (actor: ReturnType<typeof start>["actor"]) =>
  actor.getSnapshot().context.violations.map((v) => v.code);

describe("choosing a level: each behind its optimization permission", () => {
  it("opens o1, o2 and o3 for a plan with every permission", () => {
    for (const level of [1, 2, 3] as const) {
      const { actor } = start();
      actor.send({ type: "level.choose", level });
      expect(actor.getSnapshot().value).toEqual({ options: `o${level}` });
      expect(actor.getSnapshot().context.level).toBe(level);
    }
  });

  it("keeps a level without its permission locked and names it (standard: only o1)", () => {
    for (const level of [2, 3] as const) {
      const { actor } = start({ permissions: standard });
      actor.send({ type: "level.choose", level });
      expect(actor.getSnapshot().value).toBe("choose");
      expect(actor.getSnapshot().context.lockedLevel).toBe(level);
    }
    const { actor } = start({ permissions: standard });
    actor.send({ type: "level.choose", level: 1 });
    expect(actor.getSnapshot().value).toEqual({ options: "o1" });
    const free = start({ permissions: permissionsFor("simAssets", "free") }).actor;
    free.send({ type: "level.choose", level: 1 });
    expect(free.getSnapshot().value).toBe("choose");
  });
});

describe("the rules of sections 5 and 9 block the optimisation, with the reason", () => {
  const tryOptimise = (input: Partial<OptimiseInput>, level: 1 | 2 | 3 = 1) => {
    const started = start(input);
    started.actor.send({ type: "level.choose", level });
    return started;
  };

  it("levels 1, 2 and 3 need the client's level 30", () => {
    for (const level of [1, 2, 3] as const) {
      const { actor, calls } = tryOptimise({ clientLevel: 29 }, level);
      if (level === 3) actor.send({ type: "desired.change", amount: 2 });
      actor.send({ type: "optimisation.run" });
      expect(actor.getSnapshot().value).toEqual({ options: `o${level}` });
      expect(codes(actor)).toEqual(["CLIENT_LEVEL_BELOW_THRESHOLD"]);
      expect(calls).toEqual([]);
    }
    const { actor } = tryOptimise({ clientLevel: 30 });
    actor.send({ type: "optimisation.run" });
    expect(actor.getSnapshot().value).not.toEqual({ options: "o1" });
  });

  it("the maximum loss at 95% must reach 1.1% (EUR) or 1.74% (USD) of the total, to the cent", () => {
    // 10,000 invested: 110 EUR, 174 USD.
    const cases: [string, number | null, string[]][] = [
      ["EUR", null, ["MAX_LOSS_REQUIRED"]],
      ["EUR", 109.99, ["MAX_LOSS_BELOW_MINIMUM_RISK"]],
      ["EUR", 110, []],
      ["USD", 173.99, ["MAX_LOSS_BELOW_MINIMUM_RISK"]],
      ["USD", 150, ["MAX_LOSS_BELOW_MINIMUM_RISK"]],
      ["USD", 174, []],
    ];
    for (const [currency, maxToLose95, expected] of cases) {
      const { actor, calls } = tryOptimise({
        portfolio: { ...portfolio(), currency: currency as "EUR" | "USD" },
        maxToLose95,
      });
      actor.send({ type: "optimisation.run" });
      expect([currency, maxToLose95, codes(actor)]).toEqual([currency, maxToLose95, expected]);
      expect(calls.length).toBe(expected.length ? 0 : 1);
    }
  });

  it("a change of the maximum loss clears the reason and may unblock", async () => {
    const { actor } = tryOptimise({ maxToLose95: 50 });
    actor.send({ type: "optimisation.run" });
    expect(codes(actor)).toEqual(["MAX_LOSS_BELOW_MINIMUM_RISK"]);
    actor.send({ type: "maxLoss.change", amount: 500 });
    expect(codes(actor)).toEqual([]);
    actor.send({ type: "optimisation.run" });
    await waitFor(actor, (s) => s.matches("summary"));
  });

  it("levels 1 and 2 need the asset count within the plan's limit, new assets included", () => {
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`A${i}`, 1000]));
    const o1 = tryOptimise({
      permissions: standard,
      portfolio: portfolio(eleven),
      maxToLose95: 2000,
    });
    o1.actor.send({ type: "optimisation.run" });
    expect(codes(o1.actor)).toEqual(["ASSET_COUNT_ABOVE_LIMIT"]);
    // Advanced allows 30: 29 held and 2 new make 31.
    const held = Object.fromEntries(Array.from({ length: 29 }, (_, i) => [`A${i}`, 1000]));
    const o2 = tryOptimise({ portfolio: portfolio(held), maxToLose95: 5000 }, 2);
    o2.actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    o2.actor.send({ type: "optimisation.run" });
    expect(o2.calls.length).toBe(1);
    const o2b = tryOptimise({ portfolio: portfolio(held), maxToLose95: 5000 }, 2);
    o2b.actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    o2b.actor.send({ type: "newAsset.add", symbol: "TLT", name: "Bonds" });
    o2b.actor.send({ type: "optimisation.run" });
    expect(codes(o2b.actor)).toEqual(["ASSET_COUNT_ABOVE_LIMIT"]);
    expect(o2b.calls).toEqual([]);
  });

  it("the limit is also the portfolio's own (q3's number of assets, maxAssetsLevel)", () => {
    const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`A${i}`, 2000]));
    // maxAssetsLevel 1 allows 5 assets, below the advanced plan's 30.
    const o2 = tryOptimise({ portfolio: { ...portfolio(five), maxAssetsLevel: 1 } }, 2);
    o2.actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    o2.actor.send({ type: "optimisation.run" });
    expect(codes(o2.actor)).toEqual(["ASSET_COUNT_ABOVE_LIMIT"]);
    // The limit is the portfolio's (q3's answer), and the detail says so for the message.
    expect(o2.actor.getSnapshot().context.violations[0]!.detail).toEqual({
      assetCount: 6,
      maxAssets: 5,
      fromPortfolio: 1,
    });
    o2.actor.send({ type: "newAsset.remove", symbol: "GLD" });
    o2.actor.send({ type: "optimisation.run" });
    expect(o2.calls.length).toBe(1);
    expect(o2.calls[0]!.maxAssetsLevel).toBe(1);
  });

  it("level 3 needs a desired amount, within the limit, and the asset count within the limit", () => {
    const { actor, calls } = tryOptimise({}, 3);
    actor.send({ type: "optimisation.run" });
    expect(codes(actor)).toEqual(["DESIRED_AMOUNT_REQUIRED"]);
    actor.send({ type: "desired.change", amount: 31 });
    actor.send({ type: "optimisation.run" });
    expect(codes(actor)).toEqual(["DESIRED_AMOUNT_ABOVE_LIMIT"]);
    actor.send({ type: "desired.change", amount: 1 });
    actor.send({ type: "optimisation.run" });
    expect(calls.length).toBe(1);
    expect(calls[0]!.desiredAssetsAmount).toBe(1);
    const held = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`A${i}`, 1000]));
    const big = tryOptimise({ portfolio: portfolio(held), maxToLose95: 5000 }, 3);
    big.actor.send({ type: "desired.change", amount: 5 });
    big.actor.send({ type: "optimisation.run" });
    expect(codes(big.actor)).toEqual(["ASSET_COUNT_ABOVE_LIMIT"]);
  });

  it("the guards check exactly what the server checks, on the request the machine sends", () => {
    const { actor } = tryOptimise({ clientLevel: 3, maxToLose95: 10 }, 3);
    const context = actor.getSnapshot().context;
    expect(violationsOf(context)).toEqual(optimisationViolations(requestOf(context), advanced, 3));
    expect(violationsOf(context).map((v) => v.code)).toEqual([
      "MAX_LOSS_BELOW_MINIMUM_RISK",
      "CLIENT_LEVEL_BELOW_THRESHOLD",
      "DESIRED_AMOUNT_REQUIRED",
    ]);
  });
});

describe("the options of each level make the request", () => {
  it("o1: the current assets and the objective, nothing kept or added", () => {
    const { actor } = start();
    actor.send({ type: "level.choose", level: 1 });
    actor.send({ type: "objective.change", objective: "maximum-return" });
    expect(requestOf(actor.getSnapshot().context)).toEqual({
      currency: "EUR",
      level: 1,
      assets: [
        { symbol: "AAPL", investedAmount: 6000 },
        { symbol: "SAN.MC", investedAmount: 4000 },
      ],
      maxToLose95: 1000,
      objective: "maximum-return",
    });
  });

  it("o2: new assets at amount 0, kept assets within their weights (min never above max)", () => {
    const { actor } = start();
    actor.send({ type: "level.choose", level: 2 });
    actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    actor.send({ type: "newAsset.add", symbol: "AAPL", name: "Apple" });
    actor.send({ type: "keep.toggle", symbol: "AAPL" });
    actor.send({ type: "keepWeight.change", symbol: "AAPL", min: 0.5, max: 0.2 });
    let request = requestOf(actor.getSnapshot().context);
    expect(request.assets).toEqual([
      { symbol: "AAPL", investedAmount: 6000, keep: true, minWeight: 0.5, maxWeight: 0.5 },
      { symbol: "SAN.MC", investedAmount: 4000 },
      { symbol: "GLD", investedAmount: 0 },
    ]);
    expect(request.level).toBe(2);
    actor.send({ type: "keepWeight.change", symbol: "AAPL", min: 0.2, max: 0.6 });
    actor.send({ type: "keep.toggle", symbol: "SAN.MC" });
    actor.send({ type: "keep.toggle", symbol: "SAN.MC" });
    actor.send({ type: "newAsset.remove", symbol: "GLD" });
    request = requestOf(actor.getSnapshot().context);
    expect(request.assets).toEqual([
      { symbol: "AAPL", investedAmount: 6000, keep: true, minWeight: 0.2, maxWeight: 0.6 },
      { symbol: "SAN.MC", investedAmount: 4000 },
    ]);
  });

  it("o3: the desired number of assets", () => {
    const { actor } = start();
    actor.send({ type: "level.choose", level: 3 });
    actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    actor.send({ type: "desired.change", amount: 2 });
    const request = requestOf(actor.getSnapshot().context);
    expect(request.desiredAssetsAmount).toBe(2);
    expect(request.level).toBe(3);
    expect(request.assets.map((a) => a.symbol)).toEqual(["AAPL", "SAN.MC", "GLD"]);
  });
});

describe("optimising", () => {
  it("goes to the summary with the answer and the portfolio it was computed for", async () => {
    const { actor, calls } = start();
    actor.send({ type: "level.choose", level: 1 });
    actor.send({ type: "optimisation.run" });
    expect(actor.getSnapshot().value).toBe("optimising");
    await waitFor(actor, (s) => s.matches("summary"));
    expect(actor.getSnapshot().context.optimizedPortfolio?.volatility).toBe(0.03);
    expect(actor.getSnapshot().context.resultKey).toBe("k1");
    expect(calls.length).toBe(1);
  });

  it("an infeasible answer returns to the level's options and names the constraint", async () => {
    const { actor } = start({}, async () => ({
      status: "infeasible",
      reason: { code: "MAX_LOSS_EXCEEDED", detail: { maxToLose95: 1000, cvar95Amount: 1500 } },
    }));
    actor.send({ type: "level.choose", level: 2 });
    actor.send({ type: "optimisation.run" });
    await waitFor(actor, (s) => s.matches({ options: "o2" }));
    expect(actor.getSnapshot().context.infeasible).toEqual({
      code: "MAX_LOSS_EXCEEDED",
      detail: { maxToLose95: 1000, cvar95Amount: 1500 },
    });
    actor.send({ type: "maxLoss.change", amount: 2000 });
    expect(actor.getSnapshot().context.infeasible).toBeNull();
  });

  it("a refused call (e.g. 403 PLAN_FEATURE_LOCKED) returns to the options with its msgCode", async () => {
    const { actor } = start({}, async () => {
      throw new SessionFailure("PLAN_FEATURE_LOCKED");
    });
    actor.send({ type: "level.choose", level: 3 });
    actor.send({ type: "desired.change", amount: 2 });
    actor.send({ type: "optimisation.run" });
    await waitFor(actor, (s) => s.matches({ options: "o3" }));
    expect(actor.getSnapshot().context.error).toBe("PLAN_FEATURE_LOCKED");
  });

  it("can be cancelled: the call is aborted and the options stay", async () => {
    const { actor, signals } = start({}, () => new Promise(() => {}));
    actor.send({ type: "level.choose", level: 2 });
    actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    actor.send({ type: "optimisation.run" });
    expect(actor.getSnapshot().value).toBe("optimising");
    actor.send({ type: "optimisation.cancel" });
    expect(actor.getSnapshot().value).toEqual({ options: "o2" });
    expect(signals[0]!.aborted).toBe(true);
    expect(actor.getSnapshot().context.newAssets.map((a) => a.symbol)).toEqual(["GLD"]);
  });

  it("starts again when the portfolio changes while it runs", async () => {
    let release: (v: OptimiseResponse) => void = () => {};
    const { actor, calls, signals } = start(
      {},
      () => new Promise<OptimiseResponse>((resolve) => (release = resolve)),
    );
    actor.send({ type: "level.choose", level: 1 });
    actor.send({ type: "optimisation.run" });
    actor.send({ type: "portfolio.change", portfolio: portfolio({ AAPL: 5000, KO: 5000 }, "k2") });
    expect(signals[0]!.aborted).toBe(true);
    expect(calls.map((c) => c.assets.map((a) => a.symbol))).toEqual([
      ["AAPL", "SAN.MC"],
      ["AAPL", "KO"],
    ]);
    release(optimal([0.5, 0.5]));
    await waitFor(actor, (s) => s.matches("summary"));
    expect(actor.getSnapshot().context.resultKey).toBe("k2");
  });
});

describe("the summary: never silently stale, and adopted only when current", () => {
  async function inSummary(adopt?: () => Promise<void>) {
    const started = start({}, undefined, adopt);
    started.actor.send({ type: "level.choose", level: 2 });
    started.actor.send({ type: "optimisation.run" });
    await waitFor(started.actor, (s) => s.matches("summary"));
    return started;
  }

  it("a change of the portfolio makes the result stale: it cannot be adopted until run again", async () => {
    const { actor, adoptSpy, calls } = await inSummary();
    actor.send({ type: "portfolio.change", portfolio: portfolio(undefined, "k1") });
    expect(actor.getSnapshot().value).toBe("summary");
    actor.send({ type: "portfolio.change", portfolio: portfolio({ AAPL: 10_000 }, "k2") });
    expect(actor.getSnapshot().value).toBe("stale");
    actor.send({ type: "result.adopt" });
    expect(actor.getSnapshot().value).toBe("stale");
    expect(adoptSpy).not.toHaveBeenCalled();
    actor.send({ type: "optimisation.run" });
    await waitFor(actor, (s) => s.matches("summary"));
    expect(calls.at(-1)!.assets[0]).toEqual({ symbol: "AAPL", investedAmount: 10_000 });
    actor.send({ type: "result.adopt" });
    await waitFor(actor, (s) => s.matches("adopted"));
    expect(adoptSpy).toHaveBeenCalledTimes(1);
  });

  it("a failed adoption stays on the summary with the msgCode", async () => {
    const { actor } = await inSummary(async () => {
      throw new SessionFailure("NO_EDITIONS_LEFT");
    });
    actor.send({ type: "result.adopt" });
    await waitFor(actor, (s) => s.matches("summary") && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe("NO_EDITIONS_LEFT");
  });

  it("start again drops the last run's options: new assets, kept assets and their weights, the desired amount", async () => {
    const started = start();
    const { actor } = started;
    actor.send({ type: "level.choose", level: 2 });
    actor.send({ type: "newAsset.add", symbol: "GLD", name: "Gold" });
    actor.send({ type: "keep.toggle", symbol: "AAPL" });
    actor.send({ type: "optimisation.run" });
    await waitFor(actor, (s) => s.matches("summary"));
    expect(actor.getSnapshot().context.newAssets).toHaveLength(1);
    actor.send({ type: "optimisation.restart" });
    const c = actor.getSnapshot().context;
    expect(actor.getSnapshot().value).toBe("choose");
    expect([c.level, c.newAssets, c.keepAssets, c.keepAssetsWeight, c.desiredAssetsAmount]).toEqual(
      [null, [], [], {}, null],
    );
    // The next run sends only the portfolio's own assets.
    actor.send({ type: "level.choose", level: 1 });
    actor.send({ type: "optimisation.run" });
    await waitFor(actor, (s) => s.matches("summary"));
    expect(started.calls.at(-1)!.assets.map((a) => a.symbol)).not.toContain("GLD");
  });

  it("back returns to the level's options; restart to the choice", async () => {
    const { actor } = await inSummary();
    actor.send({ type: "step.back" });
    expect(actor.getSnapshot().value).toEqual({ options: "o2" });
    actor.send({ type: "step.back" });
    expect(actor.getSnapshot().value).toBe("choose");
    expect(actor.getSnapshot().context.level).toBeNull();
  });
});
