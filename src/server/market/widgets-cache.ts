/**
 * The markets answers cached per snapshot and market day: an answer for one data version and one
 * "today" never changes, so it is built and serialised once, and sent with an ETag made of the
 * data version, the day and the request's key. A request whose If-None-Match names it gets a 304.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import { Schema } from "effect";
import type { MarketView } from "./market-view.ts";
import type { MarketSnapshot } from "./snapshot.ts";

/** Browsers and proxies may reuse an answer for a minute, then revalidate it with its ETag. */
export const MARKET_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=300";
/** Answers kept per snapshot (asset views per symbol and range included); the oldest go first. */
export const MAX_CACHED_ANSWERS = 512;

export interface CachedAnswer {
  readonly body: string;
  readonly etag: string;
}

const caches = new WeakMap<
  MarketSnapshot,
  { todayIndex: number; answers: Map<string, CachedAnswer> }
>();

export const etagOf = (view: MarketView, key: string): string =>
  `W/"${createHash("sha256")
    .update(`${view.snapshot.version}\u0000${view.todayIndex}\u0000${key}`)
    .digest("base64url")
    .slice(0, 27)}"`;

/** The answer of `key` for the view's snapshot and day, built (and encoded with its schema) once. */
export function cachedAnswer<S extends Schema.Codec<unknown, unknown>>(
  view: MarketView,
  key: string,
  schema: S,
  build: () => S["Type"],
): CachedAnswer {
  let cache = caches.get(view.snapshot);
  if (!cache || cache.todayIndex !== view.todayIndex) {
    cache = { todayIndex: view.todayIndex, answers: new Map() };
    caches.set(view.snapshot, cache);
  }
  const hit = cache.answers.get(key);
  if (hit) return hit;
  const encoded = Schema.encodeSync(schema as Schema.Codec<unknown, unknown>)(build());
  const answer = { body: JSON.stringify(encoded), etag: etagOf(view, key) };
  if (cache.answers.size >= MAX_CACHED_ANSWERS)
    cache.answers.delete(cache.answers.keys().next().value!);
  cache.answers.set(key, answer);
  return answer;
}

/** Whether an If-None-Match header names the ETag (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/** Sends a cached answer with Cache-Control and ETag, or 304 when the client already has it. */
export function sendCached(c: Context, answer: CachedAnswer): Response {
  c.header("Cache-Control", MARKET_CACHE_CONTROL);
  c.header("ETag", answer.etag);
  if (matchesEtag(c.req.header("if-none-match"), answer.etag)) return c.body(null, 304);
  c.header("Content-Type", "application/json; charset=UTF-8");
  return c.body(answer.body, 200);
}
