// Idempotency-Key on the calls that create something (docs/api.md, "Repeated calls"), on PGlite and
// PostgreSQL: the same key and body answer the first answer (status and body) without a second
// effect, another body with the key is refused (422), concurrent calls with one key create once
// (the database's primary key), keys are per account (per address without a session), a refused
// call frees its key, a call still running or cut off answers 409, keys last a day. Then the
// sandbox: a payment and its plan commit in one transaction, before the payer is sent back.
import { randomBytes } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../src/contract/common.ts";
import type { Tier } from "../../src/contract/permissions.ts";
import { createSession } from "../../src/server/accounts/sessions.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { IDEMPOTENCY_WAIT_MS } from "../../src/server/http/idempotency.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  clients,
  idempotencyKeys,
  payments,
  portfolios,
  sandboxPayments,
  subscriptions,
} from "../../src/server/db/schema.ts";
import { createLogger } from "../../src/server/logger.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import {
  apiAgent,
  buildAccountsApp,
  captchaToken,
  emailsTo,
  signUpForm,
} from "../support/accounts.ts";
import { billingApp, testClock } from "../support/billing.ts";
import { databaseTargets } from "../support/databases.ts";

const TODAY = "2026-11-20";

interface Answer<T = any> {
  readonly status: number;
  readonly body: T & { readonly msgCode?: string };
  readonly headers: Headers;
}

describe.each(databaseTargets)("Idempotency-Key on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  const clock = testClock(new Date(`${TODAY}T12:00:00Z`));
  const sleeps: number[] = [];
  let app: ReturnType<typeof createApp>;
  /** The same database, with a sleep that returns at once: a wait for a stuck key ends at once. */
  let impatient: ReturnType<typeof createApp>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(database.db, simulatedDataset({ end: TODAY, days: 400 }), "simulated");
    pool = createAnalyticsPool(1);
    const deps = {
      config: loadConfig({ EDITION: "ht" }),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox" as const, send: async () => {} },
      botCheck: { kind: "pow" as const, challenge: async () => ({}), verify: async () => false },
      pool,
      clock: clock.now,
    };
    app = createApp(deps);
    impatient = createApp({
      ...deps,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
  }, 180_000);
  afterAll(async () => {
    await Promise.all([app?.settled(), impatient?.settled()]);
    await pool.close();
    await drop();
  });

  async function call<T = any>(
    url: string,
    token: string,
    body: unknown,
    key?: string,
    on = app,
  ): Promise<Answer<T>> {
    const res = await on.request(`/api${url}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        ...(key === undefined ? {} : { "Idempotency-Key": key }),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  async function client(tiers: Partial<Record<Product, Tier>> = { simAssets: "standard" }) {
    const [row] = await database.db
      .insert(clients)
      .values({
        email: `i-${randomBytes(5).toString("hex")}@example.test`,
        policiesVersion: "2026-01",
        passwordHash: "unused",
        name: "Test",
        surname: "Client",
        emailConfirmed: true,
      })
      .returning({ id: clients.id });
    for (const [product, tier] of Object.entries(tiers))
      await database.db.insert(subscriptions).values({
        clientId: row!.id,
        product,
        tier,
        planId: 5,
        active: true,
        expiryDate: new Date(Date.now() + 30 * 86_400_000),
      });
    return { id: row!.id, token: (await createSession(database.db, row!.id, 1)).token };
  }

  const body = (name = "Kept once") => ({
    name,
    currency: "EUR",
    maxAssetsLevel: 2,
    assets: [
      { id: "AAPL", investedAmount: 6000 },
      { id: "KO", investedAmount: 4000 },
    ],
  });
  const key = () => randomBytes(16).toString("hex");
  const savedOf = async (clientId: number) =>
    Number(
      (
        await database.db
          .select({ n: count() })
          .from(portfolios)
          .where(eq(portfolios.clientId, clientId))
      )[0]!.n,
    );
  const keyRows = async (k: string) =>
    database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, k));

  it("answers a repeated save with the first answer, status and body, and saves once", async () => {
    const c = await client();
    const k = key();
    const first = await call("/portfolios", c.token, body(), k);
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await call("/portfolios", c.token, body(), k);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    // The same body with its keys in another order is the same call.
    const { assets, ...rest } = body();
    const reordered = await call("/portfolios", c.token, { assets, ...rest }, k);
    expect([reordered.status, reordered.body.id]).toEqual([201, first.body.id]);
    expect(await savedOf(c.id)).toBe(1);
    // Without a key, a save is always another call.
    const unkeyed = await call("/portfolios", c.token, body("Other"));
    expect(unkeyed.status).toBe(201);
    expect(await savedOf(c.id)).toBe(2);
  });

  it("refuses the key with another body (422 IDEMPOTENCY_CONFLICT), and saves nothing", async () => {
    const c = await client();
    const k = key();
    expect((await call("/portfolios", c.token, body(), k)).status).toBe(201);
    const other = await call("/portfolios", c.token, body("Another name"), k);
    expect(other).toMatchObject({ status: 422, body: { msgCode: "IDEMPOTENCY_CONFLICT" } });
    // ...and on another call (another product in the query is another call too).
    const elsewhere = await call("/portfolios?stc=simIndices", c.token, body(), k);
    expect(elsewhere).toMatchObject({ status: 422, body: { msgCode: "IDEMPOTENCY_CONFLICT" } });
    expect(await savedOf(c.id)).toBe(1);
  });

  it("saves once when calls with one key arrive together, and all of them get its answer", async () => {
    const c = await client();
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call("/portfolios", c.token, body(), k)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await savedOf(c.id)).toBe(1);
    expect(await keyRows(k)).toHaveLength(1);
  });

  it("keeps keys per account: another client's same key is its own call", async () => {
    const a = await client();
    const b = await client();
    const k = key();
    const mine = await call("/portfolios", a.token, body(), k);
    const theirs = await call("/portfolios", b.token, body(), k);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect([await savedOf(a.id), await savedOf(b.id)]).toEqual([1, 1]);
  });

  it("frees the key of a refused call: nothing was created, the key may be used again", async () => {
    const c = await client();
    const k = key();
    const refused = await call(
      "/portfolios",
      c.token,
      { ...body(), assets: [{ id: "NOPE", investedAmount: 100 }] },
      k,
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await keyRows(k)).toHaveLength(0);
    expect((await call("/portfolios", c.token, body(), k)).status).toBe(201);
    expect(await savedOf(c.id)).toBe(1);
  });

  it("refuses a malformed key (400) before anything is done", async () => {
    const c = await client();
    const short = await call("/portfolios", c.token, body(), "abc");
    expect(short).toMatchObject({ status: 400, body: { msgCode: "INVALID_REQUEST" } });
    expect(await savedOf(c.id)).toBe(0);
  });

  it("answers 409 REQUEST_IN_PROGRESS to a key whose call never stored its answer, and never runs it again", async () => {
    const c = await client();
    const k = key();
    const first = await call("/portfolios", c.token, body(), k, impatient);
    expect(first.status).toBe(201);
    // A crash between the save's commit and its stored answer leaves the key claimed, unanswered.
    await database.db
      .update(idempotencyKeys)
      .set({ status: null, response: null })
      .where(eq(idempotencyKeys.key, k));
    sleeps.length = 0;
    const again = await call("/portfolios", c.token, body(), k, impatient);
    expect(again).toMatchObject({ status: 409, body: { msgCode: "REQUEST_IN_PROGRESS" } });
    // It waited (10 s in polls of the injected sleep) for the first call's answer, then gave up.
    expect(sleeps.reduce((s, ms) => s + ms, 0)).toBeGreaterThanOrEqual(IDEMPOTENCY_WAIT_MS);
    expect(sleeps.length).toBeLessThan(20);
    expect(await savedOf(c.id)).toBe(1);
  });

  it("forgets a key after a day", async () => {
    const c = await client();
    const k = key();
    const first = await call("/portfolios", c.token, body(), k);
    clock.advanceDays(1.01);
    try {
      const later = await call("/portfolios", c.token, body(), k);
      expect(later.status).toBe(201);
      expect(later.body.id).not.toBe(first.body.id);
      expect(await savedOf(c.id)).toBe(2);
    } finally {
      clock.set(new Date(`${TODAY}T12:00:00Z`));
    }
  });

  it("answers the save once committed: its first valuation follows the answer", async () => {
    const c = await client();
    const saved = await call("/portfolios", c.token, body(), key());
    expect(saved.status).toBe(201);
    await app.settled();
    const res = await app.request(`/api/portfolios/${saved.body.id}`, {
      headers: { Authorization: `Bearer ${c.token}` },
    });
    const read = await res.json();
    expect(read.valuation).toMatchObject({ date: TODAY, value: 10_000, return: 0 });
  }, 60_000);
});

describe.each(databaseTargets)(
  "Idempotency-Key on the other creating calls, on $name",
  (target) => {
    let database: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ database, drop } = await target.open());
    });
    afterAll(async () => {
      await drop();
    });

    const plan = { product: "simAssets", tier: "standard", period: "monthly", currency: "EUR" };

    it("checkout: the same key and body answer the same payment, once; another plan 422", async () => {
      const h = await billingApp(database);
      const u = await h.payer();
      const k = h.key();
      const checkout = (p: Record<string, string>) =>
        h.app.request("/api/billing/checkout", {
          method: "POST",
          headers: {
            Authorization: `Bearer ${u.token}`,
            "Content-Type": "application/json",
            "Idempotency-Key": k,
          },
          body: JSON.stringify({ ...p, idempotencyKey: k }),
        });
      const answers = await Promise.all([checkout(plan), checkout(plan), checkout(plan)]);
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(new Set(bodies.map((b) => b.payment.id)).size).toBe(1);
      const other = await checkout({ ...plan, tier: "advanced" });
      expect(other.status).toBe(422);
      expect((await other.json()).msgCode).toBe("IDEMPOTENCY_CONFLICT");
      const rows = await database.db.select().from(payments).where(eq(payments.clientId, u.id));
      expect(rows).toHaveLength(1);
    });

    it("trial: a repeated start answers the first answer; another product with the key 422", async () => {
      const h = await billingApp(database);
      const u = await h.client();
      const k = h.key();
      const start = (product: string) =>
        h.app.request("/api/billing/trial", {
          method: "POST",
          headers: {
            Authorization: `Bearer ${u.token}`,
            "Content-Type": "application/json",
            "Idempotency-Key": k,
          },
          body: JSON.stringify({ product }),
        });
      const first = await start("simAssets");
      const firstBody = await first.json();
      expect(first.status).toBe(200);
      const again = await start("simAssets");
      // Without the key a second start is refused (TRIAL_USED); with it, the first answer again.
      expect([again.status, await again.json()]).toEqual([200, firstBody]);
      expect((await start("simIndices")).status).toBe(422);
    });

    it("sign-up: keys of calls without a session are the address's; a repeat creates one account", async () => {
      const api = await buildAccountsApp(database);
      const agent = apiAgent(api.app);
      const form: Record<string, unknown> = {
        ...signUpForm(),
        recaptchaToken: await captchaToken(agent),
      };
      const k = randomBytes(16).toString("hex");
      const register = (a = agent) =>
        a.call("POST", "/auth/register", { body: form, headers: { "Idempotency-Key": k } });
      const first = await register();
      expect(first.status).toBe(201);
      // The captcha token is spent: only the stored answer can answer the repeat.
      const again = await register();
      expect([again.status, again.body, again.headers.get("Idempotent-Replayed")]).toEqual([
        201,
        first.body,
        "true",
      ]);
      const accounts = await database.db
        .select({ n: count() })
        .from(clients)
        .where(eq(clients.email, form.email as string));
      expect(accounts[0]!.n).toBe(1);
      expect(await emailsTo(agent, form.email as string)).toHaveLength(1);
      // From another address the key is another call: run again, and refused (the token was used).
      const elsewhere = await register(apiAgent(api.app));
      expect(elsewhere.status).toBe(400);
    });
  },
);

describe.each(databaseTargets)("sandbox payments on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
  });
  afterAll(async () => {
    await drop();
  });
  const plan = { tier: "standard", period: "monthly" };

  it("activates the plan before the payer is sent back, in the transaction that records the payment", async () => {
    const h = await billingApp(database);
    const u = await h.payer();
    const checkout = await h.call("POST", "/billing/checkout", u.token, {
      product: "simAssets",
      currency: "EUR",
      ...plan,
      idempotencyKey: h.key(),
    });
    const paid = await h.payAtSandbox(checkout.body.payment.redirectUrl, "4242424242424242");
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(/\/en\/payment-complete\?payment=/);
    const [sub] = await database.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.clientId, u.id), eq(subscriptions.product, "simAssets")));
    expect(sub).toMatchObject({ tier: "standard", active: true });
  });

  it("records nothing when the plan cannot be written: the payment stays open, the payer is not sent back", async () => {
    const h = await billingApp(database);
    const u = await h.payer();
    const checkout = await h.call("POST", "/billing/checkout", u.token, {
      product: "simMonk",
      currency: "EUR",
      ...plan,
      idempotencyKey: h.key(),
    });
    expect(checkout.status).toBe(200);
    const ref = (
      await database.db.select().from(payments).where(eq(payments.id, checkout.body.payment.id))
    )[0]!.providerRef!;
    // Granting the plan fails (as a crash between the two writes would cut it).
    const fn = `fail_grant_${randomBytes(4).toString("hex")}`;
    await database.db.execute(
      sql.raw(`create function ${fn}() returns trigger language plpgsql as $$
        begin if new.client_id = ${u.id} and new.active then raise exception 'grant refused'; end if; return new; end $$`),
    );
    await database.db.execute(
      sql.raw(
        `create trigger ${fn} before update on subscriptions for each row execute function ${fn}()`,
      ),
    );
    try {
      const paid = await h.payAtSandbox(checkout.body.payment.redirectUrl, "4242424242424242");
      expect(paid.status).toBe(500);
      expect(paid.location).toBeNull();
    } finally {
      await database.db.execute(sql.raw(`drop trigger ${fn} on subscriptions`));
      await database.db.execute(sql.raw(`drop function ${fn}()`));
    }
    const [atSandbox] = await database.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.id, ref));
    const [ours] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.id, checkout.body.payment.id));
    expect([atSandbox!.status, ours!.status]).toEqual(["open", "pending"]);
    // Paid again, both commit.
    const retry = await h.payAtSandbox(checkout.body.payment.redirectUrl, "4242424242424242");
    expect(retry.status).toBe(303);
    const payment = await h.call("GET", `/billing/payments/${checkout.body.payment.id}`, u.token);
    expect(payment.body.status).toBe("succeeded");
  });
});
