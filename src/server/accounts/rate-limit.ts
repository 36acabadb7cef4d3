import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { loginAttempts } from "../db/schema.ts";

/** Failed sign-ins allowed per window: per account, and per network address. */
export const SIGN_IN_LIMITS = { account: 5, address: 30, windowMinutes: 15 } as const;

export interface LimitState {
  readonly limited: boolean;
  /** Seconds until the window ends. */
  readonly retryAfter: number;
}

/** Reads a counter without changing it. */
export async function checkLimit(db: Db, key: string, max: number): Promise<LimitState> {
  const rows = await db
    .select({
      failures: loginAttempts.failures,
      remaining: sql<number>`extract(epoch from (${loginAttempts.windowStart} + make_interval(mins => ${SIGN_IN_LIMITS.windowMinutes}) - now()))::float8`,
    })
    .from(loginAttempts)
    .where(eq(loginAttempts.key, key));
  const row = rows[0];
  if (!row || row.remaining <= 0) return { limited: false, retryAfter: 0 };
  return { limited: row.failures >= max, retryAfter: Math.ceil(row.remaining) };
}

/** Counts one failure, atomically (safe with several instances): a stale window starts again at 1. */
export async function recordFailure(db: Db, key: string): Promise<void> {
  const window = sql`make_interval(mins => ${SIGN_IN_LIMITS.windowMinutes})`;
  await db
    .insert(loginAttempts)
    .values({ key, windowStart: sql`now()`, failures: 1 })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${loginAttempts.windowStart} + ${window} <= now() then 1 else ${loginAttempts.failures} + 1 end`,
        windowStart: sql`case when ${loginAttempts.windowStart} + ${window} <= now() then now() else ${loginAttempts.windowStart} end`,
      },
    });
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
}
