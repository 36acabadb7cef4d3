// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { waitFor } from "xstate";
import {
  createSessionActor,
  readSessionCookie,
  type SessionActor,
} from "../../src/app/session/session-actor.ts";
import { sessionStatusOf } from "../../src/app/session/session-facts.tsx";
import { createHttpClient } from "../../src/client/http.ts";
import type { Client } from "../../src/contract/accounts.ts";
import { endpoints } from "../../src/contract/endpoints.ts";
import { demoClient } from "../support/clients.ts";

const client: Client = demoClient({ language: "es" });

const expiry = new Date(Date.now() + 7 * 86_400_000);
expiry.setMilliseconds(0);
const session = { token: "t".repeat(43), expiry: expiry.toISOString() };

interface Recorded {
  path: string;
  method: string;
  authorization: string | null;
  credentials: RequestCredentials;
}

/** The app's session actor over a fake API whose GET /client status can be changed. */
function setup() {
  const calls: Recorded[] = [];
  let clientStatus = 200;
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(request.url).pathname;
    calls.push({
      path,
      method: request.method,
      authorization: request.headers.get("authorization"),
      credentials: request.credentials,
    });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    if (path === "/api/auth/login") return json(200, session);
    if (path === "/api/auth/logout") return json(200, { status: "accepted" });
    if (path === "/api/client")
      return clientStatus === 200 ? json(200, client) : json(401, { msgCode: "UNAUTHORIZED" });
    return json(404, { msgCode: "NOT_FOUND" });
  });
  let actor: SessionActor | null = null;
  const http = createHttpClient({
    baseURL: "http://localhost/api",
    edition: "ht",
    locale: () => "es",
    product: () => "simAssets",
    onUnauthorized: () => actor?.send({ type: "session.unauthorized" }),
    fetch: fetch as unknown as typeof globalThis.fetch,
    retryDelayMs: 0,
  });
  const navigate = vi.fn();
  const clearUserState = vi.fn();
  actor = createSessionActor({
    http,
    navigate,
    locale: () => "es",
    currentPath: () => "/es/mercados?x=1",
    clearUserState,
  });
  return {
    actor,
    http,
    calls,
    navigate,
    clearUserState,
    expire: () => {
      clientStatus = 401;
    },
  };
}

/** Every cookie written, as the browser received it. */
let cookieWrites: string[] = [];
const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, "cookie")!;

beforeEach(() => {
  cookieWrites = [];
  Object.defineProperty(document, "cookie", {
    configurable: true,
    get: () => descriptor.get!.call(document),
    set: (value: string) => {
      cookieWrites.push(value);
      descriptor.set!.call(document, value);
    },
  });
});
afterEach(() => {
  delete (document as { cookie?: string }).cookie;
  for (const name of ["auth", "selected-plan"])
    document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

async function signIn(s: ReturnType<typeof setup>) {
  await waitFor(s.actor, (x) => x.matches("signedOut"));
  s.actor.send({
    type: "session.signIn",
    credentials: { email: "ada@example.test", password: "Correct-Horse-42" },
  });
  await waitFor(s.actor, (x) => x.matches("signedIn"));
}

describe("the app's session", () => {
  it("keeps only the expiry in the auth cookie, expiring with the session, and never the token", async () => {
    const s = setup();
    await signIn(s);

    const write = cookieWrites.find((w) => w.startsWith("auth="));
    expect(write).toBeDefined();
    expect(new Date(/Expires=([^;]+)/.exec(write!)![1]!).getTime()).toBe(expiry.getTime());
    expect(readSessionCookie()).toEqual({ expiry: session.expiry });
    // The token the login answer carries (for API clients) is nowhere the page keeps it.
    for (const w of cookieWrites) expect(w).not.toContain(session.token);
    expect(document.cookie).not.toContain(session.token);
    expect(JSON.stringify(s.actor.getSnapshot().context)).not.toContain(session.token);
  });

  it("sends the session as the browser's cookie (credentials), never as a bearer header", async () => {
    const s = setup();
    await signIn(s);
    const clientCall = s.calls.find((c) => c.path === "/api/client");
    expect(clientCall).toMatchObject({ authorization: null, credentials: "include" });
    expect(s.calls.every((c) => c.authorization === null)).toBe(true);
  });

  it("restores a session from the cookie on the next visit", async () => {
    const first = setup();
    await signIn(first);

    const next = setup();
    await waitFor(next.actor, (x) => x.matches("signedIn"));
    expect(next.calls.map((c) => c.path)).toEqual(["/api/client"]);
    expect(next.actor.getSnapshot().context.client?.email).toBe("ada@example.test");
  });

  it("on any 401 clears the auth and plan cookies and the user state, and goes to sign-in with returnTo", async () => {
    const s = setup();
    await signIn(s);
    document.cookie = "selected-plan=5; Path=/";
    s.expire();

    await expect(s.http.call(endpoints.client)).rejects.toThrow();

    expect(s.actor.getSnapshot().value).toBe("signedOut");
    expect(s.navigate).toHaveBeenCalledWith(
      "/es/acceso-de-usuario?returnTo=%2Fes%2Fmercados%3Fx%3D1",
    );
    expect(s.clearUserState).toHaveBeenCalledTimes(1);
    expect(readSessionCookie()).toBeNull();
    expect(document.cookie).not.toMatch(/(^|; )(auth|selected-plan)=/);
    expect(s.calls.some((c) => c.path === "/api/auth/logout")).toBe(false);
  });

  it("keeps the route guards waiting while signing out is on its way to index", async () => {
    const s = setup();
    await signIn(s);
    expect(sessionStatusOf(s.actor.getSnapshot())).toBe("signedIn");
    let arrived!: () => void;
    s.navigate.mockImplementation(() => new Promise<void>((resolve) => (arrived = resolve)));

    s.actor.send({ type: "session.signOut" });
    // A private page's guard would send a signed-out person to sign in, racing the move to index.
    expect(sessionStatusOf(s.actor.getSnapshot())).toBe("unknown");
    await vi.waitFor(() => expect(s.navigate).toHaveBeenCalledWith("/es"));
    arrived();
    await waitFor(s.actor, (x) => x.matches("signedOut"));
    expect(sessionStatusOf(s.actor.getSnapshot())).toBe("signedOut");
  });

  it("signs out: calls logout with the browser's cookie, clears the cookies and state, and goes to index", async () => {
    const s = setup();
    await signIn(s);
    document.cookie = "selected-plan=5; Path=/";

    s.actor.send({ type: "session.signOut" });
    await waitFor(s.actor, (x) => x.matches("signedOut"));

    // Logout is called for the session that ended, though the machine has forgotten it: the
    // browser still sends the server's cookie, which the answer removes.
    const logout = () => s.calls.filter((c) => c.path === "/api/auth/logout");
    await vi.waitFor(() => expect(logout()).toHaveLength(1));
    expect(logout()).toEqual([
      { path: "/api/auth/logout", method: "POST", authorization: null, credentials: "include" },
    ]);
    expect(s.navigate).toHaveBeenCalledWith("/es");
    expect(s.clearUserState).toHaveBeenCalledTimes(1);
    expect(document.cookie).not.toMatch(/(^|; )(auth|selected-plan)=/);
    expect(s.actor.getSnapshot().context).toMatchObject({
      expiry: null,
      client: null,
      welcomeBannerVisible: false,
    });
  });

  it("ignores an auth cookie whose session has expired", () => {
    document.cookie = `auth=${encodeURIComponent(
      JSON.stringify({ expiry: new Date(Date.now() - 1000).toISOString() }),
    )}; Path=/`;
    expect(readSessionCookie()).toBeNull();
  });

  it("removes an auth cookie of an earlier version that holds a token, and starts signed out", async () => {
    document.cookie = `auth=${encodeURIComponent(JSON.stringify(session))}; Path=/`;
    const s = setup();
    await waitFor(s.actor, (x) => x.matches("signedOut"));
    expect(document.cookie).not.toMatch(/(^|; )auth=/);
    expect(s.calls).toEqual([]);
  });
});
