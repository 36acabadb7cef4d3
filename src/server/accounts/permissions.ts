import { CommonQuery, defaultProduct, type Product } from "../../contract/common.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../app.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { queryOf } from "../http/validate.ts";
import { and, eq } from "drizzle-orm";
import { permissionsFor, type Tier } from "../../contract/permissions.ts";
import { clients, subscriptions } from "../db/schema.ts";
import { isLive } from "./client-view.ts";

/** The product a request is about: its `stc` (specification section 7), simAssets by default. */
export const productOf = (c: Context): Product => queryOf(c, CommonQuery).stc ?? defaultProduct;

/**
 * The signed-in client's permissions for a product, from the one permissions table: the same
 * rule as GET /client (client-view.ts), read in one query.
 */
export async function clientPermissions(
  deps: Pick<AppDeps, "database" | "config" | "clock">,
  clientId: number,
  product: Product,
): Promise<ProductPermissions> {
  const [row] = await deps.database.db
    .select({ id: clients.id, subscription: subscriptions })
    .from(clients)
    .leftJoin(
      subscriptions,
      and(eq(subscriptions.clientId, clients.id), eq(subscriptions.product, product)),
    )
    .where(eq(clients.id, clientId));
  if (!row) throw new ApiFailure(401, "UNAUTHORIZED");
  const sub = row.subscription;
  const now = deps.clock?.() ?? new Date();
  return permissionsFor(product, sub && isLive(sub, now) ? (sub.tier as Tier) : "free");
}

/** The permissions of the request's client for the request's product. */
export const requestPermissions = (
  deps: Pick<AppDeps, "database" | "config" | "clock">,
  c: Context<AppEnv>,
) => clientPermissions(deps, c.get("clientId"), productOf(c));

/** Refuses (403 PLAN_FEATURE_LOCKED) what the plan does not include. */
export function requirePermission(allowed: boolean): void {
  if (!allowed) throw new ApiFailure(403, "PLAN_FEATURE_LOCKED");
}
