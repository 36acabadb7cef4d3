import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, mailDeliveryProblem } from "../../src/server/config.ts";
import { addressKey } from "../../src/server/http/client-address.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  apiAgent,
  buildAccountsApp,
  emailsTo,
  linkOf,
  newAddress,
  registerAndConfirm,
  socketFrom,
  type AccountsApp,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

const WRONG = "Not-the-password-1";

/**
 * No outbox in the answer: the API's 404, or for the page what the app answers for any unknown
 * path (the SPA's; 503 in tests, which have no built app).
 */
async function expectNoOutbox(res: Response, what: string) {
  expect([404, 503], what).toContain(res.status);
  expect(await res.text(), what).not.toMatch(/Outbox|@example\.com/);
}

describe.each(databaseTargets)("sign-in limits under attack on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let built: AccountsApp;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    built = await buildAccountsApp(database);
  });
  afterAll(async () => drop());

  it("holds when 20 wrong attempts arrive at once from one address: at most 5 are even checked", async () => {
    const user = await registerAndConfirm(apiAgent(built.app));
    const attacker = apiAgent(built.app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        attacker.post("/auth/login", { email: user.email, password: WRONG }),
      ),
    );
    expect(answers.filter((a) => a.status === 400).length).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(15);
    // The victim, elsewhere, signs in.
    expect((await apiAgent(built.app).post("/auth/login", user)).status).toBe(200);
  });

  it("refuses none of 20 wrong attempts at once from 20 addresses, and the victim still signs in", async () => {
    const user = await registerAndConfirm(apiAgent(built.app));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        apiAgent(built.app).post("/auth/login", { email: user.email, password: WRONG }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(400));
    expect((await apiAgent(built.app).post("/auth/login", user)).status).toBe(200);
  });

  it("counts an IPv6 network (/64) as one address: a fresh address per attempt gains nothing", async () => {
    const user = await registerAndConfirm(apiAgent(built.app));
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push(
        (
          await apiAgent(built.app, `2001:db8:7:a0:${i}::${i}`).post("/auth/login", {
            email: user.email,
            password: WRONG,
          })
        ).status,
      );
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await apiAgent(built.app, "2001:db8:7:b0::1").post("/auth/login", user)).status).toBe(
      200,
    );
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
    const change = {
      currentPassword: user.password,
      newPassword: "Another-Secret-77",
      confirmPassword: "Another-Secret-77",
    };
    // From the guessing address even the right password waits for the window now...
    expect((await agent.put("/auth/change-password", change, user.token)).status).toBe(429);
    // ...while from an address without failures it is accepted: the same rules as signing in.
    expect(
      (await apiAgent(built.app).put("/auth/change-password", change, user.token)).status,
    ).toBe(200);
  });

  it("limits guesses of recovery tokens per address, and a later right token from elsewhere works", async () => {
    const user = await registerAndConfirm(apiAgent(built.app));
    const guesser = apiAgent(built.app);
    const guess = (agent: typeof guesser, token: string) =>
      agent.post("/auth/recover-password", {
        email: user.email,
        token,
        password: "Another-Secret-77",
        confirmPassword: "Another-Secret-77",
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await guess(guesser, "x".repeat(43))).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);

    const owner = apiAgent(built.app);
    expect((await owner.post("/auth/forgot-password", { email: user.email })).status).toBe(200);
    const [mail] = await emailsTo(owner, user.email);
    const token = linkOf(mail!).searchParams.get("token")!;
    expect((await guess(guesser, token)).status).toBe(429);
    expect((await guess(owner, token)).status).toBe(200);
  });
});

describe.each(databaseTargets)("behind a trusted proxy (TRUST_PROXY) on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let direct: AccountsApp;
  let proxied: AccountsApp;
  /** The load balancer: the socket's peer of every request when a proxy is trusted. */
  const PROXY = "10.255.0.2";
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    direct = await buildAccountsApp(database);
    proxied = await buildAccountsApp(database, { TRUST_PROXY: "true" });
  });
  afterAll(async () => drop());

  const login = async (
    app: AccountsApp["app"],
    socket: string,
    forwardedFor: string | null,
    body: { email: string; password: string },
  ) =>
    (
      await app.request(
        "/api/auth/login",
        {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            ...(forwardedFor === null ? {} : { "X-Forwarded-For": forwardedFor }),
          },
          body: JSON.stringify(body),
        },
        socketFrom(socket),
      )
    ).status;

  it("counts the address the proxy appended (right-most), not the ones a client wrote before it", async () => {
    const real = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        await login(proxied.app, PROXY, `203.0.113.${i}, 198.51.100.${i}, ${real}`, {
          email: `nobody${i}@example.com`,
          password: WRONG,
        }),
      );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(400));
    expect(statuses[30]).toBe(429);
  });

  it("cannot be turned against a victim by writing the victim's address first", async () => {
    const victim = await registerAndConfirm(apiAgent(direct.app));
    const victimAddress = newAddress();
    const attackerAddress = newAddress();
    for (let i = 0; i < 6; i++)
      await login(proxied.app, PROXY, `${victimAddress}, ${attackerAddress}`, {
        email: victim.email,
        password: WRONG,
      });
    expect(await login(proxied.app, PROXY, `${victimAddress}, ${attackerAddress}`, victim)).toBe(
      429,
    );
    expect(await login(proxied.app, PROXY, victimAddress, victim)).toBe(200);
  });

  it("ignores X-Forwarded-For when no proxy is trusted: the socket's address counts", async () => {
    const socket = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        await login(direct.app, socket, newAddress(), {
          email: "target@example.com",
          password: WRONG,
        }),
      );
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it("serves no outbox, even to a loopback peer that writes a loopback X-Forwarded-For", async () => {
    expect(proxied.config.outboxPage).toBe(false);
    for (const path of ["/api/dev/outbox", "/_dev/outbox"]) {
      const res = await proxied.app.request(
        path,
        { headers: { "X-Forwarded-For": "127.0.0.1" } },
        socketFrom("127.0.0.1"),
      );
      await expectNoOutbox(res, path);
    }
  });
});

describe.each(databaseTargets)("the development outbox on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let local: AccountsApp;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    local = await buildAccountsApp(database);
  });
  afterAll(async () => drop());

  const get = (app: AccountsApp["app"], url: string, peer: string) =>
    app.request(url, {}, socketFrom(peer));

  it("is served to a loopback client of a loopback server, as a list and as a page", async () => {
    await apiAgent(local.app).post("/auth/forgot-password", { email: "someone@example.com" });
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      const list = await get(local.app, "/api/dev/outbox", peer);
      expect(list.status, peer).toBe(200);
      expect(list.headers.get("cache-control")).toBe("no-store");
      expect((await get(local.app, "/_dev/outbox", peer)).status, peer).toBe(200);
    }
  });

  it("is a 404 for any other client, and for a page that rebinds its own name to 127.0.0.1", async () => {
    for (const path of ["/api/dev/outbox", "/_dev/outbox"]) {
      for (const peer of [newAddress(), "192.168.1.20", "fe80::1"]) {
        const res = await get(local.app, path, peer);
        expect(res.status, `${path} from ${peer}`).toBe(404);
        expect(await res.text()).not.toContain("someone@example.com");
      }
      expect((await get(local.app, `http://evil.example${path}`, "127.0.0.1")).status).toBe(404);
      // No socket at all (an unknown peer) is not a loopback one.
      expect((await local.app.request(path)).status).toBe(404);
    }
  });

  it.each([
    ["an https public URL", { PUBLIC_URL: "https://localhost:3000" }],
    ["a public URL that is not loopback", { PUBLIC_URL: "http://app.example" }],
    ["a trusted proxy", { TRUST_PROXY: "true" }],
    ["SMTP", { SMTP_URL: "smtp://mail.example:25" }],
    ["OUTBOX_PAGE=false", { OUTBOX_PAGE: "false" }],
  ])("is not served on a server with %s, even when asked for", async (_, env) => {
    const app = (await buildAccountsApp(database, { OUTBOX_PAGE: "true", ...env })).app;
    for (const path of ["/api/dev/outbox", "/_dev/outbox"])
      await expectNoOutbox(await get(app, path, "127.0.0.1"), path);
  });
});

describe("addressKey", () => {
  it("keeps IPv4 addresses, unwraps IPv4-mapped ones and groups IPv6 by /64", () => {
    expect(
      [
        "203.0.113.7",
        "::ffff:203.0.113.7",
        "2001:db8:0:1:aaaa::1",
        "2001:0db8:0000:0001:1:2:3:4",
      ].map(addressKey),
    ).toEqual(["203.0.113.7", "203.0.113.7", "2001:db8:0:1::/64", "2001:db8:0:1::/64"]);
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey(null)).toBe("unknown");
  });
});

describe("the development outbox in the configuration", () => {
  it("exists only without SMTP on an http loopback public URL with no proxy trusted", () => {
    expect(loadConfig({}).outboxPage).toBe(true);
    // Listening everywhere, its public URL is still this machine: loopback clients only.
    expect(loadConfig({ HOST: "0.0.0.0" }).outboxPage).toBe(true);
    expect(loadConfig({ PUBLIC_URL: "http://127.0.0.1:8080" }).outboxPage).toBe(true);
    expect(loadConfig({ PUBLIC_URL: "http://[::1]:8080" }).outboxPage).toBe(true);
    expect(loadConfig({ PUBLIC_URL: "https://localhost:3000" }).outboxPage).toBe(false);
    expect(loadConfig({ PUBLIC_URL: "http://app.example" }).outboxPage).toBe(false);
    expect(loadConfig({ PUBLIC_URL: "http://127.example.com" }).outboxPage).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).outboxPage).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true", OUTBOX_PAGE: "true" }).outboxPage).toBe(false);
    expect(loadConfig({ SMTP_URL: "smtp://mail.example:25" }).outboxPage).toBe(false);
    expect(loadConfig({ OUTBOX_PAGE: "false" }).outboxPage).toBe(false);
  });

  it("lets a server without SMTP start only where the outbox may exist, and says why otherwise", () => {
    expect(mailDeliveryProblem(loadConfig({}))).toBeNull();
    expect(mailDeliveryProblem(loadConfig({ HOST: "0.0.0.0" }))).toBeNull();
    expect(
      mailDeliveryProblem(
        loadConfig({
          SMTP_URL: "smtp://mail.example:25",
          TRUST_PROXY: "true",
          PUBLIC_URL: "https://app.example",
        }),
      ),
    ).toBeNull();
    // The case: a same-host reverse proxy in front of a loopback server.
    const behindProxy = mailDeliveryProblem(
      loadConfig({ HOST: "127.0.0.1", TRUST_PROXY: "true", PUBLIC_URL: "https://app.example" }),
    );
    expect(behindProxy).toMatch(/SMTP_URL is not set/);
    expect(behindProxy).toMatch(/PUBLIC_URL is https/);
    expect(behindProxy).toMatch(/TRUST_PROXY/);
    expect(mailDeliveryProblem(loadConfig({ TRUST_PROXY: "true" }))).toMatch(
      /SMTP_URL[\s\S]*TRUST_PROXY/,
    );
    expect(mailDeliveryProblem(loadConfig({ PUBLIC_URL: "http://app.example" }))).toMatch(
      /SMTP_URL[\s\S]*not a loopback address/,
    );
  });
});
