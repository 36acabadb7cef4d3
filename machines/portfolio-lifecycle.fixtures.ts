// The portfolio-lifecycle machine's fixtures: what its chart and its model-based paths are drawn with.
import { createActor, fromPromise } from "xstate";
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import {
  portfolioLifecycleMachine,
  type ExportFormat,
  type PortfolioLifecycleInput,
} from "./portfolio-lifecycle.machine.ts";
import { permissionsFor } from "../src/contract/permissions.ts";
import type {
  Portfolio,
  SavePortfolioRequest,
  UpdatePortfolioRequest,
} from "../src/contract/portfolios.ts";

/** A holding of a saved portfolio's fixture: 20% volatility on every window. */
const demoAsset = (id: string, name: string, investedAmount: number) => ({
  id,
  name,
  investedAmount,
  percentage: investedAmount / 100,
  volatilities: { 1: 0.2, 2: 0.2, 3: 0.2, 4: 0.2, 5: 0.2, 6: 0.2 },
  currency: "EUR",
  stale: false,
});

/**
 * A saved portfolio on the Madrid exchange holding `holdings` ([symbol, name, amount]), with
 * `extra` over it: the machine's paths and the route-level tests of a saved portfolio's page.
 */
export function savedPortfolioFixture(
  holdings: readonly (readonly [string, string, number])[] = [
    ["SAN.MC", "Banco Santander", 6000],
    ["ITX.MC", "Inditex", 4000],
  ],
  extra: Partial<Portfolio> = {},
): Portfolio {
  return {
    id: 7,
    name: "Iberia",
    product: "simAssets",
    currency: "EUR",
    benchmark: 5,
    benchmarkSeries: null,
    assets: [
      {
        stockExchange: "Madrid",
        stockExchangeId: "MC",
        assetClass: null,
        assetClassId: null,
        position: 1,
        assets: holdings.map(([id, name, amount]) => demoAsset(id, name, amount)),
      },
    ],
    totalInvested: holdings.reduce((sum, [, , amount]) => sum + amount, 0),
    initialInvested: 10000,
    maxAssetsLevel: 2,
    saved: true,
    remainingEditions: 3,
    monkeyRegion: null,
    answers: null,
    version: 1,
    createdAt: "2025-01-02T10:00:00.000Z",
    updatedAt: "2025-01-02T10:00:00.000Z",
    valuation: null,
    ...extra,
  };
}

const demoPortfolio = savedPortfolioFixture();

/** The portfolio-lifecycle machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const portfolioLifecycleEntry: MachineEntry = {
  machine: portfolioLifecycleMachine,
  title: "Portfolio lifecycle (save and edit)",
  guards: {
    hasSavedPortfolio: "A saved portfolio was opened (my portfolios): the lifecycle starts saved.",
    canSave:
      "Section 6: the save permission, an unsaved portfolio and being under the limit (saveLimit; saveLimitPerRegion for simMonk) (saveProblem).",
    draftComposable:
      "Section 5: the composed portfolio has a currency, 1 to max assets and a total above the minimum and not above the maximum (compositionProblem).",
    canEdit:
      "Section 4: editing is allowed with the edit permission while remainingEditions is null or above 0 (editProblem).",
    canSubmit:
      "Section 5, editing a saved portfolio: editing permitted, editions left, the composition valid, total not below the minimum nor above the maximum (editProblem).",
    canDelete: "The management.delete permission.",
    canExport: "The management.export permission.",
    isConflict:
      "The portfolio was changed since it was read (412 PORTFOLIO_CONFLICT): reload or discard.",
    valuationArrived:
      "Issue 23: a save is answered once committed and its first valuation follows; the portfolio read again has it (only the valuation is taken).",
  },
  input: {
    product: "simAssets",
    permissions: permissionsFor("simAssets", "standard"),
    savedCount: 0,
    draft: {
      currency: "EUR",
      maxAssetsLevel: 2,
      assets: [
        { id: "SAN.MC", name: "Banco Santander", investedAmount: 6000 },
        { id: "ITX.MC", name: "Inditex", investedAmount: 4000 },
      ],
    },
  },
  pathEvents: [
    { type: "portfolio.save", name: "Iberia" },
    { type: "xstate.done.actor.savePortfolio", output: demoPortfolio },
    { type: "xstate.error.actor.savePortfolio", error: new SessionFailure("SAVE_LIMIT_REACHED") },
    { type: "edit.start" },
    { type: "amount.change", id: "ITX.MC", investedAmount: 5000 },
    { type: "asset.add", id: "BBVA.MC", name: "BBVA", investedAmount: 1000 },
    { type: "asset.remove", id: "BBVA.MC" },
    { type: "edit.reset", ids: ["ITX.MC"] },
    { type: "edit.submit" },
    { type: "xstate.done.actor.updatePortfolio", output: { ...demoPortfolio, version: 2 } },
    {
      type: "xstate.error.actor.updatePortfolio",
      error: new SessionFailure("PORTFOLIO_CONFLICT"),
    },
    { type: "xstate.error.actor.updatePortfolio", error: new SessionFailure("INTERNAL_ERROR") },
    { type: "conflict.reload" },
    { type: "xstate.done.actor.loadPortfolio", output: { ...demoPortfolio, version: 3 } },
    { type: "xstate.error.actor.loadPortfolio", error: new SessionFailure("NETWORK_ERROR") },
    { type: "conflict.discard" },
    { type: "edit.cancel" },
    { type: "portfolio.export", format: "csv" },
    { type: "xstate.done.actor.exportPortfolio" },
    { type: "xstate.error.actor.exportPortfolio", error: new SessionFailure("NETWORK_ERROR") },
    { type: "portfolio.delete" },
    { type: "xstate.done.actor.deletePortfolio" },
    { type: "xstate.error.actor.deletePortfolio", error: new SessionFailure("NETWORK_ERROR") },
  ],
};

/** The calls of a lifecycle started by `startLifecycle`, answered by the test. */
export interface LifecycleFakes {
  readonly save?: (request: SavePortfolioRequest) => Promise<Portfolio>;
  readonly update?: (input: { id: number; request: UpdatePortfolioRequest }) => Promise<Portfolio>;
  readonly load?: (input: { id: number }) => Promise<Portfolio>;
  readonly remove?: (input: { id: number }) => Promise<void>;
  readonly exportFile?: (input: { id: number; format: ExportFormat }) => Promise<void>;
  readonly awaitValuation?: (input: { id: number; valued: boolean }) => Promise<Portfolio | null>;
}

/**
 * A lifecycle actor for the machine's tests (tests/machines): its calls answered by `fakes` (by
 * default the saved portfolio fixture, a new version after an update, no valuation to wait for),
 * and the routes its `follow` asks for listed.
 */
export function startLifecycle(input: PortfolioLifecycleInput, fakes: LifecycleFakes = {}) {
  const followed: { route: string }[] = [];
  const {
    save = async () => savedPortfolioFixture(),
    update = async ({ request }) =>
      savedPortfolioFixture(undefined, { version: request.version + 1 }),
    load = async () => savedPortfolioFixture(),
    remove = async () => {},
    exportFile = async () => {},
    awaitValuation = async () => null,
  } = fakes;
  const actor = createActor(
    portfolioLifecycleMachine.provide({
      actors: {
        savePortfolio: fromPromise(({ input }) => save(input)),
        updatePortfolio: fromPromise(({ input }) => update(input)),
        loadPortfolio: fromPromise(({ input }) => load(input)),
        deletePortfolio: fromPromise(({ input }) => remove(input)),
        exportPortfolio: fromPromise(({ input }) => exportFile(input)),
        awaitValuation: fromPromise(({ input }) => awaitValuation(input)),
      },
      actions: { follow: (_, target) => void followed.push(target) },
    }),
    { input },
  ).start();
  return { actor, followed };
}
