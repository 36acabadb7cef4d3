// The policy-gate machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { policyGateMachine } from "./policy-gate.machine.ts";

/** The policy-gate machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const policyGateEntry: MachineEntry = {
  machine: policyGateMachine,
  title: "Policy gate",
  guards: {
    mustAccept:
      "ht edition, signed in, not an HT account, and the current policy version not accepted.",
    acceptedNow:
      "The signed-in user has now accepted the current policy: back to the remembered path.",
  },
  pathEvents: [
    {
      type: "facts.changed",
      path: "/en/markets",
      facts: { edition: "ht", signedIn: true, kind: "standard", policiesAccepted: false },
    },
    {
      type: "facts.changed",
      path: "/en/markets",
      facts: { edition: "ht", signedIn: true, kind: "standard", policiesAccepted: true },
    },
    {
      type: "facts.changed",
      path: "/en/markets",
      facts: { edition: "ht", signedIn: true, kind: "HT", policiesAccepted: false },
    },
    { type: "policies.accepted" },
  ],
};
