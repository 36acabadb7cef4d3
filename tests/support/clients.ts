// A client as GET /client answers it, for tests that need one signed in: Ada Lovelace, free in
// every product, the policies accepted. Each test says only what differs (`demoClient({...})`).
import type { Client, Subscription } from "../../src/contract/accounts.ts";
import { defaultPermissions } from "../../src/contract/permissions.ts";

export const freeSubscription: Subscription = {
  id: null,
  active: false,
  expiryDate: null,
  subscriptionText: "Free",
  subscriptionTypeId: null,
  tier: "free",
  cancelled: false,
};

export function demoClient(overrides: Partial<Client> = {}): Client {
  return {
    id: 7,
    name: "Ada",
    surname: "Lovelace",
    email: "ada@example.test",
    phone: null,
    telephone: null,
    countryId: "ES",
    newsletter: false,
    language: "en",
    level: 1,
    birthDate: null,
    tin: null,
    postalCode: null,
    policies: {
      acceptedVersion: "2026-01",
      acceptedAt: null,
      currentVersion: "2026-01",
      accepted: true,
    },
    city: null,
    address: null,
    emailConfirmed: true,
    subscriptions: {
      simAssets: freeSubscription,
      simMonk: freeSubscription,
      simIndices: freeSubscription,
    },
    profession: null,
    permissions: {
      simAssets: defaultPermissions,
      simMonk: defaultPermissions,
      simIndices: defaultPermissions,
    },
    kind: "standard",
    trialEndsAt: null,
    ...overrides,
  };
}
