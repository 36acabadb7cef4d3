import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { loginAttempts } from "../db/schema.ts";

/** Sign-in attempts allowed per window: per account, and per network address. */
export const SIGN_IN_LIMITS = { account: 5, address: 30, windowMinutes: 15 } as const;

export interface LimitState {
  readonly limited: boolean;
  /** Seconds until the window ends. */
  readonly retryAfter: number;
}

const window = sql`make_interval(mins => ${SIGN_IN_LIMITS.windowMinutes})`;

/**
 * Counts an attempt before the password is checked, in one atomic statement, so parallel requests
 * cannot slip past the limit; a stale window starts again at 1. A success gives its attempt back.
 */
export async function takeAttempt(db: Db, key: string, max: number): Promise<LimitState> {
  const [row] = await db
    .insert(loginAttempts)
    .values({ key, windowStart: sql`now()`, failures: 1 })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${loginAttempts.windowStart} + ${window} <= now() then 1 else ${loginAttempts.failures} + 1 end`,
        windowStart: sql`case when ${loginAttempts.windowStart} + ${window} <= now() then now() else ${loginAttempts.windowStart} end`,
      },
    })
    .returning({
      failures: loginAttempts.failures,
      remaining: sql<number>`extract(epoch from (${loginAttempts.windowStart} + ${window} - now()))::float8`,
    });
  return {
    limited: (row?.failures ?? 0) > max,
    retryAfter: Math.max(1, Math.ceil(Number(row?.remaining ?? 0))),
  };
}

/** Gives back the attempt of a successful sign-in (address counters count failures only). */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(loginAttempts)
    .set({ failures: sql`greatest(${loginAttempts.failures} - 1, 0)` })
    .where(eq(loginAttempts.key, key));
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
}
