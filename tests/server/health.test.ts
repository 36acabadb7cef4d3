import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import { HealthResponse } from "../../src/contract/health.ts";
import { createApp, type AppDeps } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { createLogger } from "../../src/server/logger.ts";
import { databaseTargets } from "../support/databases.ts";

/** A dependency the health route must not use: touching any of its properties fails the test. */
const unused = (name: string): unknown =>
  new Proxy(
    {},
    {
      get: (_target, key) => {
        throw new Error(`${name}.${String(key)} must not be used by the health route`);
      },
    },
  );

function appOn(database: Database) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger("debug", {}, (line) =>
    lines.push(JSON.parse(line) as Record<string, unknown>),
  );
  const deps = {
    config: loadConfig({ EDITION: "tt" }),
    database,
    logger,
    version: "9.8.7",
    mailer: unused("mailer"),
    botCheck: unused("botCheck"),
    pool: unused("pool"),
  } as AppDeps;
  return { app: createApp(deps), lines };
}

describe.each(databaseTargets)("GET /api/health on $name", (target) => {
  // Opened in a hook (longer timeout than a test): a cold PGlite start can take seconds on a busy machine.
  let database: Database;
  let drop: () => Promise<void>;
  let dropped = false;
  beforeEach(async () => {
    ({ database, drop } = await target.open());
    dropped = false;
  });
  afterEach(async () => {
    if (!dropped) await drop();
  });

  it("answers 200 ok with the database up, its driver and the applied migrations", async () => {
    const { app } = appOn(database);

    const res = await app.request("/api/health");

    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body: unknown = await res.json();
    const decoded = decode(HealthResponse, body);
    if (!decoded.ok)
      throw new Error(
        `health response does not match the contract: ${JSON.stringify(decoded.issues)}`,
      );
    const health = decoded.value;
    expect(health.status).toBe("ok");
    expect(health.version).toBe("9.8.7");
    expect(health.edition).toBe("tt");
    expect(Number.isNaN(Date.parse(health.time))).toBe(false);
    expect(health.database.status).toBe("up");
    expect(health.database.driver).toBe(target.name);
    expect(health.database.migrations).toBeGreaterThanOrEqual(1);
    expect(health.database.latencyMs).toBeTypeOf("number");
  });

  it("answers 503 degraded with the database down when the database is closed", async () => {
    await drop(); // closes (and for PostgreSQL removes) the database the app still holds
    dropped = true;
    const { app, lines } = appOn(database);

    const res = await app.request("/api/health");

    expect(res.status).toBe(503);
    const decoded = decode(HealthResponse, await res.json());
    if (!decoded.ok)
      throw new Error(
        `health response does not match the contract: ${JSON.stringify(decoded.issues)}`,
      );
    expect(decoded.value.status).toBe("degraded");
    expect(decoded.value.database).toEqual({
      status: "down",
      driver: target.name,
      latencyMs: null,
      migrations: null,
    });
    expect(
      lines.some((l) => l.level === "error" && l.msg === "health: database check failed"),
    ).toBe(true);
  });
});
