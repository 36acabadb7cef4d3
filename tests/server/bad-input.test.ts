// Property-based bad input for every endpoint of the contract that takes a body: valid bodies are
// drawn from the contract's own schemas (Effect's Schema arbitraries), then broken by fast-check
// (a field dropped, retyped, out of range, too long, an unknown enum, extra nesting, a body that is
// not JSON or not an object). For each broken body that the schema refuses, the API must answer
// 4xx (never 5xx, never 2xx), and nothing may be stored: the row counts of every table that holds
// user data stay as they were. Thousands of requests per run, on each database.
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

/** The endpoints that take a body, with a path whose parameters are filled. */
const withBody = Object.entries(endpoints).filter(
  ([name, e]) => e.body !== undefined && name !== "outbox",
) as [string, { method: string; path: string; body: ContractSchema }][];

async function validSamples(schema: ContractSchema, seed: number): Promise<Json[]> {
  try {
    const values = await Effect.runPromise(
      Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 8, seed, maxDiscards: 2000 }),
    );
    return values.map((v) => Schema.encodeSync(schema)(v) as Json);
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

  const send = async (method: string, path: string, body: string) => {
    const res = await app.request(`/api${path.replace(":id", "1")}`, {
      method,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body,
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
  });

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
});
