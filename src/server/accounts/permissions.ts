import { CommonQuery, defaultProduct, type Product } from "../../contract/common.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { queryOf } from "../http/validate.ts";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { permissionsFor, type Tier } from "../../contract/permissions.ts";
import { preparedOnce } from "../db/database.ts";
import { clients, sessions, subscriptions } from "../db/schema.ts";
import { refuseCookieWriteWithoutOrigin, sessionCredential, unauthorized } from "../http/auth.ts";
import { hashToken } from "./tokens.ts";
import { isLive } from "./client-view.ts";
import { refuseWhilePolicyPending } from "./gates.ts";

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
  return permissionsOfRow(deps, product, row.subscription);
}

type SubscriptionRow = typeof subscriptions.$inferSelect;

const permissionsOfRow = (
  deps: Pick<AppDeps, "clock">,
  product: Product,
  sub: SubscriptionRow | null,
): ProductPermissions => {
  const now = deps.clock?.() ?? new Date();
  return permissionsFor(product, sub && isLive(sub, now) ? (sub.tier as Tier) : "free");
};

/**
 * Requires a live session and reads the client's permissions for the request's product with it,
 * in one query (sessions, clients and the product's subscription joined): for the calls that need
 * both on every request, the analytics.
 */
export const requireSessionWithPermissions = (
  deps: Pick<AppDeps, "database" | "config" | "clock">,
) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const credential = sessionCredential(c);
    if (!credential.token) throw unauthorized(c, deps.config, credential);
    const tokenHash = hashToken(credential.token);
    const product = productOf(c);
    const [row] = await preparedOnce(deps.database.db, "session_permissions", (db) =>
      db
        .select({
          clientId: clients.id,
          kind: clients.kind,
          policiesVersion: clients.policiesVersion,
          trialEndsAt: clients.trialEndsAt,
          subscription: subscriptions,
        })
        .from(sessions)
        .innerJoin(clients, eq(clients.id, sessions.clientId))
        .leftJoin(
          subscriptions,
          and(
            eq(subscriptions.clientId, clients.id),
            eq(subscriptions.product, sql.placeholder("product")),
          ),
        )
        .where(
          and(
            eq(sessions.tokenHash, sql.placeholder("tokenHash")),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
          ),
        )
        .prepare("session_permissions"),
    ).execute({ product, tokenHash });
    if (!row) throw unauthorized(c, deps.config, credential);
    refuseCookieWriteWithoutOrigin(c, credential);
    const account = {
      kind: row.kind,
      policiesVersion: row.policiesVersion,
      trialEndsAt: row.trialEndsAt,
    };
    refuseWhilePolicyPending(deps, c, account);
    c.set("clientId", row.clientId);
    c.set("tokenHash", tokenHash);
    c.set("account", account);
    c.set("permissions", permissionsOfRow(deps, product, row.subscription));
    await next();
  });

/**
 * The permissions of the request's client for the request's product: those read with the session
 * when the route's middleware did (requireSessionWithPermissions), else one query.
 */
export const requestPermissions = (
  deps: Pick<AppDeps, "database" | "config" | "clock">,
  c: Context<AppEnv>,
): Promise<ProductPermissions> =>
  Promise.resolve(c.get("permissions") ?? clientPermissions(deps, c.get("clientId"), productOf(c)));

/** Refuses (403 PLAN_FEATURE_LOCKED) what the plan does not include. */
export function requirePermission(allowed: boolean): void {
  if (!allowed) throw new ApiFailure(403, "PLAN_FEATURE_LOCKED");
}
