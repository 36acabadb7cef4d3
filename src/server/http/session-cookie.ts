import type { Context } from "hono";
import { generateCookie, getCookie } from "hono/cookie";
import type { SessionToken } from "../../contract/accounts.ts";
import type { ServerConfig } from "../config.ts";

/**
 * The session cookie the server sets when a session starts (docs/operations.md, "Security"):
 * `HttpOnly`, so no script of the page can read the token; `SameSite=Lax`, so another site's
 * requests do not carry it (its links do, and they only read); `Secure` when the site is https;
 * sent only to the API (`Path` is the API base); it expires with the session.
 */
export const SESSION_COOKIE = "session";

type CookieConfig = Pick<ServerConfig, "apiBase" | "publicUrl" | "trustProxy">;

/** https as people reach the site: its public URL, the request itself, or a trusted proxy's word. */
export function isHttps(c: Context, config: CookieConfig): boolean {
  if (config.publicUrl.startsWith("https:")) return true;
  if (new URL(c.req.url).protocol === "https:") return true;
  if (!config.trustProxy) return false;
  const proto = c.req.header("x-forwarded-proto")?.split(",").at(-1)?.trim().toLowerCase();
  return proto === "https";
}

function sessionCookie(c: Context, config: CookieConfig, value: string, expires: Date): string {
  return generateCookie(SESSION_COOKIE, value, {
    path: config.apiBase,
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c, config),
    expires,
  });
}

/** Answers with the session's cookie (sign-in, email confirmation, a changed password). */
export function setSessionCookie(c: Context, config: CookieConfig, session: SessionToken): void {
  c.header("Set-Cookie", sessionCookie(c, config, session.token, new Date(session.expiry)), {
    append: true,
  });
}

/** The `Set-Cookie` value that removes the session cookie (logout, a dead session). */
export function clearedSessionCookie(c: Context, config: CookieConfig): string {
  return sessionCookie(c, config, "", new Date(0));
}

export function clearSessionCookie(c: Context, config: CookieConfig): void {
  c.header("Set-Cookie", clearedSessionCookie(c, config), { append: true });
}

/** The session cookie's value, if the request carries one. */
export function sessionCookieOf(c: Context): string | null {
  return getCookie(c, SESSION_COOKIE) || null;
}
