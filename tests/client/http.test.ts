import { Schema } from "effect";
import { describe, expect, it, vi } from "vitest";
import {
  ApiCallError,
  RETRY_STATUSES,
  createHttpClient,
  type HttpClientOptions,
} from "../../src/client/http.ts";
import type { Locale, Product } from "../../src/contract/common.ts";
import { msgCodeText } from "../../src/ui/msg-code-text.ts";
import { endpoints, type Endpoint } from "../../src/contract/endpoints.ts";
import type { HealthResponse } from "../../src/contract/health.ts";

const BASE = "https://app.test/api";

const healthy: HealthResponse = {
  status: "ok",
  version: "1.2.3",
  edition: "ht",
  uptimeSeconds: 5,
  time: "2026-01-01T00:00:00.000Z",
  database: { status: "up", driver: "pglite", latencyMs: 0.5, migrations: 1 },
};

interface Recorded {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly credentials: RequestCredentials;
  readonly body: string | null;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A fake fetch answering from `answers` in turn (the last one repeats) and recording every request. */
function fakeFetch(answers: readonly (Response | (() => Response) | Error)[]) {
  const requests: Recorded[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    requests.push({
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      credentials: request.credentials,
      body: init?.body === undefined || init.body === null ? null : String(init.body),
    });
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    if (typeof answer === "function") return answer();
    if (!answer) throw new Error("no answer");
    return answer.clone();
  });
  return { fetch, requests };
}

function client(
  answers: readonly (Response | (() => Response) | Error)[],
  options: Partial<HttpClientOptions> = {},
) {
  const { fetch, requests } = fakeFetch(answers);
  const onUnauthorized = vi.fn();
  let locale: Locale = "es";
  let product: Product = "simIndices";
  const http = createHttpClient({
    baseURL: BASE,
    edition: "tt",
    locale: () => locale,
    product: () => product,
    onUnauthorized,
    fetch: fetch as unknown as typeof globalThis.fetch,
    retryDelayMs: 0,
    ...options,
  });
  return {
    http,
    requests,
    onUnauthorized,
    setLocale: (l: Locale) => (locale = l),
    setProduct: (p: Product) => (product = p),
  };
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiCallError);
    return (error as ApiCallError).failure;
  }
  throw new Error("the call did not fail");
}

const Created = Schema.Struct({ id: Schema.String });
const NewThing = Schema.Struct({ name: Schema.String });
const createThing: Endpoint<typeof Created, typeof NewThing> = {
  method: "POST",
  path: "/things",
  body: NewThing,
  response: Created,
};
/**
 * `HttpClient.call` derives the body type from the optional `body` field, which makes it `never` for
 * every endpoint (reported); this test is about what goes over the wire, so the body is cast.
 */
const thing = { name: "a" } as never;
const getThing: Endpoint<typeof Created, undefined> = {
  method: "GET",
  path: "/things/:id/parts/:partId",
  response: Created,
};

describe("common request data", () => {
  it("sends lang, ctx and stc on every call, with the language header", async () => {
    const c = client([json(healthy)]);
    await expect(c.http.call(endpoints.health)).resolves.toEqual(healthy);

    const [request] = c.requests;
    expect(request?.url.origin + request!.url.pathname).toBe(`${BASE}/health`);
    expect(request?.method).toBe("GET");
    expect(Object.fromEntries(request!.url.searchParams)).toEqual({
      lang: "es",
      ctx: "tt",
      stc: "simIndices",
    });
    expect(request?.headers.get("accept-language")).toBe("es");
  });

  it("reads the language and product at each call", async () => {
    const c = client([json(healthy)]);
    await c.http.call(endpoints.health);
    c.setLocale("en");
    c.setProduct("simMonk");
    await c.http.call(endpoints.health);
    expect(c.requests[1]?.url.searchParams.get("lang")).toBe("en");
    expect(c.requests[1]?.url.searchParams.get("stc")).toBe("simMonk");
    expect(c.requests[1]?.headers.get("accept-language")).toBe("en");
  });

  it("keeps the call's own query next to the common one", async () => {
    const c = client([json(healthy)]);
    await c.http.call(endpoints.health, { query: { level: "pro", page: 2 } });
    expect(Object.fromEntries(c.requests[0]!.url.searchParams)).toEqual({
      level: "pro",
      page: "2",
      lang: "es",
      ctx: "tt",
      stc: "simIndices",
    });
  });

  it("does not let a call override ctx", async () => {
    const c = client([json(healthy)]);
    await c.http.call(endpoints.health, { query: { ctx: "ht" } });
    expect(c.requests[0]?.url.searchParams.getAll("ctx")).toEqual(["tt"]);
  });

  it("sends the session as the browser's cookie: credentials included, no Authorization header", async () => {
    const c = client([json({ status: "accepted" }), new Response("file")]);
    await c.http.call(endpoints.logout);
    await c.http.download("/portfolios/1/export");
    for (const request of c.requests) {
      expect(request.credentials).toBe("include");
      expect(request.headers.has("authorization")).toBe(false);
    }
  });
});

describe("retries", () => {
  it("retries the statuses of the specification, no others", () => {
    expect([...RETRY_STATUSES]).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
  });

  it.each(RETRY_STATUSES.map((s) => [s]))(
    "retries a GET answered %i twice (3 attempts)",
    async (status) => {
      const c = client([json({ msgCode: "INTERNAL_ERROR" }, status)]);
      const failure = await failureOf(c.http.call(endpoints.health));
      expect(c.requests).toHaveLength(3);
      expect(failure).toMatchObject({ kind: "http", status });
    },
  );

  it.each([408, 503])("succeeds when a retry of a GET answered %i succeeds", async (status) => {
    const c = client([json({ msgCode: "INTERNAL_ERROR" }, status), json(healthy)]);
    await expect(c.http.call(endpoints.health)).resolves.toEqual(healthy);
    expect(c.requests).toHaveLength(2);
  });

  it("sends the common data again on a retry", async () => {
    const c = client([json({}, 503), json(healthy)]);
    await c.http.call(endpoints.health);
    const retry = c.requests[1]!;
    expect(retry.url.searchParams.getAll("lang")).toEqual(["es"]);
    expect(retry.url.searchParams.getAll("ctx")).toEqual(["tt"]);
    expect(retry.headers.get("accept-language")).toBe("es");
    expect(retry.credentials).toBe("include");
  });

  it.each([400, 403, 404])("does not retry a GET answered %i", async (status) => {
    const c = client([json({ msgCode: "NOT_FOUND" }, status)]);
    const failure = await failureOf(c.http.call(endpoints.health));
    expect(c.requests).toHaveLength(1);
    expect(failure).toMatchObject({ kind: "http", status });
  });

  it("does not retry a POST", async () => {
    const c = client([json({ msgCode: "INTERNAL_ERROR" }, 503)]);
    const failure = await failureOf(c.http.call(createThing, { body: thing }));
    expect(c.requests).toHaveLength(1);
    expect(c.requests[0]?.method).toBe("POST");
    expect(c.requests[0]?.headers.has("idempotency-key")).toBe(false);
    expect(failure).toMatchObject({ kind: "http", status: 503 });
  });

  it("retries a POST with an idempotency key, sending the key and the same body each time", async () => {
    const c = client([json({}, 503), json({}, 502), json({ id: "t-1" })]);
    await expect(
      c.http.call(createThing, { body: thing, idempotencyKey: "key-1" }),
    ).resolves.toEqual({
      id: "t-1",
    });
    expect(c.requests).toHaveLength(3);
    for (const request of c.requests) {
      expect(request.method).toBe("POST");
      expect(request.headers.get("idempotency-key")).toBe("key-1");
      expect(JSON.parse(request.body ?? "null")).toEqual({ name: "a" });
      expect(request.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("sends a fresh key with every call that creates, the same on its retries", async () => {
    const c = client([json({}, 503), json({ id: "t-1" }), json({ id: "t-2" })]);
    const creates = { ...createThing, creates: true as const };
    await c.http.call(creates, { body: thing });
    await c.http.call(creates, { body: thing });
    expect(c.requests).toHaveLength(3);
    const keys = c.requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    // The retry repeats the first call's key; the second call has its own.
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("marks every endpoint that creates something", () => {
    const creating = Object.entries(endpoints)
      .filter(([, e]) => "creates" in e && e.creates)
      .map(([name]) => name)
      .sort();
    expect(creating).toEqual([
      "checkout",
      "createBanana",
      "register",
      "savePortfolio",
      "startTrial",
      "storeSection",
    ]);
  });

  it("gives up on an idempotent POST after two retries", async () => {
    const c = client([json({}, 500)]);
    await failureOf(c.http.call(createThing, { body: thing, idempotencyKey: "key-2" }));
    expect(c.requests).toHaveLength(3);
  });
});

describe("failures", () => {
  it("calls onUnauthorized once on a 401 and rejects with the status", async () => {
    const c = client([json({ msgCode: "UNAUTHORIZED" }, 401)]);
    const failure = await failureOf(c.http.call(endpoints.health));
    expect(c.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(c.requests).toHaveLength(1);
    expect(failure).toEqual({ kind: "http", status: 401, msgCode: "UNAUTHORIZED", issues: [] });
  });

  it("does not call onUnauthorized on other failures", async () => {
    const c = client([json({ msgCode: "FORBIDDEN" }, 403)]);
    await failureOf(c.http.call(endpoints.health));
    expect(c.onUnauthorized).not.toHaveBeenCalled();
  });

  it("surfaces the msgCode and issues of an error answer", async () => {
    const issues = [{ path: "lang", message: 'Expected "en" | "es"' }];
    const c = client([json({ msgCode: "INVALID_REQUEST", issues }, 400)]);
    const failure = await failureOf(c.http.call(endpoints.health));
    expect(failure).toEqual({ kind: "http", status: 400, msgCode: "INVALID_REQUEST", issues });
  });

  it.each([
    [503, "SERVER_BUSY"],
    [429, "TOO_MANY_CALCULATIONS"],
  ] as const)(
    "hands a busy analytics queue's %i to the screen as %s, with its own text, not retried",
    async (status, msgCode) => {
      const c = client([
        new Response(JSON.stringify({ msgCode }), {
          status,
          headers: { "Content-Type": "application/json", "Retry-After": "4" },
        }),
      ]);
      const failure = await failureOf(c.http.call(createThing, { body: thing }));
      expect(c.requests).toHaveLength(1);
      expect(failure).toEqual({ kind: "http", status, msgCode, issues: [] });
      // What the screens show for it (src/ui/msg-code-text.ts), in English.
      expect(msgCodeText[msgCode].message).toMatch(msgCode === "SERVER_BUSY" ? /busy/ : /several/);
    },
  );

  it("reports INTERNAL_ERROR when an error answer carries no known msgCode", async () => {
    const c = client([
      new Response("<html>bad gateway</html>", {
        status: 400,
        headers: { "Content-Type": "text/html" },
      }),
    ]);
    const failure = await failureOf(c.http.call(endpoints.health));
    expect(failure).toEqual({ kind: "http", status: 400, msgCode: "INTERNAL_ERROR", issues: [] });
  });

  it("rejects a 200 answer that does not match the endpoint's response schema", async () => {
    const c = client([json({ ...healthy, status: "fine", database: null })]);
    const failure = await failureOf(c.http.call(endpoints.health));
    expect(failure.kind).toBe("invalid-response");
    if (failure.kind !== "invalid-response") throw new Error("unreachable");
    expect(failure.issues.map((i) => i.path).sort()).toEqual(["database", "status"]);
  });

  it("drops unknown keys of a valid answer", async () => {
    const c = client([json({ ...healthy, secret: "x" })]);
    await expect(c.http.call(endpoints.health)).resolves.toEqual(healthy);
  });

  it("rejects with kind network when the request cannot be made", async () => {
    const c = client([new TypeError("fetch failed: connection refused")]);
    const failure = await failureOf(c.http.call(endpoints.health));
    expect(failure.kind).toBe("network");
    if (failure.kind !== "network") throw new Error("unreachable");
    expect(failure.message).toMatch(/connection refused/);
  });

  it("names the failure in the error message", async () => {
    const c = client([json({ msgCode: "NOT_FOUND" }, 404)]);
    await expect(c.http.call(endpoints.health)).rejects.toThrow("404 NOT_FOUND");
  });
});

describe("path parameters", () => {
  it("substitutes :name segments, encoded", async () => {
    const c = client([json({ id: "x" })]);
    await c.http.call(getThing, { params: { id: "a b/c", partId: 7 } });
    expect(c.requests[0]?.url.pathname).toBe("/api/things/a%20b%2Fc/parts/7");
  });

  it("throws on a missing parameter without calling the server", async () => {
    const c = client([json({ id: "x" })]);
    await expect(c.http.call(getThing, { params: { id: "1" } })).rejects.toThrow(
      /Missing path parameter "partId"/,
    );
    expect(c.requests).toHaveLength(0);
  });
});
