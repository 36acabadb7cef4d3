import { Schema } from "effect";
import { describe, expect, it } from "vitest";
import { waitFor } from "xstate";
import { SCENARIOS } from "../../src/engine/whatif/scenarios.ts";
import { SessionFailure } from "../../machines/session.machine.ts";
import {
  demoCustomWhatIfAnswer,
  demoWhatIfPortfolio,
  startWhatIf,
} from "../../machines/what-if.fixtures.ts";
import {
  SCENARIO_WINDOWS,
  SHOCK_KEYS,
  SHOCKS,
  isStale,
  requestOf,
  shockValue,
  type WhatIfPortfolio,
} from "../../machines/what-if.machine.ts";
import { WhatIfRequest, type WhatIfResponse } from "../../src/contract/analytics.ts";
import { whatIfKind } from "../../src/contract/analytics-rules.ts";
import type { ProductPermissions } from "../../src/contract/permissions.ts";

const all = { marketScenarios: true, realLifeScenarios: true, backTesting: true };
const none = { marketScenarios: false, realLifeScenarios: false, backTesting: false };
const portfolio = demoWhatIfPortfolio;
const customAnswer = demoCustomWhatIfAnswer;

function start(
  permissions: ProductPermissions["whatIf"] = all,
  run: (request: WhatIfRequest, signal: AbortSignal) => Promise<WhatIfResponse> = async () =>
    customAnswer,
  initial: WhatIfPortfolio | null = portfolio,
) {
  const { actor, calls, signals } = startWhatIf({ permissions, portfolio: initial }, run);
  return { actor, calls, signals };
}

const never = () => new Promise<WhatIfResponse>(() => {});

describe("what-if type priority (specification section 4)", () => {
  it("runs the backtest when a backtest, a real scenario and shocks are all given", async () => {
    const { actor, calls } = start();
    actor.send({ type: "shock.set", key: "dRV", percentage: -20 });
    actor.send({ type: "scenario.choose", scenarioType: 1 });
    actor.send({ type: "backtest.choose", backTesting: "3y" });
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(calls[0]).toMatchObject({ backTesting: "3y", rebalancing: "none" });
    expect(calls[0]).not.toHaveProperty("scenarioType");
    expect(calls[0]).not.toHaveProperty("shocks");
    expect(whatIfKind(calls[0]!)).toBe("backtest");
  });

  it("runs the real scenario when there is no backtest, even with shocks", async () => {
    const { actor, calls } = start();
    actor.send({ type: "shock.set", key: "dRV", percentage: -20 });
    actor.send({ type: "scenario.choose", scenarioType: 0 });
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(calls[0]).toMatchObject({ scenarioType: 0 });
    expect(calls[0]).not.toHaveProperty("shocks");
    expect(calls[0]).not.toHaveProperty("backTesting");
  });

  it("runs the custom shocks only when neither a backtest nor a scenario is chosen", async () => {
    const { actor, calls } = start();
    actor.send({ type: "scenario.choose", scenarioType: 2 });
    actor.send({ type: "shock.set", key: "dRV", percentage: -20 });
    actor.send({ type: "scenario.choose", scenarioType: null });
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(calls[0]!.shocks).toEqual({
      dRV: -0.2,
      dRF: null,
      dCrypto: null,
      dMMPP: null,
      inflation: null,
    });
    expect(whatIfKind(calls[0]!)).toBe("custom");
  });

  it("sends a request the API's schema accepts, with the portfolio's currency and window", () => {
    const { actor } = start();
    actor.send({ type: "shock.set", key: "dRF", percentage: 1.5 });
    const request = requestOf(actor.getSnapshot().context);
    expect(Schema.decodeUnknownSync(WhatIfRequest)(request)).toEqual(request);
    expect(request).toMatchObject({ currency: "EUR", benchmark: 5 });
    expect(request.assets).toEqual([
      { symbol: "SAN.MC", investedAmount: 6000 },
      { symbol: "ITX.MC", investedAmount: 4000 },
    ]);
  });

  it("a saved portfolio's backtest asks for its stored benchmark; another benchmark makes the result stale (issue 27)", async () => {
    const saved = { ...portfolio, benchmarkSeries: "SPY" };
    const { actor, calls } = start(all, async () => customAnswer, saved);
    actor.send({ type: "backtest.choose", backTesting: "1y" });
    const request = requestOf(actor.getSnapshot().context);
    expect(Schema.decodeUnknownSync(WhatIfRequest)(request)).toEqual(request);
    expect(request).toMatchObject({ backTesting: "1y", benchmarkSeries: "SPY" });
    // Only the backtest compares with it: a custom shock's request does not carry it.
    actor.send({ type: "backtest.choose", backTesting: null });
    actor.send({ type: "shock.set", key: "dRV", percentage: -10 });
    expect(requestOf(actor.getSnapshot().context)).not.toHaveProperty("benchmarkSeries");
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.context.result !== null);
    expect(calls).toHaveLength(1);
    actor.send({ type: "portfolio.changed", portfolio: { ...saved, benchmarkSeries: "GLD" } });
    expect(isStale(actor.getSnapshot().context)).toBe(true);
  });
});

describe("what-if rules (specification section 5)", () => {
  it("custom: no call without at least one non-null shock", () => {
    const { actor, calls } = start();
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().value).toBe("editing");
    expect(actor.getSnapshot().context.problem).toBe("WHATIF_NEEDS_SHOCK");
    // A shock set then cleared is null again.
    actor.send({ type: "shock.set", key: "inflation", percentage: 2 });
    actor.send({ type: "shock.set", key: "inflation", percentage: null });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().context.problem).toBe("WHATIF_NEEDS_SHOCK");
    expect(calls).toHaveLength(0);
  });

  it.each(SHOCK_KEYS)("custom: %s alone is enough", (key) => {
    const { actor, calls } = start(all, never);
    actor.send({ type: "shock.set", key, percentage: 1 });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().value).toBe("running");
    expect(calls[0]!.shocks![key]).toBe(shockValue(key, 1));
  });

  it("custom: a shock of zero is a non-null shock", () => {
    const { actor } = start(all, never);
    actor.send({ type: "shock.set", key: "dCrypto", percentage: 0 });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().value).toBe("running");
  });

  it.each([0, 1, 2, 3])("real: scenario type %i runs", (scenarioType) => {
    const { actor, calls } = start(all, never);
    actor.send({ type: "scenario.choose", scenarioType });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().value).toBe("running");
    expect(calls[0]!.scenarioType).toBe(scenarioType);
  });

  it.each([4, -1, 1.5])("real: scenario type %s is refused", (scenarioType) => {
    const { actor, calls } = start();
    actor.send({ type: "shock.set", key: "dRV", percentage: -10 });
    actor.send({ type: "scenario.choose", scenarioType });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().context.problem).toBe("SCENARIO_TYPE_INVALID");
    expect(calls).toHaveLength(0);
  });

  it.each(["1y", "3y", "5y", "10y"])("backtest: id %s runs", (id) => {
    const { actor, calls } = start(all, never);
    actor.send({ type: "backtest.choose", backTesting: id });
    actor.send({ type: "rebalancing.choose", rebalancing: "quarterly" });
    actor.send({ type: "whatIf.run" });
    expect(calls[0]).toMatchObject({ backTesting: id, rebalancing: "quarterly" });
  });

  it.each(["", "2y"])("backtest: %j is not an id", (id) => {
    const { actor, calls } = start();
    actor.send({ type: "backtest.choose", backTesting: id });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().context.problem).toBe("BACKTEST_NEEDS_ID");
    expect(calls).toHaveLength(0);
  });

  it("no portfolio, no run", () => {
    const { actor, calls } = start(all, never, null);
    actor.send({ type: "shock.set", key: "dRV", percentage: -10 });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().context.problem).toBe("NO_PORTFOLIO");
    expect(calls).toHaveLength(0);
  });

  it("keeps the API's bounds for every shock in the unit shown", () => {
    for (const key of SHOCK_KEYS) {
      const decode = (percentage: number) =>
        Schema.decodeUnknownExit(WhatIfRequest)({
          currency: "EUR",
          assets: [{ symbol: "SAN.MC", investedAmount: 1 }],
          shocks: { [key]: shockValue(key, percentage) },
        })._tag;
      expect(decode(SHOCKS[key].min), `${key} min`).toBe("Success");
      expect(decode(SHOCKS[key].max), `${key} max`).toBe("Success");
      expect(decode(SHOCKS[key].min - 1), `${key} below`).toBe("Failure");
      expect(decode(SHOCKS[key].max + 1), `${key} above`).toBe("Failure");
    }
  });

  it("shows the engine's four scenarios with their dates", () => {
    expect(SCENARIO_WINDOWS).toEqual(SCENARIOS);
  });

  it("returns in percent are sent as fractions, levels in points as they are", () => {
    expect(shockValue("dRV", -20)).toBe(-0.2);
    expect(shockValue("dCrypto", 150)).toBe(1.5);
    expect(shockValue("dMMPP", -7)).toBe(-0.07);
    expect(shockValue("dRF", 1.25)).toBe(1.25);
    expect(shockValue("inflation", -2)).toBe(-2);
    expect(shockValue("dRV", null)).toBeNull();
  });
});

describe("what-if permissions (specification section 3, whatIf)", () => {
  const cases = [
    [
      "custom",
      "marketScenarios",
      (a: ReturnType<typeof start>["actor"]) =>
        a.send({ type: "shock.set", key: "dRV", percentage: -5 }),
    ],
    [
      "scenario",
      "realLifeScenarios",
      (a: ReturnType<typeof start>["actor"]) =>
        a.send({ type: "scenario.choose", scenarioType: 1 }),
    ],
    [
      "backtest",
      "backTesting",
      (a: ReturnType<typeof start>["actor"]) =>
        a.send({ type: "backtest.choose", backTesting: "1y" }),
    ],
  ] as const;

  it.each(cases)("%s is locked without %s and runs with it alone", (kind, permission, choose) => {
    const locked = start({ ...all, [permission]: false });
    choose(locked.actor);
    locked.actor.send({ type: "whatIf.run" });
    expect(locked.actor.getSnapshot().value).toBe("locked");
    expect(locked.actor.getSnapshot().context.locked).toBe(kind);
    expect(locked.calls).toHaveLength(0);

    const only = start({ ...none, [permission]: true }, never);
    choose(only.actor);
    only.actor.send({ type: "whatIf.run" });
    expect(only.actor.getSnapshot().value).toBe("running");
  });

  it("a plan that changes meanwhile applies to the next run", () => {
    const { actor } = start(none, never);
    actor.send({ type: "scenario.choose", scenarioType: 3 });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().value).toBe("locked");
    actor.send({ type: "permissions.changed", permissions: all });
    actor.send({ type: "whatIf.run" });
    expect(actor.getSnapshot().value).toBe("running");
  });

  it("the server's 403 PLAN_FEATURE_LOCKED shows the lock", async () => {
    const { actor } = start(all, async () => {
      throw new SessionFailure("PLAN_FEATURE_LOCKED");
    });
    actor.send({ type: "backtest.choose", backTesting: "5y" });
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("locked"));
    expect(actor.getSnapshot().context.locked).toBe("backtest");
  });
});

describe("running, cancelling, failing and stale results", () => {
  it("cancel stops the call (its signal aborts) and goes back to editing", () => {
    const { actor, signals } = start(all, never);
    actor.send({ type: "shock.set", key: "dRV", percentage: -30 });
    actor.send({ type: "whatIf.run" });
    actor.send({ type: "whatIf.cancel" });
    expect(actor.getSnapshot().value).toBe("editing");
    expect(signals[0]!.aborted).toBe(true);
    expect(actor.getSnapshot().context.result).toBeNull();
  });

  it("a failure can be retried with the same request", async () => {
    let first = true;
    const { actor, calls } = start(all, async () => {
      if (first) {
        first = false;
        throw new SessionFailure("NETWORK_ERROR");
      }
      return customAnswer;
    });
    actor.send({ type: "shock.set", key: "dRV", percentage: -20 });
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("failed"));
    expect(actor.getSnapshot().context.problem).toBe("NETWORK_ERROR");
    actor.send({ type: "whatIf.retry" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(calls[1]).toEqual(calls[0]);
  });

  it("a result on a portfolio that changed afterwards is stale until run again", async () => {
    const { actor, calls } = start();
    actor.send({ type: "shock.set", key: "dRV", percentage: -20 });
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(isStale(actor.getSnapshot().context)).toBe(false);
    // The same portfolio in another order is not a change.
    actor.send({
      type: "portfolio.changed",
      portfolio: { ...portfolio, assets: [...portfolio.assets].reverse() },
    });
    expect(isStale(actor.getSnapshot().context)).toBe(false);
    const edited = { ...portfolio, assets: [{ symbol: "SAN.MC", investedAmount: 7000 }] };
    actor.send({ type: "portfolio.changed", portfolio: edited });
    expect(isStale(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(calls[1]!.assets).toEqual([{ symbol: "SAN.MC", investedAmount: 7000 }]);
    expect(isStale(actor.getSnapshot().context)).toBe(false);
  });

  it("a portfolio change during a run restarts it on the new portfolio", async () => {
    const answers: ((r: WhatIfResponse) => void)[] = [];
    const { actor, calls, signals } = start(
      all,
      () => new Promise<WhatIfResponse>((resolve) => answers.push(resolve)),
    );
    actor.send({ type: "shock.set", key: "dRV", percentage: -20 });
    actor.send({ type: "whatIf.run" });
    const edited = { ...portfolio, assets: [{ symbol: "SAN.MC", investedAmount: 7000 }] };
    actor.send({ type: "portfolio.changed", portfolio: edited });
    expect(signals[0]!.aborted).toBe(true);
    expect(calls[1]!.assets).toEqual([{ symbol: "SAN.MC", investedAmount: 7000 }]);
    answers[1]!(customAnswer);
    await waitFor(actor, (s) => s.matches("result"));
    expect(actor.getSnapshot().context.resultPortfolio).toEqual(edited);
    expect(isStale(actor.getSnapshot().context)).toBe(false);
  });

  it("a portfolio that goes away during a run stops it", () => {
    const { actor, signals } = start(all, never);
    actor.send({ type: "shock.set", key: "dRV", percentage: -20 });
    actor.send({ type: "whatIf.run" });
    actor.send({ type: "portfolio.changed", portfolio: null });
    expect(actor.getSnapshot().value).toBe("editing");
    expect(actor.getSnapshot().context.problem).toBe("NO_PORTFOLIO");
    expect(signals[0]!.aborted).toBe(true);
  });

  it("records each shock as the specification's parameters", () => {
    const { actor } = start();
    actor.send({ type: "shock.set", key: "dMMPP", percentage: 12, custom: true });
    actor.send({ type: "shock.set", key: "dRF", percentage: 0.5 });
    const byKey = Object.fromEntries(
      actor.getSnapshot().context.parameters.map((p) => [p.titleKey, p]),
    );
    expect(byKey.dMMPP).toEqual({
      titleKey: "dMMPP",
      factor: "commodities",
      optionsType: "return",
      percentage: 12,
      value: 0.12,
      customPercentage: true,
    });
    expect(byKey.dRF).toMatchObject({ factor: "rates", optionsType: "level", value: 0.5 });
    expect(byKey.dRF!.customPercentage).toBe(false);
    actor.send({ type: "shocks.clear" });
    expect(actor.getSnapshot().context.parameters.every((p) => p.value === null)).toBe(true);
  });
});
