import { createMiddleware } from "hono/factory";
import type { AppDeps, AppEnv } from "../app.ts";
import { refuseWhilePolicyPending } from "../accounts/gates.ts";
import { sessionClient } from "../accounts/sessions.ts";
import { ApiFailure } from "./api-failure.ts";

/** The bearer token of the request, if any. */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer ([\w-]{16,128})$/.exec(header ?? "");
  return m ? m[1]! : null;
}

/**
 * Requires a live session; its client id, token hash and account are then on the context. An
 * account that must accept the policy first gets only what the accept-policy page needs.
 */
export const requireSession = (deps: Pick<AppDeps, "database" | "config" | "clock">) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearerToken(c.req.header("Authorization"));
    const session = token ? await sessionClient(deps.database.db, token) : null;
    if (!session) throw new ApiFailure(401, "UNAUTHORIZED");
    refuseWhilePolicyPending(deps, c, session.account);
    c.set("clientId", session.clientId);
    c.set("tokenHash", session.tokenHash);
    c.set("account", session.account);
    await next();
  });
