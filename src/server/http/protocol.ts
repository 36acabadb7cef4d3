import type { Context, MiddlewareHandler } from "hono";
import { ApiFailure } from "./api-failure.ts";

/**
 * Browser features no page of the product uses, turned off for every answer (and for any script
 * a page loads); fullscreen stays for the app's own video tutorials.
 */
export const permissionsPolicy: Record<string, string[]> = {
  accelerometer: [],
  autoplay: ["self"],
  camera: [],
  displayCapture: [],
  fullscreen: ["self"],
  geolocation: [],
  gyroscope: [],
  magnetometer: [],
  microphone: [],
  midi: [],
  payment: [],
  publickeyCredentialsGet: [],
  screenWakeLock: [],
  usb: [],
  browsingTopics: [],
};

export const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Refuses a state-changing API call that a browser says comes from another site (403
 * CROSS_SITE_REQUEST): its `Origin` is neither the public URL's nor the request's own host
 * (same-origin behind any proxy, and the development server's proxy), or is `null` (sandboxed
 * frames, privacy redirects), or, without `Origin`, `Sec-Fetch-Site` says `cross-site`. A call
 * without either header does not come from a browser's page (curl, scripts, the payment provider's
 * events, signed) and goes on: what a page of another site can send always carries `Origin`.
 */
export function sameSiteWrites(publicUrl: string): MiddlewareHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return async (c, next) => {
    if (STATE_CHANGING.has(c.req.method) && !sameSite(c, publicOrigin))
      throw new ApiFailure(403, "CROSS_SITE_REQUEST");
    await next();
  };
}

function sameSite(c: Context, publicOrigin: string): boolean {
  const origin = c.req.header("origin");
  if (origin === undefined) {
    const site = c.req.header("sec-fetch-site");
    return site === undefined || site === "same-origin" || site === "none";
  }
  if (origin === publicOrigin) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host === hostOf(c);
  } catch {
    return false; // "null", or not an origin at all
  }
}

const hostOf = (c: Context): string | undefined => c.req.header("host") ?? new URL(c.req.url).host;

/**
 * A body is read as JSON only when it says it is JSON (`application/json`, or a `+json` type):
 * a form of another site can send `text/plain` without asking the server first, never JSON.
 */
export function requireJsonContentType(c: Context): void {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!/^application\/(?:[\w.-]+\+)?json$/.test(type))
    throw new ApiFailure(415, "UNSUPPORTED_MEDIA_TYPE");
}

/**
 * API answers are the caller's own (a session's data, a new token from signing in):
 * `Cache-Control: no-store`, so neither the browser nor a cache in between keeps them, unless the
 * route chose its own caching for what is the same for everybody (markets, education content).
 */
export function noStoreByDefault(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.res.headers.set("Cache-Control", "no-store");
  };
}
