import type { Context } from "hono";
import { Schema } from "effect";
import { decode } from "../../contract/decode.ts";
import { ApiFailure } from "./api-failure.ts";

/** Decodes a JSON body with a contract schema; anything else is a 400 that changes nothing. */
export async function jsonBody<S extends Schema.Decoder<unknown>>(
  c: Context,
  schema: S,
): Promise<S["Type"]> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new ApiFailure(400, "INVALID_REQUEST", [{ path: "", message: "Body is not valid JSON" }]);
  }
  return decoded(schema, raw);
}

export function queryOf<S extends Schema.Decoder<unknown>>(c: Context, schema: S): S["Type"] {
  return decoded(schema, c.req.query());
}

export function paramsOf<S extends Schema.Decoder<unknown>>(c: Context, schema: S): S["Type"] {
  return decoded(schema, c.req.param());
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
