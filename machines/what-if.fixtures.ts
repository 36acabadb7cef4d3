// The what-if machine's fixtures: what its chart and its model-based paths are drawn with.
import { createActor, fromPromise } from "xstate";
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { whatIfMachine, type WhatIfInput, type WhatIfPortfolio } from "./what-if.machine.ts";
import type { WhatIfRequest, WhatIfResponse } from "../src/contract/analytics.ts";

/** The portfolio the machine's paths and tests stress unless they give another: 10,000 EUR. */
export const demoWhatIfPortfolio: WhatIfPortfolio = {
  currency: "EUR",
  benchmark: 5,
  assets: [
    { symbol: "SAN.MC", investedAmount: 6000 },
    { symbol: "ITX.MC", investedAmount: 4000 },
  ],
};

/** A custom what-if's answer: the portfolio down 15% under a 20% fall of the stock markets. */
export const demoCustomWhatIfAnswer: WhatIfResponse = {
  kind: "custom",
  currency: "EUR",
  totalInvested: 10000,
  totalChange: -1500,
  totalReturn: -0.15,
  assets: [],
  shocks: { dRV: -0.2 },
  ignored: [],
  sensitivities: { periods: 150, from: "2023-11-20", to: "2026-11-20", factors: [], excluded: [] },
  sources: [],
  simulated: true,
};

/**
 * A what-if actor for the machine's tests (tests/machines): every kind allowed and the demo
 * portfolio unless `input` says otherwise, its runs answered by `run` (the custom answer by
 * default), the requests and their signals kept, and the routes its `follow` asks for listed.
 */
export function startWhatIf(
  input: Partial<WhatIfInput> = {},
  run: (request: WhatIfRequest, signal: AbortSignal) => Promise<WhatIfResponse> = async () =>
    demoCustomWhatIfAnswer,
) {
  const calls: WhatIfRequest[] = [];
  const signals: AbortSignal[] = [];
  const followed: { route: string }[] = [];
  const actor = createActor(
    whatIfMachine.provide({
      actors: {
        runWhatIf: fromPromise(async ({ input, signal }) => {
          calls.push(input);
          signals.push(signal);
          return run(input, signal);
        }),
      },
      actions: { follow: (_, target) => void followed.push(target) },
    }),
    {
      input: {
        permissions: { marketScenarios: true, realLifeScenarios: true, backTesting: true },
        portfolio: demoWhatIfPortfolio,
        ...input,
      },
    },
  ).start();
  return { actor, calls, signals, followed };
}

/** The what-if machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const whatIfEntry: MachineEntry = {
  machine: whatIfMachine,
  title: "What-if: custom shocks, real scenarios and backtests",
  guards: {
    isLocked:
      "Section 3 whatIf permissions: custom shocks need marketScenarios, a real scenario realLifeScenarios, a backtest backTesting (the server's whatIfPermission of the kind chosen by section 4's priority: backtest, then real scenario, then custom).",
    breaksRule:
      "Section 5: a custom what-if needs at least one non-null shock (dRV, dRF, dCrypto, dMMPP, inflation); a real one scenario type 0, 1, 2 or 3; a backtest an id (1y, 3y, 5y, 10y); and there must be a portfolio.",
    isPlanLocked:
      "The server answered 403 PLAN_FEATURE_LOCKED: the plan does not include the kind.",
    portfolioGone: "The portfolio was closed during the run: nothing to run on.",
    portfolioMoved:
      "The portfolio changed during the run: it starts again on the new one, so a result never answers an older portfolio.",
  },
  input: {
    permissions: { marketScenarios: true, realLifeScenarios: false, backTesting: false },
    shocks: { dRV: -20 },
    portfolio: demoWhatIfPortfolio,
  },
  pathEvents: [
    { type: "shock.set", key: "dRV", percentage: -20 },
    { type: "shocks.clear" },
    { type: "scenario.choose", scenarioType: 1 },
    { type: "backtest.choose", backTesting: "1y" },
    { type: "whatIf.run" },
    { type: "whatIf.cancel" },
    { type: "whatIf.retry" },
    {
      type: "permissions.changed",
      permissions: { marketScenarios: true, realLifeScenarios: true, backTesting: true },
    },
    {
      type: "portfolio.changed",
      portfolio: { currency: "EUR", assets: [{ symbol: "SAN.MC", investedAmount: 7000 }] },
    },
    { type: "portfolio.changed", portfolio: null },
    {
      type: "xstate.done.actor.runWhatIf",
      output: {
        kind: "scenario",
        currency: "EUR",
        scenario: { type: 1, id: "pandemic-2020", start: "2020-02-19", end: "2020-03-23" },
        totalInvested: 10000,
        totalChange: -3100,
        totalReturn: -0.31,
        assets: [],
        factorMoves: {},
        missingFactors: [],
        sensitivities: null,
        sources: [],
        simulated: true,
      },
    },
    { type: "xstate.error.actor.runWhatIf", error: new SessionFailure("PLAN_FEATURE_LOCKED") },
    { type: "xstate.error.actor.runWhatIf", error: new SessionFailure("NETWORK_ERROR") },
  ],
};
