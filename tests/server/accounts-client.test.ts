import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Client, InvoiceInfo, PortfolioLimits } from "../../src/contract/accounts.ts";
import { decode } from "../../src/contract/decode.ts";
import { clientByEmail } from "../../src/server/accounts/clients.ts";
import type { Database } from "../../src/server/db/database.ts";
import { invoiceInfo, portfolios, subscriptions } from "../../src/server/db/schema.ts";
import {
  apiAgent,
  buildAccountsApp,
  registerAndConfirm,
  type AccountsApp,
  type ApiAgent,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

/** The fields of the specification's Client (section 3), plus the kind and trial the product adds. */
const clientFields = [
  "id",
  "name",
  "surname",
  "email",
  "phone",
  "telephone",
  "countryId",
  "newsletter",
  "language",
  "level",
  "birthDate",
  "tin",
  "postalCode",
  "policies",
  "city",
  "address",
  "emailConfirmed",
  "subscriptions",
  "profession",
  "permissions",
  "kind",
  "trialEndsAt",
  // Beyond the specification: the alias shown in the banana challenge's community ranking.
  "alias",
];

const subscriptionFields = [
  "active",
  "expiryDate",
  "id",
  "subscriptionText",
  "subscriptionTypeId",
  "tier",
  "cancelled",
];

/** Section 3: the permission groups and names, exactly. */
const permissionGroups: Record<string, string[]> = {
  construction: [
    "simulator",
    "maxAssets",
    "orderByMarketRisk",
    "save",
    "saveLimit",
    "orderByExpectedReturn",
    "orderByRiskReturn",
    "minimization",
    "autoCreate",
    "lazyPortfolios",
    "saveLimitPerRegion",
  ],
  management: ["delete", "edit", "editLimit", "export"],
  analysis: [
    "breakdown",
    "diversificationRisk",
    "diversificationRiskReduction",
    "requiredReturns",
    "expectedReturns",
    "requiredReturnsOptimPortfolio",
    "expectedReturnsOptimPortfolio",
    "var",
    "componentRisk1",
    "componentRisk2",
    "currencyRisk",
  ],
  scoring: ["global", "riskReturn", "diversification", "marketRisk", "communityGlobal"],
  monitoring: ["portfolioRisk", "portfolioReturn", "portfolioRiskReturn"],
  competition: ["communityRanking", "communityPortfolio", "bananaPortfolios"],
  optimization: ["portfolio", "construction", "constructionFixAssets"],
  whatIf: ["marketScenarios", "realLifeScenarios", "backTesting"],
  hollypedia: ["videoTutorials", "courses"],
};

/** Section 3's defaults, written out: all false except four; maxAssets 5; limits 0. */
const freeTier = {
  construction: {
    simulator: false,
    maxAssets: 5,
    orderByMarketRisk: false,
    save: false,
    saveLimit: 0,
    orderByExpectedReturn: false,
    orderByRiskReturn: false,
    minimization: false,
    autoCreate: false,
    lazyPortfolios: false,
    saveLimitPerRegion: { eu: 0, usa: 0 },
  },
  management: { delete: false, edit: false, editLimit: 0, export: false },
  analysis: {
    breakdown: true,
    diversificationRisk: true,
    diversificationRiskReduction: false,
    requiredReturns: false,
    expectedReturns: false,
    requiredReturnsOptimPortfolio: false,
    expectedReturnsOptimPortfolio: false,
    var: false,
    componentRisk1: false,
    componentRisk2: false,
    currencyRisk: false,
  },
  scoring: {
    global: true,
    riskReturn: false,
    diversification: false,
    marketRisk: false,
    communityGlobal: false,
  },
  monitoring: { portfolioRisk: false, portfolioReturn: false, portfolioRiskReturn: false },
  competition: { communityRanking: false, communityPortfolio: false, bananaPortfolios: true },
  optimization: { portfolio: false, construction: false, constructionFixAssets: false },
  whatIf: { marketScenarios: false, realLifeScenarios: false, backTesting: false },
  hollypedia: { videoTutorials: false, courses: false },
};

const sortedKeys = (o: unknown) => Object.keys(o as object).sort();

const profile = {
  name: "Grace",
  surname: "Hopper",
  phone: "+1 (555) 010-0000",
  telephone: null,
  countryId: "US",
  newsletter: true,
  language: "es",
  birthDate: "1906-12-09",
  tin: "X1234567",
  postalCode: "10001",
  city: "New York",
  address: "1 Navy Yard",
  profession: "Rear admiral",
};

describe.each(databaseTargets)("the client's own data on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let api: AccountsApp;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    api = await buildAccountsApp(database);
  });
  afterAll(async () => {
    await drop();
  });

  async function newClient(overrides: Record<string, unknown> = {}) {
    const agent = apiAgent(api.app);
    const session = await registerAndConfirm(agent, overrides);
    const row = await clientByEmail(database.db, session.email);
    return { agent, ...session, id: row!.id };
  }

  describe("GET /client", () => {
    it("answers every field of the specification's Client, decoded by the contract", async () => {
      const { agent, token, email, id } = await newClient({
        phone: "+34 911 000 000",
        profession: "Analyst",
        newsletter: true,
      });

      const res = await agent.get("/client", token);

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual([...clientFields].sort());
      const decoded = decode(Client, res.body);
      if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
      expect(decoded.value).toMatchObject({
        id,
        name: "Ada",
        surname: "Lovelace",
        email,
        phone: "+34 911 000 000",
        telephone: null,
        countryId: "ES",
        newsletter: true,
        language: "en",
        level: 1,
        birthDate: null,
        tin: null,
        postalCode: null,
        city: null,
        address: null,
        emailConfirmed: true,
        profession: "Analyst",
        kind: "standard",
        trialEndsAt: null,
      });
      expect(decoded.value.policies).toMatchObject({
        acceptedVersion: api.config.policyVersion,
        currentVersion: api.config.policyVersion,
        accepted: true,
      });
      expect(Number.isNaN(Date.parse(decoded.value.policies.acceptedAt!))).toBe(false);
    });

    it("has one subscription per product, each with the specification's fields, free for a new client", async () => {
      const { agent, token } = await newClient();
      const { subscriptions: subs } = (await agent.get("/client", token)).body;
      expect(sortedKeys(subs)).toEqual(["simAssets", "simIndices", "simMonk"]);
      for (const product of ["simAssets", "simIndices", "simMonk"]) {
        expect(sortedKeys(subs[product])).toEqual([...subscriptionFields].sort());
        expect(subs[product]).toMatchObject({
          active: false,
          tier: "free",
          subscriptionTypeId: null,
          cancelled: false,
        });
      }
    });

    it("has permissions per product with exactly the groups and names of section 3", async () => {
      const { agent, token } = await newClient();
      const { permissions } = (await agent.get("/client", token)).body;
      expect(sortedKeys(permissions)).toEqual(["simAssets", "simIndices", "simMonk"]);
      for (const product of Object.values(permissions)) {
        expect(sortedKeys(product)).toEqual(Object.keys(permissionGroups).sort());
        for (const [group, names] of Object.entries(permissionGroups)) {
          expect(sortedKeys((product as Record<string, unknown>)[group])).toEqual(
            [...names].sort(),
          );
        }
      }
    });

    it("gives a new client the free tier of section 3 in every product", async () => {
      const { agent, token } = await newClient();
      const { permissions } = (await agent.get("/client", token)).body;
      expect(permissions).toEqual({ simAssets: freeTier, simIndices: freeTier, simMonk: freeTier });
    });

    it("gives a subscribed client its tier's permissions, and the free tier again once it expires", async () => {
      const { agent, token, id } = await newClient();
      await database.db.insert(subscriptions).values({
        clientId: id,
        product: "simMonk",
        tier: "standard",
        period: "monthly",
        planId: 5,
        active: true,
        expiryDate: new Date(Date.now() + 86_400_000),
      });
      const live = (await agent.get("/client", token)).body;
      expect(live.subscriptions.simMonk).toMatchObject({
        active: true,
        tier: "standard",
        subscriptionTypeId: 5,
      });
      expect(live.permissions.simMonk.construction.simulator).toBe(true);
      expect(live.permissions.simAssets).toEqual(freeTier);

      await database.db
        .update(subscriptions)
        .set({ expiryDate: new Date(Date.now() - 1000) })
        .where(eq(subscriptions.clientId, id));
      const expired = (await agent.get("/client", token)).body;
      expect(expired.subscriptions.simMonk).toMatchObject({ active: false, tier: "free" });
      expect(expired.permissions.simMonk).toEqual(freeTier);
    });
  });

  describe("PUT /client", () => {
    it("updates the profile and answers the updated client", async () => {
      const { agent, token, email } = await newClient();

      const res = await agent.put("/client", profile, token);

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...profile, email });
      expect((await agent.get("/client", token)).body).toMatchObject(profile);
    });

    it.each([
      ["countryId", { countryId: "Spain" }],
      ["countryId", { countryId: "es" }],
      ["name", { name: "x".repeat(81) }],
      ["name", { name: "" }],
      ["surname", { surname: "y".repeat(121) }],
      ["address", { address: "z".repeat(201) }],
      ["city", { city: " padded " }],
      ["postalCode", { postalCode: "1".repeat(17) }],
      ["tin", { tin: "T".repeat(33) }],
      ["profession", { profession: "p".repeat(121) }],
      ["birthDate", { birthDate: "09/12/1906" }],
      ["phone", { phone: "call me maybe" }],
      ["language", { language: "de" }],
    ])(
      "refuses an invalid %s with 400 INVALID_REQUEST naming it, changing nothing",
      async (field, change) => {
        const { agent, token } = await newClient();
        const before = (await agent.get("/client", token)).body;

        const res = await agent.put("/client", { ...profile, ...change }, token);

        expect(res.status).toBe(400);
        expect(res.body.msgCode).toBe("INVALID_REQUEST");
        expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual([field]);
        expect((await agent.get("/client", token)).body).toEqual(before);
      },
    );

    it("ignores fields the profile does not edit: email, kind, confirmation, level, id", async () => {
      const { agent, token, email, id } = await newClient();

      const res = await agent.put(
        "/client",
        {
          ...profile,
          id: id + 1000,
          email: "hijack@example.test",
          kind: "HT",
          emailConfirmed: false,
          level: 9,
          trialEndsAt: "2099-01-01T00:00:00.000Z",
        },
        token,
      );

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id,
        email,
        kind: "standard",
        emailConfirmed: true,
        level: 1,
        trialEndsAt: null,
      });
    });

    it("needs a session: 401 without a bearer", async () => {
      const res = await apiAgent(api.app).put("/client", profile);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ msgCode: "UNAUTHORIZED" });
    });
  });

  describe("POST /client/accept-policies", () => {
    it("records the current version; an older version is 400 POLICY_VERSION_OUTDATED", async () => {
      const { token, email } = await newClient();
      // The policy changes: the same database, served by a server with a newer version.
      const newer = await buildAccountsApp(database, { POLICY_VERSION: "2099-01" });
      const agent = apiAgent(newer.app);
      const pending = (await agent.get("/client", token)).body;
      expect(pending.policies).toMatchObject({
        acceptedVersion: api.config.policyVersion,
        currentVersion: "2099-01",
        accepted: false,
      });

      const outdated = await agent.post(
        "/client/accept-policies",
        { version: api.config.policyVersion },
        token,
      );
      expect(outdated.status).toBe(400);
      expect(outdated.body).toEqual({ msgCode: "POLICY_VERSION_OUTDATED" });
      expect((await agent.get("/client", token)).body.policies.accepted).toBe(false);

      const res = await agent.post("/client/accept-policies", { version: "2099-01" }, token);
      expect(res.status).toBe(200);
      expect(res.body.email).toBe(email);
      expect(res.body.policies).toMatchObject({
        acceptedVersion: "2099-01",
        currentVersion: "2099-01",
        accepted: true,
      });
      const acceptedAt = Date.parse(res.body.policies.acceptedAt);
      expect(Math.abs(acceptedAt - Date.now())).toBeLessThan(60_000);
      expect((await agent.get("/client", token)).body.policies.accepted).toBe(true);
    });

    it("needs a session: 401 without a bearer", async () => {
      const res = await apiAgent(api.app).post("/client/accept-policies", { version: "2026-01" });
      expect(res.status).toBe(401);
    });
  });

  describe("GET /client/check-portfolios-limit", () => {
    it("answers the three products, simMonk as {eu, usa}, all 0 for a new client", async () => {
      const { agent, token } = await newClient();

      const res = await agent.get("/client/check-portfolios-limit", token);

      expect(res.status).toBe(200);
      expect(decode(PortfolioLimits, res.body).ok).toBe(true);
      expect(res.body).toEqual([
        { category: "simAssets", availablePortfolios: 0 },
        { category: "simIndices", availablePortfolios: 0 },
        { category: "simMonk", availablePortfolios: { eu: 0, usa: 0 } },
      ]);
    });

    it("subtracts the saved portfolios from the tier's limits, per region for simMonk", async () => {
      const { agent, token, id } = await newClient();
      await database.db.insert(subscriptions).values([
        {
          clientId: id,
          product: "simAssets",
          tier: "standard",
          planId: 5,
          active: true,
          expiryDate: new Date(Date.now() + 86_400_000),
        },
        {
          clientId: id,
          product: "simMonk",
          tier: "advanced",
          planId: 5,
          active: true,
          expiryDate: new Date(Date.now() + 86_400_000),
        },
      ]);
      await database.db.insert(portfolios).values([
        { clientId: id, product: "simAssets", name: "a", saved: true },
        { clientId: id, product: "simAssets", name: "b", saved: true },
        { clientId: id, product: "simAssets", name: "draft", saved: false },
        { clientId: id, product: "simMonk", name: "m", saved: true, monkeyRegion: "usa" },
      ]);

      const res = await agent.get("/client/check-portfolios-limit", token);

      expect(res.body).toEqual([
        { category: "simAssets", availablePortfolios: 3 },
        { category: "simIndices", availablePortfolios: 0 },
        { category: "simMonk", availablePortfolios: { eu: 3, usa: 2 } },
      ]);
    });
  });

  describe("GET /client/invoice-info", () => {
    it("prefills a new client's invoice details from the profile (name, country), company false", async () => {
      const { agent, token } = await newClient();
      const res = await agent.get("/client/invoice-info", token);
      expect(res.status).toBe(200);
      expect(decode(InvoiceInfo, res.body).ok).toBe(true);
      // PRODUCT.md "Invoice details": prefilled from the profile, and changed by PUT.
      expect(res.body).toEqual({
        name: "Ada Lovelace",
        country: "ES",
        tin: "",
        city: "",
        address: "",
        postalCode: "",
        companyName: "",
        company: false,
      });
    });
  });

  describe("isolation between two clients", () => {
    async function twoClients() {
      const a = await newClient();
      const b = await newClient({ name: "Barbara", surname: "Liskov" });
      // Both subscribed alike; only B has saved portfolios and B's subscription has its own end.
      for (const [id, expiryDate] of [
        [a.id, new Date(Date.now() + 86_400_000)],
        [b.id, new Date(Date.now() + 2 * 86_400_000)],
      ] as const) {
        await database.db.insert(subscriptions).values([
          { clientId: id, product: "simMonk", tier: "standard", planId: 5, expiryDate },
          { clientId: id, product: "simAssets", tier: "standard", planId: 5, expiryDate },
        ]);
      }
      await database.db.insert(portfolios).values([
        { clientId: b.id, product: "simMonk", name: "b's", saved: true, monkeyRegion: "eu" },
        { clientId: b.id, product: "simAssets", name: "b's 1", saved: true },
        { clientId: b.id, product: "simAssets", name: "b's 2", saved: true },
      ]);
      await database.db.insert(invoiceInfo).values({
        clientId: b.id,
        name: "Barbara Liskov",
        country: "US",
        tin: "B-TIN",
        city: "Cambridge",
        address: "32 Vassar St",
        postalCode: "02139",
        companyName: "MIT",
        company: true,
      });
      return { a, b };
    }

    const read = (agent: ApiAgent, token: string) =>
      Promise.all([
        agent.get("/client", token),
        agent.get("/client/check-portfolios-limit", token),
        agent.get("/client/invoice-info", token),
      ]).then(([client, limits, invoice]) => ({
        client: client.body,
        limits: limits.body,
        invoice: invoice.body,
      }));

    it("never answers B's data to A", async () => {
      const { a, b } = await twoClients();

      const seenByA = await read(a.agent, a.token);
      const seenByB = await read(b.agent, b.token);

      expect(seenByA.client).toMatchObject({ id: a.id, email: a.email, name: "Ada" });
      expect(seenByA.client.subscriptions.simMonk.expiryDate).not.toBe(
        seenByB.client.subscriptions.simMonk.expiryDate,
      );
      expect(Date.parse(seenByA.client.subscriptions.simMonk.expiryDate)).toBeLessThan(
        Date.now() + 1.5 * 86_400_000,
      );
      expect(seenByA.limits).toEqual([
        { category: "simAssets", availablePortfolios: 5 },
        { category: "simIndices", availablePortfolios: 0 },
        { category: "simMonk", availablePortfolios: { eu: 1, usa: 1 } },
      ]);
      expect(seenByA.invoice).toMatchObject({
        name: "Ada Lovelace",
        tin: "",
        companyName: "",
        company: false,
      });
      expect(JSON.stringify(seenByA)).not.toMatch(/Barbara|Liskov|B-TIN|MIT|Vassar/);
      expect(JSON.stringify(seenByA)).not.toContain(b.email);

      expect(seenByB.client).toMatchObject({ id: b.id, email: b.email, name: "Barbara" });
      expect(seenByB.limits).toEqual([
        { category: "simAssets", availablePortfolios: 3 },
        { category: "simIndices", availablePortfolios: 0 },
        { category: "simMonk", availablePortfolios: { eu: 0, usa: 1 } },
      ]);
      expect(seenByB.invoice).toMatchObject({ name: "Barbara Liskov", company: true });
    });

    it("changes only A with A's PUT /client, whatever id the body names", async () => {
      const { a, b } = await twoClients();
      const bBefore = (await b.agent.get("/client", b.token)).body;

      const res = await a.agent.put("/client", { ...profile, id: b.id, email: b.email }, a.token);

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: a.id, email: a.email, name: "Grace" });
      expect((await b.agent.get("/client", b.token)).body).toEqual(bBefore);
      expect((await a.agent.get("/client", a.token)).body).toMatchObject(profile);
    });

    it("accepts the policies of A only", async () => {
      const { a, b } = await twoClients();
      const newer = await buildAccountsApp(database, { POLICY_VERSION: "2100-01" });
      const agent = apiAgent(newer.app);

      await agent.post("/client/accept-policies", { version: "2100-01" }, a.token);

      expect((await agent.get("/client", a.token)).body.policies.accepted).toBe(true);
      expect((await agent.get("/client", b.token)).body.policies.accepted).toBe(false);
    });
  });
});
