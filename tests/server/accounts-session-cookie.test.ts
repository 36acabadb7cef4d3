// The session in an HttpOnly cookie set by the server (issue 23, docs/operations.md "Security"):
// its attributes, the calls that set and clear it, authentication by it, and why a page of another
// site cannot use it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/server/db/database.ts";
import {
  apiAgent,
  buildAccountsApp,
  emailsTo,
  linkOf,
  PUBLIC_URL,
  registerAndConfirm,
  signUpForm,
  register,
  socketFrom,
  type AccountsApp,
  type ApiAgent,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

const NEW_PASSWORD = "Brand-new-secret-9";
const ORIGIN = new URL(PUBLIC_URL).origin;

/** A Set-Cookie value as its name, value and attributes (names lower-cased). */
function parseSetCookie(header: string) {
  const [pair, ...rest] = header.split(";").map((p) => p.trim());
  const eq = pair!.indexOf("=");
  const attributes = new Map<string, string | true>();
  for (const part of rest) {
    const i = part.indexOf("=");
    if (i < 0) attributes.set(part.toLowerCase(), true);
    else attributes.set(part.slice(0, i).toLowerCase(), part.slice(i + 1));
  }
  return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1), attributes };
}

/** The session cookie an answer sets, if any. */
function sessionCookieOf(headers: Headers) {
  const all = headers.getSetCookie().map(parseSetCookie);
  const sessions = all.filter((c) => c.name === "session");
  expect(sessions.length).toBeLessThanOrEqual(1);
  return sessions[0];
}

/** The cookie is removed: empty, already expired. */
function expectCleared(headers: Headers) {
  const cookie = sessionCookieOf(headers);
  expect(cookie, "a Set-Cookie that removes the session cookie").toBeDefined();
  expect(cookie!.value).toBe("");
  expect(new Date(cookie!.attributes.get("expires") as string).getTime()).toBeLessThanOrEqual(
    Date.now(),
  );
  expect(cookie!.attributes.get("path")).toBe("/api");
  expect(cookie!.attributes.get("httponly")).toBe(true);
}

describe.each(databaseTargets)("the session cookie on $name", (target) => {
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

  /** A call from the app's own page: its origin and the session cookie, no bearer. */
  const withCookie = (
    agent: ApiAgent,
    method: "GET" | "POST" | "PUT",
    url: string,
    token: string,
    headers: Record<string, string> = { Origin: ORIGIN },
    body?: unknown,
  ) =>
    agent.call(method, url, {
      headers: { Cookie: `lang=en; session=${token}`, ...headers },
      ...(body === undefined ? {} : { body }),
    });

  describe("set when a session starts", () => {
    it("answers sign-in with the token in the body and in an HttpOnly, SameSite=Lax cookie for the API, expiring with it", async () => {
      const agent = apiAgent(api.app);
      const { email, password } = await registerAndConfirm(agent);

      const login = await agent.post("/auth/login", { email, password });

      expect(login.status).toBe(200);
      const cookie = sessionCookieOf(login.headers);
      expect(cookie).toBeDefined();
      expect(cookie!.value).toBe(login.body.token);
      expect(cookie!.attributes.get("httponly")).toBe(true);
      expect(cookie!.attributes.get("samesite")).toBe("Lax");
      expect(cookie!.attributes.get("path")).toBe("/api");
      // The public URL is plain http here (a loopback development server).
      expect(cookie!.attributes.has("secure")).toBe(false);
      expect(new Date(cookie!.attributes.get("expires") as string).getTime()).toBe(
        Math.floor(new Date(login.body.expiry as string).getTime() / 1000) * 1000,
      );
    });

    it("sets it on email confirmation too, and not on a refused sign-in", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm();
      expect((await register(agent, form)).status).toBe(201);
      const link = linkOf((await emailsTo(agent, form.email as string))[0]!);
      const confirmed = await agent.put("/auth/confirm-email", {
        email: link.searchParams.get("email"),
        token: link.searchParams.get("token"),
      });
      expect(confirmed.status).toBe(200);
      expect(sessionCookieOf(confirmed.headers)?.value).toBe(confirmed.body.token);

      const refused = await agent.post("/auth/login", {
        email: form.email,
        password: "Not-the-password-1",
      });
      expect(refused.status).toBe(400);
      expect(sessionCookieOf(refused.headers)).toBeUndefined();
    });

    it("is Secure when the public URL is https", async () => {
      const secure = await buildAccountsApp(database, {
        PUBLIC_URL: "https://app.example",
        SMTP_URL: "smtp://localhost:2525",
      });
      const agent = apiAgent(api.app);
      const { email, password } = await registerAndConfirm(agent);
      const login = await apiAgent(secure.app).post("/auth/login", { email, password });
      expect(login.status).toBe(200);
      expect(sessionCookieOf(login.headers)!.attributes.get("secure")).toBe(true);
    });

    it("is Secure when the request itself is https, or a trusted proxy says it was", async () => {
      const agent = apiAgent(api.app);
      const { email, password } = await registerAndConfirm(agent);
      const address = agent.address!;
      const overHttps = await api.app.request(
        "https://localhost:3000/api/auth/login",
        {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
          body: JSON.stringify({ email, password }),
        },
        socketFrom(address),
      );
      expect(overHttps.status).toBe(200);
      expect(sessionCookieOf(overHttps.headers)!.attributes.get("secure")).toBe(true);

      const proxied = await buildAccountsApp(database, {
        TRUST_PROXY: "true",
        SMTP_URL: "smtp://localhost:2525",
      });
      const login = await apiAgent(proxied.app).call("POST", "/auth/login", {
        body: { email, password },
        headers: { "X-Forwarded-Proto": "https" },
      });
      expect(login.status).toBe(200);
      expect(sessionCookieOf(login.headers)!.attributes.get("secure")).toBe(true);
      // A client cannot ask for it where no proxy is trusted: the header is ignored.
      const direct = await agent.call("POST", "/auth/login", {
        body: { email, password },
        headers: { "X-Forwarded-Proto": "https" },
      });
      expect(sessionCookieOf(direct.headers)!.attributes.has("secure")).toBe(false);
    });
  });

  describe("authenticates", () => {
    it("a request with the cookie and no bearer, for session and permission routes alike", async () => {
      const agent = apiAgent(api.app);
      const { email, token } = await registerAndConfirm(agent);

      const me = await withCookie(agent, "GET", "/client", token, {});
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(email);
      // Analytics read the session with the plan's permissions: the body is checked after them.
      const analyse = await withCookie(agent, "POST", "/analytics/analyse", token, undefined, {});
      expect(analyse.status).toBe(400);
      expect(analyse.body.msgCode).toBe("INVALID_REQUEST");
    });

    it("prefers the bearer header to the cookie, and does not fall back to the cookie on a bad header", async () => {
      const agent = apiAgent(api.app);
      const first = await registerAndConfirm(agent);
      const second = await registerAndConfirm(agent);
      const both = await agent.call("GET", "/client", {
        headers: { Cookie: `session=${first.token}`, Authorization: `Bearer ${second.token}` },
      });
      expect(both.body.email).toBe(second.email);
      const basic = await agent.call("GET", "/client", {
        headers: { Cookie: `session=${first.token}`, Authorization: `Basic ${first.token}` },
      });
      expect(basic.status).toBe(401);
    });

    it("answers a dead or malformed cookie with 401 and removes it", async () => {
      const agent = apiAgent(api.app);
      for (const token of ["x".repeat(43), "not a token"]) {
        const res = await withCookie(agent, "GET", "/client", token, {});
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ msgCode: "UNAUTHORIZED" });
        expectCleared(res.headers);
        const analyse = await withCookie(agent, "POST", "/analytics/analyse", token, undefined, {});
        expect(analyse.status).toBe(401);
        expectCleared(analyse.headers);
      }
      // A dead bearer leaves the browser's cookies alone.
      const bearer = await agent.get("/client", "x".repeat(43));
      expect(bearer.status).toBe(401);
      expect(sessionCookieOf(bearer.headers)).toBeUndefined();
    });
  });

  describe("cleared when a session ends", () => {
    it("logout by cookie revokes the session and removes the cookie", async () => {
      const agent = apiAgent(api.app);
      const { token } = await registerAndConfirm(agent);

      const res = await withCookie(agent, "POST", "/auth/logout", token);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: "accepted" });
      expectCleared(res.headers);
      expect((await withCookie(agent, "GET", "/client", token, {})).status).toBe(401);
      expect((await agent.get("/client", token)).status).toBe(401);
    });

    it("a changed password replaces the cookie with the new session's", async () => {
      const agent = apiAgent(api.app);
      const { password, token } = await registerAndConfirm(agent);
      const res = await withCookie(agent, "PUT", "/auth/change-password", token, undefined, {
        currentPassword: password,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(res.status).toBe(200);
      const cookie = sessionCookieOf(res.headers)!;
      expect(cookie.value).toBe(res.body.token);
      expect(cookie.value).not.toBe(token);
      expect((await withCookie(agent, "GET", "/client", token, {})).status).toBe(401);
      expect((await withCookie(agent, "GET", "/client", cookie.value, {})).status).toBe(200);
    });

    it("a password recovery removes the cookie of a session it ended, not another account's", async () => {
      const agent = apiAgent(api.app);
      const recovered = await registerAndConfirm(agent);
      const other = await registerAndConfirm(agent);
      const recover = async (email: string, cookie: string) => {
        expect((await agent.post("/auth/forgot-password", { email })).status).toBe(200);
        const link = linkOf((await emailsTo(agent, email))[0]!);
        return agent.call("POST", "/auth/recover-password", {
          body: {
            email,
            token: link.searchParams.get("token"),
            password: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          },
          headers: { Cookie: `session=${cookie}`, Origin: ORIGIN },
        });
      };

      const own = await recover(recovered.email, recovered.token);
      expect(own.status).toBe(200);
      expectCleared(own.headers);

      const another = await registerAndConfirm(agent);
      const foreign = await recover(another.email, other.token);
      expect(foreign.status).toBe(200);
      expect(sessionCookieOf(foreign.headers)).toBeUndefined();
      expect((await withCookie(agent, "GET", "/client", other.token, {})).status).toBe(200);
    });
  });

  describe("against other sites (CSRF)", () => {
    it("refuses a cookie-authenticated change from another site, with or without Origin", async () => {
      const agent = apiAgent(api.app);
      const { token } = await registerAndConfirm(agent);
      for (const headers of [
        { Origin: "https://evil.example" },
        { Origin: "null" },
        { "Sec-Fetch-Site": "cross-site" },
        { "Sec-Fetch-Site": "same-site" },
        // Neither header: not what any browser sends with the cookie on a POST.
        {},
      ] as Record<string, string>[]) {
        const res = await withCookie(agent, "POST", "/auth/logout", token, headers);
        expect(res, JSON.stringify(headers)).toMatchObject({
          status: 403,
          body: { msgCode: "CROSS_SITE_REQUEST" },
        });
        const analyse = await withCookie(agent, "POST", "/analytics/analyse", token, headers, {});
        expect(analyse.status, JSON.stringify(headers)).toBe(403);
      }
      // The session lives on: nothing was done with it.
      expect((await withCookie(agent, "GET", "/client", token, {})).status).toBe(200);
      // From the app's own page (its Origin, or only Sec-Fetch-Site: same-origin) it works.
      const sameOrigin = await withCookie(agent, "POST", "/auth/logout", token, {
        "Sec-Fetch-Site": "same-origin",
      });
      expect(sameOrigin.status).toBe(200);
    });

    it("lets a script with a bearer header change things without Origin", async () => {
      const agent = apiAgent(api.app);
      const { token } = await registerAndConfirm(agent);
      const res = await agent.call("POST", "/auth/logout", {
        token,
        headers: { Cookie: `session=${token}` },
      });
      expect(res.status).toBe(200);
    });
  });
});
