import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, openPgliteCopy, type Database } from "../../src/server/db/database.ts";

export interface TestDatabaseTarget {
  readonly name: "pglite" | "postgres";
  /** Opens a fresh, migrated database (a copy of the run's template); `drop` removes it afterwards. */
  open(): Promise<{ database: Database; drop: () => Promise<void> }>;
}

/** The templates' data folders (tests/global-setup.ts), each read once per test file. */
const templates = new Map<"pgliteTemplate" | "pgliteEmptyTemplate", Promise<Blob>>();
function template(name: "pgliteTemplate" | "pgliteEmptyTemplate"): Promise<Blob> {
  let read = templates.get(name);
  if (!read) {
    read = readFile(inject(name)).then((bytes) => new Blob([bytes]));
    templates.set(name, read);
  }
  return read;
}

/**
 * A new embedded database as `PGlite.create("memory://")` makes it, without running initdb again:
 * a copy of the run's empty template.
 */
export async function emptyPglite(): Promise<PGlite> {
  return PGlite.create({ loadDataDir: await template("pgliteEmptyTemplate") });
}

const pglite: TestDatabaseTarget = {
  name: "pglite",
  async open() {
    const database = await openPgliteCopy(await template("pgliteTemplate"));
    return { database, drop: () => database.close() };
  },
};

/** A throw-away database on the PostgreSQL server of TEST_DATABASE_URL, created and dropped per use. */
function postgres(url: string): TestDatabaseTarget {
  return {
    name: "postgres",
    async open() {
      const name = `test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      // A copy of the migrated template (tests/global-setup.ts).
      await admin.query(`create database ${name} template ${inject("postgresTemplate")}`);
      await admin.end();
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      const database = await openDatabase({ url: dbUrl.toString(), pgliteDir: "" });
      return {
        database,
        drop: async () => {
          await database.close();
          const cleanup = new pg.Client({ connectionString: url });
          await cleanup.connect();
          await cleanup.query(`drop database if exists ${name} with (force)`);
          await cleanup.end();
        },
      };
    },
  };
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const databaseTargets: readonly TestDatabaseTarget[] = [
  pglite,
  ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : []),
];

if (!process.env.TEST_DATABASE_URL) {
  console.info("TEST_DATABASE_URL is not set: server tests run on PGlite only.");
}

/**
 * A signed-in client with the given tiers (live for a month), for tests of the API: its id and
 * its session's bearer token.
 */
export async function signedInClient(
  database: Database,
  tiers: Partial<
    Record<"simAssets" | "simIndices" | "simMonk", "free" | "standard" | "advanced">
  > = {},
  /** The client's level (section 3); the optimisation threshold (30) unless a test says otherwise. */
  level = 30,
): Promise<{ id: number; token: string }> {
  const { clients, subscriptions } = await import("../../src/server/db/schema.ts");
  const { createSession } = await import("../../src/server/accounts/sessions.ts");
  const [row] = await database.db
    .insert(clients)
    .values({
      email: `client-${randomBytes(6).toString("hex")}@example.test`,
      policiesVersion: "2026-01", // the policy in force (POLICY_VERSION's default)
      passwordHash: "unused",
      name: "Test",
      surname: "Client",
      emailConfirmed: true,
      level,
    })
    .returning({ id: clients.id });
  for (const [product, tier] of Object.entries(tiers))
    if (tier !== "free")
      await database.db.insert(subscriptions).values({
        clientId: row!.id,
        product,
        tier,
        period: "monthly",
        active: true,
        expiryDate: new Date(Date.now() + 30 * 86_400_000),
      });
  return { id: row!.id, token: (await createSession(database.db, row!.id, 1)).token };
}

/** A session of a client with every permission (the advanced tier of every product). */
export const advancedSession = async (database: Database): Promise<string> =>
  (
    await signedInClient(database, {
      simAssets: "advanced",
      simIndices: "advanced",
      simMonk: "advanced",
    })
  ).token;
