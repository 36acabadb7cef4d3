import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_TIMEOUT_MS } from "../../src/contract/common.ts";
import { decode } from "../../src/contract/decode.ts";
import { RuntimeConfig } from "../../src/contract/runtime-config.ts";
import { loadConfig, runtimeConfigOf } from "../../src/server/config.ts";

const projectRoot = path.resolve(import.meta.dirname, "../..");

describe("loadConfig", () => {
  it("uses the documented defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      edition: "ht",
      databaseUrl: null,
      dataDir: path.join(projectRoot, "data"),
      distDir: path.join(projectRoot, "dist"),
      apiBase: "/api",
      logLevel: "info",
      marketingScriptUrl: null,
      recaptchaSiteKey: null,
      shutdownTimeoutMs: 10_000,
    });
  });

  it("treats empty strings as unset", () => {
    const config = loadConfig({ PORT: "", EDITION: "", DATABASE_URL: "" });
    expect(config.port).toBe(3000);
    expect(config.edition).toBe("ht");
    expect(config.databaseUrl).toBeNull();
  });

  it("reads the edition", () => {
    expect(loadConfig({ EDITION: "tt" }).edition).toBe("tt");
    expect(loadConfig({ EDITION: "ht" }).edition).toBe("ht");
  });

  it("reads every other variable", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgresql://u@db:5432/app",
      DATA_DIR: "/var/lib/app",
      DIST_DIR: "build",
      API_BASE: "/v1",
      LOG_LEVEL: "warn",
      MARKETING_SCRIPT_URL: "https://m.test/s.js",
      RECAPTCHA_SITE_KEY: "k",
      SHUTDOWN_TIMEOUT_MS: "2500",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      edition: "ht",
      databaseUrl: "postgresql://u@db:5432/app",
      dataDir: "/var/lib/app",
      distDir: path.join(projectRoot, "build"),
      apiBase: "/v1",
      logLevel: "warn",
      marketingScriptUrl: "https://m.test/s.js",
      recaptchaSiteKey: "k",
      shutdownTimeoutMs: 2500,
    });
  });

  it("ignores unrelated environment variables", () => {
    expect(() => loadConfig({ HOME: "/root", NODE_ENV: "test" })).not.toThrow();
  });

  it.each(["abc", "70000", "-1", "3.5"])("rejects PORT=%s with an error naming PORT", (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(/Invalid configuration[\s\S]*PORT/);
  });

  it("accepts the port range bounds", () => {
    expect(loadConfig({ PORT: "0" }).port).toBe(0);
    expect(loadConfig({ PORT: "65535" }).port).toBe(65535);
  });

  it("rejects an unknown edition with an error naming EDITION", () => {
    expect(() => loadConfig({ EDITION: "xx" })).toThrow(/EDITION/);
    expect(() => loadConfig({ EDITION: "HT" })).toThrow(/EDITION/);
  });

  it.each(["postgres://postgres@127.0.0.1:5432/postgres", "postgresql://u:p@h/db"])(
    "accepts DATABASE_URL=%s",
    (url) => {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    },
  );

  it.each(["mysql://u@h/db", "http://h/db", "127.0.0.1:5432", "postgres://"])(
    "rejects DATABASE_URL=%s with an error naming DATABASE_URL",
    (url) => {
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/DATABASE_URL/);
    },
  );

  it("rejects a marketing script URL that is not http(s)", () => {
    expect(() => loadConfig({ MARKETING_SCRIPT_URL: "javascript:alert(1)" })).toThrow(
      /MARKETING_SCRIPT_URL/,
    );
  });

  it("rejects an unknown log level", () => {
    expect(() => loadConfig({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL/);
  });

  it("reads the analytics queue's limits, the wait always below the app's timeout", () => {
    expect(loadConfig({})).toMatchObject({ analyticsMaxWaitMs: 20_000, analyticsPerAccount: 4 });
    expect(loadConfig({ ANALYTICS_MAX_WAIT_MS: "5000", ANALYTICS_PER_ACCOUNT: "2" })).toMatchObject(
      { analyticsMaxWaitMs: 5000, analyticsPerAccount: 2 },
    );
    expect(() => loadConfig({ ANALYTICS_MAX_WAIT_MS: String(API_TIMEOUT_MS) })).toThrow(
      /ANALYTICS_MAX_WAIT_MS/,
    );
    expect(() => loadConfig({ ANALYTICS_PER_ACCOUNT: "0" })).toThrow(/ANALYTICS_PER_ACCOUNT/);
  });
});

describe("runtimeConfigOf", () => {
  it("exposes only the public fields", () => {
    const config = loadConfig({
      EDITION: "tt",
      DATABASE_URL: "postgres://admin:db-password@db.internal/app",
      MARKETING_SCRIPT_URL: "https://m.test/s.js",
      RECAPTCHA_SITE_KEY: "site",
      RECAPTCHA_SECRET: "server-secret",
      PORT: "4000",
      DATA_DIR: "/srv/private-data",
    });
    const runtime = runtimeConfigOf(config);
    expect(runtime).toMatchObject({
      edition: "tt",
      apiBase: "/api",
      marketingScriptUrl: "https://m.test/s.js",
      recaptchaSiteKey: "site",
    });
    // Nothing beyond the fields of the RuntimeConfig contract, and no server-side value.
    const publicFields = Object.keys(RuntimeConfig.fields);
    expect(Object.keys(runtime).filter((k) => !publicFields.includes(k))).toEqual([]);
    expect(JSON.stringify(runtime)).not.toMatch(
      /db-password|db\.internal|server-secret|4000|private-data/,
    );
    expect(decode(RuntimeConfig, runtime).ok).toBe(true);
  });

  it("has no marketing script when none is configured", () => {
    expect(runtimeConfigOf(loadConfig({})).marketingScriptUrl).toBeNull();
  });
});
