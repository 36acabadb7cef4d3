import { CommonQuery, defaultProduct, type Product } from "../../contract/common.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../app.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { queryOf } from "../http/validate.ts";
import { clientById } from "./clients.ts";
import { clientView } from "./client-view.ts";

/** The product a request is about: its `stc` (specification section 7), simAssets by default. */
export const productOf = (c: Context): Product => queryOf(c, CommonQuery).stc ?? defaultProduct;

/** The signed-in client's permissions for a product, from the one permissions table. */
export async function clientPermissions(
  deps: Pick<AppDeps, "database" | "config" | "clock">,
  clientId: number,
  product: Product,
): Promise<ProductPermissions> {
  const row = await clientById(deps.database.db, clientId);
  if (!row) throw new ApiFailure(401, "UNAUTHORIZED");
  const view = await clientView(deps.database.db, row, deps.config.policyVersion, deps.clock?.());
  return view.permissions[product];
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
