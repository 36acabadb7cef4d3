import { describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import { RuntimeConfig } from "../../src/contract/runtime-config.ts";
import { createApp, type AppDeps } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { createLogger } from "../../src/server/logger.ts";

/** A dependency these routes must not use: touching any of its properties fails the test. */
const unused = (name: string): unknown =>
  new Proxy(
    {},
    {
      get: (_target, key) => {
        throw new Error(`${name}.${String(key)} must not be used by these routes`);
      },
    },
  );

const unusedDatabase = {
  db: unused("db"),
  driver: "pglite",
  migrate: unused("migrate"),
  close: unused("close"),
};

function makeApp(env: Record<string, string> = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger("info", {}, (line) =>
    lines.push(JSON.parse(line) as Record<string, unknown>),
  );
  const deps = {
    config: loadConfig(env),
    database: unusedDatabase,
    logger,
    version: "0.0.0-test",
    mailer: unused("mailer"),
    botCheck: unused("botCheck"),
    pool: unused("pool"),
  } as AppDeps;
  return { app: createApp(deps), lines };
}

/** The fields the contract lets the browser see. */
const publicFields = Object.keys(RuntimeConfig.fields);

describe("API errors", () => {
  it("answers an unknown /api path with 404 and msgCode NOT_FOUND as JSON", async () => {
    const { app } = makeApp();
    const res = await app.request("/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ msgCode: "NOT_FOUND" });
  });

  it("answers 404 NOT_FOUND for other methods on unknown paths too", async () => {
    const { app } = makeApp();
    const res = await app.request("/api/nothing/here", { method: "POST" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ msgCode: "NOT_FOUND" });
  });

  it("rejects a request for the other edition with 400 EDITION_MISMATCH", async () => {
    const { app } = makeApp({ EDITION: "ht" });
    const res = await app.request("/api/config?ctx=tt");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ msgCode: "EDITION_MISMATCH" });
  });

  it("accepts a request naming the server's own edition", async () => {
    const { app } = makeApp({ EDITION: "ht" });
    const res = await app.request("/api/config?ctx=ht&lang=es&stc=simMonk");
    expect(res.status).toBe(200);
  });

  it("rejects an unknown language with 400 INVALID_REQUEST and an issue naming lang", async () => {
    const { app } = makeApp();
    const res = await app.request("/api/config?lang=fr");
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      msgCode: string;
      issues: { path: string; message: string }[];
    };
    expect(body.msgCode).toBe("INVALID_REQUEST");
    expect(body.issues.map((i) => i.path)).toEqual(["lang"]);
    expect(body.issues[0]?.message).toEqual(expect.any(String));
  });

  it("rejects an unknown product (stc) with 400 INVALID_REQUEST naming stc", async () => {
    const { app } = makeApp();
    const res = await app.request("/api/config?stc=simBonds");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { msgCode: string; issues: { path: string }[] };
    expect(body.msgCode).toBe("INVALID_REQUEST");
    expect(body.issues.map((i) => i.path)).toEqual(["stc"]);
  });
});

describe("GET /api/config", () => {
  it("returns the runtime configuration of the edition the server started with", async () => {
    const { app } = makeApp({
      EDITION: "tt",
      RECAPTCHA_SITE_KEY: "site-key-1",
      RECAPTCHA_SECRET: "server-secret-1",
      DATABASE_URL: "postgres://admin:db-password@db.internal/app",
    });
    const res = await app.request("/api/config");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      edition: "tt",
      apiBase: "/api",
      marketingScriptUrl: null,
      recaptchaSiteKey: "site-key-1",
    });
    expect(decode(RuntimeConfig, body).ok).toBe(true);
    // Only what the contract names, and no secret of the server.
    expect(Object.keys(body).filter((k) => !publicFields.includes(k))).toEqual([]);
    expect(JSON.stringify(body)).not.toMatch(/server-secret-1|db-password|db\.internal/);
  });

  it("defaults to the ht edition with no marketing script", async () => {
    const { app } = makeApp();
    const body = (await (await app.request("/api/config")).json()) as Record<string, unknown>;
    expect(body.edition).toBe("ht");
    expect(body.marketingScriptUrl).toBeNull();
  });

  it("is mounted under the configured API base", async () => {
    const { app } = makeApp({ API_BASE: "/v2" });
    const res = await app.request("/v2/config");
    expect(res.status).toBe(200);
    expect(((await res.json()) as Record<string, unknown>).apiBase).toBe("/v2");
  });
});

describe("request headers", () => {
  it("gives every answer an X-Request-Id and logs the request under it", async () => {
    const { app, lines } = makeApp();
    const res = await app.request("/api/config");
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines.find((l) => l.msg === "request");
    expect(logged).toMatchObject({
      requestId: id,
      method: "GET",
      path: "/api/config",
      status: 200,
    });
  });

  it("keeps the X-Request-Id the caller sent, also on errors", async () => {
    const { app } = makeApp();
    const res = await app.request("/api/nope", { headers: { "X-Request-Id": "abc-123" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBe("abc-123");
  });

  it("gives distinct ids to distinct requests", async () => {
    const { app } = makeApp();
    const a = (await app.request("/api/config")).headers.get("x-request-id");
    const b = (await app.request("/api/config")).headers.get("x-request-id");
    expect(a).not.toBe(b);
  });

  it("sends the security headers", async () => {
    const { app } = makeApp();
    const res = await app.request("/api/config");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });

  it("sends the security headers on error answers too", async () => {
    const { app } = makeApp();
    const res = await app.request("/api/config?lang=fr");
    expect(res.status).toBe(400);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
