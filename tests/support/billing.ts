import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AccountKind } from "../../src/contract/accounts.ts";
import { createMailer } from "../../src/server/accounts/mailer.ts";
import { createSession } from "../../src/server/accounts/sessions.ts";
import type { AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import type { PaymentProvider } from "../../src/server/billing/provider.ts";
import { runBillingJobs } from "../../src/server/billing/jobs.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { clients, outbox } from "../../src/server/db/schema.ts";
import { createLogger } from "../../src/server/logger.ts";

/** The analytics pool: billing must not use it. */
const unusedPool = new Proxy({} as AnalyticsPool, {
  get: (_t, key) => {
    throw new Error(`pool.${String(key)} must not be used by billing`);
  },
});

export interface Answer<T = any> {
  readonly status: number;
  readonly body: T & { readonly msgCode?: string };
  readonly headers: Headers;
}

/** A movable clock for billing: the moments (renewals, retries, trial ends) are tested by moving it. */
export function testClock(start = new Date()) {
  let now = new Date(start.getTime());
  return {
    now: () => new Date(now.getTime()),
    set: (d: Date) => {
      now = new Date(d.getTime());
    },
    advanceDays: (days: number) => {
      now = new Date(now.getTime() + days * 86_400_000);
    },
  };
}

export type TestClock = ReturnType<typeof testClock>;

/** The app with the real billing: the sandbox provider (or the one given), the outbox mailer and a test clock. */
export async function billingApp(
  database: Database,
  options: {
    edition?: "ht" | "tt";
    provider?: PaymentProvider;
    clock?: TestClock;
    /** More settings (e.g. SANDBOX_TEST_CLOCK). */
    env?: Record<string, string>;
  } = {},
) {
  const clock = options.clock ?? testClock();
  const config = loadConfig({
    EDITION: options.edition ?? "ht",
    PUBLIC_URL: "http://app.test",
    OUTBOX_PAGE: "false",
    ...options.env,
  });
  const logger = createLogger("silent");
  const mailer = await createMailer({
    smtpUrl: null,
    from: "test@app.test",
    db: database.db,
    logger,
  });
  const app = createApp({
    config,
    database,
    logger,
    version: "test",
    mailer,
    botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
    pool: unusedPool,
    clock: clock.now,
    ...(options.provider ? { paymentProvider: options.provider } : {}),
  });

  async function call<T = any>(
    method: "GET" | "POST" | "PUT",
    url: string,
    token: string | null,
    body?: unknown,
  ): Promise<Answer<T>> {
    const res = await app.request(`/api${url}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const isJson = res.headers.get("content-type")?.includes("json");
    return {
      status: res.status,
      body: isJson && text ? JSON.parse(text) : text,
      headers: res.headers,
    };
  }

  /** A signed-in client of a kind, in a language. */
  async function client(options: { kind?: AccountKind; language?: "en" | "es" } = {}) {
    const email = `b-${randomBytes(5).toString("hex")}@example.test`;
    const [row] = await database.db
      .insert(clients)
      .values({
        email,
        passwordHash: "unused",
        name: "Ada",
        surname: "Payer",
        emailConfirmed: true,
        policiesVersion: "2026-01", // the policy in force (POLICY_VERSION's default)
        kind: options.kind ?? "standard",
        language: options.language ?? "en",
      })
      .returning({ id: clients.id });
    const { token } = await createSession(database.db, row!.id, 1);
    return { id: row!.id, token, email };
  }

  const invoiceInfo = {
    name: "Ada Payer",
    country: "ES",
    tin: "12345678Z",
    city: "Madrid",
    address: "Calle Mayor 1",
    postalCode: "28013",
    companyName: "",
    company: false,
  };

  /** A client that has filled in its invoice info. */
  async function payer(options: Parameters<typeof client>[0] = {}) {
    const c = await client(options);
    const res = await call("PUT", "/client/invoice-info", c.token, invoiceInfo);
    if (res.status !== 200) throw new Error(`invoice info: ${res.status}`);
    return c;
  }

  /** Submits the sandbox checkout's card form; returns where the browser is sent. */
  async function payAtSandbox(redirectUrl: string, card: string, expiry = "12/30", cvc = "123") {
    const res = await app.request(redirectUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ number: card, expiry, cvc }).toString(),
    });
    return { status: res.status, location: res.headers.get("location"), html: await res.text() };
  }

  async function answerChallenge(challengeUrl: string, approve: boolean) {
    const res = await app.request(challengeUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ result: approve ? "approve" : "fail" }).toString(),
    });
    return { status: res.status, location: res.headers.get("location") };
  }

  const key = () => randomBytes(16).toString("hex");

  /** Checks out a plan and pays it with a card at the sandbox; returns the payment as the API then says. */
  async function buy(
    token: string,
    plan: { product?: string; tier: string; period: string; currency?: string },
    card = "4242 4242 4242 4242",
  ) {
    const checkout = await call("POST", "/billing/checkout", token, {
      product: plan.product ?? "simAssets",
      currency: plan.currency ?? "EUR",
      tier: plan.tier,
      period: plan.period,
      idempotencyKey: key(),
    });
    if (checkout.status !== 200) return { checkout, payment: null };
    await payAtSandbox(checkout.body.payment.redirectUrl, card);
    const payment = await call("GET", `/billing/payments/${checkout.body.payment.id}`, token);
    return { checkout, payment: payment.body };
  }

  const emailsTo = async (to: string) => database.db.select().from(outbox).where(eq(outbox.to, to));

  const runJobs = () => runBillingJobs(app.billingDeps, app.billing);

  return {
    app,
    clock,
    call,
    client,
    payer,
    invoiceInfo,
    payAtSandbox,
    answerChallenge,
    buy,
    key,
    emailsTo,
    runJobs,
  };
}

export type BillingHarness = Awaited<ReturnType<typeof billingApp>>;
