// PRODUCT.md "Money" as a property of the server (in process, on PGlite, a few bounded runs; the
// pure rules get hundreds of runs in tests/contract/billing-money.property.test.ts): any product,
// tier, period and currency, changes at any moment of the period (the sandbox's test clock moves
// the account), with or without a balance. After each history:
// - every checkout charged the amount its quote confirmed;
// - card charges - refunds + balance used - balance added = the sum of the invoices' plan and credit lines;
// - no invoice total is negative, and invoice numbers are gap-free.
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paidTiersOf, type Period } from "../../src/contract/billing.ts";
import { products, type Product } from "../../src/contract/common.ts";
import type { Database } from "../../src/server/db/database.ts";
import { balanceEntries, invoices, payments, refunds } from "../../src/server/db/schema.ts";
import { billingApp, testClock, type BillingHarness } from "../support/billing.ts";
import { databaseTargets } from "../support/databases.ts";

const pglite = databaseTargets.find((t) => t.name === "pglite")!;

describe("billing money property (server, PGlite)", () => {
  let database: Database;
  let drop: () => Promise<void>;
  let h: BillingHarness;
  beforeAll(async () => {
    ({ database, drop } = await pglite.open());
    h = await billingApp(database, {
      clock: testClock(new Date("2026-03-01T10:00:00Z")),
      env: { SANDBOX_TEST_CLOCK: "true" },
    });
  });
  afterAll(() => drop());

  const step = (product: Product) =>
    fc.record({
      days: fc.double({ min: 0.01, max: 200, noNaN: true }),
      tier: fc.constantFrom(...paidTiersOf(product)),
      period: fc.constantFrom<Period>("monthly", "annual"),
    });

  it("confirmed = charged, money conserved, no negative invoice, numbers without gaps", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...products).chain((product) =>
          fc.record({
            product: fc.constant(product),
            currency: fc.constantFrom("EUR", "USD"),
            balance: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })),
            steps: fc.array(step(product), { minLength: 1, maxLength: 4 }),
          }),
        ),
        async ({ product, currency, balance, steps }) => {
          const u = await h.payer();
          if (balance > 0)
            await database.db
              .insert(balanceEntries)
              .values({ clientId: u.id, currency, amountCents: balance, reason: "manual" });
          for (const s of steps) {
            const choice = { product, tier: s.tier, period: s.period, currency };
            const quote = (await h.call("POST", "/billing/quote", u.token, choice)).body;
            if (quote.change === "upgrade") {
              const checkout = await h.call("POST", "/billing/checkout", u.token, {
                ...choice,
                idempotencyKey: h.key(),
                quoteId: quote.quoteId,
              });
              // Another currency than the plan held is refused or charged; either way, as quoted.
              if (checkout.status === 200) {
                expect(checkout.body.payment.amountCents).toBe(quote.chargeNowCents);
                if (checkout.body.payment.redirectUrl)
                  await h.payAtSandbox(checkout.body.payment.redirectUrl, "4242 4242 4242 4242");
              }
            } else if (quote.change === "downgrade") {
              await h.call("POST", "/billing/schedule", u.token, choice);
            }
            await h.call("POST", "/billing/test-clock", u.token, { days: s.days });
          }
          const paid = (
            await database.db.select().from(payments).where(eq(payments.clientId, u.id))
          ).filter((p) => p.status === "succeeded");
          const refunded = await database.db.select().from(refunds);
          const refundOf = (id: string) =>
            refunded.filter((r) => r.paymentId === id).reduce((a, r) => a + r.amountCents, 0);
          const own = await database.db.select().from(invoices).where(eq(invoices.clientId, u.id));
          for (const i of own)
            if (i.kind === "charge") expect(i.totalCents).toBeGreaterThanOrEqual(0);
          const card = paid.reduce((a, p) => a + p.amountCents - refundOf(p.id), 0);
          const entries = await database.db
            .select()
            .from(balanceEntries)
            .where(eq(balanceEntries.clientId, u.id));
          const usedFromBalance = -entries
            .filter((e) => e.reason === "used")
            .reduce((a, e) => a + e.amountCents, 0);
          const addedToBalance = entries
            .filter((e) => e.reason === "credit")
            .reduce((a, e) => a + e.amountCents, 0);
          const planAndCredit = own
            .flatMap((i) => i.lines as { kind: string; amountCents: number }[])
            .filter((l) => l.kind === "plan" || l.kind === "credit" || l.kind === "refund")
            .reduce((a, l) => a + l.amountCents, 0);
          expect(card + usedFromBalance - addedToBalance).toBe(planAndCredit);
          expect(entries.reduce((a, e) => a + e.amountCents, 0)).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 6 },
    );
    const all = await database.db.select({ year: invoices.year, seq: invoices.seq }).from(invoices);
    for (const year of new Set(all.map((r) => r.year))) {
      const seqs = all
        .filter((r) => r.year === year)
        .map((r) => r.seq)
        .sort((a, b) => a - b);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
  });
});
