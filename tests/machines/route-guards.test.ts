import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { Product } from "../../src/contract/common.ts";
import {
  signedOutFacts,
  type AccessFacts,
  type AccountFacts,
} from "../../machines/guards/access-facts.ts";
import {
  assertRouteGuardNames,
  isRouteGuardName,
  routeGuardNames,
  routeGuards,
  type Redirect,
  type RouteGuardName,
  type Verdict,
} from "../../machines/guards/route-guards.ts";
import { routeAccessMachine } from "../../machines/route-access.machine.ts";

// ---------------------------------------------------------------------------------------------
// Account situations
// ---------------------------------------------------------------------------------------------

const guest = signedOutFacts("ht", "simAssets");

const account = (overrides: Partial<AccountFacts> = {}): AccountFacts => ({
  kind: "standard",
  trial: false,
  subscribedProducts: [],
  bananaPermission: false,
  policiesAccepted: true,
  ...overrides,
});

const signedIn = (
  acc: Partial<AccountFacts> = {},
  facts: Partial<AccessFacts> = {},
): AccessFacts => ({
  ...guest,
  session: "signedIn",
  account: account(acc),
  ...facts,
});

const situations = {
  "session unknown": { ...guest, session: "unknown" },
  guest,
  standard: signedIn(),
  trial: signedIn({ trial: true }),
  HT: signedIn({ kind: "HT" }),
  TT: signedIn({ kind: "TT" }, { edition: "tt" }),
  "subscribed to simAssets, on simAssets": signedIn({ subscribedProducts: ["simAssets"] }),
  "subscribed to simAssets, on simIndices": signedIn(
    { subscribedProducts: ["simAssets"] },
    { product: "simIndices" },
  ),
  "banana holder": signedIn({ bananaPermission: true }, { product: "simMonk" }),
  "creation in progress": signedIn({}, { creationInProgress: true }),
  "portfolio loaded": signedIn({}, { portfolioLoaded: true }),
  "guest, creation in progress": { ...guest, creationInProgress: true },
  "session unknown, portfolio loaded": { ...guest, session: "unknown", portfolioLoaded: true },
} satisfies Record<string, AccessFacts>;
type Situation = keyof typeof situations;
const situationNames = Object.keys(situations) as Situation[];

// ---------------------------------------------------------------------------------------------
// Expected verdicts, from PRODUCT.md "People and their kinds"
// ---------------------------------------------------------------------------------------------

/** Every situation passes except those listed; the session guards are pending while it is unknown. */
function expecting(
  fail: readonly Situation[],
  pending: readonly Situation[],
): Record<Situation, Verdict> {
  return Object.fromEntries(
    situationNames.map((s) => [
      s,
      pending.includes(s) ? "pending" : fail.includes(s) ? "fail" : "pass",
    ]),
  ) as Record<Situation, Verdict>;
}

const UNKNOWN: Situation[] = ["session unknown", "session unknown, portfolio loaded"];
const SIGNED_IN: Situation[] = situationNames.filter(
  (s) => !UNKNOWN.includes(s) && s !== "guest" && s !== "guest, creation in progress",
);

const expected: Record<
  RouteGuardName,
  { verdicts: Record<Situation, Verdict>; redirect: Redirect }
> = {
  // Signed out only; a signed-in user goes to my portfolios (or back to the path kept for after
  // signing in).
  "auth-guest": {
    verdicts: expecting(SIGNED_IN, UNKNOWN),
    redirect: { to: "account-portfolios", keepPath: false, followReturnTo: true },
  },
  // Signed in; otherwise sign-in, keeping the requested path.
  "auth-registered": {
    verdicts: expecting(["guest", "guest, creation in progress"], UNKNOWN),
    redirect: { to: "auth-SignIn", keepPath: true },
  },
  // Not of that kind; otherwise home.
  "forbidden-ht": {
    verdicts: expecting(["HT"], UNKNOWN),
    redirect: { to: "index", keepPath: false },
  },
  "forbidden-tt": {
    verdicts: expecting(["TT"], UNKNOWN),
    redirect: { to: "index", keepPath: false },
  },
  // Trial users go to choose-your-plan (and come back).
  "forbidden-trial": {
    verdicts: expecting(["trial"], UNKNOWN),
    redirect: { to: "choose-your-plan", keepPath: true },
  },
  // The plan page; a kind that cannot buy (TT) goes home.
  "choose-plan-page": {
    verdicts: expecting(["TT"], UNKNOWN),
    redirect: { to: "index", keepPath: false },
  },
  // An active paid subscription to the current product (stc); otherwise choose-your-plan.
  subscribed: {
    verdicts: expecting(
      situationNames.filter((s) => s !== "subscribed to simAssets, on simAssets"),
      UNKNOWN,
    ),
    redirect: { to: "choose-your-plan", keepPath: true },
  },
  // The banana permission; otherwise choose-your-plan for simMonk.
  "monkey-permission": {
    verdicts: expecting(
      situationNames.filter((s) => s !== "banana holder"),
      UNKNOWN,
    ),
    redirect: { to: "choose-your-plan", keepPath: true, product: "simMonk" },
  },
  // A creation or edition process is under way; otherwise q1. Without one it waits while the
  // session is unknown: the portfolio kept in the tab comes back once the session knows its client.
  "portfolio-creation": {
    verdicts: expecting(
      situationNames.filter(
        (s) => s !== "creation in progress" && s !== "guest, creation in progress",
      ),
      UNKNOWN,
    ),
    redirect: { to: "create-q1", keepPath: false },
  },
  // A portfolio is loaded; otherwise my portfolios. Without one it waits while the session is
  // unknown (as above).
  "portfolio-created": {
    verdicts: expecting(
      situationNames.filter(
        (s) => s !== "portfolio loaded" && s !== "session unknown, portfolio loaded",
      ),
      ["session unknown"],
    ),
    redirect: { to: "account-portfolios", keepPath: false },
  },
};

const table = routeGuardNames.flatMap((guard) =>
  situationNames.map(
    (situation) => [guard, situation, expected[guard].verdicts[situation]] as const,
  ),
);

describe("route guards", () => {
  it("covers exactly the guard names of the specification", () => {
    expect([...routeGuardNames].sort()).toEqual(
      [
        "auth-guest",
        "auth-registered",
        "choose-plan-page",
        "forbidden-trial",
        "forbidden-ht",
        "forbidden-tt",
        "monkey-permission",
        "portfolio-created",
        "portfolio-creation",
        "subscribed",
      ].sort(),
    );
    expect(Object.keys(routeGuards).sort()).toEqual([...routeGuardNames].sort());
  });

  it.each(table)("%s for %s: %s", (guard, situation, verdict) => {
    expect(routeGuards[guard].check(situations[situation])).toBe(verdict);
  });

  it.each(routeGuardNames.map((g) => [g]))("%s redirects as PRODUCT.md says", (guard) => {
    const failing = situationNames.find((s) => expected[guard].verdicts[s] === "fail");
    if (!failing) throw new Error(`no failing situation for ${guard}`);
    expect(routeGuards[guard].redirect(situations[failing])).toEqual(expected[guard].redirect);
  });

  it("sends users without the subscription to the plans of the current product, not another one", () => {
    for (const product of ["simAssets", "simIndices", "simMonk"] as Product[]) {
      expect(routeGuards.subscribed.redirect(signedIn({}, { product }))).not.toHaveProperty(
        "product",
      );
    }
    expect(
      routeGuards["monkey-permission"].redirect(signedIn({}, { product: "simIndices" })),
    ).toMatchObject({
      product: "simMonk",
    });
  });

  it("gives every guard its rule in words", () => {
    for (const guard of routeGuardNames) expect(routeGuards[guard].rule.length).toBeGreaterThan(10);
  });
});

describe("guard names", () => {
  it("throws on a name the specification does not define", () => {
    expect(() => assertRouteGuardNames(["nope"])).toThrow(/Unknown route guard "nope"/);
    expect(() => assertRouteGuardNames(["auth-registered", "Subscribed"])).toThrow(/Subscribed/);
  });

  it("accepts every defined name, and no names at all", () => {
    expect(() => assertRouteGuardNames([...routeGuardNames])).not.toThrow();
    expect(() => assertRouteGuardNames([])).not.toThrow();
  });

  it("recognises names exactly", () => {
    expect(isRouteGuardName("subscribed")).toBe(true);
    expect(isRouteGuardName("subscribed ")).toBe(false);
    expect(isRouteGuardName("")).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The route access machine
// ---------------------------------------------------------------------------------------------

function start(guards: readonly RouteGuardName[], facts: AccessFacts) {
  const actor = createActor(routeAccessMachine, { input: { guards, facts } });
  actor.start();
  return actor;
}

const THREE_GUARDS: RouteGuardName[] = ["auth-registered", "portfolio-creation", "subscribed"];

describe("routeAccessMachine", () => {
  it("sends a signed-out user on a guarded route to sign-in, keeping the path (who you are is checked first)", () => {
    const actor = start(THREE_GUARDS, guest);
    expect(actor.getSnapshot().value).toBe("redirecting");
    expect(actor.getSnapshot().context.redirect).toEqual({ to: "auth-SignIn", keepPath: true });
  });

  it("checks guards in the fixed order whatever order the route lists them in", () => {
    const actor = start(["subscribed", "portfolio-creation", "auth-registered"], guest);
    expect(actor.getSnapshot().context.redirect).toEqual({ to: "auth-SignIn", keepPath: true });
  });

  it("checks what you pay for before what you are doing", () => {
    const actor = start(THREE_GUARDS, signedIn());
    expect(actor.getSnapshot().value).toBe("redirecting");
    expect(actor.getSnapshot().context.redirect).toEqual({
      to: "choose-your-plan",
      keepPath: true,
    });
  });

  it("redirects to q1 when only the creation process is missing", () => {
    const actor = start(THREE_GUARDS, signedIn({ subscribedProducts: ["simAssets"] }));
    expect(actor.getSnapshot().context.redirect).toEqual({ to: "create-q1", keepPath: false });
  });

  it("names the guard that failed, so that the page redirected to can say why", () => {
    const actor = start(THREE_GUARDS, signedIn({ subscribedProducts: ["simAssets"] }));
    expect(actor.getSnapshot().context.deniedBy).toBe("portfolio-creation");
    expect(start(THREE_GUARDS, guest).getSnapshot().context.deniedBy).toBe("auth-registered");
    actor.send({
      type: "facts.changed",
      facts: signedIn({ subscribedProducts: ["simAssets"] }, { creationInProgress: true }),
    });
    expect(actor.getSnapshot().value).toBe("allowed");
    expect(actor.getSnapshot().context.deniedBy).toBeNull();
  });

  it("allows the route when every guard passes", () => {
    const actor = start(
      THREE_GUARDS,
      signedIn({ subscribedProducts: ["simAssets"] }, { creationInProgress: true }),
    );
    expect(actor.getSnapshot().value).toBe("allowed");
    expect(actor.getSnapshot().context.redirect).toBeNull();
  });

  it("allows a route without guards to anyone, even before the session is known", () => {
    expect(start([], situations["session unknown"]).getSnapshot().value).toBe("allowed");
    expect(start([], guest).getSnapshot().value).toBe("allowed");
  });

  it("only applies the guards of the route", () => {
    // An HT account is forbidden on forbidden-ht routes, but this route only asks for a session.
    expect(start(["auth-registered"], situations.HT).getSnapshot().value).toBe("allowed");
    expect(
      start(["auth-registered", "forbidden-ht"], situations.HT).getSnapshot().context.redirect,
    ).toEqual({
      to: "index",
      keepPath: false,
    });
  });

  it("waits for the session, then allows when the restored user passes", () => {
    const actor = start(THREE_GUARDS, situations["session unknown"]);
    expect(actor.getSnapshot().value).toBe("waitingForSession");
    expect(actor.getSnapshot().context.redirect).toBeNull();

    actor.send({
      type: "facts.changed",
      facts: { ...situations["session unknown"], creationInProgress: true },
    });
    expect(actor.getSnapshot().value).toBe("waitingForSession");

    actor.send({
      type: "facts.changed",
      facts: signedIn({ subscribedProducts: ["simAssets"] }, { creationInProgress: true }),
    });
    expect(actor.getSnapshot().value).toBe("allowed");
    expect(actor.getSnapshot().context.redirect).toBeNull();
  });

  it("waits for the session, then redirects when the restored user fails a guard", () => {
    const actor = start(THREE_GUARDS, situations["session unknown"]);
    expect(actor.getSnapshot().value).toBe("waitingForSession");
    actor.send({ type: "facts.changed", facts: signedIn() });
    expect(actor.getSnapshot().value).toBe("redirecting");
    expect(actor.getSnapshot().context.redirect).toEqual({
      to: "choose-your-plan",
      keepPath: true,
    });
  });

  it("waits for the session, then sends a signed-out user to sign-in", () => {
    const actor = start(["auth-registered"], situations["session unknown"]);
    actor.send({ type: "facts.changed", facts: guest });
    expect(actor.getSnapshot().value).toBe("redirecting");
    expect(actor.getSnapshot().context.redirect).toEqual({ to: "auth-SignIn", keepPath: true });
  });

  it("waits for the session before deciding that no portfolio is there (a reload brings it back)", () => {
    const actor = start(["portfolio-created"], situations["session unknown"]);
    expect(actor.getSnapshot().value).toBe("waitingForSession");
    // Signed in, and the tab's portfolio restored: the route renders.
    actor.send({ type: "facts.changed", facts: signedIn({}, { portfolioLoaded: true }) });
    expect(actor.getSnapshot().value).toBe("allowed");

    const empty = start(["portfolio-created"], situations["session unknown"]);
    empty.send({ type: "facts.changed", facts: guest });
    expect(empty.getSnapshot().value).toBe("redirecting");
    expect(empty.getSnapshot().context.redirect).toEqual({
      to: "account-portfolios",
      keepPath: false,
    });
  });

  it("does not wait for the session when the portfolio is already there", () => {
    const actor = start(["portfolio-created"], situations["session unknown, portfolio loaded"]);
    expect(actor.getSnapshot().value).toBe("allowed");
  });

  it("re-checks on every change of facts and clears a stale redirect", () => {
    const actor = start(THREE_GUARDS, guest);
    expect(actor.getSnapshot().value).toBe("redirecting");
    actor.send({
      type: "facts.changed",
      facts: signedIn({ subscribedProducts: ["simAssets"] }, { creationInProgress: true }),
    });
    expect(actor.getSnapshot().value).toBe("allowed");
    expect(actor.getSnapshot().context.redirect).toBeNull();
    expect(actor.getSnapshot().context.facts.session).toBe("signedIn");

    actor.send({ type: "facts.changed", facts: guest });
    expect(actor.getSnapshot().value).toBe("redirecting");
    expect(actor.getSnapshot().context.redirect).toEqual({ to: "auth-SignIn", keepPath: true });
  });

  it("keeps an allowed route while the portfolio under it changes, and checks it again on entering", () => {
    // An optimisation adopted on its summary ends the edition under the route: the summary stays
    // (it then goes to the saved portfolio itself) instead of being sent to q1.
    const subscribed = { subscribedProducts: ["simAssets"] as Product[] };
    const actor = start(THREE_GUARDS, signedIn(subscribed, { creationInProgress: true }));
    expect(actor.getSnapshot().value).toBe("allowed");
    actor.send({ type: "facts.changed", facts: signedIn(subscribed, { portfolioLoaded: true }) });
    expect(actor.getSnapshot().value).toBe("allowed");
    expect(actor.getSnapshot().context.facts.creationInProgress).toBe(false);
    // Entering the route again (any optimisation page) checks it: q1.
    expect(
      start(THREE_GUARDS, signedIn(subscribed, { portfolioLoaded: true })).getSnapshot().context
        .redirect,
    ).toEqual({ to: "create-q1", keepPath: false });
    // Who is asking is checked again on every change: a plan that ends, a sign-out.
    actor.send({ type: "facts.changed", facts: signedIn({}, { creationInProgress: true }) });
    expect(actor.getSnapshot().context.redirect).toEqual({
      to: "choose-your-plan",
      keepPath: true,
    });
  });

  it("sends a signed-in user away from guest-only pages to my portfolios", () => {
    const actor = start(["auth-guest"], signedIn());
    expect(actor.getSnapshot().context.redirect).toEqual({
      to: "account-portfolios",
      keepPath: false,
      followReturnTo: true,
    });
  });

  it("sends a user without the banana permission to the simMonk plans", () => {
    const actor = start(["auth-registered", "monkey-permission"], signedIn());
    expect(actor.getSnapshot().context.redirect).toEqual({
      to: "choose-your-plan",
      keepPath: true,
      product: "simMonk",
    });
  });
});
