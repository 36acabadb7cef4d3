// The form-submit machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { formSubmitMachine } from "./form-submit.machine.ts";
import { SessionFailure } from "./session.machine.ts";

/** The form-submit machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const formSubmitEntry: MachineEntry = {
  machine: formSubmitMachine,
  title: "Form submit",
  guards: {},
  pathEvents: [
    { type: "form.submit", values: { email: "ada@example.com" } },
    { type: "xstate.done.actor.submit", output: { status: "accepted" } },
    { type: "xstate.error.actor.submit", error: new SessionFailure("INVALID_TOKEN") },
    { type: "form.edit" },
  ],
};
