import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { MsgCode } from "../contract/msg-codes.ts";

/** The user-facing text of every msgCode the API answers with, and of the form's own checks. */
export const msgCodeText: Record<MsgCode | "PASSWORD_TOO_WEAK", MessageDescriptor> = {
  INVALID_REQUEST: msg`Some fields are not valid. Check them and try again.`,
  EDITION_MISMATCH: msg`This page belongs to another edition of the app. Reload the page.`,
  NOT_FOUND: msg`We could not find what you asked for.`,
  METHOD_NOT_ALLOWED: msg`That action is not available.`,
  UNAUTHORIZED: msg`Your session has ended. Please sign in again.`,
  FORBIDDEN: msg`Your account cannot do that.`,
  INTERNAL_ERROR: msg`Something went wrong on our side. Please try again.`,
  DATABASE_UNAVAILABLE: msg`The service is not available right now. Please try again in a moment.`,
  INVALID_CREDENTIALS: msg`The email or the password is not correct.`,
  TOO_MANY_ATTEMPTS: msg`Too many failed attempts. Wait 15 minutes and try again.`,
  PASSWORDS_DONT_MATCH: msg`Passwords don't match.`,
  CAPTCHA_FAILED: msg`We could not verify that you are a person. Try again.`,
  INVALID_TOKEN: msg`This link is not valid any more. Ask for a new one.`,
  WRONG_PASSWORD: msg`Your current password is not correct.`,
  POLICY_VERSION_OUTDATED: msg`The privacy policy has changed. Reload the page to read the new one.`,
  ACCOUNT_KIND_FORBIDDEN: msg`Your account is managed by your organisation and cannot do that.`,
  UNKNOWN_ASSET: msg`One of the assets is not in our market data.`,
  NOT_ENOUGH_HISTORY: msg`These assets do not have enough common price history for this window. Choose a shorter window or other assets.`,
  ANALYTICS_FAILED: msg`We could not compute this analysis. Please try again.`,
  WHATIF_NEEDS_SHOCK: msg`Give at least one shock: stock market, interest rates, crypto, commodities or inflation.`,
  PASSWORD_TOO_WEAK: msg`Choose a stronger password: at least 8 characters mixing letters, numbers or symbols.`,
  NETWORK_ERROR: msg`We could not reach the server. Check your connection and try again.`,
};
