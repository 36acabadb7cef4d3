// The live-risk machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { liveRiskMachine } from "./live-risk.machine.ts";

/** The live-risk machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const liveRiskEntry: MachineEntry = {
  machine: liveRiskMachine,
  title: "Live risk (the portfolio being edited)",
  guards: {
    nothingHeld: "No holding has an amount above zero: there is nothing to measure.",
  },
  pathEvents: [
    {
      type: "holdings.change",
      input: { currency: "EUR", assets: [{ id: "SAN.MC", investedAmount: 6000 }] },
    },
    { type: "holdings.change", input: { currency: "EUR", assets: [] } },
    { type: "xstate.after.pause.liveRisk.waiting" },
    {
      type: "xstate.done.actor.measure",
      output: { volatility: { annual: 0.2 }, var: { historical: { varAmount: 500 } } },
    },
    { type: "xstate.error.actor.measure", error: new SessionFailure("NETWORK_ERROR") },
  ],
};
