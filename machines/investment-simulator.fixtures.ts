// The investment-simulator machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import {
  demoSimulation,
  demoSimulatorSources,
  investmentSimulatorMachine,
} from "./investment-simulator.machine.ts";

/** The investment-simulator machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const investmentSimulatorEntry: MachineEntry = {
  machine: investmentSimulatorMachine,
  title: "Investment simulator",
  guards: {
    chosePortfolio:
      "PRODUCT.md: the simulator starts from a saved portfolio of the user (one that exists in GET /portfolios) or from assets chosen on the spot.",
    inputsValid:
      'SimulateRequest (src/contract/analytics.ts), as the server checks it: 1 to 500 assets with amounts above 0, no symbol twice; initial amount 0 to 1e9 and monthly contribution 0 to 1e8, one of them above 0; horizon a whole number of years from 1 to 40 (issue 12); an optional goal above 0; with my own assumptions an annual return of -50 % to +50 % and a volatility of 0 to 100 % (PRODUCT.md "Simulator assumptions"). No seed: the server\'s default.',
  },
  input: {},
  pathEvents: [
    { type: "xstate.done.actor.loadSources", output: demoSimulatorSources },
    {
      type: "xstate.error.actor.loadSources",
      error: new SessionFailure("NETWORK_ERROR"),
    },
    { type: "failure.retry" },
    { type: "source.choose", source: "saved", portfolioId: 7 },
    { type: "source.choose", source: "custom" },
    { type: "source.change" },
    { type: "inputs.change", inputs: { goal: 15_000 } },
    { type: "inputs.change", inputs: { years: 41 } },
    { type: "simulation.run" },
    { type: "simulation.cancel" },
    { type: "xstate.done.actor.simulate", output: demoSimulation },
    {
      type: "xstate.error.actor.simulate",
      error: new SessionFailure("NOT_ENOUGH_HISTORY"),
    },
  ],
};
