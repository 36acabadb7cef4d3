import { Schema } from "effect";
import path from "node:path";
import { Edition } from "../contract/common.ts";
import type { RuntimeConfig } from "../contract/runtime-config.ts";

/** Everything the server reads from its environment (documented in docs/configuration.md). */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly edition: Edition;
  /** A PostgreSQL URL; when absent the embedded database (PGlite) in `dataDir` is used. */
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly distDir: string;
  readonly apiBase: string;
  readonly logLevel: LogLevel;
  readonly marketingScriptUrl: string | null;
  readonly recaptchaSiteKey: string | null;
  readonly shutdownTimeoutMs: number;
}

export const LogLevel = Schema.Literals(["debug", "info", "warn", "error", "silent"]);
export type LogLevel = typeof LogLevel.Type;

const Port = Schema.NumberFromString.pipe(
  Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 65535 })),
);
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/\S+$/)));
const PostgresUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^postgres(ql)?:\/\/\S+$/)));

const Env = Schema.Struct({
  PORT: Schema.optional(Port),
  HOST: Schema.optional(Schema.String),
  EDITION: Schema.optional(Edition),
  DATABASE_URL: Schema.optional(PostgresUrl),
  DATA_DIR: Schema.optional(Schema.String),
  DIST_DIR: Schema.optional(Schema.String),
  API_BASE: Schema.optional(Schema.String),
  LOG_LEVEL: Schema.optional(LogLevel),
  MARKETING_SCRIPT_URL: Schema.optional(HttpUrl),
  RECAPTCHA_SITE_KEY: Schema.optional(Schema.String),
  SHUTDOWN_TIMEOUT_MS: Schema.optional(Schema.NumberFromString.pipe(Schema.check(Schema.isInt()))),
});

const projectRoot = path.resolve(import.meta.dirname, "../..");

/** Reads the configuration; an invalid variable stops the server with a message naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  let parsed: typeof Env.Type;
  try {
    parsed = Schema.decodeUnknownSync(Env)(present, { onExcessProperty: "ignore" });
  } catch (error) {
    throw new Error(
      `Invalid configuration: ${String(error instanceof Error ? error.message : error)}`,
    );
  }
  return {
    port: parsed.PORT ?? 3000,
    host: parsed.HOST ?? "127.0.0.1",
    edition: parsed.EDITION ?? "ht",
    databaseUrl: parsed.DATABASE_URL ?? null,
    dataDir: path.resolve(projectRoot, parsed.DATA_DIR ?? "data"),
    distDir: path.resolve(projectRoot, parsed.DIST_DIR ?? "dist"),
    apiBase: parsed.API_BASE ?? "/api",
    logLevel: parsed.LOG_LEVEL ?? "info",
    marketingScriptUrl: parsed.MARKETING_SCRIPT_URL ?? null,
    recaptchaSiteKey: parsed.RECAPTCHA_SITE_KEY ?? null,
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS ?? 10_000,
  };
}

/** The part of the configuration the browser may see. */
export function runtimeConfigOf(config: ServerConfig): RuntimeConfig {
  return {
    edition: config.edition,
    apiBase: config.apiBase,
    marketingScriptUrl: config.marketingScriptUrl,
    recaptchaSiteKey: config.recaptchaSiteKey,
  };
}
