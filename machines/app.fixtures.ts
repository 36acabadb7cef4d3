// The app root machine's fixtures: what its chart and its model-based paths are drawn with.
import { permissionsFor } from "../src/contract/permissions.ts";
import { appMachine } from "./app.machine.ts";
import type { MachineEntry } from "./machine-entry.ts";
import { optimiseEntry } from "./optimise.fixtures.ts";
import type { OptimiseInput } from "./optimise.machine.ts";
import { savedPortfolioFixture } from "./portfolio-lifecycle.fixtures.ts";
import { whatIfEntry } from "./what-if.fixtures.ts";
import type { WhatIfInput } from "./what-if.machine.ts";

const permissions = permissionsFor("simAssets", "advanced");

/** A stored wizard at q2, as the tab's drafts keep it. */
export const storedWizardFixture = {
  status: "active",
  value: "q2",
  context: { product: "simAssets", permissions, answers: {}, assets: [], page: null },
  children: {},
};

/** The app root machine as the charts and the path tests see it: the events that start and clear its children. */
export const appEntry: MachineEntry = {
  machine: appMachine,
  title: "App (the root of the long-lived actors)",
  guards: {},
  pathEvents: [
    {
      type: "wizard.start",
      input: { product: "simAssets", edition: "ht", permissions },
    },
    { type: "wizard.restore", snapshot: storedWizardFixture },
    {
      type: "wizard.restored",
      input: { product: "simAssets", edition: "ht", permissions },
    },
    {
      type: "portfolio.open",
      input: {
        product: "simAssets",
        permissions,
        savedCount: 0,
        portfolio: savedPortfolioFixture(),
      },
    },
    {
      type: "optimisation.start",
      identity: "11:simAssets:draft",
      input: optimiseEntry.input as OptimiseInput,
    },
    { type: "optimisation.end" },
    { type: "xstate.done.actor.optimise" },
    { type: "whatIf.start", clientId: 11, input: whatIfEntry.input as WhatIfInput },
    { type: "workspace.clear" },
  ],
};
