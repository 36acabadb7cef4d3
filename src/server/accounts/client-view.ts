import { eq } from "drizzle-orm";
import type { AccountKind, Client, Subscription, Subscriptions } from "../../contract/accounts.ts";
import { type Locale, products, type Product } from "../../contract/common.ts";
import { permissionsFor, type Tier } from "../../contract/permissions.ts";
import type { Db } from "../db/database.ts";
import { subscriptions, type clients } from "../db/schema.ts";
import { policiesAcceptedOf } from "./gates.ts";

export type ClientRow = typeof clients.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

const tierNames: Record<Tier, string> = {
  free: "Free",
  standard: "Standard",
  advanced: "Advanced",
};

/**
 * A subscription is live while it is active and not past its expiry date, or while a failed
 * renewal is being retried (docs/billing.md: the plan is kept until the last retry fails).
 */
export const isLive = (s: SubscriptionRow, now: Date) =>
  s.active && (!s.expiryDate || s.expiryDate > now || s.nextRetryAt !== null);

function subscriptionOf(row: SubscriptionRow | undefined, now: Date): Subscription {
  if (!row || !isLive(row, now)) {
    return {
      id: row?.id ?? null,
      active: false,
      expiryDate: row?.expiryDate?.toISOString() ?? null,
      subscriptionText: tierNames.free,
      subscriptionTypeId: null,
      tier: "free",
      cancelled: row?.cancelled ?? false,
    };
  }
  const tier = row.tier as Tier;
  return {
    id: row.id,
    active: true,
    expiryDate: row.expiryDate?.toISOString() ?? null,
    subscriptionText: row.period ? `${tierNames[tier]} (${row.period})` : tierNames[tier],
    subscriptionTypeId: row.planId,
    tier,
    cancelled: row.cancelled,
  };
}

/** The client as GET /client answers it: subscriptions per product and the permissions they give. */
export async function clientView(
  db: Db,
  row: ClientRow,
  currentPolicy: string,
  now = new Date(),
): Promise<Client> {
  const subs = await db.select().from(subscriptions).where(eq(subscriptions.clientId, row.id));
  const byProduct = new Map(subs.map((s) => [s.product as Product, s]));
  const subscriptionsView = Object.fromEntries(
    products.map((p) => [p, subscriptionOf(byProduct.get(p), now)]),
  ) as unknown as Subscriptions;
  const trialLive = row.trialEndsAt !== null && row.trialEndsAt > now;
  const permissions = Object.fromEntries(
    products.map((p) => {
      const sub = subscriptionsView[p];
      return [p, permissionsFor(p, sub.active ? sub.tier : "free")];
    }),
  ) as unknown as Client["permissions"];
  const kind = row.kind as AccountKind;
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    email: row.email,
    phone: row.phone,
    telephone: row.telephone,
    countryId: row.countryId,
    newsletter: row.newsletter,
    language: row.language as Locale,
    level: row.level,
    birthDate: row.birthDate,
    tin: row.tin,
    postalCode: row.postalCode,
    policies: {
      acceptedVersion: row.policiesVersion,
      acceptedAt: row.policiesAcceptedAt?.toISOString() ?? null,
      currentVersion: currentPolicy,
      // HT accounts accept the policies by contract.
      accepted: policiesAcceptedOf(kind, row.policiesVersion, currentPolicy),
    },
    city: row.city,
    address: row.address,
    emailConfirmed: row.emailConfirmed,
    subscriptions: subscriptionsView,
    profession: row.profession,
    permissions,
    kind,
    trialEndsAt: trialLive ? row.trialEndsAt!.toISOString() : null,
    alias: row.alias ?? null,
  };
}
