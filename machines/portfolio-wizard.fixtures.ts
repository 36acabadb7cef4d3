// The portfolio-wizard machine's fixtures: what its chart and its model-based paths are drawn with.
import { createActor, fromPromise } from "xstate";
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { portfolioWizardMachine, type PortfolioWizardInput } from "./portfolio-wizard.machine.ts";
import { permissionsFor } from "../src/contract/permissions.ts";
import { CURRENCY_UNDEFINED_MESSAGE } from "../src/contract/portfolio-rules.ts";
import type { ProposeRequest, ProposeResponse } from "../src/contract/portfolios.ts";

export const demoProposal: ProposeResponse = {
  currency: "EUR",
  assets: [
    { symbol: "SAN.MC", name: "Banco Santander", investedAmount: 6000, percentage: 60 },
    { symbol: "ITX.MC", name: "Inditex", investedAmount: 4000, percentage: 40 },
  ],
  method: "equal",
  var95Amount: 620,
  cvar95Amount: 810,
  withinMaxToLose: true,
  minimumDesiredRiskAmount: 110,
  simulated: true,
};

/** The portfolio-wizard machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const portfolioWizardEntry: MachineEntry = {
  machine: portfolioWizardMachine,
  title: "Portfolio creation wizard",
  guards: {
    currencyDefined: `q1: the portfolio has a currency (EUR or USD); otherwise "${CURRENCY_UNDEFINED_MESSAGE}" (CURRENCY_UNDEFINED, section 8).`,
    amountWithinBounds:
      "q1: the amount is above the minimum and not above the maximum investment (sections 5 and 9; 0 and 5,000,000 by default).",
    lazyPortfoliosAllowed:
      "q1: a lazy portfolio is chosen, in the second edition (tt) and with the lazyPortfolios permission (section 5): q2 and q3 are skipped.",
    lazyPortfolioChosen:
      "q1: a lazy portfolio chosen outside tt or without the lazyPortfolios permission is refused (LAZY_NOT_ALLOWED).",
    lazyTotalAllowed:
      "Section 5, lazy portfolio in the second edition: the total must not exceed the max investment (lazyTotalAllowed).",
    maxToLoseValid:
      "q2: maxToLose95 is not said (null) or above 0; below the minimum desired risk (1.1% EUR, 1.74% USD) it is kept and maxToLoseBelowMinimum explains it (section 5).",
    orderingAllowed:
      "q3: the ordering is behind its permission (orderByMarketRisk, orderByExpectedReturn, orderByRiskReturn, minimization; balanced always; orderingAllowed).",
    assetLevelOffered:
      "q3: maxAssetsLevel is one the permission's maxAssets allows (offeredAssetLevels; section 9 level counts).",
    autoCreate:
      "The autoCreate permission: the engine weights the proposal (the server reads the permission from the session); without it the proposal is also made, and the user adjusts it.",
    viaLazyPortfolio: "The proposal came from a lazy portfolio: back and failures return to q1.",
    composable:
      "Section 5: asset count within 1 and min(max of the level, the permission's maxAssets) (50 for simMonk), total above the minimum and not above the maximum; a portfolio without a currency is refused (compositionProblem).",
    "pageIs(q1)":
      "The page of q1 opened on a later step (the browser's back button, a link, a reload): the wizard steps back to q1.",
    "pageIs(q2)": "The page of q2 opened on a later step: the wizard steps back to q2.",
    "pageIs(q3)": "The page of q3 opened on the summary: the wizard steps back to q3.",
    lazyPageBeforeSummary:
      "A question's page opened on a lazy portfolio's summary (q2 and q3 were skipped): the wizard goes back to q1.",
  },
  input: {
    product: "simAssets",
    edition: "tt",
    permissions: permissionsFor("simAssets", "advanced"),
    answers: { amount: 10000 },
  },
  pathEvents: [
    { type: "q1.change", answers: { amount: 10000, currency: "EUR" } },
    { type: "step.next" },
    { type: "step.back" },
    { type: "q2.change", maxToLose95: 500 },
    { type: "q3.change", answers: { ordering: "marketRisk", maxAssetsLevel: 2 } },
    { type: "xstate.done.actor.propose", output: demoProposal },
    { type: "xstate.error.actor.propose", error: new SessionFailure("ANALYTICS_FAILED") },
    { type: "amount.change", id: "ITX.MC", investedAmount: 5000 },
    { type: "asset.add", id: "BBVA.MC", name: "BBVA", investedAmount: 1000 },
    { type: "asset.remove", id: "SAN.MC" },
    { type: "portfolio.save" },
    { type: "creation.cancel" },
  ],
};

/** What a wizard started by `startWizard` is answered with. */
export interface WizardFakes {
  /** The proposal's call (the demo proposal by default). */
  readonly propose?: (request: ProposeRequest) => Promise<ProposeResponse>;
  /** Guards replaced, to reach a branch the rules otherwise close. */
  readonly guards?: Partial<
    Record<keyof typeof portfolioWizardMachine.implementations.guards, () => boolean>
  >;
}

/**
 * A creation wizard actor for the machine's tests (tests/machines): simAssets in the first edition
 * at the standard plan unless `input` says otherwise, its proposals answered by `fakes.propose`,
 * and the routes its `follow` asks for listed.
 */
export function startWizard(input: Partial<PortfolioWizardInput> = {}, fakes: WizardFakes = {}) {
  const followed: { route: string }[] = [];
  const propose = fakes.propose ?? (async () => demoProposal);
  const actor = createActor(
    portfolioWizardMachine.provide({
      actors: { propose: fromPromise(({ input }) => propose(input)) },
      actions: { follow: (_, target) => void followed.push(target) },
      ...(fakes.guards ? { guards: fakes.guards } : {}),
    }),
    {
      input: {
        product: "simAssets",
        edition: "ht",
        permissions: permissionsFor("simAssets", "standard"),
        ...input,
      },
    },
  ).start();
  return { actor, followed };
}
