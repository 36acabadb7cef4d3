import type { Context } from "hono";
import { Schema } from "effect";
import { decode } from "../../contract/decode.ts";
import type { ValidationIssue } from "../../contract/msg-codes.ts";
import { ApiFailure } from "./api-failure.ts";
import { requireJsonContentType } from "./protocol.ts";

/**
 * A text no column can hold: a NUL character (PostgreSQL's text and jsonb refuse it) or half of a
 * surrogate pair (not Unicode; jsonb refuses its escape). Checked before any schema, in every
 * body, path parameter and query parameter, so no such text reaches a query.
 */
const unstorable = (s: string): boolean =>
  s.includes("\u0000") ||
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** Where the raw input holds an unstorable text (in a value or in a key). */
export function unstorableTexts(raw: unknown, at: string[] = [], out: ValidationIssue[] = []) {
  if (out.length >= 20) return out;
  if (typeof raw === "string") {
    if (unstorable(raw))
      out.push({ path: at.join("."), message: "Text with a NUL character or broken Unicode" });
  } else if (Array.isArray(raw)) {
    raw.forEach((v, i) => unstorableTexts(v, [...at, String(i)], out));
  } else if (raw !== null && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw)) {
      if (unstorable(k))
        out.push({
          path: [...at, k].join("."),
          message: "Key with a NUL character or broken Unicode",
        });
      unstorableTexts(v, [...at, k], out);
    }
  }
  return out;
}

function refuseUnstorable(raw: unknown): void {
  const issues = unstorableTexts(raw);
  if (issues.length) throw new ApiFailure(400, "INVALID_CHARACTERS", issues);
}

/**
 * Checks the query string of every API request once (the API's first middleware): each
 * parameter at most once (a repeated one would leave the answer to whichever a layer reads
 * first) and no unstorable text.
 */
export function checkQueryString(c: Context): void {
  const all = c.req.queries();
  const repeated = Object.entries(all).filter(([, values]) => values.length > 1);
  if (repeated.length)
    throw new ApiFailure(
      400,
      "DUPLICATE_PARAMETER",
      repeated.map(([name]) => ({ path: name, message: "Parameter given more than once" })),
    );
  refuseUnstorable(all);
}

/**
 * Decodes a JSON body with a contract schema: 415 when it is not sent as JSON, 400 (changing
 * nothing) when it is not what the contract says.
 */
export async function jsonBody<S extends Schema.Decoder<unknown>>(
  c: Context,
  schema: S,
): Promise<S["Type"]> {
  requireJsonContentType(c);
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new ApiFailure(400, "INVALID_REQUEST", [{ path: "", message: "Body is not valid JSON" }]);
  }
  refuseUnstorable(raw);
  return decoded(schema, raw);
}

export function queryOf<S extends Schema.Decoder<unknown>>(c: Context, schema: S): S["Type"] {
  const raw = c.req.query();
  refuseUnstorable(raw);
  return decoded(schema, raw);
}

/**
 * Path parameters: one that the contract refuses names nothing that can exist (an id beyond its
 * column, a malformed symbol), so the answer is 404, as for a path that matches no route.
 */
export function paramsOf<S extends Schema.Decoder<unknown>>(c: Context, schema: S): S["Type"] {
  const result = decode(schema, c.req.param());
  if (!result.ok) throw new ApiFailure(404, "NOT_FOUND");
  return result.value;
}

function decoded<S extends Schema.Decoder<unknown>>(schema: S, raw: unknown): S["Type"] {
  const result = decode(schema, raw);
  if (!result.ok) throw new ApiFailure(400, "INVALID_REQUEST", result.issues);
  return result.value;
}

/** Encodes an answer with its contract schema, so the server can only send what the contract says. */
export function reply<S extends Schema.Codec<unknown, unknown>>(
  c: Context,
  schema: S,
  value: S["Type"],
  status: 200 | 201 | 503 = 200,
) {
  return c.json(
    Schema.encodeSync(schema as Schema.Codec<unknown, unknown>)(value) as object,
    status,
  );
}
