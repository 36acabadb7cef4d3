import { Hono } from "hono";
import type { HealthResponse } from "../../contract/health.ts";
import { HealthResponse as HealthSchema } from "../../contract/health.ts";
import { appliedMigrations, pingDatabase } from "../db/database.ts";
import type { AppDeps } from "../app-env.ts";
import { reply } from "../http/validate.ts";

export function healthRoutes(deps: AppDeps) {
  const startedAt = Date.now();
  return new Hono().get("/", async (c) => {
    let database: HealthResponse["database"];
    try {
      const latencyMs = await pingDatabase(deps.database.db);
      const migrations = await appliedMigrations(deps.database.db);
      database = {
        status: "up",
        driver: deps.database.driver,
        latencyMs: round2(latencyMs),
        migrations,
      };
    } catch (error) {
      deps.logger.error("health: database check failed", { error });
      database = {
        status: "down",
        driver: deps.database.driver,
        latencyMs: null,
        migrations: null,
      };
    }
    const body: HealthResponse = {
      status: database.status === "up" ? "ok" : "degraded",
      version: deps.version,
      edition: deps.config.edition,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      time: new Date().toISOString(),
      database,
    };
    c.header("Cache-Control", "no-store");
    return reply(c, HealthSchema, body, database.status === "up" ? 200 : 503);
  });
}

const round2 = (x: number) => Math.round(x * 100) / 100;
