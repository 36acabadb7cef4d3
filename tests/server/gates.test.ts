// The specification's gates on the server (issue 23), asked with the app's own predicates
// (machines/guards/): trial users cannot create, save or edit portfolios (the forbidden-trial
// guard of q1); in the ht edition an account that must accept the policy in force gets only what
// the accept-policy page needs (its own data, the acceptance, signing out) until it accepts.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mustAcceptPolicies } from "../../machines/guards/policy-facts.ts";
import type { Database } from "../../src/server/db/database.ts";
import { clients } from "../../src/server/db/schema.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { apiAgent, type ApiAgent, type ApiMethod } from "../support/accounts.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";
import { openMarketApp, testApp } from "../support/market-app.ts";

const saveBody = {
  name: "My portfolio",
  currency: "EUR",
  maxAssetsLevel: 2,
  assets: [
    { id: "AAPL", investedAmount: 6000 },
    { id: "KO", investedAmount: 4000 },
  ],
};
const proposeBody = {
  currency: "EUR",
  answers: {
    universe: [],
    amount: 10_000,
    maxToLose95: 300,
    ordering: "balanced",
    maxAssetsLevel: 2,
  },
};

describe.each(databaseTargets)("the specification's gates on the server, on $name", (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let ht: ApiAgent;
  let tt: ApiAgent;
  beforeAll(async () => {
    const market = await openMarketApp(target, {
      datasets: [simulatedDataset({ end: "2026-11-20", days: 400 })],
      workers: 1,
      env: { EDITION: "ht" },
      captchaPasses: true,
    });
    ({ database, close } = market);
    ht = market.api;
    const ttApp = testApp(database, market.pool, { env: { EDITION: "tt" }, captchaPasses: true });
    tt = apiAgent(ttApp, null);
  });
  afterAll(() => close());

  const call = (method: ApiMethod, url: string, token: string, body?: unknown, agent = ht) =>
    agent.call(method, url, { token, body });

  describe("trial users", () => {
    const trialClient = async () => {
      const client = await signedInClient(database, { simAssets: "advanced" });
      await database.db
        .update(clients)
        .set({ trialEndsAt: new Date(Date.now() + 10 * 86_400_000) })
        .where(eq(clients.id, client.id));
      return client;
    };

    it("cannot propose, save, edit or reset a portfolio (403 TRIAL_FORBIDDEN), and nothing is saved", async () => {
      const { token } = await trialClient();
      for (const [method, url, body] of [
        ["POST", "/portfolios/propose", proposeBody],
        ["POST", "/portfolios", saveBody],
        ["PUT", "/portfolios/1", { version: 1, assets: [] }],
        ["POST", "/portfolios/1/reset", { version: 1 }],
      ] as const) {
        const res = await call(method, url, token, body);
        expect(res, `${method} ${url}`).toMatchObject({
          status: 403,
          body: { msgCode: "TRIAL_FORBIDDEN" },
        });
      }
      const list = await call("GET", "/portfolios", token);
      expect(list.status).toBe(200);
      expect(list.body.portfolios).toEqual([]);
    });

    it("a subscriber with the same plan saves (201), and a trial that has ended is no trial", async () => {
      const subscriber = await signedInClient(database, { simAssets: "advanced" });
      expect((await call("POST", "/portfolios", subscriber.token, saveBody)).status).toBe(201);
      const ended = await signedInClient(database, { simAssets: "advanced" });
      await database.db
        .update(clients)
        .set({ trialEndsAt: new Date(Date.now() - 86_400_000) })
        .where(eq(clients.id, ended.id));
      expect((await call("POST", "/portfolios", ended.token, saveBody)).status).toBe(201);
    });
  });

  describe("accounts that must accept the policy first (ht edition)", () => {
    const pendingClient = async (kind: "standard" | "HT" | "TT" = "standard") => {
      const client = await signedInClient(database, { simAssets: "advanced" });
      await database.db
        .update(clients)
        .set({ policiesVersion: "2020-01", kind })
        .where(eq(clients.id, client.id));
      return client;
    };

    it("get their own data, the acceptance and sign-out; everything else is 403 until they accept", async () => {
      const { token } = await pendingClient();
      const me = await call("GET", "/client", token);
      expect(me.status).toBe(200);
      expect(
        mustAcceptPolicies({
          edition: "ht",
          signedIn: true,
          kind: me.body.kind,
          policiesAccepted: me.body.policies.accepted,
        }),
      ).toBe(true);
      for (const [method, url, body] of [
        ["GET", "/portfolios", undefined],
        ["POST", "/portfolios", saveBody],
        ["GET", "/client/check-portfolios-limit", undefined],
        ["PUT", "/client", { ...me.body, birthDate: null }],
        ["GET", "/billing", undefined],
        [
          "POST",
          "/analytics/analyse",
          { currency: "EUR", assets: [{ symbol: "KO", investedAmount: 1 }] },
        ],
        ["GET", "/banana/portfolios", undefined],
        ["GET", "/sections", undefined],
        [
          "PUT",
          "/auth/change-password",
          { currentPassword: "x", newPassword: "y", confirmPassword: "y" },
        ],
      ] as const) {
        const res = await call(method, url, token, body);
        expect(res, `${method} ${url}`).toMatchObject({
          status: 403,
          body: { msgCode: "POLICY_VERSION_OUTDATED" },
        });
      }
      const accepted = await call("POST", "/client/accept-policies", token, {
        version: me.body.policies.currentVersion,
      });
      expect(accepted.status).toBe(200);
      expect(accepted.body.policies.accepted).toBe(true);
      expect((await call("GET", "/portfolios", token)).status).toBe(200);
      expect((await call("POST", "/auth/logout", token)).status).toBe(200);
    });

    it("HT accounts (accepted by contract) and the tt edition have no such gate", async () => {
      const partner = await pendingClient("HT");
      expect((await call("GET", "/portfolios", partner.token)).status).toBe(200);
      const student = await pendingClient("TT");
      expect((await call("GET", "/portfolios", student.token, undefined, tt)).status).toBe(200);
    });
  });

  it("unconfirmed accounts are registered: served as the screens serve them", async () => {
    const client = await signedInClient(database, { simAssets: "standard" });
    await database.db
      .update(clients)
      .set({ emailConfirmed: false })
      .where(eq(clients.id, client.id));
    expect((await call("GET", "/client", client.token)).body.emailConfirmed).toBe(false);
    expect((await call("POST", "/portfolios", client.token, saveBody)).status).toBe(201);
  });
});
