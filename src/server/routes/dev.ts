import { Hono } from "hono";
import { desc } from "drizzle-orm";
import { Outbox } from "../../contract/accounts.ts";
import type { AppDeps, AppEnv } from "../app.ts";
import { outbox } from "../db/schema.ts";
import { reply } from "../http/validate.ts";

/** Development only: the emails kept in the outbox, newest first, so links can be followed. */
export function devRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get("/outbox", async (c) => {
    const rows = await deps.database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(100);
    c.header("Cache-Control", "no-store");
    return reply(
      c,
      Outbox,
      rows.map((r) => ({
        id: r.id,
        to: r.to,
        subject: r.subject,
        text: r.text,
        createdAt: r.createdAt.toISOString(),
      })),
    );
  });
}
