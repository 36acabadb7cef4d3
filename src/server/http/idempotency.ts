/**
 * Idempotency-Key on the calls that create something (docs/api.md, "Repeated calls"). The key is
 * claimed in the database (a row per account, or per address without a session, and key), so every
 * instance sharing the database sees it:
 * - the first call with a key runs; a success (2xx) is stored, status and body, and any other
 *   answer frees the key (nothing was created, the call may be tried again with it);
 * - the same key with the same call (method, path, query and body) answers the stored answer,
 *   without running again;
 * - the same key with another call answers 422 IDEMPOTENCY_CONFLICT;
 * - the same key while the first call still runs waits for its answer; past a few seconds (or
 *   for a call cut off by a crash before its answer was stored) it answers 409
 *   REQUEST_IN_PROGRESS, never running the call a second time.
 * Keys are kept for a day.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { idempotencyKeys } from "../db/schema.ts";
import { ApiFailure } from "./api-failure.ts";
import { addressKey, clientAddress } from "./client-address.ts";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** How long a key is remembered. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/** How long a repeated call waits for the first one's answer before it answers 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
/** The first wait between looks at a running call's key; each next one doubles, up to a second. */
const FIRST_POLL_MS = 50;
/** Printable ASCII without spaces, 8 to 200 characters (a UUID is 36). */
const KEY_PATTERN = /^[\x21-\x7e]{8,200}$/;

/** JSON with its object keys sorted: the same body however its keys were ordered. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;

const bodyText = (raw: string): string => {
  try {
    return JSON.stringify(canonical(JSON.parse(raw)));
  } catch {
    return raw;
  }
};

/**
 * Makes the route it guards honour Idempotency-Key. Mounted after the session check (the key is
 * the account's), or on a route without a session (the key is the address's).
 */
export const idempotent = (deps: Pick<AppDeps, "database" | "config" | "clock" | "sleep">) => {
  const { db } = deps.database;
  const clock = deps.clock ?? (() => new Date());
  const sleep =
    deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    if (!KEY_PATTERN.test(key))
      throw new ApiFailure(400, "INVALID_REQUEST", [
        { path: IDEMPOTENCY_HEADER, message: "8 to 200 printable characters without spaces" },
      ]);
    const clientId = c.get("clientId") as number | undefined;
    const scope =
      clientId !== undefined
        ? `client:${clientId}`
        : `address:${addressKey(clientAddress(c, deps.config.trustProxy))}`;
    const query = Object.entries(c.req.query()).sort(([a], [b]) => (a < b ? -1 : 1));
    const fingerprint = createHash("sha256")
      .update(JSON.stringify([c.req.method, c.req.path, query, bodyText(await c.req.text())]))
      .digest("base64url");
    const where = and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

    const claim = async () => {
      const now = clock();
      // Keys older than a day are forgotten (a cheap indexed delete, as used challenges are).
      await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)));
      const rows = await db
        .insert(idempotencyKeys)
        .values({ scope, key, fingerprint, createdAt: now })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      return rows.length > 0;
    };

    // Waited in polls of the (injectable) sleep, so a test waits without sleeping.
    let waited = 0;
    let polls = 0;
    for (;;) {
      if (await claim()) break;
      const [row] = await db.select().from(idempotencyKeys).where(where);
      if (!row) continue; // freed in between: claimed again
      if (row.fingerprint !== fingerprint) throw new ApiFailure(422, "IDEMPOTENCY_CONFLICT");
      if (row.status !== null)
        return c.body(row.response ?? "", row.status as 200, {
          "Content-Type": "application/json; charset=utf-8",
          "Idempotent-Replayed": "true",
        });
      if (waited >= IDEMPOTENCY_WAIT_MS) throw new ApiFailure(409, "REQUEST_IN_PROGRESS");
      const poll = Math.min(1000, FIRST_POLL_MS * 2 ** polls++);
      await sleep(poll);
      waited += poll;
    }

    let stored = false;
    try {
      await next();
      const res = c.res;
      if (!c.error && res.status >= 200 && res.status < 300) {
        await db
          .update(idempotencyKeys)
          .set({ status: res.status, response: await res.clone().text(), completedAt: clock() })
          .where(and(where, isNull(idempotencyKeys.status)));
        stored = true;
      }
    } finally {
      if (!stored)
        await db
          .delete(idempotencyKeys)
          .where(and(where, isNull(idempotencyKeys.status)))
          .catch(() => {});
    }
  });
};
