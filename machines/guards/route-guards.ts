import type { Product } from "../../src/contract/common.ts";
import type { AccessFacts } from "./access-facts.ts";

/** The guard names of the specification (section 2). */
export const routeGuardNames = [
  "auth-guest",
  "auth-registered",
  "forbidden-ht",
  "forbidden-tt",
  "forbidden-trial",
  "choose-plan-page",
  "subscribed",
  "monkey-permission",
  "portfolio-creation",
  "portfolio-created",
] as const;
export type RouteGuardName = (typeof routeGuardNames)[number];

export function isRouteGuardName(name: string): name is RouteGuardName {
  return (routeGuardNames as readonly string[]).includes(name);
}

/** Throws on a name the specification does not define: a typo must never open a page. */
export function assertRouteGuardNames(
  names: readonly string[],
): asserts names is readonly RouteGuardName[] {
  for (const name of names) {
    if (!isRouteGuardName(name)) throw new Error(`Unknown route guard "${name}"`);
  }
}

/** Screens a guard can send the user to (ids of the route table). */
export type RedirectTarget =
  "index" | "auth-SignIn" | "account-portfolios" | "choose-your-plan" | "create-q1";

export interface Redirect {
  readonly to: RedirectTarget;
  /** Keep the requested path so the user comes back to it afterwards. */
  readonly keepPath: boolean;
  /** The product whose plan page to show, when it is not the current one. */
  readonly product?: Product;
  /** Go to the page's `returnTo` instead, when it has one (after signing in). */
  readonly followReturnTo?: boolean;
}

export type Verdict = "pass" | "fail" | "pending";

interface GuardRule {
  /** The rule in words, as PRODUCT.md gives it (printed in the machine documents). */
  readonly rule: string;
  readonly check: (facts: AccessFacts) => Verdict;
  readonly redirect: (facts: AccessFacts) => Redirect;
}

const signedIn = (f: AccessFacts): Verdict =>
  f.session === "unknown" ? "pending" : f.session === "signedIn" ? "pass" : "fail";

/** Checks a fact of the signed-in account; signed-out users pass, other guards deal with them. */
const account = (
  f: AccessFacts,
  ok: (a: NonNullable<AccessFacts["account"]>) => boolean,
): Verdict => {
  if (f.session === "unknown") return "pending";
  if (!f.account) return "pass";
  return ok(f.account) ? "pass" : "fail";
};

/** Like `account`, but signed-out users fail: the rule needs something only an account can have. */
const accountHas = (
  f: AccessFacts,
  ok: (a: NonNullable<AccessFacts["account"]>) => boolean,
): Verdict => {
  if (f.session === "unknown") return "pending";
  return f.account && ok(f.account) ? "pass" : "fail";
};

/**
 * A portfolio fact: the portfolio kept in the tab (a reload) is brought back only once the session
 * knows its client, so without one the verdict waits for the session instead of failing.
 */
const portfolioFact = (f: AccessFacts, holds: boolean): Verdict =>
  holds ? "pass" : f.session === "unknown" ? "pending" : "fail";

const home: Redirect = { to: "index", keepPath: false };
const plans = (product?: Product): Redirect => ({
  to: "choose-your-plan",
  keepPath: true,
  ...(product ? { product } : {}),
});

export const routeGuards: Record<RouteGuardName, GuardRule> = {
  "auth-guest": {
    rule: "Signed out only; a signed-in user goes to my portfolios.",
    check: (f) =>
      f.session === "unknown" ? "pending" : f.session === "signedOut" ? "pass" : "fail",
    redirect: () => ({ to: "account-portfolios", keepPath: false, followReturnTo: true }),
  },
  "auth-registered": {
    rule: "Signed in; otherwise sign-in, keeping the requested path.",
    check: signedIn,
    redirect: () => ({ to: "auth-SignIn", keepPath: true }),
  },
  "forbidden-ht": {
    rule: "Not an HT account; otherwise home.",
    check: (f) => account(f, (a) => a.kind !== "HT"),
    redirect: () => home,
  },
  "forbidden-tt": {
    rule: "Not a TT account; otherwise home.",
    check: (f) => account(f, (a) => a.kind !== "TT"),
    redirect: () => home,
  },
  "forbidden-trial": {
    rule: "Not a trial user; trial users go to choose-your-plan.",
    check: (f) => account(f, (a) => !a.trial),
    redirect: () => plans(),
  },
  "choose-plan-page": {
    rule: "The plan page of the current product; users of a kind that cannot buy (TT) go home.",
    check: (f) => account(f, (a) => a.kind !== "TT"),
    redirect: () => home,
  },
  subscribed: {
    rule: "An active paid subscription to the current product (stc); otherwise choose-your-plan.",
    check: (f) => accountHas(f, (a) => a.subscribedProducts.includes(f.product)),
    redirect: () => plans(),
  },
  "monkey-permission": {
    rule: "The banana permission for simMonk; otherwise choose-your-plan for simMonk.",
    check: (f) => accountHas(f, (a) => a.bananaPermission),
    redirect: () => plans("simMonk"),
  },
  "portfolio-creation": {
    rule: "A creation or edition process is under way; otherwise q1. Waits while the session is unknown (the tab's draft is restored for its client).",
    check: (f) => portfolioFact(f, f.creationInProgress),
    redirect: () => ({ to: "create-q1", keepPath: false }),
  },
  "portfolio-created": {
    rule: "A portfolio is loaded (created, or opened from my portfolios); otherwise my portfolios. Waits while the session is unknown.",
    check: (f) => portfolioFact(f, f.portfolioLoaded),
    redirect: () => ({ to: "account-portfolios", keepPath: false }),
  },
};
