import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Challenge } from "altcha-lib";
import { CaptchaChallenge } from "../../src/contract/accounts.ts";
import { decode } from "../../src/contract/decode.ts";
import {
  powCheck,
  RECAPTCHA_ACTION,
  RECAPTCHA_MIN_SCORE,
  recaptchaCheck,
} from "../../src/server/accounts/captcha.ts";
import { clientByEmail } from "../../src/server/accounts/clients.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  apiAgent,
  buildAccountsApp,
  cheapPowCheck,
  signUpForm,
  solveToken,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

const SITEVERIFY = "https://www.google.com/recaptcha/api/siteverify";

/** A fetch that answers Google's siteverify with `answer`, recording what it was sent. */
function fakeGoogle(answer: unknown) {
  const calls: { url: string; body: URLSearchParams }[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), body: new URLSearchParams(init?.body as URLSearchParams) });
    return new Response(JSON.stringify(answer), {
      headers: { "Content-Type": "application/json" },
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

describe("recaptchaCheck (reCAPTCHA v3 verified with Google)", () => {
  const options = { siteKey: "site-key-1", secret: "server-secret-1" };

  it("is documented as action signup and score 0.5", () => {
    expect(RECAPTCHA_ACTION).toBe("signup");
    expect(RECAPTCHA_MIN_SCORE).toBe(0.5);
  });

  it("sends the secret, the token and the client's address to siteverify", async () => {
    const google = fakeGoogle({ success: true, action: "signup", score: 0.9 });
    const check = recaptchaCheck({ ...options, fetch: google.fetch });

    expect(await check.verify("token-abc", "203.0.113.7")).toBe(true);

    expect(google.calls).toHaveLength(1);
    expect(google.calls[0]!.url).toBe(SITEVERIFY);
    expect(Object.fromEntries(google.calls[0]!.body)).toEqual({
      secret: "server-secret-1",
      response: "token-abc",
      remoteip: "203.0.113.7",
    });
  });

  it("leaves remoteip out when the address is unknown", async () => {
    const google = fakeGoogle({ success: true, action: "signup", score: 0.9 });
    await recaptchaCheck({ ...options, fetch: google.fetch }).verify("t", null);
    expect(google.calls[0]!.body.has("remoteip")).toBe(false);
  });

  it.each([
    ["a score of exactly 0.5", { success: true, action: "signup", score: 0.5 }, true],
    ["a score of 1", { success: true, action: "signup", score: 1 }, true],
    ["a score under 0.5", { success: true, action: "signup", score: 0.49 }, false],
    ["no score", { success: true, action: "signup" }, false],
    ["another action", { success: true, action: "login", score: 0.9 }, false],
    ["no action", { success: true, score: 0.9 }, false],
    ["success false", { success: false, action: "signup", score: 0.9 }, false],
    ["an error answer", { success: false, "error-codes": ["invalid-input-response"] }, false],
  ])("answers %s with %s", async (_name, answer, expected) => {
    const google = fakeGoogle(answer);
    expect(await recaptchaCheck({ ...options, fetch: google.fetch }).verify("t", null)).toBe(
      expected,
    );
  });

  it("refuses when Google cannot be reached or answers something that is not JSON", async () => {
    const offline = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof fetch;
    const html = (async () => new Response("<html>oops</html>")) as unknown as typeof fetch;
    expect(await recaptchaCheck({ ...options, fetch: offline }).verify("t", null)).toBe(false);
    expect(await recaptchaCheck({ ...options, fetch: html }).verify("t", null)).toBe(false);
  });

  it("gives the form only the site key, never the secret", async () => {
    const challenge = await recaptchaCheck(options).challenge();
    expect(challenge).toEqual({ siteKey: "site-key-1" });
  });
});

describe.each(databaseTargets)("bot checks behind the API on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
  });
  afterAll(async () => {
    await drop();
  });

  it("GET /auth/captcha names the proof of work and gives a signed challenge, never cached", async () => {
    const api = await buildAccountsApp(database);
    const res = await apiAgent(api.app).get("/auth/captcha");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(decode(CaptchaChallenge, res.body).ok).toBe(true);
    expect(res.body.kind).toBe("pow");
    expect(res.body.challenge.signature).toEqual(expect.any(String));
    expect(res.body.challenge.parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", cost: 1 });
  });

  it("GET /auth/captcha names reCAPTCHA and its site key when Google's check is used", async () => {
    const google = fakeGoogle({ success: true, action: "signup", score: 0.9 });
    const api = await buildAccountsApp(
      database,
      {},
      {
        botCheck: recaptchaCheck({ siteKey: "site-1", secret: "s3cret", fetch: google.fetch }),
      },
    );
    const res = await apiAgent(api.app).get("/auth/captcha");
    expect(res.body).toEqual({ kind: "recaptcha", siteKey: "site-1" });
    expect(JSON.stringify(res.body)).not.toContain("s3cret");
    expect((await apiAgent(api.app).get("/auth/captcha/pow")).status).toBe(404);
  });

  it("registers with a reCAPTCHA token Google accepts, passing the client's address", async () => {
    const google = fakeGoogle({ success: true, action: "signup", score: 0.7 });
    const api = await buildAccountsApp(
      database,
      {},
      { botCheck: recaptchaCheck({ siteKey: "k", secret: "s", fetch: google.fetch }) },
    );
    const agent = apiAgent(api.app);
    const form = signUpForm();

    const res = await agent.post("/auth/register", { ...form, recaptchaToken: "g-token" });

    expect(res.status).toBe(201);
    expect(Object.fromEntries(google.calls[0]!.body)).toMatchObject({
      response: "g-token",
      remoteip: agent.address,
    });
    expect(await clientByEmail(database.db, form.email as string)).not.toBeNull();
  });

  it("refuses with 400 CAPTCHA_FAILED when Google scores the token as a bot", async () => {
    const google = fakeGoogle({ success: true, action: "signup", score: 0.1 });
    const api = await buildAccountsApp(
      database,
      {},
      { botCheck: recaptchaCheck({ siteKey: "k", secret: "s", fetch: google.fetch }) },
    );
    const form = signUpForm();
    const res = await apiAgent(api.app).post("/auth/register", { ...form, recaptchaToken: "bot" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msgCode: "CAPTCHA_FAILED" });
    expect(await clientByEmail(database.db, form.email as string)).toBeNull();
  });

  it("accepts a solved challenge once, whichever instance verifies it (shared database)", async () => {
    const one = cheapPowCheck(database);
    const two = cheapPowCheck(database);
    const token = await solveToken((await one.challenge()) as Challenge);

    expect(await one.verify(token, null)).toBe(true);
    expect(await one.verify(token, null)).toBe(false);
    expect(await two.verify(token, null)).toBe(false);
  });

  it("refuses an expired challenge", async () => {
    const expired = powCheck({
      db: database.db,
      secret: "s",
      cost: 1,
      maxCounter: 10,
      ttlSeconds: -1,
    });
    const token = await solveToken((await expired.challenge()) as Challenge);
    expect(await expired.verify(token, null)).toBe(false);
  });

  it("refuses a challenge signed by an instance with another secret", async () => {
    const mine = cheapPowCheck(database, "secret-a");
    const theirs = cheapPowCheck(database, "secret-b");
    const token = await solveToken((await theirs.challenge()) as Challenge);
    expect(await mine.verify(token, null)).toBe(false);
  });

  it("makes challenges whose counter lies below maxCounter", async () => {
    const check = powCheck({ db: database.db, secret: "s", cost: 1, maxCounter: 5 });
    for (let i = 0; i < 5; i++) {
      const token = await solveToken((await check.challenge()) as Challenge);
      const { solution } = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as {
        solution: { counter: number };
      };
      expect(solution.counter).toBeGreaterThanOrEqual(0);
      expect(solution.counter).toBeLessThan(5);
    }
  });
});
