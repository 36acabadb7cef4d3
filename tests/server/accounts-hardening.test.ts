import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  apiAgent,
  buildAccountsApp,
  newAddress,
  registerAndConfirm,
  type AccountsApp,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

const WRONG = "Not-the-password-1";

describe.each(databaseTargets)("sign-in limits under attack on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let built: AccountsApp;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    built = await buildAccountsApp(database);
  });
  afterAll(async () => drop());

  it("holds when 20 wrong attempts arrive at once: at most 5 are even checked", async () => {
    const user = await registerAndConfirm(apiAgent(built.app));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        apiAgent(built.app, newAddress()).post("/auth/login", {
          email: user.email,
          password: WRONG,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 400).length).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(15);
  });

  it("counts the address the proxy saw, not one the client wrote before it", async () => {
    const real = newAddress();
    let last = 0;
    for (let i = 0; i < 31; i++) {
      const agent = apiAgent(built.app, `203.0.113.${i}, ${real}`);
      last = (await agent.post("/auth/login", { email: `nobody${i}@example.com`, password: WRONG }))
        .status;
    }
    expect(last).toBe(429);
  });

  it("limits guesses of the current password when changing it", async () => {
    const agent = apiAgent(built.app);
    const user = await registerAndConfirm(agent);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await agent.put(
        "/auth/change-password",
        {
          currentPassword: WRONG,
          newPassword: "Another-Secret-77",
          confirmPassword: "Another-Secret-77",
        },
        user.token,
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Even the right password waits for the window now.
    const right = await agent.put(
      "/auth/change-password",
      {
        currentPassword: user.password,
        newPassword: "Another-Secret-77",
        confirmPassword: "Another-Secret-77",
      },
      user.token,
    );
    expect(right.status).toBe(429);
  });
});

describe("the development outbox", () => {
  it("is off on a server reachable from other machines unless asked for", () => {
    expect(loadConfig({}).outboxPage).toBe(true);
    expect(loadConfig({ HOST: "0.0.0.0" }).outboxPage).toBe(false);
    expect(loadConfig({ HOST: "0.0.0.0", OUTBOX_PAGE: "true" }).outboxPage).toBe(true);
    expect(loadConfig({ SMTP_URL: "smtp://mail.example:25" }).outboxPage).toBe(false);
    expect(loadConfig({ NODE_ENV: "production" }).outboxPage).toBe(false);
  });
});
