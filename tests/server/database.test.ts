import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readMeta, recordInstallation } from "../../src/server/db/app-meta.ts";
import {
  appliedMigrations,
  migrationsFolder,
  openDatabase,
  type Database,
} from "../../src/server/db/database.ts";
import { databaseTargets } from "../support/databases.ts";

/** How many migrations the repository ships (drizzle's journal). */
const shippedMigrations = (
  JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  }
).entries.length;

describe.each(databaseTargets)("database on $name", (target) => {
  // A fresh, migrated database per test, opened in a hook (longer timeout than a test): a cold
  // PGlite start can take seconds on a busy machine.
  let database: Database;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    ({ database, drop } = await target.open());
  });
  afterEach(async () => {
    vi.useRealTimers();
    await drop();
  });

  it("applies every shipped migration", async () => {
    const { db } = database;
    expect(shippedMigrations).toBeGreaterThanOrEqual(1);
    expect(await appliedMigrations(db)).toBe(shippedMigrations);
  });

  it("is unchanged by migrating again, twice, and keeps the data", async () => {
    // The database is already migrated once (target.open).
    await recordInstallation(database.db);
    const installedAt = await readMeta(database.db, "installed_at");
    expect(installedAt).not.toBeNull();

    await database.migrate();
    await database.migrate();

    expect(await appliedMigrations(database.db)).toBe(shippedMigrations);
    expect(await readMeta(database.db, "installed_at")).toBe(installedAt);
  });

  it("records the installation time once and keeps the first one", async () => {
    const { db } = database;
    vi.useFakeTimers({ toFake: ["Date"] });

    vi.setSystemTime(new Date("2026-01-02T03:04:05.000Z"));
    await recordInstallation(db);
    vi.setSystemTime(new Date("2026-06-07T08:09:10.000Z"));
    await recordInstallation(db);

    expect(await readMeta(db, "installed_at")).toBe("2026-01-02T03:04:05.000Z");
  });

  it("reads null for a key that was never written", async () => {
    const { db } = database;
    expect(await readMeta(db, "installed_at")).toBeNull();
    expect(await readMeta(db, "no-such-key")).toBeNull();
  });

  it("answers a trivial query", async () => {
    const { db } = database;
    await expect(db.execute(sql`select 1`)).resolves.toBeDefined();
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  console.info(
    "database.test.ts: TEST_DATABASE_URL is not set; the parallel-migration (advisory lock) test is skipped.",
  );
}

describe.skipIf(!postgresUrl)("parallel starts on PostgreSQL", () => {
  async function withFreshDatabase(run: (url: string) => Promise<void>) {
    const name = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      await run(url.toString());
    } finally {
      // pool.end() resolves before its connections are closed; dropping with force while they
      // close makes their clients emit an unhandled error, so wait for them first.
      for (let i = 0; i < 100; i++) {
        const { rows } = await admin.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = $1",
          [name],
        );
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }

  it.each([1, 2, 3])(
    "two instances migrating a fresh database at once both succeed (round %i)",
    async () => {
      await withFreshDatabase(async (url) => {
        const a = await openDatabase({ url, pgliteDir: "" });
        const b = await openDatabase({ url, pgliteDir: "" });
        try {
          const results = await Promise.allSettled([a.migrate(), b.migrate()]);
          expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual([
            "ok",
            "ok",
          ]);
          expect(await appliedMigrations(a.db)).toBe(shippedMigrations);
          await recordInstallation(b.db);
          expect(await readMeta(a.db, "installed_at")).not.toBeNull();
        } finally {
          await a.close();
          await b.close();
        }
      });
    },
  );
});
