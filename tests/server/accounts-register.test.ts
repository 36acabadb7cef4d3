import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { count } from "drizzle-orm";
import { Client } from "../../src/contract/accounts.ts";
import { decode } from "../../src/contract/decode.ts";
import { clientByEmail } from "../../src/server/accounts/clients.ts";
import type { Database } from "../../src/server/db/database.ts";
import { clients } from "../../src/server/db/schema.ts";
import {
  apiAgent,
  buildAccountsApp,
  captchaToken,
  emailsTo,
  linkOf,
  outbox,
  PUBLIC_URL,
  register,
  signUpForm,
  solveToken,
  STRONG_PASSWORD,
  uniqueEmail,
  type AccountsApp,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

const clientCount = async (database: Database) =>
  Number((await database.db.select({ n: count() }).from(clients))[0]!.n);

describe.each(databaseTargets)("sign-up and email confirmation on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let api: AccountsApp;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    api = await buildAccountsApp(database);
  });
  afterAll(async () => {
    await drop();
  });

  describe("POST /auth/register", () => {
    it("answers 201 accepted and creates an unconfirmed client with the form's data", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm({ phone: "+34 600 000 000", profession: "Engineer" });

      const res = await register(agent, form);

      expect(res.status).toBe(201);
      expect(res.body).toEqual({ status: "accepted" });
      const row = await clientByEmail(database.db, form.email as string);
      expect(row).toMatchObject({
        name: "Ada",
        surname: "Lovelace",
        phone: "+34 600 000 000",
        profession: "Engineer",
        countryId: "ES",
        level: 1,
        emailConfirmed: false,
        kind: "standard",
        policiesVersion: api.config.policyVersion,
      });
      // The password is kept only as an argon2id hash.
      expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(row!.passwordHash).not.toContain(STRONG_PASSWORD);
    });

    it("sends the confirmation email to the outbox with a link to /en/confirm-email carrying email and token", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm();
      await register(agent, form);

      const mails = await emailsTo(agent, form.email as string);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.subject).toBe("Confirm your email for hollytools");
      expect(mail!.text).toContain("The link expires in 48 hours.");
      const link = linkOf(mail!);
      expect(link.origin).toBe(PUBLIC_URL);
      expect(link.pathname).toBe("/en/confirm-email");
      expect(link.searchParams.get("email")).toBe(form.email);
      expect(link.searchParams.get("token")).toMatch(/^[\w-]{43}$/);
    });

    it("writes the email in Spanish, linking to /es/confirmar-email, when the language is es", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm({ language: "es" });
      await register(agent, form);

      const [mail] = await emailsTo(agent, form.email as string);
      expect(mail!.subject).toBe("Confirma tu email en hollytools");
      expect(mail!.text).toContain("El enlace caduca en 48 horas.");
      const link = linkOf(mail!);
      expect(link.pathname).toBe("/es/confirmar-email");
      expect(link.searchParams.get("email")).toBe(form.email);
      expect(link.searchParams.get("token")).toBeTruthy();
    });

    it("refuses different password and confirmation with 400 PASSWORDS_DONT_MATCH and creates nothing", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm({ confirmPassword: `${STRONG_PASSWORD}x` });
      const before = await clientCount(database);

      const res = await register(agent, form);

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "PASSWORDS_DONT_MATCH" });
      expect(await clientByEmail(database.db, form.email as string)).toBeNull();
      expect(await clientCount(database)).toBe(before);
      expect(await emailsTo(agent, form.email as string)).toEqual([]);
    });

    it("refuses a token that is not a solved challenge with 400 CAPTCHA_FAILED", async () => {
      const agent = apiAgent(api.app);
      for (const recaptchaToken of [
        "not-base64-json",
        Buffer.from("{}").toString("base64"),
        Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: {} })).toString(
          "base64",
        ),
      ]) {
        const form = signUpForm();
        const res = await agent.post("/auth/register", { ...form, recaptchaToken });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ msgCode: "CAPTCHA_FAILED" });
        expect(await clientByEmail(database.db, form.email as string)).toBeNull();
      }
    });

    it("refuses a challenge with a wrong answer with 400 CAPTCHA_FAILED", async () => {
      const agent = apiAgent(api.app);
      const challenge = (await agent.get<Challenge>("/auth/captcha/pow")).body;
      const payload = JSON.parse(
        Buffer.from(await solveToken(challenge), "base64").toString("utf8"),
      ) as { challenge: Challenge; solution: { counter: number; derivedKey: string } };
      payload.solution.derivedKey = "00".repeat(payload.solution.derivedKey.length / 2);
      const form = signUpForm();

      const res = await agent.post("/auth/register", {
        ...form,
        recaptchaToken: Buffer.from(JSON.stringify(payload)).toString("base64"),
      });

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "CAPTCHA_FAILED" });
      expect(await clientByEmail(database.db, form.email as string)).toBeNull();
    });

    it("refuses a challenge signed with another secret (made by someone else) with 400 CAPTCHA_FAILED", async () => {
      const agent = apiAgent(api.app);
      const forged = await createChallenge({
        algorithm: "PBKDF2/SHA-256",
        cost: 1,
        counter: 3,
        deriveKey,
        expiresAt: new Date(Date.now() + 60_000),
        hmacSignatureSecret: "not-the-server-secret",
      });
      const form = signUpForm();

      const res = await agent.post("/auth/register", {
        ...form,
        recaptchaToken: await solveToken(forged),
      });

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "CAPTCHA_FAILED" });
      expect(await clientByEmail(database.db, form.email as string)).toBeNull();
    });

    it("accepts a solved challenge once: replaying it is 400 CAPTCHA_FAILED and creates nothing", async () => {
      const agent = apiAgent(api.app);
      const token = await captchaToken(agent);
      const first = signUpForm();
      const second = signUpForm();

      const ok = await agent.post("/auth/register", { ...first, recaptchaToken: token });
      const replay = await agent.post("/auth/register", { ...second, recaptchaToken: token });

      expect(ok.status).toBe(201);
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual({ msgCode: "CAPTCHA_FAILED" });
      expect(await clientByEmail(database.db, first.email as string)).not.toBeNull();
      expect(await clientByEmail(database.db, second.email as string)).toBeNull();
      expect(await emailsTo(agent, second.email as string)).toEqual([]);
    });

    it("refuses a form without a captcha token with 400 and creates nothing", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm();
      const before = await clientCount(database);

      const missing = await agent.post("/auth/register", form);
      const empty = await agent.post("/auth/register", { ...form, recaptchaToken: "" });

      expect(missing.status).toBe(400);
      expect(empty.status).toBe(400);
      expect(await clientCount(database)).toBe(before);
      expect(await clientByEmail(database.db, form.email as string)).toBeNull();
    });

    it("refuses invalid fields with 400 INVALID_REQUEST naming each field", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm({
        name: "",
        surname: "x".repeat(121),
        email: "not-an-email",
        password: "short",
        confirmPassword: "short",
        countryId: "Spain",
        phone: "call me",
        language: "fr",
      });
      const before = await clientCount(database);

      const res = await register(agent, form);

      expect(res.status).toBe(400);
      expect(res.body.msgCode).toBe("INVALID_REQUEST");
      const paths = new Set((res.body.issues as { path: string }[]).map((i) => i.path));
      expect(paths).toEqual(
        new Set(["name", "surname", "email", "password", "countryId", "phone", "language"]),
      );
      expect(await clientCount(database)).toBe(before);
    });

    it("refuses a body that is not JSON with 400 INVALID_REQUEST", async () => {
      const res = await api.app.request("/api/auth/register", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{not json",
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { msgCode: string }).msgCode).toBe("INVALID_REQUEST");
    });

    it("refuses a form whose policies are not accepted (policies: false) and creates nothing", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm({ policies: false });

      const res = await register(agent, form);

      expect(res.status).toBe(400);
      expect(res.body.msgCode).toBe("INVALID_REQUEST");
      expect((res.body.issues as { path: string }[]).map((i) => i.path)).toEqual(["policies"]);
      expect(await clientByEmail(database.db, form.email as string)).toBeNull();
    });

    it("answers an existing email exactly as a new one, emails the owner instead and creates nothing", async () => {
      const agent = apiAgent(api.app);
      const owner = signUpForm();
      const fresh = await register(agent, owner);
      const ownerRow = await clientByEmail(database.db, owner.email as string);
      const before = await clientCount(database);

      const again = await register(
        agent,
        signUpForm({
          email: (owner.email as string).toUpperCase(),
          name: "Mallory",
          password: "Another-pass-77",
          confirmPassword: "Another-pass-77",
        }),
      );

      expect(again.status).toBe(fresh.status);
      expect(again.body).toEqual(fresh.body);
      expect(again.headers.get("content-type")).toBe(fresh.headers.get("content-type"));
      expect(await clientCount(database)).toBe(before);
      // The account is untouched: same name, same password hash.
      expect(await clientByEmail(database.db, owner.email as string)).toEqual(ownerRow);

      const mails = await emailsTo(agent, owner.email as string);
      expect(mails).toHaveLength(2);
      const [newest, first] = mails;
      expect(first!.subject).toBe("Confirm your email for hollytools");
      expect(newest!.subject).toBe("You already have a hollytools account");
      expect(linkOf(newest!).toString()).toBe(`${PUBLIC_URL}/en/forgot-password`);
      // Only one confirmation link was ever issued for the address.
      expect(mails.filter((m) => m.text.includes("/confirm-email"))).toHaveLength(1);
    });

    it("writes the account-exists email in Spanish when the second form is in Spanish", async () => {
      const agent = apiAgent(api.app);
      const owner = signUpForm();
      await register(agent, owner);

      await register(agent, signUpForm({ email: owner.email, language: "es" }));

      const [newest] = await emailsTo(agent, owner.email as string);
      expect(newest!.subject).toBe("Ya tienes una cuenta en hollytools");
      expect(linkOf(newest!).toString()).toBe(`${PUBLIC_URL}/es/olvide-contrasena`);
    });
  });

  describe("PUT /auth/confirm-email", () => {
    async function registered(language: "en" | "es" = "en") {
      const agent = apiAgent(api.app);
      const form = signUpForm({ language });
      await register(agent, form);
      const [mail] = await emailsTo(agent, form.email as string);
      const link = linkOf(mail!);
      return {
        agent,
        email: form.email as string,
        linkEmail: link.searchParams.get("email")!,
        token: link.searchParams.get("token")!,
      };
    }

    it("signs in with the link's token: a token and expiry that open GET /client, email confirmed", async () => {
      const { agent, linkEmail, token, email } = await registered();

      const res = await agent.put("/auth/confirm-email", { email: linkEmail, token });

      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["expiry", "token"]);
      const days = (Date.parse(res.body.expiry) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
      const me = await agent.get("/client", res.body.token);
      expect(me.status).toBe(200);
      const client = decode(Client, me.body);
      if (!client.ok) throw new Error(JSON.stringify(client.issues));
      expect(client.value.email).toBe(email);
      expect(client.value.emailConfirmed).toBe(true);
    });

    it("works from the Spanish link too", async () => {
      const { agent, linkEmail, token } = await registered("es");
      const res = await agent.put("/auth/confirm-email", { email: linkEmail, token });
      expect(res.status).toBe(200);
      expect((await agent.get("/client", res.body.token)).body.emailConfirmed).toBe(true);
    });

    it("accepts the token once: the second use is 400 INVALID_TOKEN", async () => {
      const { agent, linkEmail, token } = await registered();

      const first = await agent.put("/auth/confirm-email", { email: linkEmail, token });
      const second = await agent.put("/auth/confirm-email", { email: linkEmail, token });

      expect(first.status).toBe(200);
      expect(second.status).toBe(400);
      expect(second.body).toEqual({ msgCode: "INVALID_TOKEN" });
    });

    it("refuses a wrong token or another email with 400 INVALID_TOKEN, leaving the email unconfirmed", async () => {
      const { agent, linkEmail, token, email } = await registered();
      const other = await registered();

      const wrongToken = await agent.put("/auth/confirm-email", {
        email: linkEmail,
        token: `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
      });
      const otherEmail = await agent.put("/auth/confirm-email", { email: other.email, token });
      const unknownEmail = await agent.put("/auth/confirm-email", {
        email: uniqueEmail("nobody"),
        token,
      });

      for (const res of [wrongToken, otherEmail, unknownEmail]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ msgCode: "INVALID_TOKEN" });
      }
      expect((await clientByEmail(database.db, email))!.emailConfirmed).toBe(false);
      expect((await clientByEmail(database.db, other.email))!.emailConfirmed).toBe(false);
      // The refused attempts did not use the token up.
      expect((await agent.put("/auth/confirm-email", { email: linkEmail, token })).status).toBe(
        200,
      );
    });

    it("resends a confirmation link that works, and answers the same for unknown emails", async () => {
      const { agent, email } = await registered();
      const mailsBefore = (await outbox(agent)).length;

      const resent = await agent.post("/auth/resend-register-email-confirmation?lang=es", {
        email,
      });
      const unknown = await agent.post("/auth/resend-register-email-confirmation?lang=es", {
        email: uniqueEmail("nobody"),
      });

      expect(resent.status).toBe(200);
      expect(unknown.status).toBe(resent.status);
      expect(unknown.body).toEqual(resent.body);
      expect((await outbox(agent)).length).toBe(mailsBefore + 1);
      const [newest] = await emailsTo(agent, email);
      expect(newest!.subject).toBe("Confirma tu email en hollytools");
      const link = linkOf(newest!);
      expect(link.pathname).toBe("/es/confirmar-email");
      const res = await agent.put("/auth/confirm-email", {
        email: link.searchParams.get("email"),
        token: link.searchParams.get("token"),
      });
      expect(res.status).toBe(200);
    });
  });
});
