// Property-based bad input for every endpoint of the contract that takes a body: valid bodies are
// drawn from the contract's own schemas (Effect's Schema arbitraries), then broken by fast-check
// (a field dropped, retyped, out of range, too long, an unknown enum, extra nesting, a body that is
// not JSON or not an object). For each broken body that the schema refuses, the API must answer
// 4xx (never 5xx, never 2xx), and nothing may be stored: the row counts of every table that holds
// user data stay as they were. Thousands of requests per run, on each database.
// Then text no column can hold (a NUL character, half a surrogate pair) in every string field and
// key of valid bodies, valid bodies as the contract's arbitraries draw them (ids at the top of
// their range, the last day of a month), path parameters and query strings (repeated parameters,
// ids beyond 2^31 - 1, NULs, broken escapes): never a 5xx.
import { Arbitrary, Effect, Schema } from "effect";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import { endpoints, type ContractSchema } from "../../src/contract/endpoints.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { resultRows, type Database } from "../../src/server/db/database.ts";
import { createLogger } from "../../src/server/logger.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";

/** Requests per endpoint and database (CI runs every endpoint with a body: thousands in all). */
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 120);
/** Path and query requests per endpoint and database. */
const URL_RUNS = Number(process.env.BAD_INPUT_URL_RUNS ?? 30);

/** Tables whose rows a refused request must never add, change or remove. */
const TABLES = [
  "clients",
  "sessions",
  "email_tokens",
  "outbox",
  "subscriptions",
  "subscription_changes",
  "invoice_info",
  "portfolios",
  "portfolio_assets",
  "payments",
  "invoices",
  "refunds",
  "billing_events",
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** One way of breaking a value at a path. */
const breakage = fc.oneof(
  fc.constant({ kind: "drop" as const }),
  fc.constant({ kind: "null" as const }),
  fc.record({ kind: fc.constant("replace" as const), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.constant({ kind: "long-string" as const }),
  fc.constantFrom(
    { kind: "number" as const, value: -1 },
    { kind: "number" as const, value: 1e12 },
    { kind: "number" as const, value: 0.5 },
    { kind: "number" as const, value: -1e-9 },
  ),
  fc.constant({ kind: "wrap-array" as const }),
);

type Breakage = typeof breakage extends fc.Arbitrary<infer B> ? B : never;

function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = at.length ? [at] : [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

function broken(base: Json, path: (string | number)[], how: Breakage): Json {
  const copy = structuredClone(base);
  if (path.length === 0) return copy;
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path.at(-1)!;
  const current = parent[last];
  switch (how.kind) {
    case "drop":
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      break;
    case "null":
      parent[last] = null;
      break;
    case "replace":
      parent[last] = how.value;
      break;
    case "long-string":
      parent[last] = "x".repeat(5000);
      break;
    case "number":
      parent[last] = how.value;
      break;
    case "wrap-array":
      parent[last] = [current, current];
      break;
  }
  return copy;
}

/** Every path of a value that holds a string, and every object key, with where it is. */
function stringPaths(
  value: Json,
  at: (string | number)[] = [],
): { at: (string | number)[]; key: boolean }[] {
  if (typeof value === "string") return [{ at, key: false }];
  const out: { at: (string | number)[]; key: boolean }[] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...stringPaths(v, [...at, i])));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push({ at: [...at, k], key: true }, ...stringPaths(v, [...at, k]));
    }
  return out;
}

/** Text no column can hold, put into a string (or a key) of a body. */
const UNSTORABLE = ["\u0000", "a\u0000b", "\ud800", "x\udc00"];

function withUnstorable(base: Json, at: (string | number)[], key: boolean, bad: string): Json {
  const copy = structuredClone(base);
  if (at.length === 0) return bad;
  let parent: any = copy;
  for (const k of at.slice(0, -1)) parent = parent[k];
  const last = at.at(-1)!;
  if (key) {
    parent[`${String(last)}${bad}`] = parent[last];
    delete parent[last];
  } else parent[last] = `${String(parent[last]).slice(0, 3)}${bad}${String(parent[last]).slice(3)}`;
  return copy;
}

/** The endpoints that take a body, with a path whose parameters are filled. */
const withBody = Object.entries(endpoints).filter(
  ([name, e]) => e.body !== undefined && name !== "outbox",
) as [string, { method: string; path: string; body: ContractSchema }][];

async function validSamples(schema: ContractSchema, seed: number): Promise<Json[]> {
  try {
    const values = await Effect.runPromise(
      Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 8, seed, maxDiscards: 2000 }),
    );
    // Through JSON, as a request carries it (an optional field left undefined is no key at all).
    return values.map((v) => JSON.parse(JSON.stringify(Schema.encodeSync(schema)(v))) as Json);
  } catch {
    // A schema whose values the sampler cannot draw: broken bodies still come from random JSON.
    return [{}];
  }
}

describe.each(databaseTargets)("bad input on every endpoint, on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  let app: ReturnType<typeof createApp>;
  let token: string;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(
      database.db,
      simulatedDataset({ end: "2026-11-20", days: 400 }),
      "simulated",
    );
    pool = createAnalyticsPool(2);
    app = createApp({
      // Limits are lifted: this test is about validation, tests/server/rate-limits.test.ts about limits.
      config: loadConfig({
        RATE_LIMIT_ANALYTICS_PER_MINUTE: "1000000",
        RATE_LIMIT_SIGNUPS_PER_HOUR: "1000000",
      }),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => true },
      pool,
    });
    token = (await signedInClient(database, { simAssets: "advanced" })).token;
  });
  afterAll(async () => {
    await pool.close();
    await drop();
  });

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES)
      out[table] = Number(
        resultRows(
          await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`)),
        )[0]!.n,
      );
    return out;
  };

  const send = async (method: string, path: string, body?: string) => {
    const res = await app.request(`/api${path.replace(":id", "1")}`, {
      method,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body }),
    });
    return res.status;
  };

  it(`answers 4xx to broken bodies (${withBody.length} endpoints x ${RUNS} requests) and stores nothing`, async () => {
    const before = await counts();
    let tried = 0;
    let refused = 0;
    const statuses = new Map<number, number>();
    const perEndpoint: Record<string, number> = {};
    for (const [index, [name, e]] of withBody.entries()) {
      const bases = await validSamples(e.body, 1000 + index);
      const input = fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .record({ base: fc.constantFrom(...bases), pick: fc.nat(), how: breakage })
            .map(({ base, pick, how }) => {
              const all = paths(base);
              return JSON.stringify(
                all.length
                  ? broken(base, all[pick % all.length]!, how)
                  : how.kind === "replace"
                    ? how.value
                    : null,
              );
            }),
        },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
      );
      await fc.assert(
        fc.asyncProperty(input, async (body) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            parsed = Symbol("not JSON");
          }
          // Only bodies the contract refuses are the subject here.
          if (typeof parsed !== "symbol" && decode(e.body, parsed).ok) return true;
          tried++;
          perEndpoint[name] = (perEndpoint[name] ?? 0) + 1;
          const status = await send(e.method, e.path, body);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 400 && status < 500) refused++;
          if (status >= 500 || status < 400)
            throw new Error(`${name}: ${status} for ${body.slice(0, 300)}`);
          return true;
        }),
        { numRuns: RUNS, seed: 20261124 + index },
      );
    }
    expect(await counts()).toEqual(before);
    expect(refused).toBe(tried);
    // Most of what was tried is refused by validation itself (400).
    expect(statuses.get(400) ?? 0).toBeGreaterThan(tried / 2);
    console.info(
      `bad input on ${target.name}: ${tried} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}; per endpoint ${JSON.stringify(perEndpoint)}`,
    );
    // About 3,000 requests: the same budget as the other sweeps of this file (a busy 2-core host
    // took more than the default 20 s).
  }, 60_000);

  it("refuses random bodies at the provider's events endpoint (400), applying nothing", async () => {
    const before = await counts();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (v) => {
        const res = await app.request("/api/billing/events", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "sandbox-signature": `t=1,v1=${"a".repeat(64)}`,
          },
          body: JSON.stringify(v),
        });
        return res.status === 400;
      }),
      { numRuns: RUNS, seed: 7 },
    );
    expect(await counts()).toEqual(before);
  });

  it("refuses a NUL character or broken Unicode in every string field and key (400), storing nothing", async () => {
    const before = await counts();
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const [index, [name, e]] of withBody.entries()) {
      const bases = (await validSamples(e.body, 2000 + index)).slice(0, 3);
      for (const [b, base] of bases.entries()) {
        for (const [i, { at, key }] of stringPaths(base).entries()) {
          const bad = UNSTORABLE[(b + i) % UNSTORABLE.length]!;
          const body = JSON.stringify(withUnstorable(base, at, key, bad));
          const status = await send(e.method, e.path, body);
          sent++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          // 400 INVALID_CHARACTERS; a 404 when the path names no portfolio (checked before the body).
          if (status !== 400 && status !== 404)
            throw new Error(
              `${name}: ${status} for ${JSON.stringify(bad)} at ${at.join(".")} (key: ${key}) in ${body.slice(0, 3000)}`,
            );
        }
      }
    }
    expect(await counts()).toEqual(before);
    expect(sent).toBeGreaterThan(withBody.length);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(sent * 0.8);
    console.info(
      `unstorable text on ${target.name}: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 60_000);

  it("answers valid bodies drawn from the contract without a 5xx (edges of ranges, last days of months)", async () => {
    // The engine's calls are left out: their inputs are numbers and symbols, and a drawn body can
    // ask for minutes of computation; tests/server/analytics*.test.ts cover them.
    const cheap = withBody.filter(([, e]) => !/^\/(analytics|portfolios\/propose)/.test(e.path));
    let sent = 0;
    for (const [index, [name, e]] of cheap.entries()) {
      for (const base of await validSamples(e.body, 3000 + index)) {
        const status = await send(e.method, e.path, JSON.stringify(base));
        sent++;
        if (status >= 500)
          throw new Error(`${name}: ${status} for ${JSON.stringify(base).slice(0, 300)}`);
      }
    }
    console.info(`valid bodies on ${target.name}: ${sent} requests, no 5xx`);
  }, 60_000);

  it("answers path parameters of every kind without a 5xx: ids beyond the column are 404", async () => {
    const withParams = Object.entries(endpoints).filter(
      ([name, e]) => e.path.includes("/:") && name !== "outbox",
    );
    const extra = [
      ["billingPayment", "GET", "/billing/payments/:id"],
      ["invoicePdf", "GET", "/billing/invoices/:id/pdf"],
      ["videoFile", "GET", "/videotutorials/files/:id"],
    ] as const;
    const targets = [
      ...withParams.map(([name, e]) => [name, e.method, `/api${e.path}`] as const),
      ...extra.map(([name, method, path]) => [name, method, `/api${path}`] as const),
      // Outside the API: the sandbox provider's pages (the app's pages need a build, see below).
      ["sandboxCheckout", "GET", "/sandbox/checkout/:id"],
      ["sandboxPay", "POST", "/sandbox/checkout/:id"],
      ["sandboxChallenge", "GET", "/sandbox/challenge/:id"],
    ] as const;
    const segment = fc.oneof(
      fc.constantFrom(
        "2147483647",
        "2147483648",
        "4294967296",
        "9999999999",
        "99999999999999999999",
        "-1",
        "0",
        "01",
        "1e3",
        "1.5",
        "%00",
        "1%00",
        "%E0%A4%A",
        "%ED%A0%80",
        "%25",
        "pay_%00aaaaaaaaaaa",
        "2026-000001",
        "a".repeat(300),
      ),
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
      fc.nat().map(String),
      fc.bigInt({ min: 2n ** 31n, max: 2n ** 70n }).map(String),
    );
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const [index, [name, method, path]] of targets.entries()) {
      await fc.assert(
        fc.asyncProperty(segment, async (value) => {
          // An empty or dot segment names another path: outside the API, an app page, which an
          // unbuilt app answers 503 (the seeds are per target, so a new endpoint can draw one).
          fc.pre(path.startsWith("/api") || !["", ".", ".."].includes(value));
          const url = path.replace(/:[a-z]+/, value);
          const res = await app.request(url, {
            method,
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
            ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }),
          });
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) throw new Error(`${name}: ${res.status} for ${url}`);
          return true;
        }),
        { numRuns: URL_RUNS, seed: 4000 + index },
      );
    }
    // A NUL in any path names nothing, before any route (pages and files included).
    for (const path of [
      "/en/%00",
      "/assets/a%00.js",
      "/sandbox/checkout/%00",
      "/api/portfolios/1%00",
    ])
      expect((await app.request(path)).status, path).toBe(404);
    for (const id of ["2147483648", "99999999999"]) {
      const res = await app.request(`/api/portfolios/${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ msgCode: "NOT_FOUND" });
    }
    console.info(
      `path parameters on ${target.name}: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 60_000);

  it("answers any query string without a 5xx: a repeated parameter or a NUL is a 400", async () => {
    const names = [
      "lang",
      "ctx",
      "stc",
      "region",
      "page",
      "q",
      "product",
      "exchange",
      "assetClass",
      "includeStale",
      "range",
      "currency",
      "level",
      "section",
      "term",
      "id",
    ];
    const value = fc.oneof(
      fc.constantFrom(
        "en",
        "es",
        "ht",
        "tt",
        "simAssets",
        "simMonk",
        "eu",
        "usa",
        "1",
        "2147483648",
        "99999999999999",
        "true",
        "1y",
        "EUR",
        "%00",
        "a%00b",
        "%ED%A0%80",
        "%E0%A4%A",
        "",
      ),
      fc.string({ maxLength: 30 }).map(encodeURIComponent),
    );
    const query = fc.array(fc.tuple(fc.constantFrom(...names), value), {
      minLength: 1,
      maxLength: 5,
    });
    const gets = Object.entries(endpoints).filter(
      ([name, e]) => e.method === "GET" && name !== "outbox",
    );
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const [index, [name, e]] of gets.entries()) {
      await fc.assert(
        fc.asyncProperty(query, async (pairs) => {
          const qs = pairs.map(([k, v]) => `${k}=${v}`).join("&");
          const res = await app.request(`/api${e.path.replace(/:[a-z]+/, "1")}?${qs}`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) throw new Error(`${name}: ${res.status} for ?${qs}`);
          const keys = pairs.map(([k]) => k);
          if (new Set(keys).size < keys.length) {
            expect(res.status).toBe(400);
            expect(((await res.json()) as { msgCode: string }).msgCode).toBe("DUPLICATE_PARAMETER");
          } else if (pairs.some(([, v]) => v.includes("%00"))) {
            expect(res.status).toBe(400);
            expect(((await res.json()) as { msgCode: string }).msgCode).toBe("INVALID_CHARACTERS");
          }
          return true;
        }),
        { numRuns: URL_RUNS, seed: 5000 + index },
      );
    }
    console.info(
      `query strings on ${target.name}: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 60_000);

  it("refuses an impossible date in the profile (400) and keeps the profile", async () => {
    for (const birthDate of [
      "2023-02-30",
      "2023-13-01",
      "2023-04-31",
      "0000-01-01",
      "2023-02-29",
    ]) {
      const res = await app.request("/api/client", {
        method: "PUT",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          name: "Test",
          surname: "Client",
          phone: null,
          telephone: null,
          countryId: "ES",
          newsletter: false,
          language: "en",
          birthDate,
          tin: null,
          postalCode: null,
          city: null,
          address: null,
          profession: null,
        }),
      });
      expect(res.status, birthDate).toBe(400);
      expect(((await res.json()) as { issues: { path: string }[] }).issues[0]!.path).toBe(
        "birthDate",
      );
    }
  });
});
