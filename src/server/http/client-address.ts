import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

/** The client's network address: the socket's, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientAddress(c: Context, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // app.request() in tests has no socket
  }
}
