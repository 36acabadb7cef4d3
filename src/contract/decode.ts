import { Result, Schema, SchemaIssue } from "effect";
import type { ValidationIssue } from "./msg-codes.ts";

export type Decoded<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

const formatter = SchemaIssue.makeFormatterStandardSchemaV1();

/**
 * Decodes untrusted input (a request on the server, a response in the browser) against a contract
 * schema. Unknown keys are dropped, never passed on.
 */
export function decode<S extends Schema.Decoder<unknown>>(
  schema: S,
  input: unknown,
): Decoded<S["Type"]> {
  const result = Schema.decodeUnknownResult(schema)(input, {
    errors: "all",
    onExcessProperty: "ignore",
  });
  if (Result.isSuccess(result)) return { ok: true, value: result.success };
  const { issues } = formatter(result.failure.issue);
  return {
    ok: false,
    issues: issues.map((issue) => ({
      path: (issue.path ?? [])
        .map((p) => String(typeof p === "object" && p !== null && "key" in p ? p.key : p))
        .join("."),
      message: issue.message,
    })),
  };
}
