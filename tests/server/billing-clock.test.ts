// PRODUCT.md "Money" walked through time with the sandbox's test clock (POST /billing/test-clock,
// SANDBOX_TEST_CLOCK=true): renewals, failed renewals retried on days 1, 3 and 7 with their
// emails, a trial's warning and end, a cancellation reaching its date, a scheduled downgrade and
// a split change (up in tier, down in period) applied, the account balance used before the card,
// and the billing job on two instances charging once. Also: a quote honoured for 30 minutes and
// refused after, a zero charge that never opens the card page, invoices in the client's language
// and invoice details prefilled from the profile. Every walk runs on each database.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingOverview } from "../../src/contract/billing.ts";
import { decode } from "../../src/contract/decode.ts";
import { runBillingJobs } from "../../src/server/billing/jobs.ts";
import { shiftAccountClock } from "../../src/server/billing/test-clock.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  balanceEntries,
  clients,
  invoices,
  payments,
  subscriptions,
} from "../../src/server/db/schema.ts";
import { billingApp, testClock, type BillingHarness } from "../support/billing.ts";
import { databaseTargets } from "../support/databases.ts";

const dayMs = 86_400_000;
const START = new Date("2026-11-24T10:00:00Z");

describe.each(databaseTargets)("billing through time on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let h: BillingHarness;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    h = await billingApp(database, {
      clock: testClock(START),
      env: { SANDBOX_TEST_CLOCK: "true" },
    });
  });
  afterAll(() => drop());

  const overview = async (token: string) => {
    const res = await h.call("GET", "/billing", token);
    expect(res.status).toBe(200);
    expect(decode(BillingOverview, res.body).ok).toBe(true);
    return res.body as typeof BillingOverview.Type;
  };
  const productOf = async (token: string, product = "simAssets") =>
    (await overview(token)).products.find((p) => p.product === product)!;
  const subOf = async (clientId: number, product = "simAssets") =>
    (
      await database.db.select().from(subscriptions).where(eq(subscriptions.clientId, clientId))
    ).find((s) => s.product === product)!;
  /** Moves the account's clock forward through the API, like a browser walk does. */
  const move = async (token: string, days: number) => {
    const res = await h.call("POST", "/billing/test-clock", token, { days });
    expect(res.status).toBe(200);
    return res.body as typeof BillingOverview.Type;
  };
  /** Days from the (real) now to a date, and a minute more. */
  const daysUntil = (date: Date) => (date.getTime() - h.clock.now().getTime() + 60_000) / dayMs;
  const renewalsOf = async (clientId: number) =>
    (await database.db.select().from(payments).where(eq(payments.clientId, clientId))).filter(
      (p) => p.kind === "renewal",
    );
  const mails = async (email: string, purpose: string) =>
    (await h.emailsTo(email)).filter((m) => m.purpose === purpose);

  it("is refused without SANDBOX_TEST_CLOCK=true, and with any provider but the sandbox", async () => {
    const off = await billingApp(database, { clock: testClock(START) });
    const u = await off.payer();
    expect(await off.call("POST", "/billing/test-clock", u.token, { days: 1 })).toMatchObject({
      status: 403,
      body: { msgCode: "TEST_CLOCK_DISABLED" },
    });
    const other = await billingApp(database, {
      clock: testClock(START),
      env: { SANDBOX_TEST_CLOCK: "true" },
      provider: { ...h.app.billing.provider, name: "other" },
    });
    expect(
      (await other.call("POST", "/billing/test-clock", u.token, { days: 1 })).body.msgCode,
    ).toBe("TEST_CLOCK_DISABLED");
    expect((await h.call("POST", "/billing/test-clock", u.token, { days: 0 })).status).toBe(400);
    expect((await h.call("POST", "/billing/test-clock", null, { days: 1 })).status).toBe(401);
    // The credit given by hand sits behind the same switch.
    const credit = { cents: 500, currency: "EUR" };
    expect(await off.call("POST", "/billing/test-credit", u.token, credit)).toMatchObject({
      status: 403,
      body: { msgCode: "TEST_CLOCK_DISABLED" },
    });
    expect((await other.call("POST", "/billing/test-credit", u.token, credit)).body.msgCode).toBe(
      "TEST_CLOCK_DISABLED",
    );
    expect((await overview(u.token)).balances).toEqual([]);
    expect(
      (await h.call("POST", "/billing/test-credit", u.token, { cents: 0, currency: "EUR" })).status,
    ).toBe(400);
    expect((await h.call("POST", "/billing/test-credit", null, credit)).status).toBe(401);
  });

  it("renews at the period end: the card is charged once, with its invoice and receipt", async () => {
    const u = await h.payer();
    await h.buy(u.token, { tier: "standard", period: "monthly" });
    const end = (await subOf(u.id)).expiryDate!;
    await move(u.token, daysUntil(end) - 1);
    expect(await renewalsOf(u.id)).toHaveLength(0);
    const after = await move(u.token, 1);
    const renewals = await renewalsOf(u.id);
    expect(renewals.map((r) => [r.status, r.amountCents])).toEqual([["succeeded", 990]]);
    const product = after.products.find((p) => p.product === "simAssets")!;
    expect(product.state).toBe("active");
    expect(new Date(product.next!.date).getTime()).toBeGreaterThan(h.clock.now().getTime());
    expect(after.invoices[0]).toMatchObject({ totalCents: 990 });
    expect(await mails(u.email, "billing-receipt")).toHaveLength(2);
    // Moving again the same day charges nothing more.
    await move(u.token, 0.01);
    expect(await renewalsOf(u.id)).toHaveLength(1);
  });

  it.each(["en", "es"] as const)(
    "retries a failed renewal on days 1, 3 and 7 with an email each time, then ends the plan (%s)",
    async (language) => {
      const u = await h.payer({ language });
      // The sandbox's card that pays now and is declined at renewals.
      const bought = await h.buy(
        u.token,
        { tier: "standard", period: "monthly" },
        "4000 0000 0000 0341",
      );
      expect(bought.payment.status).toBe("succeeded");
      const sub = await subOf(u.id);
      const steps = [
        [daysUntil(sub.expiryDate!), "pastDue", 1],
        [1, "pastDue", 2],
        [2, "pastDue", 3],
        [4, "free", 4],
      ] as const;
      for (const [days, state, failures] of steps) {
        await move(u.token, days);
        const p = await productOf(u.token);
        expect([state, failures]).toEqual([p.state, p.renewalFailures]);
        const failed = await mails(u.email, "billing-payment-failed");
        expect(failed).toHaveLength(failures);
        const last = failed.at(-1)!;
        if (language === "es") expect(last.subject).toContain("No hemos podido cobrar");
        else expect(last.subject).toContain("We could not charge");
        if (failures === 4)
          expect(last.text).toContain(language === "es" ? "último intento" : "last attempt");
      }
      expect((await renewalsOf(u.id)).map((r) => r.status)).toEqual([
        "failed",
        "failed",
        "failed",
        "failed",
      ]);
      const perms = await h.call("GET", "/client", u.token);
      expect(perms.body.permissions.simAssets.analysis.var).toBe(false);
    },
  );

  it("warns three days before a trial ends, then the account is free again", async () => {
    const u = await h.payer({ language: "es" });
    expect((await h.call("POST", "/billing/trial", u.token, { product: "simAssets" })).status).toBe(
      200,
    );
    await move(u.token, 10);
    expect(await mails(u.email, "billing-trial-ending")).toHaveLength(0);
    await move(u.token, 1.01);
    const warned = await mails(u.email, "billing-trial-ending");
    expect(warned).toHaveLength(1);
    expect(warned[0]!.subject).toContain("Tu prueba");
    expect((await productOf(u.token)).state).toBe("trial");
    await move(u.token, 3);
    expect((await productOf(u.token)).state).toBe("free");
    expect(await mails(u.email, "billing-plan-ended")).toHaveLength(1);
    expect(await mails(u.email, "billing-trial-ending")).toHaveLength(1);
  });

  it("keeps a cancelled plan until its date, then ends it without charging", async () => {
    const u = await h.payer();
    await h.buy(u.token, { tier: "standard", period: "monthly" });
    expect(
      (await h.call("POST", "/cancel-subscription", u.token, { product: "simAssets" })).status,
    ).toBe(200);
    const end = (await subOf(u.id)).expiryDate!;
    await move(u.token, daysUntil(end) - 2);
    expect((await productOf(u.token)).state).toBe("cancelled");
    await move(u.token, 2);
    expect((await productOf(u.token)).state).toBe("free");
    expect(await renewalsOf(u.id)).toHaveLength(0);
    expect(await mails(u.email, "billing-plan-ended")).toHaveLength(1);
  });

  it("applies a scheduled downgrade at the period end and charges the lower plan", async () => {
    const u = await h.payer();
    await h.buy(u.token, { tier: "advanced", period: "monthly" });
    const scheduled = await h.call("POST", "/billing/schedule", u.token, {
      product: "simAssets",
      tier: "standard",
      period: "monthly",
    });
    expect(scheduled.status).toBe(200);
    await move(u.token, daysUntil((await subOf(u.id)).expiryDate!));
    const renewals = await renewalsOf(u.id);
    expect(renewals.map((r) => [r.tier, r.status, r.amountCents])).toEqual([
      ["standard", "succeeded", 990],
    ]);
    const p = await productOf(u.token);
    expect([p.subscription.tier, p.period, p.scheduledChange]).toEqual([
      "standard",
      "monthly",
      null,
    ]);
  });

  it("splits standard annual to advanced monthly: advanced now, prorated; monthly from the year's end", async () => {
    const u = await h.payer();
    await h.buy(u.token, { tier: "standard", period: "annual" });
    const sub = await subOf(u.id);
    // Half way through the year.
    const half = (sub.expiryDate!.getTime() - sub.periodStart!.getTime()) / 2 / dayMs;
    await move(u.token, half);
    const choice = { product: "simAssets", tier: "advanced", period: "monthly", currency: "EUR" };
    const quote = (await h.call("POST", "/billing/quote", u.token, choice)).body;
    expect(quote).toMatchObject({ change: "upgrade", appliesAt: "now", balanceAddedCents: 0 });
    expect(quote.then).toMatchObject({ tier: "advanced", period: "monthly" });
    // 199.00 x r - 99.00 x r, r one half (to a second): 100.00 / 2.
    expect(Math.abs(quote.chargeNowCents - 5000)).toBeLessThanOrEqual(1);
    const checkout = await h.call("POST", "/billing/checkout", u.token, {
      ...choice,
      idempotencyKey: h.key(),
      quoteId: quote.quoteId,
    });
    expect(checkout.body.payment.amountCents).toBe(quote.chargeNowCents);
    await h.payAtSandbox(checkout.body.payment.redirectUrl, "4242 4242 4242 4242");
    const p = await productOf(u.token);
    expect([p.subscription.tier, p.period]).toEqual(["advanced", "annual"]);
    expect(p.scheduledChange).toMatchObject({ tier: "advanced", period: "monthly" });
    const upgradeInvoice = (await overview(u.token)).invoices[0]!;
    expect(upgradeInvoice.totalCents).toBe(quote.chargeNowCents);
    expect(upgradeInvoice.lines.map((l) => l.kind)).toEqual(["plan", "credit"]);
    // At the year's end, advanced monthly renews at its full price.
    await move(u.token, daysUntil((await subOf(u.id)).expiryDate!));
    const renewals = await renewalsOf(u.id);
    expect(renewals.map((r) => [r.tier, r.period, r.amountCents, r.status])).toEqual([
      ["advanced", "monthly", 1990, "succeeded"],
    ]);
  });

  it("uses the account balance before the card on the next charges, and shows it", async () => {
    const u = await h.payer();
    await h.buy(u.token, { tier: "standard", period: "monthly" });
    await database.db
      .insert(balanceEntries)
      .values({ clientId: u.id, currency: "EUR", amountCents: 1500, reason: "manual" });
    expect((await overview(u.token)).balances).toEqual([{ currency: "EUR", cents: 1500 }]);
    // The billing screen's renewal line: the balance pays all of it.
    expect((await productOf(u.token)).next).toMatchObject({
      event: "renewal",
      amountCents: 990,
      balanceUsedCents: 990,
    });
    // First renewal: 9.90 all from the balance (no card charged), 5.10 left.
    await move(u.token, daysUntil((await subOf(u.id)).expiryDate!));
    let renewals = await renewalsOf(u.id);
    expect(renewals.map((r) => [r.amountCents, r.balanceUsedCents, r.status])).toEqual([
      [0, 990, "succeeded"],
    ]);
    expect(renewals[0]!.providerRef).toMatch(/^internal-/);
    expect((await overview(u.token)).balances).toEqual([{ currency: "EUR", cents: 510 }]);
    expect((await productOf(u.token)).next).toMatchObject({
      amountCents: 990,
      balanceUsedCents: 510,
    });
    // Second renewal: 5.10 from the balance, 4.80 on the card; the invoice shows both.
    await move(u.token, daysUntil((await subOf(u.id)).expiryDate!));
    renewals = await renewalsOf(u.id);
    expect(renewals.map((r) => [r.amountCents, r.balanceUsedCents, r.status])).toEqual([
      [0, 990, "succeeded"],
      [480, 510, "succeeded"],
    ]);
    expect((await overview(u.token)).balances).toEqual([]);
    expect((await productOf(u.token)).next).toMatchObject({
      amountCents: 990,
      balanceUsedCents: 0,
    });
    const [invoice] = (await overview(u.token)).invoices;
    expect(invoice!.lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ["plan", 990],
      ["balanceUsed", -510],
    ]);
    expect(invoice!.totalCents).toBe(480);
    // The receipt says where the money came from.
    const receipt = (await mails(u.email, "billing-receipt")).at(-1)!;
    expect(receipt.text).toContain(
      "We used €5.10 of your account balance and charged €4.80 to your card",
    );
  });

  it("gives a credit by hand through the sandbox's switch, used by the earliest charge first", async () => {
    const u = await h.payer();
    await h.buy(u.token, { product: "simMonk", tier: "standard", period: "monthly" });
    // A day later: hollytools renews after the banana challenge.
    await move(u.token, 1);
    await h.buy(u.token, { tier: "standard", period: "monthly" });
    const res = await h.call("POST", "/billing/test-credit", u.token, {
      cents: 1200,
      currency: "EUR",
    });
    expect(res.status).toBe(200);
    expect(decode(BillingOverview, res.body).ok).toBe(true);
    const view = res.body as typeof BillingOverview.Type;
    expect(view.balances).toEqual([{ currency: "EUR", cents: 1200 }]);
    const next = (product: string) => view.products.find((p) => p.product === product)!.next;
    // The banana challenge renews first and takes 4.90; hollytools' 9.90 gets the 7.10 left.
    expect(next("simMonk")).toMatchObject({ amountCents: 490, balanceUsedCents: 490 });
    expect(next("simAssets")).toMatchObject({ amountCents: 990, balanceUsedCents: 710 });
    const [entry] = await database.db
      .select()
      .from(balanceEntries)
      .where(eq(balanceEntries.clientId, u.id));
    expect(entry).toMatchObject({ amountCents: 1200, reason: "manual", paymentId: null });
    // Both due in one run of the job: they take the balance in that order, 2.80 on the card.
    await move(u.token, daysUntil((await subOf(u.id)).expiryDate!));
    expect(
      (await renewalsOf(u.id)).map((r) => [r.product, r.amountCents, r.balanceUsedCents]).sort(),
    ).toEqual([
      ["simAssets", 280, 710],
      ["simMonk", 0, 490],
    ]);
  });

  it("charges nothing and opens no card page when the balance covers a purchase", async () => {
    const u = await h.payer();
    await database.db
      .insert(balanceEntries)
      .values({ clientId: u.id, currency: "EUR", amountCents: 1000, reason: "manual" });
    const checkout = await h.call("POST", "/billing/checkout", u.token, {
      product: "simMonk",
      tier: "standard",
      period: "monthly",
      currency: "EUR",
      idempotencyKey: h.key(),
    });
    expect(checkout.body.payment).toMatchObject({
      status: "succeeded",
      amountCents: 0,
      redirectUrl: null,
    });
    expect(checkout.body.quote).toMatchObject({ chargeNowCents: 0, balanceUsedCents: 490 });
    const view = await overview(u.token);
    expect(view.balances).toEqual([{ currency: "EUR", cents: 510 }]);
    expect(view.invoices[0]).toMatchObject({ totalCents: 0 });
    expect(view.products.find((p) => p.product === "simMonk")!.state).toBe("active");
  });

  it("runs the billing job on two instances at once and charges a renewal once", async () => {
    const second = await billingApp(database, { clock: h.clock });
    const u = await h.payer();
    await h.buy(u.token, { tier: "standard", period: "monthly" });
    await shiftAccountClock(database.db, u.id, daysUntil((await subOf(u.id)).expiryDate!));
    await Promise.all([
      runBillingJobs(h.app.billingDeps, h.app.billing),
      runBillingJobs(second.app.billingDeps, second.app.billing),
      runBillingJobs(second.app.billingDeps, second.app.billing),
    ]);
    const renewals = await renewalsOf(u.id);
    expect(renewals.map((r) => r.status)).toEqual(["succeeded"]);
    const rows = await database.db.select().from(invoices).where(eq(invoices.clientId, u.id));
    expect(rows).toHaveLength(2);
    expect(await mails(u.email, "billing-receipt")).toHaveLength(2);
  });
});

describe.each(databaseTargets)("what is confirmed is charged, on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
  });
  afterAll(() => drop());

  it("honours a quote for 30 minutes across midnight, and asks again after", async () => {
    const clock = testClock(new Date("2026-11-24T23:59:00Z"));
    const h = await billingApp(database, { clock });
    const u = await h.payer();
    clock.set(new Date("2026-11-10T12:00:00Z"));
    await h.buy(u.token, { product: "simMonk", tier: "standard", period: "monthly" });
    clock.set(new Date("2026-11-24T23:59:00Z"));
    const choice = { product: "simMonk", tier: "advanced", period: "monthly", currency: "EUR" };
    const quote = (await h.call("POST", "/billing/quote", u.token, choice)).body;
    // 15 d 12 h 1 min of 30 days left: round(9.90 x r) - round(4.90 x r).
    expect(quote).toMatchObject({ newPlanCents: 512, creditCents: 253, chargeNowCents: 259 });
    expect(quote.validUntil).toBe("2026-11-25T00:29:00.000Z");

    // Paid at 00:20: the confirmed figure, not one recomputed at payment time.
    clock.set(new Date("2026-11-25T00:20:00Z"));
    const fresh = (await h.call("POST", "/billing/quote", u.token, choice)).body;
    expect(fresh.chargeNowCents).not.toBe(quote.chargeNowCents);
    const paid = await h.call("POST", "/billing/checkout", u.token, {
      ...choice,
      idempotencyKey: h.key(),
      quoteId: quote.quoteId,
    });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.amountCents).toBe(259);
    expect(paid.body.quote.chargeNowCents).toBe(259);

    // A quote read at 00:20 and confirmed at 00:51 is refused: the screen shows the new figure.
    clock.set(new Date("2026-11-25T00:51:00Z"));
    const late = await h.call("POST", "/billing/checkout", u.token, {
      ...choice,
      idempotencyKey: h.key(),
      quoteId: fresh.quoteId,
    });
    expect(late).toMatchObject({ status: 409, body: { msgCode: "QUOTE_EXPIRED" } });
    // Another client's quote, or one for another plan, is refused too.
    const other = await h.payer();
    expect(
      (
        await h.call("POST", "/billing/checkout", other.token, {
          ...choice,
          idempotencyKey: h.key(),
          quoteId: quote.quoteId,
        })
      ).body.msgCode,
    ).toBe("QUOTE_EXPIRED");
  });

  it("says on a replaced checkout's page that nothing was charged there, in the payer's language", async () => {
    const h = await billingApp(database, { clock: testClock(START) });
    for (const [language, words] of [
      ["en", "This checkout was replaced by a newer one; nothing was charged here."],
      ["es", "Este pago se sustituyó por otro más reciente; aquí no se cobró nada."],
    ] as const) {
      const u = await h.payer({ language });
      const open = () =>
        h.call("POST", "/billing/checkout", u.token, {
          product: "simAssets",
          tier: "standard",
          period: "monthly",
          currency: "EUR",
          idempotencyKey: h.key(),
        });
      const first = await open();
      await open();
      const page = await (await h.app.request(first.body.payment.redirectUrl)).text();
      expect(page).toContain(words);
      const payment = await h.call("GET", `/billing/payments/${first.body.payment.id}`, u.token);
      expect(payment.body).toMatchObject({ status: "cancelled", failureCode: "superseded" });
    }
  });

  it("prints invoices in the client's language whatever screen asks, and prefills invoice details", async () => {
    const h = await billingApp(database, { clock: testClock(START) });
    const fresh = await h.client({ language: "es" });
    await database.db
      .update(clients)
      .set({ countryId: "es", city: "Sevilla" })
      .where(eq(clients.id, fresh.id));
    const info = await h.call("GET", "/client/invoice-info", fresh.token);
    expect(info.body).toMatchObject({ name: "Ada Payer", country: "ES", city: "Sevilla" });

    const u = await h.payer({ language: "es" });
    await h.buy(u.token, { tier: "standard", period: "monthly" });
    const [invoice] = (await h.call("GET", "/billing", u.token)).body.invoices;
    const pdf = await h.app.request(`/api/billing/invoices/${invoice.number}/pdf?lang=en`, {
      headers: { Authorization: `Bearer ${u.token}` },
    });
    const text = Buffer.from(await pdf.arrayBuffer()).toString("latin1");
    expect(text).toContain("Factura");
    expect(text).not.toContain("Invoice");
  });
});
