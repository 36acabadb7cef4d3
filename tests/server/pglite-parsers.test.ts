// The embedded database's client as drizzle sees it (src/server/db/pglite-parsers.ts): drizzle's
// queries reach PGlite without their per-query type parsers (PGlite copies its 300-odd parsers for
// each query that brings some), and every value reads exactly as through drizzle's own parsers.
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { date, integer, interval, pgTable, timestamp } from "drizzle-orm/pg-core";
import type { QueryOptions } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sharingDrizzleParsers } from "../../src/server/db/pglite-parsers.ts";
import { emptyPglite } from "../support/databases.ts";

const moments = pgTable("moments", {
  id: integer("id").primaryKey(),
  at: timestamp("at", { withTimezone: true }).notNull(),
  localAt: timestamp("local_at").notNull(),
  day: date("day").notNull(),
  span: interval("span").notNull(),
});

const create = sql`create table moments (id int primary key, at timestamptz not null,
  local_at timestamp not null, day date not null, span interval not null)`;
const row = {
  id: 1,
  at: new Date("2026-11-25T10:15:30.123Z"),
  localAt: new Date("2026-03-29T01:30:00Z"),
  day: "2026-02-28",
  span: "1 day 02:03:04",
};
const read = sql`select at, local_at, day, span, array[day, day + 1] as days,
  array[at] as ats, array[span] as spans from moments`;

describe("the embedded database's client as drizzle sees it", () => {
  let client: PGlite;
  let calls: { parsers: unknown }[];
  beforeEach(async () => {
    client = await emptyPglite();
    // Every query PGlite receives, with the parsers it was given.
    calls = [];
    const spy = <T extends { query: PGlite["query"] }>(target: T) => {
      const query = target.query.bind(target);
      target.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
        calls.push({ parsers: options?.parsers });
        return query(text, params, options);
      }) as PGlite["query"];
    };
    spy(client);
    const transaction = client.transaction.bind(client);
    client.transaction = ((
      callback: (tx: Parameters<Parameters<PGlite["transaction"]>[0]>[0]) => Promise<unknown>,
    ) =>
      transaction((tx) => {
        spy(tx);
        return callback(tx);
      })) as PGlite["transaction"];
  });
  afterEach(async () => {
    await client.close();
  });

  it("reads every value as drizzle's own parsers do, with none sent per query", async () => {
    // drizzle on the bare client: its parsers go with every query.
    const plain = drizzle({ client });
    await plain.execute(create);
    await plain.insert(moments).values(row);
    const expectedRows = await plain.select().from(moments);
    const expectedRaw = (await plain.execute(read)).rows;
    expect(calls.every((c) => c.parsers !== undefined)).toBe(true);
    expect(expectedRows[0]!.at.toISOString()).toBe("2026-11-25T10:15:30.123Z");
    expect(expectedRaw[0]!.days).toBe("{2026-02-28,2026-03-01}");

    // The same through the shared parsers: the same values, and no query brings its own (outside
    // transactions they do not go through PGlite's `query` at all: pglite-statements.test.ts).
    const shared = drizzle({ client: sharingDrizzleParsers(client) });
    calls = [];
    expect(await shared.select().from(moments)).toEqual(expectedRows);
    expect((await shared.execute(read)).rows).toEqual(expectedRaw);
    const prepared = shared
      .select()
      .from(moments)
      .where(sql`${moments.id} = ${sql.placeholder("id")}`)
      .prepare("moment_by_id");
    expect(await prepared.execute({ id: 1 })).toEqual(expectedRows);
    expect(calls).toEqual([]);
  });

  it("does the same inside transactions, nested ones included", async () => {
    const shared = drizzle({ client: sharingDrizzleParsers(client) });
    await shared.execute(create);
    calls = [];
    const inside = await shared.transaction(async (tx) => {
      await tx.insert(moments).values(row);
      return tx.transaction(async (nested) => nested.select().from(moments));
    });
    expect(inside[0]!.localAt).toEqual(row.localAt);
    expect(inside[0]!.at).toEqual(row.at);
    expect(inside[0]!.span).toBe("1 day 02:03:04");
    // The insert, the savepoint and its release, and the select (begin and commit are PGlite's).
    expect(calls.length).toBeGreaterThanOrEqual(4);
    expect(calls.every((c) => c.parsers === undefined)).toBe(true);
  });

  it("passes other parsers on unchanged", async () => {
    const shared = sharingDrizzleParsers(client);
    const custom = { 23: (v: string) => `int:${v}` };
    const result = await shared.query<{ n: string }>("select 7 as n", [], { parsers: custom });
    expect(result.rows[0]!.n).toBe("int:7");
    // Inside a transaction, through PGlite's `query`, as they were given.
    await shared.transaction(async (tx) => {
      const inside = await tx.query<{ n: string }>("select 8 as n", [], { parsers: custom });
      expect(inside.rows[0]!.n).toBe("int:8");
    });
    expect(calls.at(-1)!.parsers).toBe(custom);
    // The client's own are left as they were.
    expect((await shared.query<{ n: number }>("select 9 as n")).rows[0]!.n).toBe(9);
  });

  it("makes each method's wrapper once, and follows a method that is replaced", async () => {
    const shared = sharingDrizzleParsers(client);
    expect(shared.query).toBe(shared.query);
    expect(shared.transaction).toBe(shared.transaction);
    expect(shared.exec).toBe(shared.exec);
    const before = shared.exec;
    const seen: string[] = [];
    const exec = client.exec.bind(client);
    client.exec = ((text: string, ...rest: []) => {
      seen.push(text);
      return exec(text, ...rest);
    }) as PGlite["exec"];
    expect(shared.exec).not.toBe(before);
    await shared.exec("select 1");
    expect(seen).toEqual(["select 1"]);
  });
});
