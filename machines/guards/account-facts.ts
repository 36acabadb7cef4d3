import type { Client } from "../../src/contract/accounts.ts";
import { products } from "../../src/contract/common.ts";
import type { AccountFacts } from "./access-facts.ts";

/**
 * What the guards need from a client: subscribed means an active paid plan (a plan id; trials have
 * none); the banana permission is simMonk's simulator permission.
 */
export function accountFactsOf(client: Client): AccountFacts {
  return {
    kind: client.kind,
    trial: client.trialEndsAt !== null,
    subscribedProducts: products.filter((p) => {
      const s = client.subscriptions[p];
      return s.active && s.tier !== "free" && s.subscriptionTypeId !== null;
    }),
    bananaPermission: client.permissions.simMonk.construction.simulator,
    policiesAccepted: client.policies.accepted,
  };
}
