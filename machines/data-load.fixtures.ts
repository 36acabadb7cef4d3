// The data-load machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { dataLoadMachine } from "./data-load.machine.ts";

/** The data-load machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const dataLoadEntry: MachineEntry = {
  machine: dataLoadMachine,
  title: "Data loading",
  guards: {},
  pathEvents: [
    { type: "xstate.done.actor.load", output: { ok: true } },
    { type: "xstate.error.actor.load", error: new Error("offline") },
    { type: "data.retry" },
    { type: "data.refresh" },
  ],
};
