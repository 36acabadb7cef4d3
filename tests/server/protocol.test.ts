// Protocol hygiene (issue 23, docs/operations.md "Security"): JSON bodies only as JSON (a form of
// another site can send text/plain without asking), state-changing calls refused when a browser
// says they come from another site, no-store on the API's own answers, a Permissions-Policy.
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/server/db/database.ts";
import { clients } from "../../src/server/db/schema.ts";
import {
  apiAgent,
  buildAccountsApp,
  PUBLIC_URL,
  signUpForm,
  STRONG_PASSWORD,
  uniqueEmail,
  type AccountsApp,
  type ApiAgent,
  type ApiMethod,
} from "../support/accounts.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";

describe.each(databaseTargets)("protocol hygiene on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let api: AccountsApp;
  let agent: ApiAgent;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    api = await buildAccountsApp(database);
    agent = apiAgent(api.app);
  });
  afterAll(async () => {
    await drop();
  });

  const clientCount = async () =>
    Number((await database.db.select({ n: count() }).from(clients))[0]!.n);
  const call = (method: ApiMethod, path: string, headers: Record<string, string>, body?: string) =>
    agent.call(method, path, { headers, ...(body === undefined ? {} : { rawBody: body }) });
  // A new email each time: sign-in attempts are limited per account.
  const creds = () => JSON.stringify({ email: uniqueEmail(), password: STRONG_PASSWORD });

  it("refuses a body that is not sent as JSON with 415, before reading it", async () => {
    const before = await clientCount();
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const login = await call("POST", "/auth/login", { "Content-Type": type }, creds());
      expect(login, type).toMatchObject({
        status: 415,
        body: { msgCode: "UNSUPPORTED_MEDIA_TYPE" },
      });
      const signUp = await call(
        "POST",
        "/auth/register",
        { "Content-Type": type },
        JSON.stringify({ ...signUpForm(), recaptchaToken: "x" }),
      );
      expect(signUp.status, type).toBe(415);
    }
    // A string body without a type is sent as text/plain by fetch, as a form would.
    expect((await call("POST", "/auth/login", {}, creds())).status).toBe(415);
    expect(await clientCount()).toBe(before);
  });

  it("reads JSON with a charset or a +json type", async () => {
    for (const type of ["application/json; charset=utf-8", "application/merge-patch+json"]) {
      const res = await call("POST", "/auth/login", { "Content-Type": type }, creds());
      expect(res, type).toMatchObject({ status: 400, body: { msgCode: "INVALID_CREDENTIALS" } });
    }
  });

  it("refuses state-changing calls that a browser says come from another site (403)", async () => {
    const json = { "Content-Type": "application/json" };
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "http://app.test.evil.example" },
      { Origin: "null" },
      { Origin: "not an origin" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
    ];
    for (const headers of crossSite) {
      const res = await call("POST", "/auth/login", { ...json, ...headers }, creds());
      expect(res, JSON.stringify(headers)).toMatchObject({
        status: 403,
        body: { msgCode: "CROSS_SITE_REQUEST" },
      });
    }
    const { token } = await signedInClient(database);
    const put = await call(
      "PUT",
      "/auth/change-password",
      { ...json, Origin: "https://evil.example", Authorization: `Bearer ${token}` },
      JSON.stringify({
        currentPassword: "x",
        newPassword: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
      }),
    );
    expect(put.status).toBe(403);
  });

  it("lets through the app's own origin, the request's host, and callers that are not browsers", async () => {
    const json = { "Content-Type": "application/json" };
    const sameSite: Record<string, string>[] = [
      { Origin: new URL(PUBLIC_URL).origin },
      { Origin: "http://localhost:5173", Host: "localhost:5173" },
      // Behind a proxy that ends TLS: the browser's https origin, the proxy's plain request.
      { Origin: "https://shop.example", Host: "shop.example" },
      { "Sec-Fetch-Site": "same-origin" },
      {},
    ];
    for (const headers of sameSite) {
      const res = await call("POST", "/auth/login", { ...json, ...headers }, creds());
      expect(res, JSON.stringify(headers)).toMatchObject({
        status: 400,
        body: { msgCode: "INVALID_CREDENTIALS" },
      });
    }
    // Reading is not changing: a cross-site GET is answered (CORS keeps the answer from the page).
    const get = await call("GET", "/config", { Origin: "https://evil.example" });
    expect(get.status).toBe(200);
  });

  it("answers the API with Cache-Control: no-store, unless a route chose its own caching", async () => {
    const { token } = await signedInClient(database);
    const client = await call("GET", "/client", { Authorization: `Bearer ${token}` });
    expect(client.status).toBe(200);
    expect(client.headers.get("cache-control")).toBe("no-store");
    const login = await call(
      "POST",
      "/auth/login",
      { "Content-Type": "application/json" },
      creds(),
    );
    expect(login.headers.get("cache-control")).toBe("no-store");
    const dictionary = await call("GET", "/dictionary-terms/list?lang=en", {
      Authorization: `Bearer ${token}`,
    });
    expect(dictionary.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
  });

  it("sends a Permissions-Policy on API answers and pages", async () => {
    for (const path of ["/api/config", "/en/sign-in"]) {
      const res = await api.app.request(path);
      const policy = res.headers.get("permissions-policy") ?? "";
      expect(policy, path).toContain("camera=()");
      expect(policy, path).toContain("geolocation=()");
      expect(policy, path).toContain("microphone=()");
      expect(policy, path).toContain("payment=()");
      expect(policy, path).toContain("fullscreen=(self)");
    }
  });
});
