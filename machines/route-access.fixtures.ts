// The route-access machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { routeGuardNames, routeGuards } from "./guards/route-guards.ts";
import { signedOutFacts } from "./guards/access-facts.ts";
import { routeAccessMachine } from "./route-access.machine.ts";

const guestFacts = signedOutFacts("ht", "simAssets");

/** The route-access machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const routeAccessEntry: MachineEntry = {
  machine: routeAccessMachine,
  title: "Route access (route guards)",
  guards: {
    awaitsSession: "A guard of the route needs the session, which is still being restored.",
    staysUndecided:
      "Once a route is allowed, a session that is reloading (e.g. after a new token) keeps it rendered.",
    samePerson:
      "Once a route is allowed, a change of the portfolio under it keeps it rendered: portfolio-creation and portfolio-created are conditions of entering the route (an adopted optimisation ends its edition on the summary, which then goes to the saved portfolio). A change of session, account, product or edition is checked again.",
    ...Object.fromEntries(
      routeGuardNames.map((g) => [`deniedBy(${g})`, `${g}: ${routeGuards[g].rule}`]),
    ),
  },
  input: {
    guards: ["auth-registered", "portfolio-creation", "subscribed"],
    facts: { ...guestFacts, session: "unknown" },
  },
  pathEvents: [
    { type: "facts.changed", facts: guestFacts },
    {
      type: "facts.changed",
      facts: {
        ...guestFacts,
        session: "signedIn",
        account: {
          kind: "standard",
          trial: false,
          subscribedProducts: [],
          bananaPermission: false,
          policiesAccepted: true,
        },
      },
    },
    {
      type: "facts.changed",
      facts: {
        ...guestFacts,
        session: "signedIn",
        creationInProgress: true,
        account: {
          kind: "standard",
          trial: false,
          subscribedProducts: ["simAssets"],
          bananaPermission: false,
          policiesAccepted: true,
        },
      },
    },
    {
      // The edition under the allowed route ended (an adopted optimisation).
      type: "facts.changed",
      facts: {
        ...guestFacts,
        session: "signedIn",
        account: {
          kind: "standard",
          trial: false,
          subscribedProducts: ["simAssets"],
          bananaPermission: false,
          policiesAccepted: true,
        },
      },
    },
  ],
};
