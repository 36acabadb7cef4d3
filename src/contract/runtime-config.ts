import { Schema } from "effect";
import { Edition } from "./common.ts";

/**
 * What the server tells the app at runtime: the edition is chosen when the server starts, so one
 * build serves both editions.
 */
export const RuntimeConfig = Schema.Struct({
  edition: Edition,
  apiBase: Schema.String,
  /** Loaded only after marketing consent; null when the edition has none configured. */
  marketingScriptUrl: Schema.NullOr(Schema.String),
  /** The score-based bot-protection site key; null selects the self-hosted challenge. */
  recaptchaSiteKey: Schema.NullOr(Schema.String),
  /** The development outbox page is available (no SMTP configured, not production). */
  outboxPage: Schema.Boolean,
});
export type RuntimeConfig = typeof RuntimeConfig.Type;
