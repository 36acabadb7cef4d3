import { Schema } from "effect";

/**
 * Every `msgCode` the API can answer with. The client shows each one in the user's language
 * (src/ui/msg-code-text.ts); the server never sends prose.
 */
export const msgCodes = [
  "INVALID_REQUEST",
  "INVALID_CHARACTERS",
  "DUPLICATE_PARAMETER",
  "UNSUPPORTED_MEDIA_TYPE",
  "CROSS_SITE_REQUEST",
  "EDITION_MISMATCH",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "INTERNAL_ERROR",
  "DATABASE_UNAVAILABLE",
  "INVALID_CREDENTIALS",
  "TOO_MANY_ATTEMPTS",
  "TOO_MANY_EMAILS",
  "PASSWORDS_DONT_MATCH",
  "CAPTCHA_FAILED",
  "INVALID_TOKEN",
  "WRONG_PASSWORD",
  "POLICY_VERSION_OUTDATED",
  "ACCOUNT_KIND_FORBIDDEN",
  "UNKNOWN_ASSET",
  "NOT_ENOUGH_HISTORY",
  "ANALYTICS_FAILED",
  "WHATIF_NEEDS_SHOCK",
  "PORTFOLIO_CONFLICT",
  "SAVE_FORBIDDEN",
  "ALREADY_SAVED",
  "SAVE_LIMIT_REACHED",
  "EDIT_FORBIDDEN",
  "NO_EDITIONS_LEFT",
  "DELETE_FORBIDDEN",
  "EXPORT_FORBIDDEN",
  "CURRENCY_UNDEFINED",
  "TOO_FEW_ASSETS",
  "TOO_MANY_ASSETS",
  "TOTAL_TOO_LOW",
  "TOTAL_TOO_HIGH",
  "PLAN_INVALID",
  "PLAN_CURRENT",
  "PLAN_NEEDS_PAYMENT",
  "PLAN_IS_DOWNGRADE",
  "NOT_SUBSCRIBED",
  "ALREADY_CANCELLED",
  "NOT_CANCELLED",
  "NO_SCHEDULED_CHANGE",
  "TRIAL_USED",
  "TRIAL_UNAVAILABLE",
  "INVOICE_INFO_REQUIRED",
  "IDEMPOTENCY_CONFLICT",
  "REQUEST_IN_PROGRESS",
  "PAYMENT_IN_PROGRESS",
  "QUOTE_EXPIRED",
  "TEST_CLOCK_DISABLED",
  "BAD_SIGNATURE",
  "SERVER_BUSY",
  "TOO_MANY_CALCULATIONS",
  "PLAN_FEATURE_LOCKED",
  "OPTIMISATION_BLOCKED",
  "TOO_MANY_REQUESTS",
  "PAYLOAD_TOO_LARGE",
  "BANANA_REGION_REQUIRED",
  "BANANA_WINDOW_CLOSED",
  "BANANA_TRIAL_FORBIDDEN",
  "TRIAL_FORBIDDEN",
  "BANANA_THROUGH_CHALLENGE",
  "FRACTIONAL_SHARES",
  "STALE_ASSET",
  "WRONG_REGION",
  "YIELD_NOT_HOLDABLE",
  "CURRENCY_NOT_CONVERTIBLE",
  "ALIAS_TAKEN",
  "UNKNOWN_BENCHMARK",
  // Raised by the client itself when the server cannot be reached; the server never sends it.
  "NETWORK_ERROR",
] as const;

export const MsgCode = Schema.Literals(msgCodes);
export type MsgCode = typeof MsgCode.Type;

/** One problem found while validating a request: where it is and what is wrong. */
export const ValidationIssue = Schema.Struct({
  path: Schema.String,
  message: Schema.String,
});
export type ValidationIssue = typeof ValidationIssue.Type;

/** The body of every error answer. */
export const ApiError = Schema.Struct({
  msgCode: MsgCode,
  issues: Schema.optional(Schema.Array(ValidationIssue)),
});
export type ApiError = typeof ApiError.Type;
