import { sql } from "drizzle-orm";
import type { Product } from "../../contract/common.ts";
import type { Tier } from "../../contract/permissions.ts";
import type { Db } from "../db/database.ts";
import { addPeriod } from "../../contract/billing.ts";
import { clients, sandboxCards, subscriptions } from "../db/schema.ts";
import { clientByEmail } from "./clients.ts";
import { hashPassword } from "./passwords.ts";

/** The password of every demo account (README, "Demo accounts"). */
export const DEMO_PASSWORD = "Demo-portfolio-2026";

interface DemoAccount {
  readonly email: string;
  readonly name: string;
  readonly kind?: "standard" | "HT" | "TT";
  readonly trialDays?: number;
  readonly emailConfirmed?: boolean;
  /** Accepted an older policy version: the accept-policy page appears after sign-in (ht). */
  readonly outdatedPolicy?: boolean;
  /** The client's level (section 3, default 1); 30 reaches the optimisation threshold. */
  readonly level?: number;
  readonly subscriptions?: readonly {
    product: Product;
    tier: Tier;
    period?: "monthly" | "annual" | "trial";
  }[];
}

/** One account per kind of person of PRODUCT.md. */
export const demoAccounts: readonly DemoAccount[] = [
  { email: "free@demo.test", name: "Free" },
  {
    email: "assets-standard@demo.test",
    level: 30,
    name: "Standard",
    subscriptions: [{ product: "simAssets", tier: "standard" }],
  },
  {
    email: "assets-advanced@demo.test",
    level: 30,
    name: "Advanced",
    subscriptions: [{ product: "simAssets", tier: "advanced", period: "annual" }],
  },
  {
    email: "indices-advanced@demo.test",
    level: 30,
    name: "Indices",
    subscriptions: [{ product: "simIndices", tier: "advanced" }],
  },
  {
    email: "banana@demo.test",
    name: "Banana",
    subscriptions: [{ product: "simMonk", tier: "standard" }],
  },
  {
    email: "all-advanced@demo.test",
    level: 30,
    name: "Complete",
    subscriptions: [
      { product: "simAssets", tier: "advanced" },
      { product: "simIndices", tier: "advanced" },
      { product: "simMonk", tier: "advanced" },
    ],
  },
  {
    email: "trial@demo.test",
    level: 30,
    name: "Trial",
    trialDays: 14,
    subscriptions: [{ product: "simAssets", tier: "advanced", period: "trial" }],
  },
  {
    email: "ht@demo.test",
    name: "Partner",
    kind: "HT",
    subscriptions: [{ product: "simAssets", tier: "standard" }],
  },
  {
    email: "tt@demo.test",
    name: "Student",
    kind: "TT",
    subscriptions: [{ product: "simAssets", tier: "standard" }],
  },
  { email: "unconfirmed@demo.test", name: "Unconfirmed", emailConfirmed: false },
  { email: "policy@demo.test", name: "Policy", outdatedPolicy: true },
];

/** Plan ids by product and currency (specification section 9); EUR by default. */
const planIds: Record<Product, number> = { simAssets: 5, simMonk: 5, simIndices: 7 };

/** Creates the demo accounts that do not exist yet; running it again changes nothing. */
export async function seedDemoAccounts(db: Db, policyVersion: string): Promise<number> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  let created = 0;
  for (const account of demoAccounts) {
    if (await clientByEmail(db, account.email)) continue;
    const trialEndsAt = account.trialDays
      ? new Date(Date.now() + account.trialDays * 86_400_000)
      : null;
    const [row] = await db
      .insert(clients)
      .values({
        email: account.email,
        passwordHash,
        name: account.name,
        surname: "Demo",
        countryId: "ES",
        kind: account.kind ?? "standard",
        emailConfirmed: account.emailConfirmed ?? true,
        level: account.level ?? 1,
        trialEndsAt,
        trialStartedAt: trialEndsAt ? sql`now()` : null,
        policiesVersion: account.outdatedPolicy ? "2020-01" : policyVersion,
        policiesAcceptedAt: sql`now()`,
      })
      .onConflictDoNothing()
      .returning({ id: clients.id });
    if (!row) continue;
    created++;
    for (const s of account.subscriptions ?? []) {
      const period = s.period ?? "monthly";
      const paid = period !== "trial";
      // Paid demo plans renew on a sandbox card that always succeeds (docs/billing.md).
      const card = paid ? `card_demo_${row.id}_${s.product}` : null;
      if (card)
        await db.insert(sandboxCards).values({ token: card, last4: "4242", behaviour: "succeeds" });
      const start = new Date();
      await db.insert(subscriptions).values({
        clientId: row.id,
        product: s.product,
        tier: s.tier,
        period,
        planId: paid ? planIds[s.product] : null,
        currency: paid ? "EUR" : null,
        active: true,
        periodStart: start,
        paymentMethod: card,
        expiryDate: paid
          ? addPeriod(start, period === "annual" ? "annual" : "monthly")
          : trialEndsAt,
      });
    }
  }
  return created;
}
