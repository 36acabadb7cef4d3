// The optimise machine's fixtures: what its chart and its model-based paths are drawn with.
import { createActor, fromPromise } from "xstate";
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { optimiseMachine, type OptimiseInput, type OptimisePortfolio } from "./optimise.machine.ts";
import type { OptimiseRequest, OptimiseResponse } from "../src/contract/analytics.ts";
import { permissionsFor } from "../src/contract/permissions.ts";

/** An optimal answer of the optimise call, for the optimise machine's paths. */
const demoOptimalAnswer = {
  status: "optimal",
  method: "minimum-risk",
  currency: "EUR",
  window: { benchmark: 5, from: "2023-11-20", to: "2026-11-20", limitedBy: [], simulated: true },
  assets: [
    { symbol: "SAN.MC", weight: 0.45, investedAmount: 4500, currentWeight: 0.6 },
    { symbol: "ITX.MC", weight: 0.55, investedAmount: 5500, currentWeight: 0.4 },
  ],
  volatility: 0.05,
  var95: 0.07,
  cvar95: 0.09,
  var95Amount: 700,
  cvar95Amount: 900,
  expectedReturn: 0.06,
  current: {
    volatility: 0.055,
    var95: 0.08,
    cvar95: 0.1,
    var95Amount: 800,
    cvar95Amount: 1000,
    expectedReturn: 0.065,
  },
  frontier: [
    { volatility: 0.05, expectedReturn: 0.06 },
    { volatility: 0.07, expectedReturn: 0.08 },
  ],
  gap: 0,
} as const;

/** The optimise machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const optimiseEntry: MachineEntry = {
  machine: optimiseMachine,
  title: "Optimisation: o1, o2 and o3, the summary and adopting the result",
  guards: {
    "levelAllowed(1)":
      "Section 3 optimization permissions: o1 (the current assets) needs optimization.portfolio (the server answers 403 PLAN_FEATURE_LOCKED otherwise).",
    "levelAllowed(2)":
      "Section 3: o2 (new assets, kept assets within weights) needs optimization.construction.",
    "levelAllowed(3)":
      "Section 3: o3 (a desired number of assets) needs optimization.constructionFixAssets.",
    canOptimise:
      "Sections 5 and 9, by the function the server enforces (optimisationViolations): the client's level at least 30; the asset count (new assets included) within the plan's maxAssets; at level 3 a desired amount within it; the maximum loss at 95% at least 1.1% (EUR) or 1.74% (USD) of the total, to the cent; and the permission of the level the options imply.",
    "atLevel(1)": "Back to the options of the level chosen (the optimisation state's level 1).",
    "atLevel(2)": "Back to the options of level 2; otherwise level 3.",
    isOptimal:
      "The server found a portfolio; otherwise it names the constraint that cannot be met (e.g. MAX_LOSS_EXCEEDED, CVAR_CAP_INFEASIBLE, BOUNDS_INFEASIBLE).",
    portfolioChanged:
      "The portfolio's composition changed (another key): a running optimisation starts again, a result becomes stale.",
    resultCurrent:
      "Only a result computed for the portfolio as it is now can be adopted (never silently stale).",
    "pageLevelAllowed(1)":
      "The page of o1 opened on the choice (a link, a reload, the browser's forward button): o1 is chosen when the plan includes it (optimization.portfolio).",
    "pageLevelAllowed(2)":
      "The page of o2 opened on the choice: o2 is chosen with optimization.construction.",
    "pageLevelAllowed(3)":
      "The page of o3 opened on the choice: o3 is chosen with optimization.constructionFixAssets.",
    isLevelPage:
      "A level's page opened on the choice without the level's permission: the choice stays and shows the lock.",
    "pageIs(choose)":
      "The choice's page opened on a level's options (the browser's back button): the machine goes back to the choice.",
  },
  input: {
    portfolio: {
      currency: "EUR",
      assets: [
        { symbol: "SAN.MC", name: "Banco Santander", investedAmount: 6000 },
        { symbol: "ITX.MC", name: "Inditex", investedAmount: 4000 },
      ],
      key: "demo-1",
    },
    permissions: permissionsFor("simAssets", "advanced"),
    clientLevel: 30,
    maxToLose95: 1000,
  },
  pathEvents: [
    { type: "level.choose", level: 1 },
    { type: "level.choose", level: 2 },
    { type: "level.choose", level: 3 },
    { type: "objective.change", objective: "maximum-return" },
    { type: "maxLoss.change", amount: 50 },
    { type: "newAsset.add", symbol: "GLD", name: "Gold" },
    { type: "keep.toggle", symbol: "SAN.MC" },
    { type: "desired.change", amount: 2 },
    { type: "optimisation.run" },
    { type: "optimisation.cancel" },
    { type: "step.back" },
    { type: "optimisation.restart" },
    { type: "result.adopt" },
    {
      type: "portfolio.change",
      portfolio: {
        currency: "EUR",
        assets: [{ symbol: "SAN.MC", name: "Banco Santander", investedAmount: 10000 }],
        key: "demo-2",
      },
    },
    { type: "xstate.done.actor.optimise", output: demoOptimalAnswer },
    {
      type: "xstate.done.actor.optimise",
      output: {
        status: "infeasible",
        reason: { code: "MAX_LOSS_EXCEEDED", detail: { maxToLose95: 1000, cvar95Amount: 1400 } },
      },
    },
    { type: "xstate.error.actor.optimise", error: new SessionFailure("NETWORK_ERROR") },
    { type: "xstate.done.actor.adopt", output: undefined },
    { type: "xstate.error.actor.adopt", error: new SessionFailure("NO_EDITIONS_LEFT") },
  ],
};

/** The portfolio the machine's tests optimise unless they give another: two holdings, 10,000 EUR. */
export const demoOptimisePortfolio: OptimisePortfolio = {
  currency: "EUR",
  assets: [
    { symbol: "AAPL", name: "AAPL", investedAmount: 6000 },
    { symbol: "SAN.MC", name: "SAN.MC", investedAmount: 4000 },
  ],
  key: "k1",
};

/** The calls an optimisation started by `startOptimisation` makes, answered by the test. */
export interface OptimiseFakes {
  readonly optimise?: (request: OptimiseRequest, signal: AbortSignal) => Promise<OptimiseResponse>;
  readonly adopt?: () => Promise<void>;
}

/**
 * An optimisation actor for the machine's tests (tests/machines): its input over the demo
 * portfolio of a level-30 client with every permission, its calls answered by `fakes` (an optimal
 * answer and an adoption that succeeds by default), the requests and their signals kept, and the
 * routes its `follow` asks for listed.
 */
export function startOptimisation(input: Partial<OptimiseInput> = {}, fakes: OptimiseFakes = {}) {
  const calls: OptimiseRequest[] = [];
  const signals: AbortSignal[] = [];
  const followed: { route: string; params?: Readonly<Record<string, string>> }[] = [];
  const optimise = fakes.optimise ?? (async () => demoOptimalAnswer as OptimiseResponse);
  const adopt = fakes.adopt ?? (async () => {});
  const actor = createActor(
    optimiseMachine.provide({
      actors: {
        optimise: fromPromise(async ({ input, signal }) => {
          calls.push(input);
          signals.push(signal);
          return optimise(input, signal);
        }),
        adopt: fromPromise(async () => adopt()),
      },
      actions: { follow: (_, target) => void followed.push(target) },
    }),
    {
      input: {
        portfolio: demoOptimisePortfolio,
        permissions: permissionsFor("simAssets", "advanced"),
        clientLevel: 30,
        maxToLose95: 1000,
        ...input,
      },
    },
  ).start();
  return { actor, calls, signals, followed };
}
