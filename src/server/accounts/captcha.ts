import { randomInt } from "node:crypto";
import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { lt, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { usedChallenges } from "../db/schema.ts";

/** What a sign-up form must pass: Google's score-based reCAPTCHA, or a self-hosted proof of work. */
export interface BotCheck {
  readonly kind: "recaptcha" | "pow";
  /** What the form needs to run the check. */
  challenge(): Promise<unknown>;
  /** True when the token proves a human (or enough work); a token works once. */
  verify(token: string, remoteIp: string | null): Promise<boolean>;
}

export const RECAPTCHA_MIN_SCORE = 0.5;
export const RECAPTCHA_ACTION = "signup";

/** reCAPTCHA v3: the token is checked with Google, its action and its score. */
export function recaptchaCheck(options: {
  siteKey: string;
  secret: string;
  fetch?: typeof fetch;
}): BotCheck {
  const doFetch = options.fetch ?? fetch;
  return {
    kind: "recaptcha",
    challenge: async () => ({ siteKey: options.siteKey }),
    async verify(token, remoteIp) {
      const body = new URLSearchParams({
        secret: options.secret,
        response: token,
        ...(remoteIp ? { remoteip: remoteIp } : {}),
      });
      try {
        const response = await doFetch("https://www.google.com/recaptcha/api/siteverify", {
          method: "POST",
          body,
        });
        const result = (await response.json()) as {
          success?: boolean;
          score?: number;
          action?: string;
        };
        return (
          result.success === true &&
          result.action === RECAPTCHA_ACTION &&
          (result.score ?? 0) >= RECAPTCHA_MIN_SCORE
        );
      } catch {
        return false;
      }
    },
  };
}

export interface PowOptions {
  readonly db: Db;
  /** HMAC secret that signs challenges; shared by every instance (stored in the database). */
  readonly secret: string;
  /** PBKDF2 iterations per attempt and the largest counter: the expected work is cost × maxCounter / 2. */
  readonly cost: number;
  readonly maxCounter: number;
  readonly ttlSeconds?: number;
}

/**
 * ALTCHA proof of work (altcha-lib): the server signs a challenge whose answer takes the browser
 * about a second to find; a solved challenge is accepted once, before it expires.
 */
export function powCheck(options: PowOptions): BotCheck {
  const ttl = options.ttlSeconds ?? 600;
  return {
    kind: "pow",
    challenge: () =>
      createChallenge({
        algorithm: "PBKDF2/SHA-256",
        cost: options.cost,
        counter: randomInt(0, options.maxCounter),
        deriveKey,
        expiresAt: new Date(Date.now() + ttl * 1000),
        hmacSignatureSecret: options.secret,
      }),
    async verify(token) {
      let payload: { challenge?: Challenge; solution?: Solution };
      try {
        payload = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as typeof payload;
      } catch {
        return false;
      }
      if (!payload.challenge?.signature || !payload.solution) return false;
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: options.secret,
      }).catch(() => null);
      if (!result?.verified) return false;
      await options.db.delete(usedChallenges).where(lt(usedChallenges.expiresAt, sql`now()`));
      const inserted = await options.db
        .insert(usedChallenges)
        .values({
          signature: payload.challenge.signature,
          expiresAt: new Date(Date.now() + ttl * 1000),
        })
        .onConflictDoNothing()
        .returning({ signature: usedChallenges.signature });
      return inserted.length === 1;
    },
  };
}
