import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import pg from "pg";
import { vi } from "vitest";
import type { SignUpRequest } from "../../src/contract/accounts.ts";
import { powCheck, type BotCheck } from "../../src/server/accounts/captcha.ts";
import { createMailer, type Mailer } from "../../src/server/accounts/mailer.ts";
import type { AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig, type ServerConfig } from "../../src/server/config.ts";
import { openDatabase, type Database } from "../../src/server/db/database.ts";
import { createLogger } from "../../src/server/logger.ts";

/** The secret the tests' proof-of-work check signs its challenges with. */
export const TEST_CAPTCHA_SECRET = "accounts-test-secret";
/** A loopback public URL with no proxy trusted: the only kind of server with an outbox. */
export const PUBLIC_URL = "http://localhost:3000";

/** The real proof of work, made cheap: a challenge takes at most 50 PBKDF2 rounds of cost 1. */
export const cheapPowCheck = (database: Database, secret = TEST_CAPTCHA_SECRET): BotCheck =>
  powCheck({ db: database.db, secret, cost: 1, maxCounter: 50 });

export interface AccountsApp {
  readonly app: ReturnType<typeof createApp>;
  readonly config: ServerConfig;
  readonly database: Database;
  readonly mailer: Mailer;
  readonly botCheck: BotCheck;
}

/** The analytics worker pool: the accounts routes must not use it (any use fails the test). */
const unusedPool = new Proxy({} as AnalyticsPool, {
  get: (_target, key) => {
    throw new Error(`pool.${String(key)} must not be used by the accounts routes`);
  },
});

/** The modules an app is built from; imported afresh to play a new server process. */
async function appModules(fresh: boolean) {
  if (!fresh) return { createApp, loadConfig, createLogger, createMailer, powCheck };
  vi.resetModules();
  const [app, config, logger, mailer, captcha] = await Promise.all([
    import("../../src/server/app.ts"),
    import("../../src/server/config.ts"),
    import("../../src/server/logger.ts"),
    import("../../src/server/accounts/mailer.ts"),
    import("../../src/server/accounts/captcha.ts"),
  ]);
  return {
    createApp: app.createApp,
    loadConfig: config.loadConfig,
    createLogger: logger.createLogger,
    createMailer: mailer.createMailer,
    powCheck: captcha.powCheck,
  };
}

/**
 * The app with its real accounts dependencies: the outbox mailer and the proof-of-work bot check,
 * on a loopback server (its outbox is served to 127.0.0.1). Each test calls from network addresses
 * of its own (`apiAgent` plays the socket's peer). With `freshModules` every server module is
 * loaded again, so nothing kept in module memory survives: what a restarted process would see.
 * Sign-in delays are not waited for unless `sleep` says otherwise (pass one to record them).
 */
export async function buildAccountsApp(
  database: Database,
  env: Record<string, string> = {},
  options: {
    botCheck?: BotCheck;
    freshModules?: boolean;
    clock?: () => Date;
    sleep?: (ms: number) => Promise<void>;
  } = {},
): Promise<AccountsApp> {
  const m = await appModules(options.freshModules ?? false);
  const config = m.loadConfig({
    EDITION: "ht",
    PUBLIC_URL,
    ...env,
  });
  const logger = m.createLogger("silent");
  const mailer = await m.createMailer({
    smtpUrl: null,
    from: config.mailFrom,
    db: database.db,
    logger,
  });
  const botCheck =
    options.botCheck ??
    m.powCheck({ db: database.db, secret: TEST_CAPTCHA_SECRET, cost: 1, maxCounter: 50 });
  const app = m.createApp({
    config,
    database,
    logger,
    version: "0.0.0-test",
    mailer,
    botCheck,
    pool: unusedPool,
    sleep: options.sleep ?? (async () => {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return { app, config, database, mailer, botCheck };
}

export interface ApiAnswer<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

/** A fresh network address, so rate limits per address do not leak between tests. */
export const newAddress = (): string => `10.${[...randomBytes(3)].map((b) => String(b)).join(".")}`;

/**
 * The bindings @hono/node-server gives a request: here only the socket, whose peer is `address`
 * (what `getConnInfo` reads).
 */
export const socketFrom = (address: string) => ({
  incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: "IPv4" } },
});

export type ApiMethod = "GET" | "POST" | "PUT" | "DELETE";
export interface ApiCallOptions {
  /** Sent as JSON, with its Content-Type. */
  readonly body?: unknown;
  /** Sent as it is, with only the Content-Type `headers` give (none: fetch's text/plain). */
  readonly rawBody?: string;
  readonly token?: string;
  readonly headers?: Record<string, string>;
}

/**
 * Calls the API of `app` from one network address, optionally with a bearer token: the address is
 * the socket's peer, and also the X-Forwarded-For a trusted proxy would add. With `address` null
 * the call has neither (the server sees no address, as an in-process `app.request` gives it).
 * `request` answers the raw Response (files, headers, streams); `call` and its shorthands the JSON.
 */
export function apiAgent(app: AccountsApp["app"], address: string | null = newAddress()) {
  const request = (method: ApiMethod, url: string, options: ApiCallOptions = {}) => {
    const headers: Record<string, string> = {
      ...(address === null ? {} : { "X-Forwarded-For": address }),
      ...options.headers,
    };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
    return app.request(
      `/api${url}`,
      {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        ...(options.rawBody !== undefined ? { body: options.rawBody } : {}),
      },
      ...(address === null ? [] : [socketFrom(address)]),
    );
  };
  const call = async <T = any>(
    method: ApiMethod,
    url: string,
    options: ApiCallOptions = {},
  ): Promise<ApiAnswer<T>> => {
    const res = await request(method, url, options);
    const text = await res.text();
    return {
      status: res.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: res.headers,
    };
  };
  return {
    app,
    address,
    request,
    call,
    get: <T = any>(url: string, token?: string) =>
      call<T>("GET", url, token === undefined ? {} : { token }),
    post: <T = any>(url: string, body?: unknown, token?: string) =>
      call<T>("POST", url, { body, ...(token === undefined ? {} : { token }) }),
    put: <T = any>(url: string, body?: unknown, token?: string) =>
      call<T>("PUT", url, { body, ...(token === undefined ? {} : { token }) }),
  };
}
export type ApiAgent = ReturnType<typeof apiAgent>;

/** Solves a challenge as the browser's widget would, and encodes the payload it submits. */
export async function solveToken(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("the test challenge could not be solved");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

/** Fetches a challenge from the API (the widget's URL) and solves it. */
export async function captchaToken(agent: ApiAgent): Promise<string> {
  const res = await agent.get<Challenge>("/auth/captcha/pow");
  if (res.status !== 200) throw new Error(`no challenge: ${res.status}`);
  return solveToken(res.body);
}

export const uniqueEmail = (prefix = "user"): string =>
  `${prefix}-${randomBytes(5).toString("hex")}@example.test`;

export const STRONG_PASSWORD = "Correct-Horse-42";

/** A valid sign-up form (without its captcha token). */
export function signUpForm(
  overrides: Partial<Record<keyof SignUpRequest, unknown>> = {},
): Record<string, unknown> {
  return {
    name: "Ada",
    surname: "Lovelace",
    email: uniqueEmail(),
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
    countryId: "ES",
    newsletter: false,
    policies: true,
    language: "en",
    ...overrides,
  };
}

/** Registers with a freshly solved captcha. */
export async function register(agent: ApiAgent, form: Record<string, unknown>, query = "") {
  const recaptchaToken = await captchaToken(agent);
  return agent.post(`/auth/register${query}`, { ...form, recaptchaToken });
}

export interface OutboxEmail {
  readonly id: number;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly createdAt: string;
}

/** The development outbox (read from this machine, as only loopback clients may): every email kept, newest first. */
export async function outbox(agent: ApiAgent): Promise<OutboxEmail[]> {
  const res = await apiAgent(agent.app, "127.0.0.1").get<OutboxEmail[]>("/dev/outbox");
  if (res.status !== 200) throw new Error(`outbox answered ${res.status}`);
  return res.body;
}

export async function emailsTo(agent: ApiAgent, to: string): Promise<OutboxEmail[]> {
  return (await outbox(agent)).filter((m) => m.to.toLowerCase() === to.toLowerCase());
}

/** The one link of an email. */
export function linkOf(email: OutboxEmail): URL {
  const links = email.text.match(/https?:\/\/\S+/g) ?? [];
  if (links.length !== 1) throw new Error(`expected one link in: ${email.text}`);
  return new URL(links[0]!);
}

/** Registers, follows the confirmation link, and answers the signed-in session. */
export async function registerAndConfirm(
  agent: ApiAgent,
  overrides: Partial<Record<keyof SignUpRequest, unknown>> = {},
) {
  const form = signUpForm(overrides);
  const res = await register(agent, form);
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  const [mail] = await emailsTo(agent, form.email as string);
  if (!mail) throw new Error("no confirmation email");
  const link = linkOf(mail);
  const confirmed = await agent.put<{ token: string; expiry: string }>("/auth/confirm-email", {
    email: link.searchParams.get("email"),
    token: link.searchParams.get("token"),
  });
  if (confirmed.status !== 200) throw new Error(`confirm-email answered ${confirmed.status}`);
  return {
    email: form.email as string,
    password: form.password as string,
    token: confirmed.body.token,
  };
}

/** A database that can be closed and opened again with its data: a PGlite folder or a PostgreSQL database. */
export interface RestartableDatabase {
  open(): Promise<Database>;
  destroy(): Promise<void>;
}

export interface RestartableTarget {
  readonly name: "pglite" | "postgres";
  create(): Promise<RestartableDatabase>;
}

const pgliteOnDisk: RestartableTarget = {
  name: "pglite",
  async create() {
    const dir = await mkdtemp(path.join(tmpdir(), "accounts-restart-"));
    return {
      async open() {
        const database = await openDatabase({ url: null, pgliteDir: path.join(dir, "db") });
        await database.migrate();
        return database;
      },
      destroy: () => rm(dir, { recursive: true, force: true }),
    };
  },
};

function postgresDatabase(url: string): RestartableTarget {
  return {
    name: "postgres",
    async create() {
      const name = `test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      return {
        async open() {
          const database = await openDatabase({ url: dbUrl.toString(), pgliteDir: "" });
          await database.migrate();
          return database;
        },
        async destroy() {
          const cleanup = new pg.Client({ connectionString: url });
          await cleanup.connect();
          // Only this test's own database, whose connections this test opened.
          await cleanup.query(`drop database if exists ${name} with (force)`);
          await cleanup.end();
        },
      };
    },
  };
}

/** The same targets as `databaseTargets`, for tests that restart the server on the same data. */
export const restartableTargets: readonly RestartableTarget[] = [
  pgliteOnDisk,
  ...(process.env.TEST_DATABASE_URL ? [postgresDatabase(process.env.TEST_DATABASE_URL)] : []),
];
