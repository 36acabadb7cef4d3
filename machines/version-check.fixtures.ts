// The version-check machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { versionCheckMachine } from "./version-check.machine.ts";

/** The version-check machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const versionCheckEntry: MachineEntry = {
  machine: versionCheckMachine,
  title: "New version check",
  guards: {
    isNewBuild:
      "builds/latest.json names another build than the running one (poll every 10 seconds).",
  },
  input: { currentBuild: "build-1" },
  pathEvents: [
    { type: "xstate.after.pollInterval.versionCheck.waiting" },
    { type: "xstate.done.actor.fetchLatestBuild", output: "build-1" },
    { type: "xstate.done.actor.fetchLatestBuild", output: "build-2" },
    { type: "xstate.error.actor.fetchLatestBuild", error: new Error("offline") },
    { type: "version.reload" },
    { type: "version.dismiss" },
  ],
};
