/**
 * Limits of the emails anyone can trigger (PRODUCT.md, "Operating rules"): password recovery,
 * confirmation again, and the "you already have an account" email of a sign-up. Counted per
 * email address asked for (whether or not an account uses it, so the limit says nothing about
 * who has an account) and per network address, in fixed windows of an hour, in `rate_limits`
 * (one atomic upsert per key, shared by every instance). Times come from the app's clock.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { rateLimits } from "../db/schema.ts";
import { addressKey } from "../http/client-address.ts";
import type { LimitState } from "./rate-limit.ts";

export const EMAIL_LIMITS = { account: 3, address: 20, windowSeconds: 3600 } as const;

async function count(db: Db, key: string, now: Date): Promise<{ hits: number; remaining: number }> {
  const t = sql`${now.toISOString()}::timestamptz`;
  const window = sql`make_interval(secs => ${EMAIL_LIMITS.windowSeconds})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: t, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${rateLimits.windowStart} + ${window} <= ${t} then 1 else ${rateLimits.hits} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} + ${window} <= ${t} then ${t} else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      remaining: sql<number>`extract(epoch from (${rateLimits.windowStart} + ${window} - ${t}))::float8`,
    });
  return { hits: row?.hits ?? 0, remaining: Number(row?.remaining ?? EMAIL_LIMITS.windowSeconds) };
}

/**
 * Counts one email asked for `email` from `address` (the address is not counted when null, or
 * when another limit already covers it); limited when either count is over its limit.
 */
export async function takeEmail(
  db: Db,
  request: { readonly email: string; readonly address: string | null },
  now: Date,
): Promise<LimitState> {
  const checks = [
    { key: `email:account:${request.email.toLowerCase()}`, max: EMAIL_LIMITS.account },
    ...(request.address !== null
      ? [{ key: `email:address:${addressKey(request.address)}`, max: EMAIL_LIMITS.address }]
      : []),
  ];
  const counted = await Promise.all(checks.map((c) => count(db, c.key, now)));
  const over = counted.filter((r, i) => r.hits > checks[i]!.max);
  return {
    limited: over.length > 0,
    retryAfter: Math.max(1, ...over.map((r) => Math.ceil(r.remaining))),
  };
}
