// The API's limits: analytics calls per account and per address, sign-ups per address, counted in
// the database so they hold across a restart and across instances (two apps on one database
// here), answering 429 with Retry-After; and request bodies above the limit refused with 413.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { countRequest } from "../../src/server/http/rate-limits.ts";
import { createLogger } from "../../src/server/logger.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";

describe.each(databaseTargets)("rate limits on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
  });
  afterAll(() => drop());

  /** An app: a second call makes another instance on the same database. */
  const instance = (env: Record<string, string> = {}) =>
    createApp({
      config: loadConfig({ TRUST_PROXY: "true", ...env }),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
      // Refuses at once: the limits are checked before any work is queued.
      pool: {
        run: async () => Promise.reject(new Error("not reached")),
        useSnapshot: () => {},
        close: async () => {},
      },
    });
  const session = async () => (await signedInClient(database)).token;
  const analyse = (app: ReturnType<typeof instance>, token: string, address: string) =>
    app.request("/api/analytics/analyse", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${token}`,
        "X-Forwarded-For": address,
      },
      body: "{}",
    });

  it("counts atomically: concurrent requests never slip past the limit", async () => {
    const key = `test:${randomBytes(4).toString("hex")}`;
    const states = await Promise.all(
      Array.from({ length: 40 }, () =>
        countRequest(database.db, key, { max: 25, windowSeconds: 60 }),
      ),
    );
    expect(states.filter((s) => !s.limited)).toHaveLength(25);
    expect(
      states.filter((s) => s.limited).every((s) => s.retryAfter >= 1 && s.retryAfter <= 60),
    ).toBe(true);
  });

  it("limits analytics per account across two instances, answering 429 with Retry-After", async () => {
    const env = { RATE_LIMIT_ANALYTICS_PER_MINUTE: "6" };
    const [a, b] = [instance(env), instance(env)];
    const token = await session();
    const statuses: number[] = [];
    // Alternating instances and addresses: the account's count is one.
    for (let i = 0; i < 8; i++)
      statuses.push((await analyse(i % 2 ? a : b, token, `10.9.${i}.1`)).status);
    // Six are let through (to validation: 400 for the empty body), then 429.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429, 429]);
    const limited = await analyse(a, token, "10.9.99.1");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ msgCode: "TOO_MANY_REQUESTS" });
    // Another account is not limited by the first one's use.
    expect((await analyse(b, await session(), "10.9.100.1")).status).toBe(400);
  });

  it("limits analytics per address across accounts", async () => {
    const app = instance({ RATE_LIMIT_ANALYTICS_PER_MINUTE: "2" });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await analyse(app, await session(), "10.8.0.1")).status);
    // Four times the per-account figure per address.
    expect(statuses.filter((s) => s === 400)).toHaveLength(8);
    expect(statuses.slice(8)).toEqual([429, 429]);
  });

  it("limits sign-ups per address", async () => {
    const app = instance({ RATE_LIMIT_SIGNUPS_PER_HOUR: "3" });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await app.request("/api/auth/register", {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.7.0.1" },
            body: "{}",
          })
        ).status,
      );
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });

  it("refuses a body above the limit with 413 before reading it", async () => {
    const app = instance({ MAX_BODY_BYTES: "1024" });
    const res = await app.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.co", password: "x".repeat(4000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ msgCode: "PAYLOAD_TOO_LARGE" });
  });
});
