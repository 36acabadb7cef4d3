import type { AccessFacts } from "../../machines/guards/access-facts.ts";
import {
  routeGuardNames,
  routeGuards,
  type RouteGuardName,
} from "../../machines/guards/route-guards.ts";
import type { Product } from "../contract/common.ts";
import {
  paidTiers,
  permissionsByTier,
  tiersByProduct,
  type Tier,
} from "../contract/permissions.ts";
import { routeById, type RouteId } from "./route-table.ts";

/**
 * What following a link to a route does for the person, as the route's guards decide it:
 * - `open`: the screen opens (or sign-in asks for an account first, then the screen opens);
 * - `locked`: it ends on the plan page; the link says which plan unlocks it;
 * - `hidden`: it ends on home (e.g. a TT student, who cannot buy a plan, sent from the plan page),
 *   so the link is not offered at all rather than silently sending the person home.
 */
export type LinkAccess =
  | { readonly kind: "open" }
  | { readonly kind: "locked"; readonly product: Product; readonly tier: Tier }
  | { readonly kind: "hidden" };

const open: LinkAccess = { kind: "open" };

/** The lowest tier of the product that passes the guard that sent the person to the plan page. */
function unlockingTier(guard: RouteGuardName, product: Product): Tier | null {
  const tiers: readonly Tier[] = tiersByProduct[product];
  if (guard === "monkey-permission")
    return tiers.find((t) => permissionsByTier.simMonk[t]?.construction.simulator) ?? null;
  return tiers.find((t) => paidTiers.includes(t)) ?? null;
}

/**
 * The route's guards checked in the order the route-access machine checks them
 * (machines/route-access.machine.ts); a redirect to the plan page is followed one step further,
 * through the plan page's own guards.
 */
export function linkAccess(guards: readonly RouteGuardName[], facts: AccessFacts): LinkAccess {
  // While the session is being restored nothing is known yet: the link stays as it is.
  if (guards.some((g) => routeGuards[g].check(facts) === "pending")) return open;
  const denied = routeGuardNames.find(
    (g) => guards.includes(g) && routeGuards[g].check(facts) === "fail",
  );
  if (!denied) return open;
  const redirect = routeGuards[denied].redirect(facts);
  if (redirect.to === "index") return { kind: "hidden" };
  if (redirect.to !== "choose-your-plan") return open;
  const product = redirect.product ?? facts.product;
  const planPage = linkAccess(routeById("choose-your-plan").guards, { ...facts, product });
  if (planPage.kind !== "open") return { kind: "hidden" };
  const tier = unlockingTier(denied, product);
  return tier ? { kind: "locked", product, tier } : { kind: "hidden" };
}

/** `linkAccess` for a route of the table. */
export const routeLinkAccess = (id: RouteId, facts: AccessFacts): LinkAccess =>
  linkAccess(routeById(id).guards, facts);
