import { FetchError, ofetch, type $Fetch } from "ofetch";
import { API_TIMEOUT_MS, type Edition, type Locale, type Product } from "../contract/common.ts";
import { decode } from "../contract/decode.ts";
import type { Endpoint, HttpMethod } from "../contract/endpoints.ts";
import { ApiError, type MsgCode, type ValidationIssue } from "../contract/msg-codes.ts";

/** Statuses worth a second try (specification section 8). */
export const RETRY_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504] as const;
const RETRIES = 2;
const SAFE_METHODS: readonly HttpMethod[] = ["GET", "PUT", "DELETE"];

export type ApiFailure =
  | {
      readonly kind: "http";
      readonly status: number;
      readonly msgCode: MsgCode;
      readonly issues: readonly ValidationIssue[];
    }
  | { readonly kind: "network"; readonly message: string }
  | { readonly kind: "invalid-response"; readonly issues: readonly ValidationIssue[] };

export class ApiCallError extends Error {
  readonly failure: ApiFailure;
  constructor(failure: ApiFailure) {
    super(failure.kind === "http" ? `${failure.status} ${failure.msgCode}` : failure.kind);
    this.name = "ApiCallError";
    this.failure = failure;
  }
}

export interface HttpClientOptions {
  readonly baseURL: string;
  readonly edition: Edition;
  readonly locale: () => Locale;
  readonly product: () => Product;
  /** Any 401: the session machine signs out and sends the user to sign-in. */
  readonly onUnauthorized: () => void;
  readonly fetch?: typeof globalThis.fetch;
  readonly retryDelayMs?: number;
}

export interface CallOptions<Body> {
  readonly body?: Body;
  /** Values for `:name` segments of the endpoint path. */
  readonly params?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /**
   * Makes a POST safe to repeat: the server answers a repeated key with the first result. A call
   * that creates something (`endpoint.creates`) gets a fresh key when none is given.
   */
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}

export interface HttpClient {
  call<E extends Endpoint>(
    endpoint: E,
    options?: CallOptions<NonNullable<E["body"]> extends { Type: infer B } ? B : never>,
  ): Promise<E["response"]["Type"]>;
  /** A file the API answers (an export): fetched with the session, as a Blob. */
  download(path: string): Promise<Blob>;
}

/**
 * The one HTTP client of the app: every call carries lang, ctx, stc, the language header and the
 * session, which is the server's HttpOnly cookie (sent with `credentials: "include"`): the app never
 * holds the token, so it sends no `Authorization` header.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const $fetch: $Fetch = ofetch.create(
    {
      baseURL: options.baseURL,
      credentials: "include",
      timeout: API_TIMEOUT_MS,
      retryStatusCodes: [...RETRY_STATUSES],
      retryDelay: options.retryDelayMs ?? 400,
      onRequest({ options: request }) {
        request.query = {
          ...request.query,
          lang: options.locale(),
          ctx: options.edition,
          stc: options.product(),
        };
        request.headers.set("Accept-Language", options.locale());
      },
      onResponseError({ response }) {
        if (response.status === 401) options.onUnauthorized();
      },
    },
    options.fetch ? { fetch: options.fetch } : {},
  );

  return {
    async call(endpoint, callOptions = {}) {
      const path = endpoint.path.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
        const value = callOptions.params?.[name];
        if (value === undefined)
          throw new Error(`Missing path parameter "${name}" for ${endpoint.path}`);
        return encodeURIComponent(String(value));
      });
      const headers: Record<string, string> = {};
      // One key per call, kept by its retries: a retry of a create that was done answers it.
      const idempotencyKey =
        callOptions.idempotencyKey ?? (endpoint.creates ? crypto.randomUUID() : undefined);
      if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
      const repeatable = SAFE_METHODS.includes(endpoint.method) || idempotencyKey !== undefined;
      let raw: unknown;
      try {
        raw = await $fetch(path, {
          method: endpoint.method,
          headers,
          ...(callOptions.body !== undefined
            ? { body: callOptions.body as Record<string, unknown> }
            : {}),
          ...(callOptions.query ? { query: { ...callOptions.query } } : {}),
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          retry: repeatable ? RETRIES : 0,
        });
      } catch (error) {
        throw new ApiCallError(toFailure(error));
      }
      const decoded = decode(endpoint.response, raw);
      if (!decoded.ok) throw new ApiCallError({ kind: "invalid-response", issues: decoded.issues });
      return decoded.value;
    },
    async download(path) {
      try {
        return await $fetch(path, { method: "GET", responseType: "blob", retry: RETRIES });
      } catch (error) {
        throw new ApiCallError(toFailure(error));
      }
    },
  };
}

function toFailure(error: unknown): ApiFailure {
  if (error instanceof FetchError && error.response) {
    const body = decode(ApiError, error.data);
    return {
      kind: "http",
      status: error.response.status,
      msgCode: body.ok ? body.value.msgCode : "INTERNAL_ERROR",
      issues: body.ok ? (body.value.issues ?? []) : [],
    };
  }
  return { kind: "network", message: error instanceof Error ? error.message : String(error) };
}
