// Exactly once: idempotency keys replayed (also concurrently), events delivered twice, late, out of
// order, concurrently, forged or tampered, outcomes lost in a crash and reconciled, the job run by
// two instances at once, and a second provider implementation behind the same interface.
import { createHmac, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/server/logger.ts";
import {
  BadSignature,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
} from "../../src/server/billing/provider.ts";
import { createSandboxProvider, type SandboxProvider } from "../../src/server/billing/sandbox.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  billingEvents,
  invoices,
  payments,
  refunds,
  sandboxPayments,
  subscriptions,
} from "../../src/server/db/schema.ts";
import { billingApp, testClock, type BillingHarness } from "../support/billing.ts";
import { databaseTargets } from "../support/databases.ts";

const plan = { product: "simAssets", tier: "standard", period: "monthly", currency: "EUR" };

/** A second provider: in memory, its own checkout ids and its own signature scheme. */
function fakeProvider(secret = "fake-provider-secret"): PaymentProvider & {
  complete(
    ref: string,
    outcome: "succeeded" | "failed",
  ): { body: string; headers: Record<string, string> };
} {
  const store = new Map<string, ProviderPayment>();
  const byKey = new Map<string, string>();
  const sign = (body: string) => createHmac("sha512", secret).update(body).digest("base64");
  return {
    name: "fake",
    async createCheckout(input) {
      const existing = byKey.get(input.idempotencyKey);
      if (existing) return store.get(existing)!;
      const ref = `fk${randomBytes(6).toString("hex")}`;
      const p: ProviderPayment = {
        ref,
        reference: input.reference,
        amountCents: input.amountCents,
        currency: input.currency,
        status: "open",
        failureCode: null,
        redirectUrl: `https://pay.fake.test/c/${ref}`,
        paymentMethod: null,
      };
      store.set(ref, p);
      byKey.set(input.idempotencyKey, ref);
      return p;
    },
    async chargeSaved() {
      throw new Error("not used");
    },
    async refund(input) {
      return { ref: `rf-${input.idempotencyKey}` };
    },
    async retrieve(by) {
      const ref = by.ref ?? (by.idempotencyKey ? byKey.get(by.idempotencyKey) : undefined);
      return ref ? (store.get(ref) ?? null) : null;
    },
    async expire() {
      return null;
    },
    async verifyEvent(raw, headers) {
      if (headers["x-fake-signature"] !== sign(raw)) throw new BadSignature("fake signature");
      return JSON.parse(raw) as ProviderEvent;
    },
    complete(ref, outcome) {
      const p = {
        ...store.get(ref)!,
        status: outcome,
        paymentMethod: outcome === "succeeded" ? "fake-card" : null,
        failureCode: outcome === "failed" ? ("card_declined" as const) : null,
      };
      store.set(ref, p);
      const body = JSON.stringify({
        id: `fe-${randomBytes(6).toString("hex")}`,
        type: `payment.${outcome}`,
        payment: p,
      });
      return {
        body,
        headers: { "content-type": "application/json", "x-fake-signature": sign(body) },
      };
    },
  };
}

describe.each(databaseTargets)("billing exactly once on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let h: BillingHarness;
  /** Every event the sandbox delivered, to replay. */
  const delivered: { body: string; headers: Record<string, string> }[] = [];
  let sandbox: SandboxProvider;
  let deliveryDown = false;

  beforeAll(async () => {
    ({ database, drop } = await target.open());
    const clock = testClock(new Date("2026-11-24T10:00:00Z"));
    sandbox = createSandboxProvider({
      db: database.db,
      logger: createLogger("silent"),
      clock: clock.now,
      deliver: async (body, headers) => {
        delivered.push({ body, headers });
        if (deliveryDown) throw new Error("events endpoint unreachable");
        await postEvent(body, headers);
      },
    });
    h = await billingApp(database, { clock, provider: sandbox });
  });
  afterAll(() => drop());

  const postEvent = (body: string, headers: Record<string, string>) =>
    h.app.request("/api/billing/events", { method: "POST", body, headers });
  const sandboxId = (url: string) => url.split("/").pop()!;
  const checkout = (token: string, key = h.key(), body = plan) =>
    h.call("POST", "/billing/checkout", token, { ...body, idempotencyKey: key });
  const paymentRows = (clientId: number) =>
    database.db.select().from(payments).where(eq(payments.clientId, clientId));

  it("gives back the same payment for a replayed key, once even under concurrent replays", async () => {
    const u = await h.payer();
    const key = h.key();
    const answers = await Promise.all(Array.from({ length: 12 }, () => checkout(u.token, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.body.payment.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.payment.redirectUrl)).size).toBe(1);
    expect(await paymentRows(u.id)).toHaveLength(1);
    const atProvider = await database.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.reference, answers[0]!.body.payment.id));
    expect(atProvider).toHaveLength(1);
    const other = await checkout(u.token, key, { ...plan, period: "annual" });
    expect(other).toMatchObject({ status: 422, body: { msgCode: "IDEMPOTENCY_CONFLICT" } });
    expect(await paymentRows(u.id)).toHaveLength(1);
  });

  it("applies an event once: twice, concurrently, or late and out of order changes nothing more", async () => {
    const u = await h.payer();
    const started = await checkout(u.token);
    const id = sandboxId(started.body.payment.redirectUrl);
    const before = delivered.length;
    await sandbox.pay(id, { number: "4000002760003184", expiry: "12/30", cvc: "123" });
    await sandbox.authenticate(id, true);
    const [requiresAction, succeeded] = delivered.slice(before);
    expect(JSON.parse(succeeded!.body).type).toBe("payment.succeeded");
    // The success again, ten times at once, and the older "requires action" after it.
    const replays = await Promise.all(
      Array.from({ length: 10 }, () => postEvent(succeeded!.body, succeeded!.headers)),
    );
    expect(replays.map((r) => r.status)).toEqual(Array(10).fill(200));
    const outcomes = await Promise.all(replays.map((r) => r.json()));
    expect(outcomes.every((o: any) => o.outcome === "duplicate")).toBe(true);
    const late = await postEvent(requiresAction!.body, requiresAction!.headers);
    expect((await late.json()).outcome).toBe("duplicate");
    // The same news under a new event id (a provider re-sending) is recognised by the payment's state.
    const resent = JSON.stringify({
      ...JSON.parse(requiresAction!.body),
      id: "evt_resent_" + h.key(),
    });
    const late2 = await postEvent(resent, {
      "content-type": "application/json",
      "sandbox-signature": await sandbox.sign(resent),
    });
    expect((await late2.json()).outcome).toBe("ignored");
    const pays = await paymentRows(u.id);
    expect(pays.map((p) => p.status)).toEqual(["succeeded"]);
    const invs = await database.db.select().from(invoices).where(eq(invoices.clientId, u.id));
    expect(invs).toHaveLength(1);
    const [sub] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.clientId, u.id));
    expect(sub).toMatchObject({ tier: "standard", active: true });
  });

  it("refuses a forged, stale or tampered event with 400, applying nothing", async () => {
    const u = await h.payer();
    const started = await checkout(u.token);
    const reference = started.body.payment.id;
    const forged = JSON.stringify({
      id: "evt_forged",
      type: "payment.succeeded",
      payment: {
        ref: "x",
        reference,
        amountCents: 1,
        currency: "EUR",
        status: "succeeded",
        failureCode: null,
        redirectUrl: null,
        paymentMethod: null,
      },
    });
    const bad = await postEvent(forged, {
      "content-type": "application/json",
      "sandbox-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`,
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).msgCode).toBe("BAD_SIGNATURE");
    expect((await postEvent(forged, {})).status).toBe(400);
    const stale = await postEvent(forged, {
      "content-type": "application/json",
      "sandbox-signature": await sandbox.sign(
        forged,
        new Date(h.clock.now().getTime() - 3_600_000),
      ),
    });
    expect(stale.status).toBe(400);
    // Validly signed but not what was asked for (another amount): stored, refused, nothing applied.
    const signed = await postEvent(forged, {
      "content-type": "application/json",
      "sandbox-signature": await sandbox.sign(forged),
    });
    expect((await signed.json()).outcome).toBe("rejected");
    expect((await paymentRows(u.id))[0]).toMatchObject({ status: "pending" });
    const stored = await database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, "evt_forged"));
    expect(stored[0]).toMatchObject({ outcome: "rejected" });
  });

  it("closes a superseded checkout, and refunds one paid before it was closed (two tabs)", async () => {
    const u = await h.payer();
    const card = { number: "4242424242424242", expiry: "12/30", cvc: "1234" };
    const a = await checkout(u.token);
    const b = await checkout(u.token);
    // The first tab's checkout was closed at the provider when the second opened: it takes no money.
    const late = await sandbox.pay(sandboxId(a.body.payment.redirectUrl), card);
    expect(late).toMatchObject({
      kind: "done",
      checkout: { status: "failed", failureCode: "superseded" },
    });
    // A race: the first tab pays before the second opens, and its news arrives only afterwards.
    const c = await h.call("GET", `/billing/payments/${b.body.payment.id}`, u.token);
    expect(c.body.status).toBe("pending");
    deliveryDown = true;
    const before = delivered.length;
    await sandbox.pay(sandboxId(b.body.payment.redirectUrl), card);
    deliveryDown = false;
    const d = await checkout(u.token);
    const news = delivered[before]!;
    expect((await (await postEvent(news.body, news.headers)).json()).outcome).toBe("applied");
    await sandbox.pay(sandboxId(d.body.payment.redirectUrl), card);
    const rows = await paymentRows(u.id);
    expect(rows.find((p) => p.id === b.body.payment.id)).toMatchObject({
      status: "succeeded",
      failureCode: "superseded",
    });
    expect(rows.find((p) => p.id === d.body.payment.id)).toMatchObject({
      status: "succeeded",
      failureCode: null,
    });
    const kinds = (
      await database.db.select().from(invoices).where(eq(invoices.clientId, u.id))
    ).map((i) => `${i.kind} ${i.totalCents}`);
    expect(kinds.sort()).toEqual(["charge 990", "charge 990", "refund -990"]);
    const [refund] = await database.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, b.body.payment.id));
    expect(refund).toMatchObject({ amountCents: 990 });
    expect(refund!.providerRef).toMatch(/^re_/);
  });

  it("reconciles a payment whose event was lost, at the next run", async () => {
    const u = await h.payer();
    const started = await checkout(u.token);
    deliveryDown = true;
    await sandbox.pay(sandboxId(started.body.payment.redirectUrl), {
      number: "4242424242424242",
      expiry: "12/30",
      cvc: "123",
    });
    deliveryDown = false;
    expect((await paymentRows(u.id))[0]!.status).toBe("pending");
    h.clock.advanceDays(0.01);
    expect(await h.app.billing.reconcile(0)).toBeGreaterThanOrEqual(1);
    expect((await paymentRows(u.id))[0]!.status).toBe("succeeded");
    expect(await h.app.billing.reconcile(0)).toBe(0);
  });

  it("charges a renewal once when two instances run the job at the same moment, and after a crash", async () => {
    const u = await h.payer();
    const started = await checkout(u.token);
    await sandbox.pay(sandboxId(started.body.payment.redirectUrl), {
      number: "4242424242424242",
      expiry: "12/30",
      cvc: "123",
    });
    const [sub] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.clientId, u.id));
    const second = await billingApp(database, { clock: h.clock, provider: sandbox });
    h.clock.set(new Date(sub!.expiryDate!.getTime() + 60_000));
    await Promise.all([h.runJobs(), second.runJobs(), h.runJobs()]);
    const renewals = (await paymentRows(u.id)).filter((p) => p.kind === "renewal");
    expect(renewals).toHaveLength(1);
    expect(renewals[0]!.status).toBe("succeeded");
    const charges = await database.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.idempotencyKey, renewals[0]!.idempotencyKey));
    expect(charges).toHaveLength(1);
    const invs = await database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.clientId, u.id)));
    expect(invs).toHaveLength(2);

    // A crash after the renewal row was written and before the provider was asked: reconciled.
    const [renewed] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.clientId, u.id));
    const crashing = await billingApp(database, {
      clock: h.clock,
      provider: {
        ...sandbox,
        chargeSaved: async () => {
          throw new Error("crash");
        },
      },
    });
    h.clock.set(new Date(renewed!.expiryDate!.getTime() + 60_000));
    await expect(crashing.runJobs()).rejects.toThrow("crash");
    // The job stopped at the first due renewal it tried (any client's): its row waits, unknown.
    const pending = await database.db
      .select()
      .from(payments)
      .where(and(eq(payments.kind, "renewal"), eq(payments.status, "pending")));
    expect(pending).toHaveLength(1);
    if (target.name === "postgres") {
      // Another instance's job meets that renewal while it is being applied (its row changed by a
      // transaction still open, which would next lock the subscription). The job reads the
      // renewal rather than inserting it again, so it goes on to ask the provider instead of
      // waiting for that transaction: an insert waited, and the two transactions deadlocked.
      const applying = await (database.db as unknown as { $client: pg.Pool }).$client.connect();
      const asked: string[] = [];
      const probing = await billingApp(database, {
        clock: h.clock,
        provider: {
          ...sandbox,
          chargeSaved: async (input) => {
            asked.push(input.reference);
            throw new Error("probe");
          },
        },
      });
      let run: Promise<string> | null = null;
      try {
        await applying.query("begin");
        await applying.query("update payments set updated_at = now() where id = $1", [
          pending[0]!.id,
        ]);
        run = probing.runJobs().then(
          () => "finished",
          (e: Error) => e.message,
        );
        await expect.poll(() => asked, { timeout: 10_000 }).toEqual([pending[0]!.id]);
      } finally {
        await applying.query("rollback");
        applying.release();
      }
      expect(await run).toBe("probe");
    }
    h.clock.advanceDays(0.01);
    await h.app.billing.reconcile(0);
    const [settled] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.id, pending[0]!.id));
    expect(settled!.status).toBe("succeeded");
    const sent = await database.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.idempotencyKey, settled!.idempotencyKey));
    expect(sent).toHaveLength(1);
    await h.runJobs();
    const after = (await paymentRows(u.id)).filter((p) => p.kind === "renewal");
    expect(after.map((p) => p.status)).toEqual(["succeeded", "succeeded"]);
  });

  it("works with another provider behind the same interface", async () => {
    const fake = fakeProvider();
    const own = await billingApp(database, { provider: fake });
    const u = await own.payer();
    const started = await own.call("POST", "/billing/checkout", u.token, {
      ...plan,
      idempotencyKey: own.key(),
    });
    expect(started.body.payment.redirectUrl).toMatch(/^https:\/\/pay\.fake\.test\/c\//);
    const ref = started.body.payment.redirectUrl.split("/").pop();
    const notice = fake.complete(ref, "succeeded");
    const forged = await own.app.request("/api/billing/events", {
      method: "POST",
      body: notice.body,
      headers: { "x-fake-signature": "nope" },
    });
    expect(forged.status).toBe(400);
    const res = await own.app.request("/api/billing/events", {
      method: "POST",
      body: notice.body,
      headers: notice.headers,
    });
    expect((await res.json()).outcome).toBe("applied");
    const payment = await own.call("GET", `/billing/payments/${started.body.payment.id}`, u.token);
    expect(payment.body).toMatchObject({ status: "succeeded" });
    const client = await own.call("GET", "/client", u.token);
    expect(client.body.subscriptions.simAssets.tier).toBe("standard");
  });
});
