/**
 * Rate limits of the API (docs/api.md, "Limits"): requests counted per account and per network
 * address in fixed windows, in the database (one atomic upsert per key), so they hold across a
 * restart and across instances. Over the limit the answer is 429 with Retry-After.
 */
import { sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { preparedOnce, type Db } from "../db/database.ts";
import { rateLimits } from "../db/schema.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { ApiFailure } from "./api-failure.ts";
import { addressKey, clientAddress } from "./client-address.ts";

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
  return (await countRequests(db, [key], limit.windowSeconds)).map((r) => ({
    limited: r.hits > limit.max,
    retryAfter: r.retryAfter,
  }))[0]!;
}

/** Counts one request of each key in one statement (one round trip), all in windows of the same length. */
async function countRequests(
  db: Db,
  keys: readonly string[],
  windowSeconds: number,
): Promise<{ key: string; hits: number; retryAfter: number }[]> {
  // Built once per number of keys (one or two: an address and an account).
  const statement = preparedOnce(db, `rate_limits_${keys.length}`, (db) => {
    const window = sql`make_interval(secs => ${sql.placeholder("windowSeconds")}::float8)`;
    return db
      .insert(rateLimits)
      .values(
        keys.map((_, i) => ({ key: sql.placeholder(`key${i}`), windowStart: sql`now()`, hits: 1 })),
      )
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          hits: sql`case when ${rateLimits.windowStart} + ${window} <= now() then 1 else ${rateLimits.hits} + 1 end`,
          windowStart: sql`case when ${rateLimits.windowStart} + ${window} <= now() then now() else ${rateLimits.windowStart} end`,
        },
      })
      .returning({
        key: rateLimits.key,
        hits: rateLimits.hits,
        remaining: sql<number>`extract(epoch from (${rateLimits.windowStart} + ${window} - now()))::float8`,
      })
      .prepare(`rate_limits_${keys.length}`);
  });
  const rows = await statement.execute({
    windowSeconds,
    ...Object.fromEntries(keys.map((key, i) => [`key${i}`, key])),
  });
  return rows.map((r) => ({
    key: r.key,
    hits: r.hits,
    // now() is each transaction's start: one that began just before the one that opened the
    // window, and waited for its row, sees a window a little longer than itself (seen: 61 s).
    retryAfter: Math.min(
      windowSeconds,
      Math.max(1, Math.ceil(Number(r.remaining ?? windowSeconds))),
    ),
  }));
}

/**
 * Limits a group of calls (`scope`) per network address, and per account when the request has a
 * session (use it after requireSession). Both are counted in one statement.
 */
export const rateLimit = (
  deps: Pick<AppDeps, "database" | "config">,
  scope: string,
  limits: { readonly account?: Limit; readonly address: Limit },
) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const address = clientAddress(c, deps.config.trustProxy);
    const clientId = c.get("clientId") as number | undefined;
    const checks: { key: string; limit: Limit }[] = [
      ...(address
        ? [{ key: `${scope}:address:${addressKey(address)}`, limit: limits.address }]
        : []),
      ...(limits.account && clientId !== undefined
        ? [{ key: `${scope}:account:${clientId}`, limit: limits.account }]
        : []),
    ];
    // Windows of different lengths are counted apart.
    const byWindow = new Map<number, typeof checks>();
    for (const check of checks)
      byWindow.set(check.limit.windowSeconds, [
        ...(byWindow.get(check.limit.windowSeconds) ?? []),
        check,
      ]);
    for (const [windowSeconds, group] of byWindow) {
      const counted = await countRequests(
        deps.database.db,
        group.map((x) => x.key),
        windowSeconds,
      );
      const over = counted.filter((r) => r.hits > group.find((x) => x.key === r.key)!.limit.max);
      if (over.length)
        throw new ApiFailure(429, "TOO_MANY_REQUESTS", undefined, {
          "Retry-After": String(Math.max(...over.map((r) => r.retryAfter))),
        });
    }
    await next();
  });
