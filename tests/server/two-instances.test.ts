// Two server processes on one PostgreSQL database, no sticky sessions (docs/operations.md): a
// session made on one works on the other; the save limit and the API rate limits hold across
// both; a renewal due is charged once although both run the billing job; a market import made
// by a third process is seen by both.
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, resultRows, type Database } from "../../src/server/db/database.ts";
import { payments, sandboxCards, subscriptions } from "../../src/server/db/schema.ts";
import { clientByEmail } from "../../src/server/accounts/clients.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { apiCall, startServer, type ServerProcess } from "../support/server-process.ts";

const url = process.env.TEST_DATABASE_URL;

const start = (databaseUrl: string) =>
  startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_ANALYTICS_PER_MINUTE: "5",
    BILLING_JOB_INTERVAL_MS: "300",
    // Each billing round writes a line at debug level: the renewal test counts them.
    LOG_LEVEL: "debug",
  });
const call = (base: string, method: string, p: string, token?: string, body?: unknown) =>
  apiCall(base, method, p, token, body);

describe.skipIf(!url)("two instances on one PostgreSQL database", () => {
  const name = `two_${randomBytes(5).toString("hex")}`;
  let databaseUrl: string;
  let database: Database;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(url!);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    // The first migrates and seeds; the second starts on the same database at the same time.
    [a, b] = await Promise.all([start(databaseUrl), start(databaseUrl)]);
    database = await openDatabase({ url: databaseUrl, pgliteDir: "" });
  }, 120_000);

  afterAll(async () => {
    a?.child.kill("SIGTERM");
    b?.child.kill("SIGTERM");
    await Promise.all([a?.exited(), b?.exited(), database?.close()]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  const signIn = async (base: string, email: string) =>
    (await call(base, "POST", "/auth/login", undefined, { email, password: "Demo-portfolio-2026" }))
      .body.token as string;

  it("migrated and seeded once, and a session made on one works on the other", async () => {
    const migrations = resultRows(
      await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
    )[0]!.n;
    expect(Number(migrations)).toBeGreaterThan(0);
    const seeded = resultRows(
      await database.db.execute(
        sql`select count(*)::int as n from clients where email = 'free@demo.test'`,
      ),
    )[0]!.n;
    expect(Number(seeded)).toBe(1);
    const token = await signIn(a.base, "free@demo.test");
    const onB = await call(b.base, "GET", "/client", token);
    expect(onB.status).toBe(200);
    expect(onB.body.email).toBe("free@demo.test");
    // Signing out on B ends the session on A too.
    await call(b.base, "POST", "/auth/logout", token);
    expect((await call(a.base, "GET", "/client", token)).status).toBe(401);
  });

  it("holds the save limit and the analytics rate limit across both", async () => {
    const token = await signIn(b.base, "assets-standard@demo.test");
    const body = (i: number) => ({
      name: `Across ${i}`,
      currency: "EUR",
      maxAssetsLevel: 2,
      assets: [
        { id: "AAPL", investedAmount: 6000 },
        { id: "KO", investedAmount: 4000 },
      ],
    });
    // The standard plan saves 5: eight saves at once, split over the instances.
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(i % 2 ? a.base : b.base, "POST", "/portfolios", token, body(i)),
      ),
    );
    expect(saves.filter((s) => s.status === 201 || s.status === 200)).toHaveLength(5);
    expect(saves.filter((s) => s.body?.msgCode === "SAVE_LIMIT_REACHED")).toHaveLength(3);
    // Five analytics calls a minute for this account, whichever instance answers.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await call(i % 2 ? a.base : b.base, "POST", "/analytics/analyse", token, {})).status,
      );
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    // Its own budget, not a check: eight saves and seven calls to two servers on a busy host.
  }, 60_000);

  it("charges a due renewal once although both run the billing job", async () => {
    const client = (await clientByEmail(database.db, "assets-advanced@demo.test"))!;
    const [sub] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.clientId, client.id));
    await database.db
      .insert(sandboxCards)
      .values({ token: `card_two_${name}`, last4: "4242", behaviour: "succeeds" })
      .onConflictDoNothing();
    const due = new Date(Date.now() - 60_000);
    await database.db
      .update(subscriptions)
      .set({
        expiryDate: due,
        periodStart: new Date(due.getTime() - 30 * 86_400_000),
        paymentMethod: `card_two_${name}`,
      })
      .where(eq(subscriptions.id, sub!.id));
    // Both jobs run every 300 ms. Once one has charged the renewal, each instance finishes two
    // more rounds (the second one starting after the charge was seen): a round that was in
    // flight beside the charging one has ended by then.
    const renewalsOf = async () =>
      (await database.db.select().from(payments).where(eq(payments.clientId, client.id))).filter(
        (p) => p.kind === "renewal",
      );
    await vi.waitFor(async () => expect(await renewalsOf()).not.toHaveLength(0), {
      timeout: 30_000,
      interval: 100,
    });
    const rounds = (server: ServerProcess) =>
      server.log.filter((line) => line.msg === "billing job").length;
    const seen = [rounds(a), rounds(b)];
    await vi.waitFor(
      () => {
        expect(rounds(a)).toBeGreaterThanOrEqual(seen[0]! + 2);
        expect(rounds(b)).toBeGreaterThanOrEqual(seen[1]! + 2);
      },
      { timeout: 30_000, interval: 100 },
    );
    const renewals = await renewalsOf();
    expect(renewals).toHaveLength(1);
    expect(renewals[0]!.status).toBe("succeeded");
    const [after] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, sub!.id));
    expect(after!.expiryDate!.getTime()).toBeGreaterThan(Date.now());
  });

  it("sees a market import made elsewhere on both instances", async () => {
    const before = (await call(a.base, "GET", "/market/today")).body;
    // A third process (this test) imports one more day.
    await importDataset(database.db, simulatedDataset({ end: "2026-11-23" }), "simulated");
    expect(before.today).toBe("2026-11-20");
    // Each instance notices the new data version on its own schedule: asked until both have.
    await vi.waitFor(
      async () => {
        const [onA, onB] = await Promise.all([
          call(a.base, "GET", "/market/today"),
          call(b.base, "GET", "/market/today"),
        ]);
        expect(onA.body.today).toBe("2026-11-23");
        expect(onB.body.today).toBe("2026-11-23");
      },
      { timeout: 30_000, interval: 100 },
    );
  });
});
