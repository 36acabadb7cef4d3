// Named prepared statements for the embedded database (src/server/db/pglite-statements.ts): the
// same answers as PGlite's own `query`, each text parsed once, errors as PGlite reports them, and
// never a statement run inside somebody else's transaction.
import type { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { namedStatements } from "../../src/server/db/pglite-statements.ts";
import { emptyPglite } from "../support/databases.ts";

describe("named statements on the embedded database", () => {
  let client: PGlite;
  let named: ReturnType<typeof namedStatements>;
  /** Protocol calls into the database, counted. */
  let calls: number;
  beforeEach(async () => {
    client = await emptyPglite();
    await client.exec(`create table t (id int primary key, name text, big bigint, price numeric,
      ok boolean, doc jsonb, tags text[], at timestamptz, day date)`);
    named = namedStatements(client);
    calls = 0;
    const execProtocol = client.execProtocol.bind(client);
    client.execProtocol = ((...args: Parameters<PGlite["execProtocol"]>) => {
      calls++;
      return execProtocol(...args);
    }) as PGlite["execProtocol"];
  });
  afterEach(async () => {
    await client.close();
  });

  const ours = async () =>
    (
      await client.query<{ n: number }>(
        "select count(*)::int as n from pg_prepared_statements where name like 'pglite_s%'",
      )
    ).rows[0]!.n;

  it("answers exactly as PGlite's query does", async () => {
    const insert = `insert into t (id, name, big, price, ok, doc, tags, at, day)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
    const values = [
      [
        1,
        "Ana",
        9007199254740993n,
        "12.50",
        true,
        { a: [1, 2] },
        ["x", "y,z"],
        new Date("2026-11-25T10:00:00Z"),
        "2026-11-25",
      ],
      [2, null, null, null, false, null, [], null, null],
    ] as const;
    for (const row of values) {
      const theirs = await client.query(insert.replace("t (", "t ("), [...row]);
      await client.query("delete from t");
      expect(await named(insert, [...row])).toEqual(theirs);
    }
    for (const text of [
      "select * from t order by id",
      "select id, name from t where id = $1",
      "update t set name = $1 where id = $2 returning id, name",
      "delete from t where id = $1",
      "select 1 where false",
    ]) {
      const params = text.includes("$2") ? ["Eva", 1] : text.includes("$1") ? [1] : [];
      for (const rowMode of ["object", "array"] as const) {
        await client.exec("begin");
        const theirs = await client.query(text, params, { rowMode });
        await client.exec("rollback");
        expect(await named(text, params, { rowMode })).toEqual(theirs);
        // Changes are undone, so both saw the same table.
        if (!text.startsWith("select")) {
          await client.exec("delete from t");
          for (const row of values) await named(insert, [...row]);
        }
      }
    }
    // A statement without rows and a definition.
    expect(await named("create table u (id int)")).toEqual({
      rows: [],
      fields: [],
      command: "CREATE",
      affectedRows: 0,
    });
    // Custom parsers as PGlite takes them: over the client's own, for this query only.
    const custom = { 23: (v: string) => `int:${v}` };
    expect((await named("select 7 as n", [], { parsers: custom })).rows).toEqual([{ n: "int:7" }]);
    expect((await named("select 7 as n")).rows).toEqual([{ n: 7 }]);
  });

  it("parses a text once, then runs it in one call", async () => {
    const text = "select name from t where id = $1";
    await named(text, [1]);
    expect(calls).toBe(2); // parse and describe; run
    await named(text, [2]);
    await named(text, [3]);
    expect(calls).toBe(4);
    expect(await ours()).toBe(1);
  });

  it("reports errors as PGlite does and keeps working", async () => {
    const insert = "insert into t (id) values ($1)";
    await named(insert, [1]);
    const duplicate = await named(insert, [1]).catch((e: unknown) => e);
    expect(duplicate).toMatchObject({ code: "23505", query: insert, params: [1] });
    const syntax = await named("selec 1").catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: "42601", query: "selec 1" });
    expect((await named("select count(*)::int as n from t")).rows).toEqual([{ n: 1 }]);
    await named(insert, [2]);
    expect((await named("select count(*)::int as n from t")).rows).toEqual([{ n: 2 }]);
  });

  it("waits for a transaction to end instead of running inside it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedRow = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query("insert into t (id) values (1)");
      inserted();
      await gate;
      await tx.rollback();
    });
    // The transaction has begun and holds its row.
    await insertedRow;
    let answered = false;
    const count = named("select count(*)::int as n from t").then((r) => {
      answered = true;
      return r.rows;
    });
    // Absence can only be watched for a while: 50 ms, ample for PGlite to answer a count.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    await transaction.catch(() => {});
    // Had it run inside the transaction, it would have counted the row rolled back.
    expect(await count).toEqual([{ n: 0 }]);
  });

  it("keeps at most its cap of statements, closing the least recently used", async () => {
    const capped = namedStatements(client, 3);
    for (let i = 1; i <= 5; i++) await capped(`select ${i} as n`);
    expect(await ours()).toBe(3);
    expect((await capped("select 1 as n")).rows).toEqual([{ n: 1 }]);
    expect(await ours()).toBe(3);
  });

  it("parses a statement again when the table it reads changed shape", async () => {
    await named("insert into t (id, name) values (1, 'Ana')");
    const text = "select * from t";
    expect(Object.keys((await named(text)).rows[0] as object)).toHaveLength(9);
    await client.exec("alter table t add column extra int default 5");
    const rows = (await named(text)).rows as { extra: number }[];
    expect(rows[0]!.extra).toBe(5);
    expect(await ours()).toBe(2); // the insert and the new select; the stale one was closed
  });
});
