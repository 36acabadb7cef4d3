/**
 * The account balance (PRODUCT.md "Never a negative charge", docs/billing.md "Account balance"):
 * credit above what a change costs is carried to it, and it is used before the card on the next
 * charges. It is the sum of its entries (one per payment and reason), less what open payments
 * have reserved; a reservation is made while the client's row is locked (a checkout, a renewal's
 * claim), so two charges never use the same cents.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BillingCurrency, ProductBilling } from "../../contract/billing.ts";
import type { Db } from "../db/database.ts";
import { balanceEntries, payments } from "../db/schema.ts";

/** What the client has on account in a currency and can use now (reservations of open payments deducted). */
export async function availableBalance(
  db: Db,
  clientId: number,
  currency: BillingCurrency,
): Promise<number> {
  const [entries] = await db
    .select({ cents: sql<string>`coalesce(sum(${balanceEntries.amountCents}), 0)` })
    .from(balanceEntries)
    .where(and(eq(balanceEntries.clientId, clientId), eq(balanceEntries.currency, currency)));
  const [reserved] = await db
    .select({ cents: sql<string>`coalesce(sum(${payments.balanceUsedCents}), 0)` })
    .from(payments)
    .where(
      and(
        eq(payments.clientId, clientId),
        eq(payments.currency, currency),
        inArray(payments.status, ["pending", "requires_action"]),
      ),
    );
  return Math.max(0, Number(entries?.cents ?? 0) - Number(reserved?.cents ?? 0));
}

/** The balances shown on the billing screen (currencies with money on account). */
export async function balancesOf(
  db: Db,
  clientId: number,
): Promise<{ currency: BillingCurrency; cents: number }[]> {
  const out: { currency: BillingCurrency; cents: number }[] = [];
  for (const currency of ["EUR", "USD"] as const) {
    const cents = await availableBalance(db, clientId, currency);
    if (cents > 0) out.push({ currency, cents });
  }
  return out;
}

/** Records what a successful payment did to the balance (once per payment and reason). */
export async function recordBalance(
  tx: Db,
  payment: {
    id: string;
    clientId: number;
    currency: string;
    balanceUsedCents: number;
    balanceAddedCents: number;
  },
): Promise<void> {
  const rows = [
    ...(payment.balanceUsedCents > 0
      ? [{ reason: "used", amountCents: -payment.balanceUsedCents }]
      : []),
    ...(payment.balanceAddedCents > 0
      ? [{ reason: "credit", amountCents: payment.balanceAddedCents }]
      : []),
  ];
  if (rows.length === 0) return;
  await tx
    .insert(balanceEntries)
    .values(
      rows.map((r) => ({
        clientId: payment.clientId,
        currency: payment.currency,
        paymentId: payment.id,
        ...r,
      })),
    )
    .onConflictDoNothing();
}

/**
 * What the balance will pay of each product's next charge (renewal, scheduled change or retry):
 * the balance is used before the card, so the charges of a currency take it in date order, the
 * earliest first, as the billing job will. The screen then says what the card is charged.
 */
export function withBalanceUsed(
  products: readonly ProductBilling[],
  balances: readonly { currency: BillingCurrency; cents: number }[],
): ProductBilling[] {
  const left = new Map(balances.map((b) => [b.currency, b.cents]));
  const used = new Map<string, number>();
  const charges = products
    .filter((p) => p.next && p.next.event !== "ends" && p.next.amountCents && p.currency)
    .sort((a, b) => Date.parse(a.next!.date) - Date.parse(b.next!.date));
  for (const p of charges) {
    const available = left.get(p.currency!) ?? 0;
    const cents = Math.min(available, p.next!.amountCents!);
    left.set(p.currency!, available - cents);
    used.set(p.product, cents);
  }
  return products.map((p) =>
    p.next && used.has(p.product)
      ? { ...p, next: { ...p.next, balanceUsedCents: used.get(p.product)! } }
      : p,
  );
}

/**
 * A credit given by hand (docs/billing.md "Never a negative charge"): an entry without a payment.
 * Only the sandbox's test switch reaches it (POST /billing/test-credit).
 */
export async function giveCredit(
  db: Db,
  clientId: number,
  currency: BillingCurrency,
  cents: number,
): Promise<void> {
  await db
    .insert(balanceEntries)
    .values({ clientId, currency, amountCents: cents, reason: "manual" });
}
