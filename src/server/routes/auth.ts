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
import type { AppDeps, AppEnv } from "../app.ts";
import { clientByEmail, clientById } from "../accounts/clients.ts";
import { consumeToken, issueLink } from "../accounts/email-links.ts";
import { emails } from "../accounts/emails.ts";
import { hashPassword, unknownAccountHash, verifyPassword } from "../accounts/passwords.ts";
import {
  clearFailures,
  releaseAttempt,
  SIGN_IN_LIMITS,
  takeAttempt,
} from "../accounts/rate-limit.ts";
import { createSession, revokeAllSessions, revokeSession } from "../accounts/sessions.ts";
import { clients } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { rateLimit } from "../http/rate-limits.ts";
import { requireSession } from "../http/auth.ts";
import { clientAddress } from "../http/client-address.ts";
import { jsonBody, queryOf, reply } from "../http/validate.ts";
import { editionBrands } from "../../ui/editions.ts";

const accepted = { status: "accepted" } as const;

export function authRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const brand = editionBrands[deps.config.edition].name;
  const localeOf = (c: Parameters<typeof queryOf>[0]): Locale =>
    queryOf(c, CommonQuery).lang ?? "en";
  const send = async (to: string, purpose: keyof typeof emails, locale: Locale, link: string) =>
    deps.mailer.send(to, emails[purpose](locale, brand, link), purpose);

  return new Hono<AppEnv>()
    .post("/login", async (c) => {
      const { email, password } = await jsonBody(c, Credentials);
      const address = clientAddress(c, deps.config.trustProxy);
      const keys = {
        account: `account:${email.toLowerCase()}`,
        address: `address:${address ?? "unknown"}`,
      };
      const [byAccount, byAddress] = await Promise.all([
        takeAttempt(db, keys.account, SIGN_IN_LIMITS.account),
        takeAttempt(db, keys.address, SIGN_IN_LIMITS.address),
      ]);
      if (byAccount.limited || byAddress.limited) {
        c.header("Retry-After", String(Math.max(byAccount.retryAfter, byAddress.retryAfter)));
        throw new ApiFailure(429, "TOO_MANY_ATTEMPTS");
      }
      const client = await clientByEmail(db, email);
      // The same work and the same answer whether the email is unknown or the password wrong.
      const valid = await verifyPassword(password, client?.passwordHash ?? unknownAccountHash);
      if (!client || !valid) throw new ApiFailure(400, "INVALID_CREDENTIALS");
      await Promise.all([clearFailures(db, keys.account), releaseAttempt(db, keys.address)]);
      return reply(c, SessionToken, await createSession(db, client.id, deps.config.sessionDays));
    })
    .post(
      "/register",
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
      return reply(c, Accepted, accepted);
    })
    .put("/change-password", requireSession(deps), async (c) => {
      const form = await jsonBody(c, ChangePasswordRequest);
      if (form.newPassword !== form.confirmPassword)
        throw new ApiFailure(400, "PASSWORDS_DONT_MATCH");
      const client = await clientById(db, c.get("clientId"));
      if (!client) throw new ApiFailure(401, "UNAUTHORIZED");
      // Guessing the current password with a stolen token is limited like signing in.
      const key = `account:${client.email.toLowerCase()}`;
      const attempt = await takeAttempt(db, key, SIGN_IN_LIMITS.account);
      if (attempt.limited) {
        c.header("Retry-After", String(attempt.retryAfter));
        throw new ApiFailure(429, "TOO_MANY_ATTEMPTS");
      }
      if (!(await verifyPassword(form.currentPassword, client.passwordHash)))
        throw new ApiFailure(400, "WRONG_PASSWORD");
      await clearFailures(db, key);
      await db
        .update(clients)
        .set({ passwordHash: await hashPassword(form.newPassword), updatedAt: sql`now()` })
        .where(eq(clients.id, client.id));
      // Every session ends, this one included; the device that asked gets a fresh one.
      await revokeAllSessions(db, client.id);
      return reply(c, SessionToken, await createSession(db, client.id, deps.config.sessionDays));
    })
    .post("/resend-register-email-confirmation", async (c) => {
      const { email } = await jsonBody(c, EmailOnly);
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
      return reply(c, SessionToken, await createSession(db, clientId, deps.config.sessionDays));
    })
    .post("/forgot-password", async (c) => {
      const { email } = await jsonBody(c, EmailOnly);
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
      const clientId = await consumeToken(db, "recover-password", form.email, form.token);
      if (clientId === null) throw new ApiFailure(400, "INVALID_TOKEN");
      await db
        .update(clients)
        .set({ passwordHash: await hashPassword(form.password), updatedAt: sql`now()` })
        .where(eq(clients.id, clientId));
      await revokeAllSessions(db, clientId);
      await clearFailures(db, `account:${form.email.toLowerCase()}`);
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
