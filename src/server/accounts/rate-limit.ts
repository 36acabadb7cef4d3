/**
 * Sign-in throttling (PRODUCT.md, "Operating rules"; OWASP's advice against lock-out abuse).
 *
 * - Failures are counted per account and address pair and per address, in fixed windows: over
 *   the limit that pair, or that address, is refused with 429 until its window ends. Only the
 *   caller's own failures can refuse the caller.
 * - Per account, across addresses, failures add a growing delay before the password is checked,
 *   never a refusal: the right password from an address without recent failures is always
 *   accepted, however many addresses attack the account.
 *
 * Every counter is a row of `login_attempts`, changed by one atomic upsert, so several instances
 * share them and a restart keeps them. Times come from the app's clock (tests move it).
 */
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { loginAttempts } from "../db/schema.ts";
import { addressKey } from "../http/client-address.ts";

export const SIGN_IN_LIMITS = {
  /** Failures of one account from one address in a window. */
  pair: 5,
  /** Failures from one address in a window, whatever the accounts. */
  address: 30,
  windowMinutes: 15,
  /** Failures of an account, from any address, before its attempts are slowed down. */
  accountFreeFailures: 5,
  /** The first delay; it doubles with each further failure, up to the largest. */
  accountDelayMs: 500,
  accountMaxDelayMs: 10_000,
} as const;

export interface LimitState {
  readonly limited: boolean;
  /** Seconds until the window ends. */
  readonly retryAfter: number;
}

/** The counters of one attempt: the account and address pair, the address, the account. */
export interface AttemptKeys {
  readonly pair: string;
  readonly address: string;
  readonly account: string;
}

/**
 * The keys of an attempt; `scope` keeps apart the counters of another kind of secret (recovery
 * tokens), under the same rules.
 */
export function attemptKeys(email: string, address: string | null, scope = ""): AttemptKeys {
  const account = email.toLowerCase();
  const from = addressKey(address);
  return {
    pair: `${scope}pair:${account}|${from}`,
    address: `${scope}address:${from}`,
    account: `${scope}account:${account}`,
  };
}

const window = sql`make_interval(mins => ${SIGN_IN_LIMITS.windowMinutes})`;
const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/**
 * Counts one more on `key` in one atomic statement, so parallel requests cannot slip past a
 * limit; a window that ended starts again at 1.
 */
async function bump(db: Db, key: string, now: Date): Promise<{ count: number; remaining: number }> {
  const t = at(now);
  const [row] = await db
    .insert(loginAttempts)
    .values({ key, windowStart: t, failures: 1 })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${loginAttempts.windowStart} + ${window} <= ${t} then 1 else ${loginAttempts.failures} + 1 end`,
        windowStart: sql`case when ${loginAttempts.windowStart} + ${window} <= ${t} then ${t} else ${loginAttempts.windowStart} end`,
      },
    })
    .returning({
      count: loginAttempts.failures,
      remaining: sql<number>`extract(epoch from (${loginAttempts.windowStart} + ${window} - ${t}))::float8`,
    });
  return { count: row?.count ?? 0, remaining: Number(row?.remaining ?? 0) };
}

/** Takes an attempt on `key` before the password is checked; over `max` the key is limited. */
export async function takeAttempt(
  db: Db,
  key: string,
  max: number,
  now: Date = new Date(),
): Promise<LimitState> {
  const { count, remaining } = await bump(db, key, now);
  return { limited: count > max, retryAfter: Math.max(1, Math.ceil(remaining)) };
}

/** The failures counted on `key` in its current window. */
export async function failuresOf(db: Db, key: string, now: Date = new Date()): Promise<number> {
  const [row] = await db
    .select({ failures: loginAttempts.failures })
    .from(loginAttempts)
    .where(
      and(eq(loginAttempts.key, key), gt(sql`${loginAttempts.windowStart} + ${window}`, at(now))),
    );
  return row?.failures ?? 0;
}

/** Gives back an attempt that did not fail (address counters count failures only). */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(loginAttempts)
    .set({ failures: sql`greatest(${loginAttempts.failures} - 1, 0)` })
    .where(eq(loginAttempts.key, key));
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
}

/** The delay before an account's password is checked, after `failures` from any address. */
export function accountDelayMs(failures: number): number {
  const over = failures - SIGN_IN_LIMITS.accountFreeFailures;
  if (over < 0) return 0;
  return Math.min(SIGN_IN_LIMITS.accountMaxDelayMs, SIGN_IN_LIMITS.accountDelayMs * 2 ** over);
}

export type AttemptStart =
  | { readonly limited: true; readonly retryAfter: number }
  | { readonly limited: false; readonly delayMs: number };

/**
 * Before a password (or a recovery token) is checked: an attempt is taken on the pair and on the
 * address (refused when either is over its limit), and the account's delay is read.
 */
export async function beginAttempt(db: Db, keys: AttemptKeys, now: Date): Promise<AttemptStart> {
  const [pair, address, accountFailures] = await Promise.all([
    takeAttempt(db, keys.pair, SIGN_IN_LIMITS.pair, now),
    takeAttempt(db, keys.address, SIGN_IN_LIMITS.address, now),
    failuresOf(db, keys.account, now),
  ]);
  const over = [pair, address].filter((s) => s.limited);
  if (over.length) return { limited: true, retryAfter: Math.max(...over.map((s) => s.retryAfter)) };
  return { limited: false, delayMs: accountDelayMs(accountFailures) };
}

/**
 * After the check: a success clears the pair and the account and gives the address its attempt
 * back; a failure keeps the attempts taken and adds one to the account's failures.
 */
export async function endAttempt(
  db: Db,
  keys: AttemptKeys,
  succeeded: boolean,
  now: Date,
): Promise<void> {
  if (succeeded)
    await Promise.all([
      clearFailures(db, keys.pair),
      clearFailures(db, keys.account),
      releaseAttempt(db, keys.address),
    ]);
  else await bump(db, keys.account, now);
}
