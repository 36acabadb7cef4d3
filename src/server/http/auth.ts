import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { refuseWhilePolicyPending } from "../accounts/gates.ts";
import { sessionClient } from "../accounts/sessions.ts";
import { ApiFailure } from "./api-failure.ts";
import { clearedSessionCookie, sessionCookieOf } from "./session-cookie.ts";
import { STATE_CHANGING } from "./protocol.ts";

const TOKEN = /^[\w-]{16,128}$/;

/** The bearer token of the request, if any. */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer ([\w-]{16,128})$/.exec(header ?? "");
  return m ? m[1]! : null;
}

/** The session token a request presents, and how: its bearer header, else the session cookie. */
export interface SessionCredential {
  readonly token: string | null;
  readonly from: "bearer" | "cookie" | null;
}

/**
 * The request's session token: an `Authorization: Bearer` header (API clients, scripts, tests)
 * wins; without one, the `HttpOnly` session cookie the browser app's requests carry. A request
 * with an `Authorization` header that is not a valid bearer is not read from the cookie either.
 */
export function sessionCredential(c: Context): SessionCredential {
  const header = c.req.header("Authorization");
  if (header !== undefined) {
    const token = bearerToken(header);
    return { token, from: token ? "bearer" : null };
  }
  const cookie = sessionCookieOf(c);
  if (cookie === null) return { token: null, from: null };
  return { token: TOKEN.test(cookie) ? cookie : null, from: "cookie" };
}

/**
 * 401 UNAUTHORIZED; when the dead credential was the session cookie, the answer also removes it
 * from the browser.
 */
export function unauthorized(
  c: Context,
  config: AppDeps["config"],
  credential: SessionCredential,
): ApiFailure {
  return new ApiFailure(
    401,
    "UNAUTHORIZED",
    undefined,
    credential.from === "cookie" ? { "Set-Cookie": clearedSessionCookie(c, config) } : {},
  );
}

/**
 * A state-changing call authenticated by the cookie must come from a browser page of this site:
 * `sameSiteWrites` (./protocol.ts) already refused any `Origin` or `Sec-Fetch-Site` of another
 * site; here one of the two must be present at all, because only a browser sends the cookie and
 * every browser that does sends one of them. Scripts authenticate with a bearer header instead.
 */
export function refuseCookieWriteWithoutOrigin(c: Context, credential: SessionCredential): void {
  if (
    credential.from === "cookie" &&
    STATE_CHANGING.has(c.req.method) &&
    c.req.header("origin") === undefined &&
    c.req.header("sec-fetch-site") === undefined
  )
    throw new ApiFailure(403, "CROSS_SITE_REQUEST");
}

/**
 * Requires a live session; its client id, token hash and account are then on the context. An
 * account that must accept the policy first gets only what the accept-policy page needs.
 */
export const requireSession = (deps: Pick<AppDeps, "database" | "config" | "clock">) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const credential = sessionCredential(c);
    const session = credential.token
      ? await sessionClient(deps.database.db, credential.token)
      : null;
    if (!session) throw unauthorized(c, deps.config, credential);
    refuseCookieWriteWithoutOrigin(c, credential);
    refuseWhilePolicyPending(deps, c, session.account);
    c.set("clientId", session.clientId);
    c.set("tokenHash", session.tokenHash);
    c.set("account", session.account);
    await next();
  });
