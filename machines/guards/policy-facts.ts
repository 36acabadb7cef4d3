import type { AccountKind } from "../../src/contract/accounts.ts";
import type { Edition } from "../../src/contract/common.ts";

/** What the policy gate needs to know about the person (specification section 4, PRODUCT.md). */
export interface PolicyFacts {
  readonly edition: Edition;
  readonly signedIn: boolean;
  readonly kind: AccountKind | null;
  readonly policiesAccepted: boolean;
}

/**
 * In the `ht` edition a signed-in person who has not accepted the current policies must accept
 * them before anything else; HT accounts accept by contract. The app's policy gate and the
 * server's session check (src/server/http/auth.ts) both ask this one predicate.
 */
export const mustAcceptPolicies = (f: PolicyFacts): boolean =>
  f.edition === "ht" && f.signedIn && f.kind !== "HT" && !f.policiesAccepted;
