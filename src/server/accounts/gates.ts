import type { Context } from "hono";
import type { AccessFacts } from "../../../machines/guards/access-facts.ts";
import { mustAcceptPolicies } from "../../../machines/guards/policy-facts.ts";
import { routeGuards } from "../../../machines/guards/route-guards.ts";
import type { AccountKind } from "../../contract/accounts.ts";
import { defaultProduct } from "../../contract/common.ts";
import type { AppDeps } from "../app-env.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { SessionAccount } from "./sessions.ts";

/**
 * The specification's gates on the server, asked with the app's own predicates
 * (machines/guards/), so a screen and the API cannot disagree on who may do what.
 */

/** Accepted the policy in force: the version matches, or an HT account (accepted by contract). */
export const policiesAcceptedOf = (
  kind: string,
  acceptedVersion: string | null,
  currentVersion: string,
): boolean => kind === "HT" || acceptedVersion === currentVersion;

const factsOf = (deps: Pick<AppDeps, "config" | "clock">, account: SessionAccount): AccessFacts => {
  const now = deps.clock?.() ?? new Date();
  return {
    edition: deps.config.edition,
    product: defaultProduct,
    session: "signedIn",
    account: {
      kind: account.kind as AccountKind,
      trial: account.trialEndsAt !== null && account.trialEndsAt > now,
      subscribedProducts: [],
      bananaPermission: false,
      policiesAccepted: policiesAcceptedOf(
        account.kind,
        account.policiesVersion,
        deps.config.policyVersion,
      ),
    },
    creationInProgress: false,
    portfolioLoaded: false,
  };
};

/**
 * What a person who must accept the policy first may still call: their own data (the app reads
 * it to know there is something to accept), the acceptance, and signing out. The screens show
 * them the accept-policy page and nothing else.
 */
const OPEN_WHILE_POLICY_PENDING = new Set([
  "GET /client",
  "POST /client/accept-policies",
  "POST /auth/logout",
]);

/**
 * Refuses (403 POLICY_VERSION_OUTDATED) every other call of a session whose account must accept
 * the policy in force first (the app's policy gate: `ht` edition, not an HT account).
 */
export function refuseWhilePolicyPending(
  deps: Pick<AppDeps, "config" | "clock">,
  c: Context,
  account: SessionAccount,
): void {
  const facts = factsOf(deps, account);
  const pending = mustAcceptPolicies({
    edition: facts.edition,
    signedIn: true,
    kind: facts.account!.kind,
    policiesAccepted: facts.account!.policiesAccepted,
  });
  if (!pending) return;
  const path = c.req.path.slice(deps.config.apiBase.length).replace(/\/$/, "") || "/";
  if (!OPEN_WHILE_POLICY_PENDING.has(`${c.req.method} ${path}`))
    throw new ApiFailure(403, "POLICY_VERSION_OUTDATED");
}

/**
 * Trial users are kept out of portfolio creation (the `forbidden-trial` guard of q1): proposing,
 * saving and editing a portfolio answer 403 TRIAL_FORBIDDEN.
 */
export function refuseTrial(
  deps: Pick<AppDeps, "config" | "clock">,
  account: SessionAccount,
): void {
  if (routeGuards["forbidden-trial"].check(factsOf(deps, account)) !== "pass")
    throw new ApiFailure(403, "TRIAL_FORBIDDEN");
}
