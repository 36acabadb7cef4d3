import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountDelayMs, SIGN_IN_LIMITS } from "../../src/server/accounts/rate-limit.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  apiAgent,
  buildAccountsApp,
  newAddress,
  registerAndConfirm,
  restartableTargets,
  uniqueEmail,
  type AccountsApp,
  type ApiAgent,
  type RestartableDatabase,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

const WRONG = "Not-the-password-1";

/** Signs in a number of times with a wrong password, expecting the plain refusal each time. */
async function failSignIns(agent: ApiAgent, email: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await agent.post("/auth/login", { email, password: WRONG });
    expect(res.status, `failed attempt ${i + 1}`).toBe(400);
    expect(res.body).toEqual({ msgCode: "INVALID_CREDENTIALS" });
  }
}

function expectLimited(res: { status: number; body: unknown; headers: Headers }) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ msgCode: "TOO_MANY_ATTEMPTS" });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
}

describe("sign-in limits are those of the documentation", () => {
  it("allows 5 failures per account and address and 30 per address in 15 minutes, and slows an account down from its 6th failure", () => {
    expect(SIGN_IN_LIMITS).toEqual({
      pair: 5,
      address: 30,
      windowMinutes: 15,
      accountFreeFailures: 5,
      accountDelayMs: 500,
      accountMaxDelayMs: 10_000,
    });
    expect([0, 4, 5, 6, 7, 10, 11, 1000].map(accountDelayMs)).toEqual([
      0, 0, 500, 1000, 2000, 10_000, 10_000, 10_000,
    ]);
  });
});

describe.each(databaseTargets)("POST /auth/login on $name", (target) => {
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

  it("answers a token and its expiry (SESSION_DAYS ahead) that opens GET /client", async () => {
    const agent = apiAgent(api.app);
    const { email, password } = await registerAndConfirm(agent);

    const res = await agent.post("/auth/login", { email, password });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["expiry", "token"]);
    expect(res.body.token).toMatch(/^[\w-]{43}$/);
    const days = (Date.parse(res.body.expiry) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const me = await agent.get("/client", res.body.token);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
  });

  it("gives a new token on each sign-in, each a working session", async () => {
    const agent = apiAgent(api.app);
    const { email, password } = await registerAndConfirm(agent);
    const a = await agent.post("/auth/login", { email, password });
    const b = await agent.post("/auth/login", { email, password });
    expect(a.body.token).not.toBe(b.body.token);
    expect((await agent.get("/client", a.body.token)).status).toBe(200);
    expect((await agent.get("/client", b.body.token)).status).toBe(200);
  });

  it("takes the email case-insensitively", async () => {
    const agent = apiAgent(api.app);
    const { email, password } = await registerAndConfirm(agent);
    const shouted = email.toUpperCase();

    const res = await agent.post("/auth/login", { email: shouted, password });

    expect(res.status).toBe(200);
    expect((await agent.get("/client", res.body.token)).body.email).toBe(email);
  });

  it("answers a wrong password and an unknown email with the same 400 INVALID_CREDENTIALS", async () => {
    const agent = apiAgent(api.app);
    const { email } = await registerAndConfirm(agent);

    const wrongPassword = await agent.post("/auth/login", { email, password: WRONG });
    const unknownEmail = await agent.post("/auth/login", {
      email: uniqueEmail("nobody"),
      password: WRONG,
    });

    expect(wrongPassword.status).toBe(400);
    expect(unknownEmail.status).toBe(400);
    expect(wrongPassword.body).toEqual({ msgCode: "INVALID_CREDENTIALS" });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it("refuses an invalid email with 400 INVALID_REQUEST naming it", async () => {
    const res = await apiAgent(api.app).post("/auth/login", { email: "nope", password: WRONG });
    expect(res.status).toBe(400);
    expect(res.body.msgCode).toBe("INVALID_REQUEST");
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(["email"]);
  });

  it("refuses the 6th failed attempt of an account from the same address with 429 and Retry-After, even with the right password", async () => {
    const agent = apiAgent(api.app);
    const { email, password } = await registerAndConfirm(agent);

    await failSignIns(agent, email, 5);
    const sixth = await agent.post("/auth/login", { email, password });

    expectLimited(sixth);
    expectLimited(await agent.post("/auth/login", { email, password: WRONG }));
  });

  it("never locks the victim out: after an attacker's failures, the right password from the victim's address signs in, and the password change works", async () => {
    const attacker = apiAgent(api.app);
    const victimAgent = apiAgent(api.app);
    const victim = await registerAndConfirm(victimAgent);

    await failSignIns(attacker, victim.email, 5);
    expectLimited(await attacker.post("/auth/login", { email: victim.email, password: WRONG }));
    expectLimited(await attacker.post("/auth/login", victim));
    // Whatever the email's case, the attacker's pair stays limited.
    expectLimited(
      await attacker.post("/auth/login", { email: victim.email.toUpperCase(), password: WRONG }),
    );

    const signedIn = await victimAgent.post("/auth/login", {
      email: victim.email,
      password: victim.password,
    });
    expect(signedIn.status).toBe(200);
    const changed = await victimAgent.put(
      "/auth/change-password",
      {
        currentPassword: victim.password,
        newPassword: "Another-Secret-77",
        confirmPassword: "Another-Secret-77",
      },
      signedIn.body.token,
    );
    expect(changed.status).toBe(200);
  });

  it("slows an account attacked from many addresses with a growing delay, never a refusal, and signs its owner in", async () => {
    const delays: number[] = [];
    const recorded = await buildAccountsApp(
      database,
      {},
      {
        sleep: async (ms) => {
          delays.push(ms);
        },
      },
    );
    const { email, password } = await registerAndConfirm(apiAgent(recorded.app));
    for (let i = 0; i < 9; i++) {
      const from = apiAgent(recorded.app); // a new address each time
      const res = await from.post("/auth/login", {
        email: i % 2 ? email.toUpperCase() : email,
        password: WRONG,
      });
      expect(res.status, `failure ${i + 1}`).toBe(400);
    }
    // No delay for the first 5 failures, then 0.5 s doubling.
    expect(delays).toEqual([500, 1000, 2000, 4000]);

    const owner = await apiAgent(recorded.app).post("/auth/login", { email, password });
    expect(owner.status).toBe(200);
    expect(delays.at(-1)).toBe(8000);
    // The success clears the account's failures: no delay afterwards.
    delays.length = 0;
    expect((await apiAgent(recorded.app).post("/auth/login", { email, password })).status).toBe(
      200,
    );
    expect(delays).toEqual([]);
  });

  it("shares every counter between two instances on one database (no state in memory)", async () => {
    const delays: number[] = [];
    const other = await buildAccountsApp(
      database,
      {},
      {
        freshModules: true,
        sleep: async (ms) => {
          delays.push(ms);
        },
      },
    );
    const attacker = newAddress();
    const { email, password } = await registerAndConfirm(apiAgent(api.app));
    // Five failures on this instance from one address, two more from others...
    await failSignIns(apiAgent(api.app, attacker), email, 5);
    await failSignIns(apiAgent(api.app), email, 1);
    // ...and the other instance refuses the pair and slows the account down.
    expectLimited(await apiAgent(other.app, attacker).post("/auth/login", { email, password }));
    expect((await apiAgent(other.app).post("/auth/login", { email, password })).status).toBe(200);
    expect(delays).toEqual([1000]);
  });

  it("counts failures for unknown emails the same way, so limits do not tell who has an account", async () => {
    const agent = apiAgent(api.app);
    const { email } = await registerAndConfirm(apiAgent(api.app));
    const nobody = uniqueEmail("nobody");
    for (const who of [email, nobody]) {
      await failSignIns(agent, who, 5);
      expectLimited(await agent.post("/auth/login", { email: who, password: WRONG }));
    }
  });

  it("forgets an address's failures when its window ends (the app's clock)", async () => {
    let now = new Date("2026-11-27T10:00:00Z");
    const clocked = await buildAccountsApp(database, {}, { clock: () => now });
    const agent = apiAgent(clocked.app);
    const { email, password } = await registerAndConfirm(agent);
    await failSignIns(agent, email, 5);
    now = new Date(now.getTime() + 14 * 60_000);
    const limited = await agent.post("/auth/login", { email, password });
    expectLimited(limited);
    expect(Number(limited.headers.get("retry-after"))).toBe(60);

    now = new Date(now.getTime() + 60_000);
    expect((await agent.post("/auth/login", { email, password })).status).toBe(200);
  });

  it("limits only the attacked account: another account signs in from the same address", async () => {
    const agent = apiAgent(api.app);
    const victim = await registerAndConfirm(agent);
    const other = await registerAndConfirm(agent);

    await failSignIns(agent, victim.email, 5);

    expectLimited(
      await agent.post("/auth/login", { email: victim.email, password: victim.password }),
    );
    expect(
      (await agent.post("/auth/login", { email: other.email, password: other.password })).status,
    ).toBe(200);
  });

  it("clears the account's counter on a successful sign-in", async () => {
    const agent = apiAgent(api.app);
    const { email, password } = await registerAndConfirm(agent);

    await failSignIns(agent, email, 4);
    expect((await agent.post("/auth/login", { email, password })).status).toBe(200);
    // A full new allowance of five failures, then the limit again.
    await failSignIns(agent, email, 5);
    expectLimited(await agent.post("/auth/login", { email, password }));
  });

  it("limits an address after 30 failures, for every account, while other addresses still sign in", async () => {
    const address = newAddress();
    const agent = apiAgent(api.app, address);
    const { email, password } = await registerAndConfirm(apiAgent(api.app));

    for (let i = 0; i < 30; i++) {
      const res = await agent.post("/auth/login", {
        email: uniqueEmail(`spray${i}`),
        password: WRONG,
      });
      expect(res.status, `failure ${i + 1}`).toBe(400);
    }

    expectLimited(await agent.post("/auth/login", { email, password }));
    expect((await apiAgent(api.app).post("/auth/login", { email, password })).status).toBe(200);
  });
});

describe.each(restartableTargets)("the sign-in limits across a restart on $name", (target) => {
  let store: RestartableDatabase | null = null;
  let open: Database | null = null;
  afterEach(async () => {
    await open?.close();
    open = null;
    await store?.destroy();
    store = null;
  });

  it("still refuse the account and address pair and the address after the server and its database handle restart", async () => {
    store = await target.create();
    open = await store.open();
    const before = await buildAccountsApp(open);
    const attacker = newAddress();
    const pairAddress = newAddress();
    const { email, password } = await registerAndConfirm(apiAgent(before.app));
    const other = await registerAndConfirm(apiAgent(before.app));
    await failSignIns(apiAgent(before.app, pairAddress), email, 5);
    for (let i = 0; i < 30; i++) {
      const res = await apiAgent(before.app, attacker).post("/auth/login", {
        email: uniqueEmail(`spray${i}`),
        password: WRONG,
      });
      expect(res.status, `failure ${i + 1} of the address`).toBe(400);
    }
    await open.close();
    open = null;

    open = await store.open();
    const after = await buildAccountsApp(open, {}, { freshModules: true });

    expectLimited(await apiAgent(after.app, pairAddress).post("/auth/login", { email, password }));
    expectLimited(await apiAgent(after.app, attacker).post("/auth/login", other));
    // The restarted server has the same data: from addresses without failures both sign in.
    expect((await apiAgent(after.app).post("/auth/login", { email, password })).status).toBe(200);
    expect((await apiAgent(after.app).post("/auth/login", other)).status).toBe(200);
  }, 120_000);
});
