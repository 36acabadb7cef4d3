// The what-if machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { whatIfMachine } from "./what-if.machine.ts";

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
    portfolio: {
      currency: "EUR",
      benchmark: 5,
      assets: [
        { symbol: "SAN.MC", investedAmount: 6000 },
        { symbol: "ITX.MC", investedAmount: 4000 },
      ],
    },
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
