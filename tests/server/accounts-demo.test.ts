import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, like } from "drizzle-orm";
import { accountFactsOf } from "../../machines/guards/account-facts.ts";
import { Client } from "../../src/contract/accounts.ts";
import { decode } from "../../src/contract/decode.ts";
import { DEMO_PASSWORD, seedDemoAccounts } from "../../src/server/accounts/seed.ts";
import type { Database } from "../../src/server/db/database.ts";
import { clients, subscriptions } from "../../src/server/db/schema.ts";
import { apiAgent, buildAccountsApp, type AccountsApp } from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

/** The README's table of demo accounts. */
const documented = [
  "free@demo.test",
  "assets-standard@demo.test",
  "assets-advanced@demo.test",
  "indices-advanced@demo.test",
  "banana@demo.test",
  "all-advanced@demo.test",
  "trial@demo.test",
  "ht@demo.test",
  "tt@demo.test",
  "unconfirmed@demo.test",
  "policy@demo.test",
];

const SEEDED_VERSION = "2026-01";
/** The server runs a newer policy than the one the demo accounts accepted. */
const CURRENT_VERSION = "2026-07";

describe.each(databaseTargets)("demo accounts on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let seeded: AppClients;
  let current: AppClients;
  let firstRun: number;
  let secondRun: number;
  let rowsAfterFirst: number;
  let rowsAfterSecond: number;

  type AppClients = Record<string, Client>;

  async function signInAll(api: AccountsApp): Promise<AppClients> {
    const agent = apiAgent(api.app);
    const out: AppClients = {};
    for (const email of documented) {
      const login = await agent.post("/auth/login", { email, password: DEMO_PASSWORD });
      if (login.status !== 200) throw new Error(`${email} could not sign in: ${login.status}`);
      const me = await agent.get("/client", login.body.token);
      const decoded = decode(Client, me.body);
      if (!decoded.ok) throw new Error(`${email}: ${JSON.stringify(decoded.issues)}`);
      out[email] = decoded.value;
    }
    return out;
  }

  const demoRows = async () =>
    Number(
      (
        await database.db
          .select({ n: count() })
          .from(clients)
          .where(like(clients.email, "%@demo.test"))
      )[0]!.n,
    );

  beforeAll(async () => {
    ({ database, drop } = await target.open());
    firstRun = await seedDemoAccounts(database.db, SEEDED_VERSION);
    rowsAfterFirst = await demoRows();
    secondRun = await seedDemoAccounts(database.db, SEEDED_VERSION);
    rowsAfterSecond = await demoRows();
    seeded = await signInAll(await buildAccountsApp(database, { POLICY_VERSION: SEEDED_VERSION }));
    current = await signInAll(
      await buildAccountsApp(database, { POLICY_VERSION: CURRENT_VERSION }),
    );
  }, 180_000);
  afterAll(async () => {
    await drop();
  });

  it("creates every documented account once; running it again creates nothing", async () => {
    expect(firstRun).toBe(documented.length);
    expect(rowsAfterFirst).toBe(documented.length);
    expect(secondRun).toBe(0);
    expect(rowsAfterSecond).toBe(documented.length);
    expect(Number((await database.db.select({ n: count() }).from(subscriptions))[0]!.n)).toBe(10);
  });

  it("lets every documented account sign in with the documented password", () => {
    expect(Object.keys(seeded).sort()).toEqual([...documented].sort());
  });

  it("free@ has the free tier everywhere", () => {
    const c = seeded["free@demo.test"]!;
    for (const p of ["simAssets", "simIndices", "simMonk"] as const) {
      expect(c.subscriptions[p].active).toBe(false);
      expect(c.permissions[p].construction.simulator).toBe(false);
    }
    expect(accountFactsOf(c)).toMatchObject({
      kind: "standard",
      trial: false,
      subscribedProducts: [],
    });
  });

  it("assets-standard@ and assets-advanced@ are subscribed to simAssets at their tier", () => {
    const standard = seeded["assets-standard@demo.test"]!;
    const advanced = seeded["assets-advanced@demo.test"]!;
    expect(standard.subscriptions.simAssets).toMatchObject({ active: true, tier: "standard" });
    expect(advanced.subscriptions.simAssets).toMatchObject({ active: true, tier: "advanced" });
    expect(standard.permissions.simAssets.construction.maxAssets).toBe(10);
    expect(advanced.permissions.simAssets.optimization.constructionFixAssets).toBe(true);
    expect(accountFactsOf(standard).subscribedProducts).toEqual(["simAssets"]);
    expect(accountFactsOf(advanced).subscribedProducts).toEqual(["simAssets"]);
  });

  it("indices-advanced@ is subscribed to simIndices, advanced", () => {
    const c = seeded["indices-advanced@demo.test"]!;
    expect(c.subscriptions.simIndices).toMatchObject({ active: true, tier: "advanced" });
    expect(accountFactsOf(c).subscribedProducts).toEqual(["simIndices"]);
  });

  it("banana@ holds the banana permission: simMonk's simulator", () => {
    const c = seeded["banana@demo.test"]!;
    expect(c.subscriptions.simMonk).toMatchObject({ active: true, tier: "standard" });
    expect(c.permissions.simMonk.construction.simulator).toBe(true);
    expect(accountFactsOf(c).bananaPermission).toBe(true);
    expect(accountFactsOf(seeded["free@demo.test"]!).bananaPermission).toBe(false);
  });

  it("all-advanced@ is advanced in every product", () => {
    const c = seeded["all-advanced@demo.test"]!;
    for (const p of ["simAssets", "simIndices", "simMonk"] as const) {
      expect(c.subscriptions[p]).toMatchObject({ active: true, tier: "advanced" });
    }
    expect([...accountFactsOf(c).subscribedProducts].sort()).toEqual([
      "simAssets",
      "simIndices",
      "simMonk",
    ]);
  });

  it("trial@ is in a 14-day trial: trialEndsAt set, the tier's permissions, not subscribed", () => {
    const c = seeded["trial@demo.test"]!;
    expect(c.trialEndsAt).not.toBeNull();
    const days = (Date.parse(c.trialEndsAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    expect(c.subscriptions.simAssets).toMatchObject({ active: true, subscriptionTypeId: null });
    expect(accountFactsOf(c)).toMatchObject({ trial: true, subscribedProducts: [] });
    for (const email of documented.filter((e) => e !== "trial@demo.test")) {
      expect(seeded[email]!.trialEndsAt, email).toBeNull();
    }
  });

  it("ht@ is of kind HT and has accepted the policies even when the version in force is newer", () => {
    const c = current["ht@demo.test"]!;
    expect(c.kind).toBe("HT");
    expect(c.policies.currentVersion).toBe(CURRENT_VERSION);
    expect(c.policies.accepted).toBe(true);
    // A standard account that accepted the same older version is asked again.
    expect(current["free@demo.test"]!.policies.accepted).toBe(false);
  });

  it("tt@ is of kind TT; the others are standard", () => {
    expect(seeded["tt@demo.test"]!.kind).toBe("TT");
    for (const email of documented.filter((e) => !/^(ht|tt)@/.test(e))) {
      expect(seeded[email]!.kind, email).toBe("standard");
    }
  });

  it("unconfirmed@ has not confirmed its email; the others have", () => {
    expect(seeded["unconfirmed@demo.test"]!.emailConfirmed).toBe(false);
    for (const email of documented.filter((e) => e !== "unconfirmed@demo.test")) {
      expect(seeded[email]!.emailConfirmed, email).toBe(true);
    }
  });

  it("policy@ has not accepted the policy in force; the others have", () => {
    expect(seeded["policy@demo.test"]!.policies.accepted).toBe(false);
    for (const email of documented.filter((e) => e !== "policy@demo.test")) {
      expect(seeded[email]!.policies.accepted, email).toBe(true);
    }
  });
});
