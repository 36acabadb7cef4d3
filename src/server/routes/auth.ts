import { Hono } from "hono";
import { eq, sql } from "drizzle-orm";
import {
  Accepted,
  CaptchaChallenge,
  ChangePasswordRequest,
  ConfirmEmailRequest,
  Credentials,
  EmailOnly,
  RecoverPasswordRequest,
  SessionToken,
  SignUpRequest,
} from "../../contract/accounts.ts";
import { CommonQuery, type Locale } from "../../contract/common.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { clientByEmail, clientById } from "../accounts/clients.ts";
import { consumeToken, issueLink } from "../accounts/email-links.ts";
import { emails } from "../accounts/emails.ts";
import { hashPassword, unknownAccountHash, verifyPassword } from "../accounts/passwords.ts";
import { takeEmail } from "../accounts/email-limits.ts";
import {
  attemptKeys,
  beginAttempt,
  clearFailures,
  endAttempt,
  type AttemptKeys,
} from "../accounts/rate-limit.ts";
import {
  createSession,
  revokeAllSessions,
  revokeSession,
  sessionClient,
} from "../accounts/sessions.ts";
import { clients } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { rateLimit } from "../http/rate-limits.ts";
import { requireSession } from "../http/auth.ts";
import { idempotent } from "../http/idempotency.ts";
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from "../http/session-cookie.ts";
import { clientAddress } from "../http/client-address.ts";
import { jsonBody, queryOf, reply } from "../http/validate.ts";
import { brandNames } from "../../contract/names.ts";

const accepted = { status: "accepted" } as const;

export function authRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const brand = brandNames[deps.config.edition];
  const localeOf = (c: Parameters<typeof queryOf>[0]): Locale =>
    queryOf(c, CommonQuery).lang ?? "en";
  const send = async (to: string, purpose: keyof typeof emails, locale: Locale, link: string) =>
    deps.mailer.send(to, emails[purpose](locale, brand, link), purpose);
  const now = deps.clock ?? (() => new Date());
  const sleep =
    deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  type Ctx = Parameters<typeof queryOf>[0];

  /**
   * Starts a session for the client: the token and expiry in the body (API clients, the
   * specification's answer) and in the HttpOnly session cookie (the browser app, whose scripts
   * never hold the token).
   */
  const startSession = async (c: Ctx, clientId: number) => {
    const session = await createSession(db, clientId, deps.config.sessionDays);
    setSessionCookie(c, deps.config, session);
    return reply(c, SessionToken, session);
  };

  /**
   * Runs a secret check (a password, a recovery token) under the sign-in throttling
   * (accounts/rate-limit.ts): 429 when this pair or this address failed too often, else the
   * account's delay, then the check; its outcome is counted.
   */
  const throttled = async <T>(
    c: Ctx,
    email: string,
    check: () => Promise<T | null>,
    scope = "",
  ): Promise<{ passed: T | null; keys: AttemptKeys }> => {
    const keys = attemptKeys(email, clientAddress(c, deps.config.trustProxy), scope);
    const start = await beginAttempt(db, keys, now());
    if (start.limited)
      throw new ApiFailure(429, "TOO_MANY_ATTEMPTS", undefined, {
        "Retry-After": String(start.retryAfter),
      });
    if (start.delayMs > 0) await sleep(start.delayMs);
    const passed = await check();
    await endAttempt(db, keys, passed !== null, now());
    return { passed, keys };
  };

  /** Counts an email anyone can trigger; 429 TOO_MANY_EMAILS over the limits, known account or not. */
  const limitEmails = async (c: Ctx, email: string, countAddress = true) => {
    const state = await takeEmail(
      db,
      { email, address: countAddress ? clientAddress(c, deps.config.trustProxy) : null },
      now(),
    );
    if (state.limited)
      throw new ApiFailure(429, "TOO_MANY_EMAILS", undefined, {
        "Retry-After": String(state.retryAfter),
      });
  };

  return new Hono<AppEnv>()
    .post("/login", async (c) => {
      const { email, password } = await jsonBody(c, Credentials);
      const client = await clientByEmail(db, email);
      // The same work, limits and answer whether the email is unknown or the password wrong.
      const { passed } = await throttled(c, email, async () =>
        (await verifyPassword(password, client?.passwordHash ?? unknownAccountHash)) && client
          ? client
          : null,
      );
      if (!passed) throw new ApiFailure(400, "INVALID_CREDENTIALS");
      return startSession(c, passed.id);
    })
    .post(
      "/register",
      // Before the limit: a repeated sign-up answers what the first one did, uncounted.
      idempotent(deps),
      rateLimit(deps, "sign-up", {
        address: { max: deps.config.signUpsPerHour, windowSeconds: 3600 },
      }),
      async (c) => {
        const form = await jsonBody(c, SignUpRequest);
        if (form.password !== form.confirmPassword)
          throw new ApiFailure(400, "PASSWORDS_DONT_MATCH");
        if (
          !(await deps.botCheck.verify(
            form.recaptchaToken,
            clientAddress(c, deps.config.trustProxy),
          ))
        ) {
          throw new ApiFailure(400, "CAPTCHA_FAILED");
        }
        // A sign-up of a known email mails its owner: counted per email like every such email
        // (the sign-up limit already counts the address), for new emails too.
        await limitEmails(c, form.email, false);
        const passwordHash = await hashPassword(form.password);
        const existing = await clientByEmail(db, form.email);
        if (existing) {
          const link = `${deps.config.publicUrl}/${form.language}/${form.language === "es" ? "olvide-contrasena" : "forgot-password"}`;
          await send(existing.email, "account-exists", form.language, link);
          return reply(c, Accepted, accepted, 201);
        }
        const [created] = await db
          .insert(clients)
          .values({
            email: form.email,
            passwordHash,
            name: form.name,
            surname: form.surname,
            phone: form.phone ?? null,
            telephone: form.telephone ?? null,
            countryId: form.countryId,
            newsletter: form.newsletter,
            language: form.language,
            profession: form.profession ?? null,
            level: 1,
            policiesVersion: deps.config.policyVersion,
            policiesAcceptedAt: sql`now()`,
          })
          .onConflictDoNothing()
          .returning({ id: clients.id });
        if (created) {
          const link = await issueLink(db, {
            clientId: created.id,
            email: form.email,
            purpose: "confirm-email",
            locale: form.language,
            publicUrl: deps.config.publicUrl,
          });
          await send(form.email, "confirm-email", form.language, link);
        }
        return reply(c, Accepted, accepted, 201);
      },
    )
    .post("/logout", requireSession(deps), async (c) => {
      await revokeSession(db, c.get("tokenHash"));
      clearSessionCookie(c, deps.config);
      return reply(c, Accepted, accepted);
    })
    .put("/change-password", requireSession(deps), async (c) => {
      const form = await jsonBody(c, ChangePasswordRequest);
      if (form.newPassword !== form.confirmPassword)
        throw new ApiFailure(400, "PASSWORDS_DONT_MATCH");
      const client = await clientById(db, c.get("clientId"));
      if (!client) throw new ApiFailure(401, "UNAUTHORIZED");
      // Guessing the current password with a stolen token is throttled like signing in.
      const { passed } = await throttled(c, client.email, async () =>
        (await verifyPassword(form.currentPassword, client.passwordHash)) ? true : null,
      );
      if (!passed) throw new ApiFailure(400, "WRONG_PASSWORD");
      await db
        .update(clients)
        .set({ passwordHash: await hashPassword(form.newPassword), updatedAt: sql`now()` })
        .where(eq(clients.id, client.id));
      // Every session ends, this one included; the device that asked gets a fresh one.
      await revokeAllSessions(db, client.id);
      return startSession(c, client.id);
    })
    .post("/resend-register-email-confirmation", async (c) => {
      const { email } = await jsonBody(c, EmailOnly);
      await limitEmails(c, email);
      const client = await clientByEmail(db, email);
      if (client && !client.emailConfirmed && client.kind !== "TT") {
        const locale = localeOf(c);
        const link = await issueLink(db, {
          clientId: client.id,
          email: client.email,
          purpose: "confirm-email",
          locale,
          publicUrl: deps.config.publicUrl,
        });
        await send(client.email, "confirm-email", locale, link);
      }
      return reply(c, Accepted, accepted);
    })
    .put("/confirm-email", async (c) => {
      const { email, token } = await jsonBody(c, ConfirmEmailRequest);
      const clientId = await consumeToken(db, "confirm-email", email, token);
      if (clientId === null) throw new ApiFailure(400, "INVALID_TOKEN");
      await db
        .update(clients)
        .set({ emailConfirmed: true, updatedAt: sql`now()` })
        .where(eq(clients.id, clientId));
      return startSession(c, clientId);
    })
    .post("/forgot-password", async (c) => {
      const { email } = await jsonBody(c, EmailOnly);
      await limitEmails(c, email);
      const client = await clientByEmail(db, email);
      if (client) {
        const locale = localeOf(c);
        const link = await issueLink(db, {
          clientId: client.id,
          email: client.email,
          purpose: "recover-password",
          locale,
          publicUrl: deps.config.publicUrl,
        });
        await send(client.email, "recover-password", locale, link);
      }
      return reply(c, Accepted, accepted);
    })
    .post("/recover-password", async (c) => {
      const form = await jsonBody(c, RecoverPasswordRequest);
      if (form.password !== form.confirmPassword) throw new ApiFailure(400, "PASSWORDS_DONT_MATCH");
      // Guessing recovery tokens is throttled like guessing passwords, on counters of its own (a
      // person who forgot the password may have failed to sign in first).
      const { passed: clientId } = await throttled(
        c,
        form.email,
        () => consumeToken(db, "recover-password", form.email, form.token),
        "recover:",
      );
      if (clientId === null) throw new ApiFailure(400, "INVALID_TOKEN");
      await db
        .update(clients)
        .set({ passwordHash: await hashPassword(form.password), updatedAt: sql`now()` })
        .where(eq(clients.id, clientId));
      await revokeAllSessions(db, clientId);
      // The browser's session cookie goes when recovery just ended its session (another
      // account's live session in the same browser stays).
      const cookie = sessionCookieOf(c);
      if (cookie !== null && !(await sessionClient(db, cookie))) clearSessionCookie(c, deps.config);
      // A new password: the failures counted against the old one no longer matter.
      const signIn = attemptKeys(form.email, clientAddress(c, deps.config.trustProxy));
      await Promise.all([clearFailures(db, signIn.account), clearFailures(db, signIn.pair)]);
      return reply(c, Accepted, accepted);
    })
    .get("/captcha/pow", async (c) => {
      // The proof-of-work widget fetches its challenge here, as altcha-lib made it.
      if (deps.botCheck.kind !== "pow") throw new ApiFailure(404, "NOT_FOUND");
      c.header("Cache-Control", "no-store");
      return c.json((await deps.botCheck.challenge()) as object);
    })
    .get("/captcha", async (c) => {
      c.header("Cache-Control", "no-store");
      const challenge = await deps.botCheck.challenge();
      return reply(
        c,
        CaptchaChallenge,
        deps.botCheck.kind === "recaptcha"
          ? { kind: "recaptcha", siteKey: (challenge as { siteKey: string }).siteKey }
          : { kind: "pow", challenge },
      );
    });
}
