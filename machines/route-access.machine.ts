import { assign, assertEvent, setup } from "xstate";
import type { AccessFacts } from "./guards/access-facts.ts";
import {
  type Redirect,
  type RouteGuardName,
  routeGuardNames,
  routeGuards,
} from "./guards/route-guards.ts";

export interface RouteAccessInput {
  /** The guard names the route table gives the requested route. */
  readonly guards: readonly RouteGuardName[];
  readonly facts: AccessFacts;
}

interface RouteAccessContext extends RouteAccessInput {
  readonly redirect: Redirect | null;
  /** The guard that failed (the screen redirected to may say why the route could not be shown). */
  readonly deniedBy: RouteGuardName | null;
}

export type RouteAccessEvent = { type: "facts.changed"; facts: AccessFacts };

const applies = (context: RouteAccessContext, guard: RouteGuardName) =>
  context.guards.includes(guard);

/** Who is asking (session, account, product, edition): everything but the portfolio facts. */
const requester = ({ creationInProgress: _c, portfolioLoaded: _l, ...who }: AccessFacts) =>
  JSON.stringify(who);

/**
 * Decides whether the requested route may render. Guards are checked in a fixed order (who you are,
 * then what kind of account, then what you pay for, then what you are doing), so two routes with
 * the same guards always send the same user to the same place. React renders `allowed`, follows
 * `redirecting`, and shows a wait while the session is still being restored.
 */
export const routeAccessMachine = setup({
  types: {
    input: {} as RouteAccessInput,
    context: {} as RouteAccessContext,
    events: {} as RouteAccessEvent,
  },
  guards: {
    awaitsSession: ({ context }) =>
      context.guards.some((g) => routeGuards[g].check(context.facts) === "pending"),
    /** The new facts leave a guard undecided (the session is reloading, e.g. after a new token). */
    staysUndecided: ({ context }, params: { facts: AccessFacts }) =>
      context.guards.some((g) => routeGuards[g].check(params.facts) === "pending"),
    /**
     * Only the portfolio under the route changed (portfolio-creation, portfolio-created): those are
     * conditions of entering the route, and the screen that changed the portfolio moves on itself
     * (an adopted optimisation ends its edition, then goes to the saved portfolio).
     */
    samePerson: ({ context }, params: { facts: AccessFacts }) =>
      requester(params.facts) === requester(context.facts),
    deniedBy: ({ context }, params: { routeGuard: RouteGuardName }) =>
      applies(context, params.routeGuard) &&
      routeGuards[params.routeGuard].check(context.facts) === "fail",
  },
  actions: {
    assignFacts: assign({
      facts: ({ event }) => {
        assertEvent(event, "facts.changed");
        return event.facts;
      },
    }),
    assignRedirect: assign({
      redirect: ({ context }, params: { routeGuard: RouteGuardName }) =>
        routeGuards[params.routeGuard].redirect(context.facts),
      deniedBy: (_, params: { routeGuard: RouteGuardName }) => params.routeGuard,
    }),
    clearRedirect: assign({ redirect: null, deniedBy: null }),
  },
}).createMachine({
  id: "routeAccess",
  description: "Evaluates a route's guard list (specification section 2, rules in PRODUCT.md).",
  context: ({ input }) => ({ ...input, redirect: null, deniedBy: null }),
  initial: "checking",
  on: {
    "facts.changed": { target: ".checking", actions: ["assignFacts", "clearRedirect"] },
  },
  states: {
    checking: {
      always: [
        { guard: "awaitsSession", target: "waitingForSession" },
        ...routeGuardNames.map((routeGuard) => ({
          guard: { type: "deniedBy" as const, params: { routeGuard } },
          target: "redirecting",
          actions: { type: "assignRedirect" as const, params: { routeGuard } },
        })),
        { target: "allowed" },
      ],
    },
    waitingForSession: { description: "The session is being restored; nothing is rendered yet." },
    allowed: {
      description:
        "Every guard passed: the route renders. A reloading session keeps it rendered, and so does a change of the portfolio under it (the portfolio guards are checked on entering a route); any other change of who is asking is checked again.",
      on: {
        "facts.changed": [
          {
            guard: { type: "staysUndecided", params: ({ event }) => ({ facts: event.facts }) },
            actions: "assignFacts",
          },
          {
            guard: { type: "samePerson", params: ({ event }) => ({ facts: event.facts }) },
            actions: "assignFacts",
          },
          { target: "checking", actions: ["assignFacts", "clearRedirect"] },
        ],
      },
    },
    redirecting: { description: "A guard failed: the app navigates to context.redirect." },
  },
});
