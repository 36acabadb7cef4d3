// Logs without secrets (issue 23): a sign-up with a NUL character, a sign-up whose insert fails in
// the database (a trigger makes it fail, so the failed query is logged with the error), a
// forgot-password, a sign-in, a bearer token and a query string: the captured log carries no
// email address, password, Argon2 hash, token or query parameter, on both databases.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { createLogger, redactSecrets } from "../../src/server/logger.ts";
import { signUpForm, STRONG_PASSWORD, uniqueEmail } from "../support/accounts.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";

const unusedPool = new Proxy({} as AnalyticsPool, {
  get: (_target, key) => {
    throw new Error(`pool.${String(key)} must not be used here`);
  },
});

describe("redactSecrets", () => {
  it("masks hashes, emails, bearer tokens and token-shaped strings, keeping request ids", () => {
    const line = JSON.stringify({
      requestId: "3f2b1c9e-8d7a-4b6c-9e5f-1a2b3c4d5e6f",
      a: "params: ada@example.test,$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g",
      b: "Authorization: Bearer abcdefghijklmnop1234",
      c: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    });
    const out = redactSecrets(line);
    expect(out).not.toMatch(/ada@|argon2|abcdefghijklmnop|e3b0c442/);
    expect(out).toContain("3f2b1c9e-8d7a-4b6c-9e5f-1a2b3c4d5e6f");
    expect(out).toContain("[email]");
    expect(out).toContain("[hash]");
  });
});

describe.each(databaseTargets)("logs without secrets on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  const lines: string[] = [];
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    app = createApp({
      config: loadConfig({ EDITION: "ht", PUBLIC_URL: "http://app.test" }),
      database,
      logger: createLogger("debug", {}, (line) => lines.push(line)),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => true },
      pool: unusedPool,
    });
  });
  afterAll(async () => {
    await drop();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(`/api${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("logs a NUL sign-up, a failed insert, a sign-in and a session's calls without any secret", async () => {
    const secrets: string[] = [STRONG_PASSWORD];
    const nulEmail = `nul\u0000${uniqueEmail()}`;
    const nul = await post("/auth/register", {
      ...signUpForm({ email: nulEmail }),
      recaptchaToken: "x",
    });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { msgCode: string }).msgCode).toBe("INVALID_CHARACTERS");
    secrets.push(nulEmail.slice(4));

    await post("/auth/forgot-password", { email: `a\u0000${uniqueEmail()}` });

    // The database refuses the insert: the failed query (with the email and the Argon2 hash among
    // its parameters) reaches the error log.
    await database.db.execute(
      sql.raw(`create function refuse_client() returns trigger language plpgsql as $$
        begin raise exception 'refused for the test: %', new.email; end $$`),
    );
    await database.db.execute(
      sql.raw(
        "create trigger refuse_client before insert on clients for each row execute function refuse_client()",
      ),
    );
    const email = uniqueEmail("victim");
    secrets.push(email);
    try {
      const failed = await post("/auth/register", {
        ...signUpForm({ email }),
        recaptchaToken: "x",
      });
      expect(failed.status).toBe(500);
    } finally {
      await database.db.execute(sql.raw("drop trigger refuse_client on clients"));
    }
    expect(lines.some((l) => /unhandled error/.test(l) && /Failed query/.test(l))).toBe(true);

    // A sign-in with a wrong password, and a session's calls with a query string.
    await post("/auth/login", { email, password: "Wrong-Password-1" });
    const { token } = await signedInClient(database);
    secrets.push(token);
    const res = await app.request(`/api/client?lang=es&term=${"s3cr3t-term-value"}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    secrets.push("s3cr3t-term-value");

    const log = lines.join("\n");
    expect(lines.length).toBeGreaterThan(4);
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/\$argon2/);
    expect(log).not.toMatch(/@example\.test|@[\w-]+\.test/);
    expect(log).not.toMatch(/params: (?!\[left out\])/);
    expect(log).not.toContain("?lang=");
  });
});
