// Once per test run, before any test file: the migrated template databases the server tests copy
// (tests/support/databases.ts). Creating and migrating a database per test file cost seconds each
// (PGlite runs initdb); a copy of a migrated one costs a fraction of that, on both databases.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/server/db/database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding the data folder of a migrated embedded database (`dumpDataDir`). */
    pgliteTemplate: string;
    /** The same of an empty one, as `PGlite.create()` makes it (initdb only). */
    pgliteEmptyTemplate: string;
    /** A migrated database on TEST_DATABASE_URL's server, or "" without one. */
    postgresTemplate: string;
  }
}

/** Dumps the embedded database's data folder to a file of `folder`. */
async function dump(client: PGlite, file: string): Promise<string> {
  writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
  return file;
}

/** The empty and the migrated template of the embedded database (one initdb for both). */
async function pgliteTemplates(folder: string): Promise<{ empty: string; migrated: string }> {
  const database = await openDatabase({ url: null, pgliteDir: "memory://" });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const empty = await dump(client, path.join(folder, "pglite-empty.tar"));
  await database.migrate();
  const migrated = await dump(client, path.join(folder, "pglite-migrated.tar"));
  await database.close();
  return { empty, migrated };
}

async function onServer(url: string, statement: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

async function postgresTemplate(url: string): Promise<string> {
  const name = `test_template_${randomBytes(6).toString("hex")}`;
  await onServer(url, `create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString(), pgliteDir: "" });
  await database.migrate();
  await database.close();
  return name;
}

export default async function setup(project: TestProject) {
  const folder = mkdtempSync(path.join(tmpdir(), "test-templates-"));
  const url = process.env.TEST_DATABASE_URL;
  const [pglite, postgres] = await Promise.all([
    pgliteTemplates(folder),
    url ? postgresTemplate(url) : Promise.resolve(""),
  ]);
  project.provide("pgliteTemplate", pglite.migrated);
  project.provide("pgliteEmptyTemplate", pglite.empty);
  project.provide("postgresTemplate", postgres);
  return async () => {
    rmSync(folder, { recursive: true, force: true });
    if (url && postgres) await onServer(url, `drop database if exists ${postgres} with (force)`);
  };
}
