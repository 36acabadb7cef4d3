// Billing end to end through the API and the sandbox's pages: trial, purchase, upgrade with
// proration, invoices, declined and authenticated cards, cancel and reactivate, scheduled
// downgrades, renewals with retries, and the account kinds that may not pay.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPeriod, isoDay, planIdFor, vatOf } from "../../src/contract/billing.ts";
import { decode } from "../../src/contract/decode.ts";
import { BillingOverview, Quote } from "../../src/contract/billing.ts";
import { Client } from "../../src/contract/accounts.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  invoices,
  payments,
  portfolios,
  sandboxCards,
  subscriptions,
} from "../../src/server/db/schema.ts";
import { billingApp, testClock, type BillingHarness } from "../support/billing.ts";
import { databaseTargets } from "../support/databases.ts";

describe.each(databaseTargets)("billing on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let h: BillingHarness;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    h = await billingApp(database, { clock: testClock(new Date("2026-11-24T10:00:00Z")) });
  });
  afterAll(() => drop());

  const permissions = async (token: string) => {
    const res = await h.call("GET", "/client", token);
    const decoded = decode(Client, res.body);
    if (!decoded.ok) throw new Error("GET /client broke the contract");
    return decoded.value;
  };
  const overview = async (token: string) => {
    const res = await h.call("GET", "/billing", token);
    expect(res.status).toBe(200);
    expect(decode(BillingOverview, res.body).ok).toBe(true);
    return res.body as typeof BillingOverview.Type;
  };
  const assets = async (token: string) =>
    (await overview(token)).products.find((p) => p.product === "simAssets")!;

  it("lists every paid plan with its price, plan id and annual saving", async () => {
    const eur = await h.call("GET", "/billing/plans?currency=EUR", null);
    expect(eur.status).toBe(200);
    const find = (product: string, tier: string, period: string) =>
      eur.body.plans.find(
        (p: any) => p.product === product && p.tier === tier && p.period === period,
      );
    expect(find("simAssets", "standard", "monthly").priceCents).toBe(990);
    expect(find("simAssets", "advanced", "annual")).toMatchObject({
      priceCents: 19900,
      savingCents: 3980,
    });
    expect(find("simIndices", "standard", "monthly")).toBeUndefined();
    expect(find("simIndices", "advanced", "monthly").planId).toBe(7);
    const usd = await h.call("GET", "/billing/plans?currency=USD", null);
    expect(usd.body.plans.every((p: any) => p.planId === planIdFor(p.product, "USD"))).toBe(true);
    expect((await h.call("GET", "/billing/plans?currency=GBP", null)).status).toBe(400);
  });

  it("walks a user from trial to standard, upgrade to advanced annual, cancel, reactivate and downgrade", async () => {
    const u = await h.payer({ language: "es" });
    expect((await permissions(u.token)).permissions.simAssets.analysis.var).toBe(false);

    // Trial: the advanced tier's permissions for 14 days, once.
    const trial = await h.call("POST", "/billing/trial", u.token, { product: "simAssets" });
    expect(trial.status).toBe(200);
    expect(trial.body.products[0]).toMatchObject({ state: "trial", trialAvailable: false });
    const duringTrial = await permissions(u.token);
    expect(duringTrial.trialEndsAt).not.toBeNull();
    expect(duringTrial.permissions.simAssets.analysis.componentRisk2).toBe(true);
    const again = await h.call("POST", "/billing/trial", u.token, { product: "simMonk" });
    expect(again).toMatchObject({ status: 409, body: { msgCode: "TRIAL_USED" } });

    // Standard monthly with the card that succeeds.
    const bought = await h.buy(u.token, { tier: "standard", period: "monthly" });
    expect(bought.checkout.body.quote).toMatchObject({
      change: "upgrade",
      chargeNowCents: 990,
      creditCents: 0,
    });
    expect(bought.payment).toMatchObject({
      status: "succeeded",
      kind: "purchase",
      amountCents: 990,
    });
    expect(bought.payment.invoiceNumber).toMatch(/^2026-\d{6}$/);
    const standard = await permissions(u.token);
    expect(standard.trialEndsAt).toBeNull();
    expect(standard.subscriptions.simAssets).toMatchObject({
      tier: "standard",
      active: true,
      cancelled: false,
      subscriptionTypeId: 5,
    });
    expect(standard.permissions.simAssets.analysis.var).toBe(true);
    expect(standard.permissions.simAssets.analysis.componentRisk2).toBe(false);
    const receipt = (await h.emailsTo(u.email)).find((e) => e.purpose === "billing-receipt");
    expect(receipt?.subject).toContain("Recibo");
    expect(receipt?.text).toContain("9,90");

    // The invoice: one line, VAT 21% included, a PDF in the client's language.
    const first = await overview(u.token);
    expect(first.invoices).toHaveLength(1);
    expect(first.invoices[0]).toMatchObject({ totalCents: 990, vatCents: vatOf(990) });
    expect(vatOf(990)).toBe(172);
    const pdf = await h.app.request(`/api/billing/invoices/${first.invoices[0]!.number}/pdf`, {
      headers: { Authorization: `Bearer ${u.token}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const pdfText = Buffer.from(await pdf.arrayBuffer()).toString("latin1");
    expect(pdfText.startsWith("%PDF-")).toBe(true);
    expect(pdfText).toContain("Factura");

    // Upgrade to advanced annual, 10 days into the month: the documented formula, to the cent.
    h.clock.advanceDays(10);
    const sub = (
      await database.db.select().from(subscriptions).where(eq(subscriptions.clientId, u.id))
    )[0]!;
    // Elapsed time, in seconds (PRODUCT.md "Proration"), not whole UTC days.
    const periodSeconds = (sub.expiryDate!.getTime() - sub.periodStart!.getTime()) / 1000;
    const remaining = (sub.expiryDate!.getTime() - h.clock.now().getTime()) / 1000;
    const credit = Math.round((990 * remaining) / periodSeconds);
    const choice = { product: "simAssets", tier: "advanced", period: "annual", currency: "EUR" };
    const quote = await h.call("POST", "/billing/quote", u.token, choice);
    expect(decode(Quote, quote.body).ok).toBe(true);
    expect(quote.body).toMatchObject({
      change: "upgrade",
      appliesAt: "now",
      creditCents: credit,
      newPlanCents: 19900,
      chargeNowCents: 19900 - credit,
      remainingSeconds: remaining,
      periodSeconds,
    });
    const upgraded = await h.buy(u.token, choice);
    expect(upgraded.payment).toMatchObject({
      status: "succeeded",
      kind: "upgrade",
      amountCents: 19900 - credit,
    });
    const advanced = await permissions(u.token);
    expect(advanced.subscriptions.simAssets.tier).toBe("advanced");
    expect(advanced.permissions.simAssets.analysis.componentRisk2).toBe(true);
    const [invoice] = (await overview(u.token)).invoices;
    expect(invoice).toMatchObject({ totalCents: 19900 - credit });
    expect(invoice!.lines).toEqual([
      expect.objectContaining({
        kind: "plan",
        tier: "advanced",
        period: "annual",
        amountCents: 19900,
      }),
      expect.objectContaining({
        kind: "credit",
        tier: "standard",
        period: "monthly",
        amountCents: -credit,
      }),
    ]);
    const year = await assets(u.token);
    expect(isoDay(new Date(year.next!.date))).toBe(isoDay(addPeriod(h.clock.now(), "annual")));

    // Cancel keeps the plan until its date; reactivate clears it.
    const cancelled = await h.call("POST", "/cancel-subscription", u.token, {
      product: "simAssets",
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.products[0]).toMatchObject({
      state: "cancelled",
      subscription: { cancelled: true, tier: "advanced" },
    });
    expect(
      (await h.call("POST", "/cancel-subscription", u.token, { product: "simAssets" })).body
        .msgCode,
    ).toBe("ALREADY_CANCELLED");
    expect((await permissions(u.token)).permissions.simAssets.analysis.componentRisk2).toBe(true);
    const reactivated = await h.call("POST", "/reactivate-subscription", u.token, {
      product: "simAssets",
    });
    expect(reactivated.body.products[0]).toMatchObject({
      state: "active",
      subscription: { cancelled: false },
    });
    expect(
      (await h.call("POST", "/reactivate-subscription", u.token, { product: "simAssets" })).body
        .msgCode,
    ).toBe("NOT_CANCELLED");

    // Downgrade: nothing now, scheduled for the period end; checkout refuses it.
    const down = { product: "simAssets", tier: "standard", period: "monthly" };
    expect(
      (
        await h.call("POST", "/billing/checkout", u.token, {
          ...down,
          currency: "EUR",
          idempotencyKey: h.key(),
        })
      ).body.msgCode,
    ).toBe("PLAN_IS_DOWNGRADE");
    const downQuote = await h.call("POST", "/billing/quote", u.token, { ...down, currency: "EUR" });
    expect(downQuote.body).toMatchObject({
      change: "downgrade",
      appliesAt: "periodEnd",
      chargeNowCents: 0,
      nextChargeCents: 990,
    });
    const scheduled = await h.call("POST", "/billing/schedule", u.token, down);
    expect(scheduled.status).toBe(200);
    const withChange = scheduled.body.products[0];
    expect(withChange.scheduledChange).toMatchObject({ tier: "standard", period: "monthly" });
    expect(withChange.next).toMatchObject({ event: "change", amountCents: 990 });
    expect((await permissions(u.token)).subscriptions.simAssets.tier).toBe("advanced");

    // At the period end the job applies it and charges the standard plan on the kept card.
    h.clock.set(new Date(new Date(withChange.next.date).getTime() + 60_000));
    const run = await h.runJobs();
    expect(run).toMatchObject({ renewed: 1, changed: 1 });
    const after = await assets(u.token);
    expect(after).toMatchObject({
      state: "active",
      period: "monthly",
      subscription: { tier: "standard" },
    });
    const renewal = (await overview(u.token)).invoices[0]!;
    expect(renewal).toMatchObject({ totalCents: 990 });
    expect((await h.runJobs()).renewed).toBe(0);
  });

  it("refuses a declined card, a card without funds and a failed authentication, changing nothing", async () => {
    const u = await h.payer();
    for (const [card, code] of [
      ["4000 0000 0000 0002", "card_declined"],
      ["4000 0000 0000 9995", "insufficient_funds"],
    ] as const) {
      const { payment } = await h.buy(u.token, { tier: "standard", period: "monthly" }, card);
      expect(payment).toMatchObject({ status: "failed", failureCode: code, invoiceNumber: null });
    }
    // The authentication card: the challenge page, then failure.
    const checkout = await h.call("POST", "/billing/checkout", u.token, {
      product: "simAssets",
      tier: "standard",
      period: "monthly",
      currency: "EUR",
      idempotencyKey: h.key(),
    });
    const paid = await h.payAtSandbox(checkout.body.payment.redirectUrl, "4000 0027 6000 3184");
    expect(paid.location).toMatch(/^\/sandbox\/challenge\//);
    const waiting = await h.call("GET", `/billing/payments/${checkout.body.payment.id}`, u.token);
    expect(waiting.body).toMatchObject({ status: "requires_action", redirectUrl: paid.location });
    const failed = await h.answerChallenge(paid.location!, false);
    expect(failed.location).toBe(`/en/payment-complete?payment=${checkout.body.payment.id}`);
    const status = await h.call("GET", `/billing/payments/${checkout.body.payment.id}`, u.token);
    expect(status.body).toMatchObject({ status: "failed", failureCode: "authentication_failed" });
    expect((await permissions(u.token)).subscriptions.simAssets.tier).toBe("free");
    expect((await overview(u.token)).invoices).toHaveLength(0);

    // The same card, approved: the plan starts.
    const retry = await h.call("POST", "/billing/checkout", u.token, {
      product: "simAssets",
      tier: "standard",
      period: "monthly",
      currency: "EUR",
      idempotencyKey: h.key(),
    });
    const challenge = await h.payAtSandbox(retry.body.payment.redirectUrl, "4000002760003184");
    await h.answerChallenge(challenge.location!, true);
    const ok = await h.call("GET", `/billing/payments/${retry.body.payment.id}`, u.token);
    expect(ok.body).toMatchObject({ status: "succeeded" });
    expect((await permissions(u.token)).subscriptions.simAssets.tier).toBe("standard");
  });

  it("keeps a checkout open on a mistyped card, and closes an abandoned one", async () => {
    const u = await h.payer();
    const checkout = await h.call("POST", "/billing/checkout", u.token, {
      product: "simMonk",
      tier: "standard",
      period: "annual",
      currency: "USD",
      idempotencyKey: h.key(),
    });
    expect(checkout.body.quote).toMatchObject({ chargeNowCents: 4900, currency: "USD" });
    const page = await h.app.request(checkout.body.payment.redirectUrl);
    expect(await page.text()).toContain("4242 4242 4242 4242");
    const typo = await h.payAtSandbox(checkout.body.payment.redirectUrl, "4242 4242 4242 4241");
    expect(typo.status).toBe(422);
    expect(typo.html).toContain("not valid");
    const past = await h.payAtSandbox(
      checkout.body.payment.redirectUrl,
      "4242424242424242",
      "01/20",
    );
    expect(past.status).toBe(422);
    const cancel = await h.app.request(`${checkout.body.payment.redirectUrl}/cancel`, {
      method: "POST",
    });
    expect(cancel.headers.get("location")).toContain("/en/payment-complete?payment=");
    const status = await h.call("GET", `/billing/payments/${checkout.body.payment.id}`, u.token);
    expect(status.body).toMatchObject({ status: "cancelled", failureCode: "abandoned" });
  });

  it("says what a downgrade means for saved portfolios, and deletes nothing", async () => {
    const u = await h.payer();
    await h.buy(u.token, { tier: "advanced", period: "monthly" });
    for (let i = 0; i < 7; i++)
      await database.db
        .insert(portfolios)
        .values({ clientId: u.id, product: "simAssets", name: `P${i}`, saved: true });
    const quote = await h.call("POST", "/billing/quote", u.token, {
      product: "simAssets",
      tier: "standard",
      period: "monthly",
      currency: "EUR",
    });
    expect(quote.body.overLimit).toEqual({ savedPortfolios: 7, saveLimit: 5 });
  });

  it("refuses the plan you have, a tier the product lacks, and a checkout without invoice info", async () => {
    const noInfo = await h.client();
    const body = {
      product: "simAssets",
      tier: "standard",
      period: "monthly",
      currency: "EUR",
      idempotencyKey: h.key(),
    };
    expect((await h.call("POST", "/billing/checkout", noInfo.token, body)).body.msgCode).toBe(
      "INVOICE_INFO_REQUIRED",
    );
    const u = await h.payer();
    await h.buy(u.token, { tier: "standard", period: "monthly" });
    const same = await h.call("POST", "/billing/checkout", u.token, {
      ...body,
      idempotencyKey: h.key(),
    });
    expect(same).toMatchObject({ status: 409, body: { msgCode: "PLAN_CURRENT" } });
    const missing = await h.call("POST", "/billing/checkout", u.token, {
      ...body,
      product: "simIndices",
      idempotencyKey: h.key(),
    });
    expect(missing).toMatchObject({ status: 400, body: { msgCode: "PLAN_INVALID" } });
    const badInfo = await h.call("PUT", "/client/invoice-info", u.token, {
      ...h.invoiceInfo,
      company: true,
      companyName: "",
    });
    expect(badInfo.status).toBe(400);
    const free = await h.client();
    expect(
      (await h.call("POST", "/cancel-subscription", free.token, { product: "simAssets" })).body
        .msgCode,
    ).toBe("NOT_SUBSCRIBED");
    expect(
      (await h.call("POST", "/billing/schedule/cancel", u.token, { product: "simAssets" })).body
        .msgCode,
    ).toBe("NO_SCHEDULED_CHANGE");
  });

  it("answers 403 to a TT account on every billing call, and 401 without a session", async () => {
    const tt = await h.client({ kind: "TT" });
    const plan = { product: "simAssets", tier: "standard", period: "monthly", currency: "EUR" };
    const calls: [string, string, unknown][] = [
      ["GET", "/billing", undefined],
      ["POST", "/billing/quote", plan],
      ["POST", "/billing/checkout", { ...plan, idempotencyKey: h.key() }],
      ["POST", "/billing/schedule", { product: "simAssets", tier: "standard", period: "monthly" }],
      ["POST", "/billing/schedule/cancel", { product: "simAssets" }],
      ["POST", "/billing/trial", { product: "simAssets" }],
      ["POST", "/cancel-subscription", { product: "simAssets" }],
      ["POST", "/reactivate-subscription", { product: "simAssets" }],
      ["GET", "/client/invoice-info", undefined],
      ["PUT", "/client/invoice-info", h.invoiceInfo],
      ["GET", "/billing/invoices/2026-000001/pdf", undefined],
    ];
    for (const [method, url, body] of calls) {
      const res = await h.call(method as "GET", url, tt.token, body);
      expect([url, res.status, res.body.msgCode]).toEqual([url, 403, "ACCOUNT_KIND_FORBIDDEN"]);
      expect((await h.call(method as "GET", url, null, body)).status).toBe(401);
    }
  });

  it("offers the trial only in the ht edition", async () => {
    const tt = await billingApp(database, { edition: "tt" });
    const u = await tt.client();
    expect(
      (await tt.call("POST", "/billing/trial", u.token, { product: "simAssets" })).body.msgCode,
    ).toBe("TRIAL_UNAVAILABLE");
  });

  it("warns three days before a trial ends, then the account is free again", async () => {
    const clock = testClock(new Date("2026-11-24T10:00:00Z"));
    const own = await billingApp(database, { clock });
    const u = await own.client({ language: "es" });
    await own.call("POST", "/billing/trial", u.token, { product: "simIndices" });
    clock.advanceDays(10.9);
    await own.runJobs();
    expect(await own.emailsTo(u.email)).toHaveLength(0);
    clock.advanceDays(0.2);
    await own.runJobs();
    expect((await own.emailsTo(u.email)).map((e) => e.purpose)).toEqual(["billing-trial-ending"]);
    await own.runJobs();
    expect(await own.emailsTo(u.email)).toHaveLength(1);
    clock.advanceDays(3);
    const run = await own.runJobs();
    expect(run.ended).toBeGreaterThanOrEqual(1);
    const view = (await own.call("GET", "/billing", u.token)).body.products.find(
      (p: any) => p.product === "simIndices",
    );
    expect(view).toMatchObject({ state: "free", subscription: { tier: "free" } });
    expect((await own.emailsTo(u.email)).map((e) => e.purpose)).toContain("billing-plan-ended");
  });

  it("retries a failed renewal on days 1, 3 and 7, keeping the plan meanwhile, then ends it", async () => {
    const clock = testClock(new Date("2026-11-24T10:00:00Z"));
    const own = await billingApp(database, { clock });
    const u = await own.payer();
    await own.buy(u.token, { tier: "standard", period: "monthly" });
    const [sub] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.clientId, u.id));
    // The kept card starts to be declined.
    await database.db
      .update(sandboxCards)
      .set({ behaviour: "declined" })
      .where(eq(sandboxCards.token, sub!.paymentMethod!));
    const due = sub!.expiryDate!;
    const at = (days: number) => new Date(due.getTime() + days * 86_400_000 + 60_000);
    for (const [day, state, failures] of [
      [0, "pastDue", 1],
      [1, "pastDue", 2],
      [3, "pastDue", 3],
      [7, "free", 4],
    ] as const) {
      clock.set(at(day));
      await own.runJobs();
      const view = (await own.call("GET", "/billing", u.token)).body.products[0];
      expect([day, view.state, view.renewalFailures]).toEqual([day, state, failures]);
      const perms = await own.call("GET", "/client", u.token);
      expect(perms.body.permissions.simAssets.analysis.var).toBe(state === "pastDue");
      // Running again at the same moment charges nothing more.
      await own.runJobs();
    }
    const failedCharges = await database.db
      .select()
      .from(payments)
      .where(eq(payments.clientId, u.id));
    expect(failedCharges.filter((p) => p.kind === "renewal")).toHaveLength(4);
    const mails = (await own.emailsTo(u.email)).filter(
      (e) => e.purpose === "billing-payment-failed",
    );
    expect(mails).toHaveLength(4);
    expect(mails.at(-1)!.text).toContain("last attempt");
  });

  it("numbers invoices per year without gaps, also when many clients pay at once", async () => {
    const buyers = await Promise.all(Array.from({ length: 8 }, () => h.payer()));
    await Promise.all(buyers.map((b) => h.buy(b.token, { tier: "standard", period: "monthly" })));
    const rows = await database.db
      .select({ year: invoices.year, seq: invoices.seq })
      .from(invoices);
    const seqs = rows
      .filter((r) => r.year === 2026)
      .map((r) => r.seq)
      .sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  });
});
