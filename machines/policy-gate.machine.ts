import { assign, setup } from "xstate";
import { mustAcceptPolicies, type PolicyFacts } from "./guards/policy-facts.ts";

export type { PolicyFacts } from "./guards/policy-facts.ts";

export type PolicyGateEvent =
  { type: "facts.changed"; facts: PolicyFacts; path: string } | { type: "policies.accepted" };

/**
 * The policy gate (specification section 4, PRODUCT.md): in the `ht` edition a signed-in user who
 * has not accepted the current policies is sent to the accept-policy page; the original path is
 * remembered in a cookie and restored after acceptance. HT accounts accept by contract.
 */
export const policyGateMachine = setup({
  types: {
    context: {} as { facts: PolicyFacts | null; path: string | null },
    events: {} as PolicyGateEvent,
  },
  actions: {
    /** Stores the path in the policy-return cookie. */
    rememberPath: (_, _params: { path: string }) => {
      throw new Error("rememberPath must be provided");
    },
    /** Navigates to the remembered path (or home) and removes the cookie. */
    restorePath: () => {
      throw new Error("restorePath must be provided");
    },
  },
  guards: {
    acceptedNow: (_, params: { facts: PolicyFacts }) =>
      params.facts.signedIn && params.facts.policiesAccepted,
    mustAccept: ({ context }) => context.facts !== null && mustAcceptPolicies(context.facts),
  },
}).createMachine({
  id: "policyGate",
  description: "Sends ht users without accepted policies to the accept-policy page and back.",
  context: { facts: null, path: null },
  initial: "open",
  on: {
    "facts.changed": {
      target: ".deciding",
      actions: assign({ facts: ({ event }) => event.facts, path: ({ event }) => event.path }),
    },
  },
  states: {
    deciding: {
      always: [{ guard: "mustAccept", target: "gated" }, { target: "open" }],
    },
    open: { description: "Nothing to accept: every route renders." },
    gated: {
      description: "Only the accept-policy page renders.",
      entry: { type: "rememberPath", params: ({ context }) => ({ path: context.path ?? "/" }) },
      on: {
        "facts.changed": [
          {
            guard: { type: "acceptedNow", params: ({ event }) => ({ facts: event.facts }) },
            target: "open",
            actions: [assign({ facts: ({ event }) => event.facts }), "restorePath"],
          },
          { target: "deciding", actions: assign({ facts: ({ event }) => event.facts }) },
        ],
        "policies.accepted": { target: "open", actions: "restorePath" },
      },
    },
  },
});
