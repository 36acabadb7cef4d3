/**
 * Rate limits of the API (docs/api.md, "Limits"): requests counted per account and per network
 * address in fixed windows, in the database (one atomic upsert per key), so they hold across a
 * restart and across instances. Over the limit the answer is 429 with Retry-After.
 */
import { sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { Db } from "../db/database.ts";
import { rateLimits } from "../db/schema.ts";
import type { AppDeps, AppEnv } from "../app.ts";
import { ApiFailure } from "./api-failure.ts";
import { clientAddress } from "./client-address.ts";

export interface Limit {
  /** Requests allowed in one window. */
  readonly max: number;
  readonly windowSeconds: number;
}

/** Counts one request of `key`; a window that ended starts again at 1. */
export async function countRequest(
  db: Db,
  key: string,
  limit: Limit,
): Promise<{ limited: boolean; retryAfter: number }> {
  const window = sql`make_interval(secs => ${limit.windowSeconds})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: sql`now()`, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${rateLimits.windowStart} + ${window} <= now() then 1 else ${rateLimits.hits} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} + ${window} <= now() then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      remaining: sql<number>`extract(epoch from (${rateLimits.windowStart} + ${window} - now()))::float8`,
    });
  return {
    limited: (row?.hits ?? 0) > limit.max,
    retryAfter: Math.max(1, Math.ceil(Number(row?.remaining ?? limit.windowSeconds))),
  };
}

async function enforce(db: Db, key: string, limit: Limit): Promise<void> {
  const state = await countRequest(db, key, limit);
  if (state.limited)
    throw new ApiFailure(429, "TOO_MANY_REQUESTS", undefined, {
      "Retry-After": String(state.retryAfter),
    });
}

/**
 * Limits a group of calls (`scope`) per network address, and per account when the request has a
 * session (use it after requireSession).
 */
export const rateLimit = (
  deps: Pick<AppDeps, "database" | "config">,
  scope: string,
  limits: { readonly account?: Limit; readonly address: Limit },
) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const db = deps.database.db;
    const address = clientAddress(c, deps.config.trustProxy);
    if (address) await enforce(db, `${scope}:address:${address}`, limits.address);
    const clientId = c.get("clientId") as number | undefined;
    if (limits.account && clientId !== undefined)
      await enforce(db, `${scope}:account:${clientId}`, limits.account);
    await next();
  });
