import { Schema } from "effect";
import path from "node:path";
import { API_TIMEOUT_MS, Edition } from "../contract/common.ts";
import { POOL_DEFAULTS } from "./analytics/pool-limits.ts";
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
  /** Address of the app as users reach it, for links in emails. */
  readonly publicUrl: string;
  /** `smtp://user:pass@host:port`; when absent emails land in the outbox table. */
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly recaptchaSecret: string | null;
  /** PBKDF2 iterations per proof-of-work attempt and the largest counter (difficulty). */
  readonly captchaCost: number;
  readonly captchaMaxCounter: number;
  readonly sessionDays: number;
  /** The privacy policy version in force; clients who accepted an older one are asked again. */
  readonly policyVersion: string;
  /** Trust X-Forwarded-For for the client address (behind a load balancer). */
  readonly trustProxy: boolean;
  /** Create the demo accounts (default: only on the embedded database). */
  readonly seedDemoAccounts: boolean;
  /**
   * The development outbox page and endpoint: only without SMTP, on a server whose public URL is an
   * http loopback one and that trusts no proxy (`outboxAllowed`); served to loopback clients only.
   */
  readonly outboxPage: boolean;
  /** A folder in the documented market-data format, imported when the database has no prices. */
  readonly marketDataDir: string | null;
  /** Import only rows up to this day (fixes the market's "today" for demos and tests). */
  readonly marketAsOf: string | null;
  readonly marketUpdateHourUtc: number;
  /** The simulated market's "today" when there is no data to import. */
  readonly simulatedMarketEnd: string;
  /** The sandbox provider's event-signing secret; by default one is made per database. */
  readonly billingWebhookSecret: string | null;
  readonly billingJobIntervalMs: number;
  /** SANDBOX_TEST_CLOCK=true: the sandbox's test clock call (docs/billing.md); never with a real provider. */
  readonly sandboxTestClock: boolean;
  /** Trading days the market clock moves per calendar day on imported data. */
  readonly marketReplaySpeed: number;
  /** Analytics calls an account may make per minute (an address: four times as many). */
  readonly analyticsPerMinute: number;
  /** Sign-ups allowed per address per hour. */
  readonly signUpsPerHour: number;
  /** The largest request body the API reads. */
  readonly maxBodyBytes: number;
  /** The longest a request's analytics job may wait for a worker (below the app's timeout). */
  readonly analyticsMaxWaitMs: number;
  /** Analytics jobs (queued and running) an account may have at once on one instance. */
  readonly analyticsPerAccount: number;
}

export const LogLevel = Schema.Literals(["debug", "info", "warn", "error", "silent"]);
export type LogLevel = typeof LogLevel.Type;

const Port = Schema.NumberFromString.pipe(
  Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 65535 })),
);
const PositiveInt = Schema.NumberFromString.pipe(
  Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)),
);
const Flag = Schema.Literals(["true", "false"]);
const IsoDay = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/)));
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
  PUBLIC_URL: Schema.optional(HttpUrl),
  SMTP_URL: Schema.optional(Schema.String.pipe(Schema.check(Schema.isPattern(/^smtps?:\/\/\S+$/)))),
  MAIL_FROM: Schema.optional(Schema.String),
  RECAPTCHA_SECRET: Schema.optional(Schema.String),
  CAPTCHA_COST: Schema.optional(PositiveInt),
  CAPTCHA_MAX_COUNTER: Schema.optional(PositiveInt),
  SESSION_DAYS: Schema.optional(PositiveInt),
  POLICY_VERSION: Schema.optional(Schema.String),
  TRUST_PROXY: Schema.optional(Flag),
  SEED_DEMO_ACCOUNTS: Schema.optional(Flag),
  OUTBOX_PAGE: Schema.optional(Flag),
  NODE_ENV: Schema.optional(Schema.String),
  MARKET_DATA_DIR: Schema.optional(Schema.String),
  MARKET_AS_OF: Schema.optional(IsoDay),
  MARKET_UPDATE_HOUR_UTC: Schema.optional(
    Schema.NumberFromString.pipe(
      Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 23 })),
    ),
  ),
  SIMULATED_MARKET_END: Schema.optional(IsoDay),
  BILLING_WEBHOOK_SECRET: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMinLength(16)))),
  BILLING_JOB_INTERVAL_MS: Schema.optional(PositiveInt),
  SANDBOX_TEST_CLOCK: Schema.optional(Flag),
  RATE_LIMIT_ANALYTICS_PER_MINUTE: Schema.optional(PositiveInt),
  RATE_LIMIT_SIGNUPS_PER_HOUR: Schema.optional(PositiveInt),
  MAX_BODY_BYTES: Schema.optional(PositiveInt),
  ANALYTICS_MAX_WAIT_MS: Schema.optional(
    Schema.NumberFromString.pipe(
      Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: API_TIMEOUT_MS - 1 })),
    ),
  ),
  ANALYTICS_PER_ACCOUNT: Schema.optional(PositiveInt),
  MARKET_REPLAY_SPEED: Schema.optional(
    Schema.NumberFromString.pipe(Schema.check(Schema.isGreaterThan(0))),
  ),
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
  const port = parsed.PORT ?? 3000;
  const host = parsed.HOST ?? "127.0.0.1";
  const databaseUrl = parsed.DATABASE_URL ?? null;
  const smtpUrl = parsed.SMTP_URL ?? null;
  const flag = (value: "true" | "false" | undefined, fallback: boolean) =>
    value === undefined ? fallback : value === "true";
  const publicUrl = (
    parsed.PUBLIC_URL ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`
  ).replace(/\/$/, "");
  return {
    port,
    host,
    edition: parsed.EDITION ?? "ht",
    databaseUrl,
    dataDir: path.resolve(projectRoot, parsed.DATA_DIR ?? "data"),
    distDir: path.resolve(projectRoot, parsed.DIST_DIR ?? "dist"),
    apiBase: parsed.API_BASE ?? "/api",
    logLevel: parsed.LOG_LEVEL ?? "info",
    marketingScriptUrl: parsed.MARKETING_SCRIPT_URL ?? null,
    recaptchaSiteKey: parsed.RECAPTCHA_SITE_KEY ?? null,
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    publicUrl,
    smtpUrl,
    mailFrom: parsed.MAIL_FROM ?? "no-reply@localhost",
    recaptchaSecret: parsed.RECAPTCHA_SECRET ?? null,
    captchaCost: parsed.CAPTCHA_COST ?? 500,
    captchaMaxCounter: parsed.CAPTCHA_MAX_COUNTER ?? 1000,
    sessionDays: parsed.SESSION_DAYS ?? 7,
    policyVersion: parsed.POLICY_VERSION ?? "2026-01",
    trustProxy: flag(parsed.TRUST_PROXY, false),
    seedDemoAccounts: flag(parsed.SEED_DEMO_ACCOUNTS, databaseUrl === null),
    // The outbox shows recovery links: only where it cannot reach a stranger (OUTBOX_PAGE=false hides it).
    outboxPage:
      smtpUrl === null &&
      flag(parsed.OUTBOX_PAGE, true) &&
      outboxAllowed({ publicUrl, trustProxy: flag(parsed.TRUST_PROXY, false) }),
    marketDataDir: parsed.MARKET_DATA_DIR
      ? path.resolve(process.cwd(), parsed.MARKET_DATA_DIR)
      : null,
    marketAsOf: parsed.MARKET_AS_OF ?? null,
    marketUpdateHourUtc: parsed.MARKET_UPDATE_HOUR_UTC ?? 22,
    simulatedMarketEnd: parsed.SIMULATED_MARKET_END ?? "2026-11-20",
    billingWebhookSecret: parsed.BILLING_WEBHOOK_SECRET ?? null,
    billingJobIntervalMs: parsed.BILLING_JOB_INTERVAL_MS ?? 60_000,
    sandboxTestClock: flag(parsed.SANDBOX_TEST_CLOCK, false),
    marketReplaySpeed: parsed.MARKET_REPLAY_SPEED ?? 1,
    analyticsPerMinute: parsed.RATE_LIMIT_ANALYTICS_PER_MINUTE ?? 120,
    signUpsPerHour: parsed.RATE_LIMIT_SIGNUPS_PER_HOUR ?? 20,
    maxBodyBytes: parsed.MAX_BODY_BYTES ?? 256 * 1024,
    analyticsMaxWaitMs: parsed.ANALYTICS_MAX_WAIT_MS ?? POOL_DEFAULTS.maxWaitMs,
    analyticsPerAccount: parsed.ANALYTICS_PER_ACCOUNT ?? POOL_DEFAULTS.perAccount,
  };
}

/** A loopback host name or address: localhost, 127.0.0.0/8, ::1 (also IPv4-mapped, also in brackets). */
export function isLoopback(hostOrAddress: string | null | undefined): boolean {
  if (!hostOrAddress) return false;
  const h = hostOrAddress.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Whether the development outbox may exist on this server (PRODUCT.md, "Operating rules"): its
 * public URL is an http loopback one and no proxy is trusted (a proxy makes every visitor look
 * local to the socket, and an https public URL means a real deployment).
 */
export function outboxAllowed(config: Pick<ServerConfig, "publicUrl" | "trustProxy">): boolean {
  let url: URL;
  try {
    url = new URL(config.publicUrl);
  } catch {
    return false;
  }
  return url.protocol === "http:" && isLoopback(url.hostname) && !config.trustProxy;
}

/**
 * Why this server must not start, or null: without SMTP_URL emails (recovery links included) are
 * kept in the development outbox, which exists only on a loopback server trusting no proxy.
 */
export function mailDeliveryProblem(
  config: Pick<ServerConfig, "publicUrl" | "trustProxy" | "smtpUrl">,
): string | null {
  if (config.smtpUrl !== null || outboxAllowed(config)) return null;
  const reasons = [
    ...(new URL(config.publicUrl).protocol === "https:"
      ? [`PUBLIC_URL is https (${config.publicUrl})`]
      : []),
    ...(!isLoopback(new URL(config.publicUrl).hostname)
      ? [`PUBLIC_URL (${config.publicUrl}) is not a loopback address`]
      : []),
    ...(config.trustProxy ? ["TRUST_PROXY=true (a proxy is trusted)"] : []),
  ];
  return (
    `SMTP_URL is not set, and this server is not a local one: ${reasons.join("; ")}. ` +
    "Without a mail server emails, password-recovery links included, are kept in the development " +
    "outbox, which is served only to loopback clients of a server whose PUBLIC_URL is an http " +
    "loopback address and that trusts no proxy. Set SMTP_URL (docs/configuration.md)."
  );
}

/** The part of the configuration the browser may see. */
export function runtimeConfigOf(config: ServerConfig): RuntimeConfig {
  return {
    edition: config.edition,
    apiBase: config.apiBase,
    marketingScriptUrl: config.marketingScriptUrl,
    recaptchaSiteKey:
      config.recaptchaSiteKey && config.recaptchaSecret ? config.recaptchaSiteKey : null,
    outboxPage: config.outboxPage,
  };
}
