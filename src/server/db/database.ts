import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sharingDrizzleParsers } from "./pglite-parsers.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseDriver = "pglite" | "postgres";

export interface Database {
  readonly db: Db;
  readonly driver: DatabaseDriver;
  /** Applies pending migrations; safe when several instances start together. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(import.meta.dirname, "migrations");

/** Any advisory-lock key unique to this application; serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 727_100_001;

export interface DatabaseOptions {
  /** A PostgreSQL URL, or null for the embedded database. */
  readonly url: string | null;
  /** Folder of the embedded database, or "memory://" for a throw-away one. */
  readonly pgliteDir: string;
  /** Errors of idle PostgreSQL connections (logged; the pool recovers). */
  readonly onError?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.onError ?? (() => {}))
    : openPglite(options.pgliteDir);
}

async function openPglite(dir: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  if (!dir.startsWith("memory://")) mkdirSync(path.dirname(dir), { recursive: true });
  return pgliteDatabase(await PGlite.create(dir));
}

/**
 * A throw-away embedded database holding a copy of `dataDir` (a `dumpDataDir` of another one):
 * tests copy one migrated template instead of creating and migrating a database each time
 * (creating one runs initdb, seconds; loading a copy skips it).
 */
export async function openPgliteCopy(dataDir: Blob): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  return pgliteDatabase(await PGlite.create({ loadDataDir: dataDir }));
}

async function pgliteDatabase(client: PGlite): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const db = drizzle({ client: sharingDrizzleParsers(client), schema });
  return {
    db: db as unknown as Db,
    driver: "pglite",
    migrate: () => migrate(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, onError: (error: Error) => void): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server drops (restart, failover) must not take the process down;
  // the pool replaces it on the next query.
  pool.on("error", (error) => onError(error));
  const db = drizzle({ client: pool, schema });
  return {
    db: db as unknown as Db,
    driver: "postgres",
    async migrate() {
      // One connection holds the lock while migrating, so parallel starts apply each migration once.
      const conn = await pool.connect();
      try {
        await conn.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migrate(drizzle({ client: conn, schema }), { migrationsFolder });
      } finally {
        await conn.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
        conn.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The rows of a raw `db.execute` answer: PGlite and node-postgres shape them differently. */
export const resultRows = (result: unknown): Record<string, unknown>[] =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<
    string,
    unknown
  >[];

/**
 * A statement built once per database and reused (drizzle's `prepare`): building a query with
 * drizzle's builder costs about 1 ms of the request thread, more than PGlite takes to run a
 * session lookup, so the statements every request runs are built once (docs/performance.md).
 * On PostgreSQL the name is the server-side prepared statement's, per connection.
 */
export function preparedOnce<T>(db: Db, name: string, build: (db: Db) => T): T {
  let statements = preparedStatements.get(db);
  if (!statements) preparedStatements.set(db, (statements = new Map()));
  if (!statements.has(name)) statements.set(name, build(db));
  return statements.get(name) as T;
}
const preparedStatements = new WeakMap<Db, Map<string, unknown>>();

/** A PostgreSQL array literal ({a,b,c}) sent as one parameter, instead of one parameter per value. */
export const pgArray = (values: readonly (string | number)[]): string => `{${values.join(",")}}`;

/** Round-trip time of a trivial query, in milliseconds. */
export async function pingDatabase(db: Db): Promise<number> {
  const started = performance.now();
  await db.execute(sql`select 1`);
  return performance.now() - started;
}

/** Number of migrations applied, read from drizzle's journal table. */
export async function appliedMigrations(db: Db): Promise<number> {
  const result = await db.execute<{ count: number }>(
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  return Number(resultRows(result)[0]?.count ?? 0);
}
