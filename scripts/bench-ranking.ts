// `node scripts/bench-ranking.ts`: the banana challenge's community ranking with 100,000 portfolios in a
// region (docs/banana.md, "Ranking"). Fills a fresh database (the embedded one in memory, or the
// PostgreSQL server of --pg URL, in a throw-away database) with 100,000 ranked eu portfolios of
// 34,000 clients (3 each at most, as the plans allow), then times what the ranking endpoint
// runs: the first page, a page deep in the table, and the last page, 50 times each; prints the median and the 95th percentile, and fails
// when a median reaches 50 ms.
//
//   node scripts/bench-ranking.ts
//   node scripts/bench-ranking.ts --pg postgres://postgres@127.0.0.1:5432/postgres
import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { sql } from "drizzle-orm";
import { numberRanking, ranking } from "../src/server/banana/ranking.ts";
import { openDatabase, resultRows, type Database } from "../src/server/db/database.ts";

const args = process.argv.slice(2);
const pgIndex = args.indexOf("--pg");
const pgUrl = pgIndex >= 0 ? args[pgIndex + 1] : undefined;
const PORTFOLIOS = 100_000;
/** About 3 portfolios a client, the most a plan allows in a region. */
const CLIENTS = 34_000;
const RUNS = 50;

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!pgUrl) {
    const database = await openDatabase({ url: null, pgliteDir: "memory://" });
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const name = `bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), pgliteDir: "" });
  await database.migrate();
  return {
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const { database, drop } = await open();
const { db } = database;
const started = performance.now();
// Set-based inserts: clients, their portfolios, and the banana rows with a spread of returns.
await db.execute(sql`
  insert into clients (email, password_hash, name, surname, alias)
  select 'bench-' || g || '@example.test', 'x', 'Bench', 'Client', 'monkey ' || g
  from generate_series(1, ${CLIENTS}) g`);
await db.execute(sql`
  insert into portfolios (client_id, product, name, currency, monkey_region, saved, priced_on)
  select (select min(id) from clients) + (g % ${CLIENTS}), 'simMonk', 'P' || g, 'EUR', 'eu', true,
    date '2026-01-02'
  from generate_series(1, ${PORTFOLIOS}) g`);
await db.execute(sql`
  insert into banana_portfolios (portfolio_id, region, created_on, seed, universe, monkey,
    latest_date, ranking_return)
  select p.id, 'eu', date '2026-01-02', p.id, '[]'::jsonb, '{"size":1,"holdings":[]}'::jsonb,
    date '2026-03-02', sin(p.id * 12.9898) * 0.4
  from portfolios p where p.product = 'simMonk'`);
await numberRanking(db);
await db.execute(sql`vacuum analyze`);
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${os.cpus().length} CPUs`,
);
console.log(
  `${PORTFOLIOS.toLocaleString("en")} portfolios on ${database.driver} in ${Math.round(performance.now() - started)} ms`,
);

const [me] = resultRows(await db.execute(sql`select id from clients order by id limit 1`));
const time = async (label: string, run: () => Promise<unknown>) => {
  await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const p50 = ms[Math.floor(RUNS / 2)]!;
  const p95 = ms[Math.floor(RUNS * 0.95)]!;
  console.log(
    `${label.padEnd(44)} median ${p50.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms   ${p50 < 50 ? "median under 50 ms" : "median OVER 50 ms"}`,
  );
  return p50;
};
const worst = Math.max(
  await time("page 1 (20 rows, total, own ranks)", () => ranking(db, "eu", 1, Number(me!.id))),
  await time("page 2,500 (offset 49,980)", () => ranking(db, "eu", 2_500, Number(me!.id))),
  await time("page 5,000 (the last)", () => ranking(db, "eu", 5_000, Number(me!.id))),
);
await drop();
if (worst >= 50) process.exitCode = 1;
