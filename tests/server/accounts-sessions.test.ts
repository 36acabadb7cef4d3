import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { hashToken } from "../../src/server/accounts/tokens.ts";
import type { Database } from "../../src/server/db/database.ts";
import { emailTokens, sessions } from "../../src/server/db/schema.ts";
import {
  apiAgent,
  buildAccountsApp,
  emailsTo,
  linkOf,
  outbox,
  PUBLIC_URL,
  register,
  registerAndConfirm,
  signUpForm,
  uniqueEmail,
  type AccountsApp,
  type ApiAgent,
} from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";

const NEW_PASSWORD = "Brand-new-secret-9";

const unauthorized = { msgCode: "UNAUTHORIZED" };

describe.each(databaseTargets)("sessions and passwords on $name", (target) => {
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

  const signIn = async (agent: ApiAgent, email: string, password: string) => {
    const res = await agent.post("/auth/login", { email, password });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };

  describe("bearer tokens", () => {
    it("answers GET /client without a bearer with 401 UNAUTHORIZED", async () => {
      const res = await apiAgent(api.app).get("/client");
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    });

    it.each([
      ["an unknown token", "x".repeat(43)],
      ["a malformed token", "not a token!"],
      ["a too short token", "abc"],
    ])("answers GET /client with %s with 401 UNAUTHORIZED", async (_name, token) => {
      const res = await apiAgent(api.app).get("/client", token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    });

    it("answers another scheme than Bearer with 401", async () => {
      const agent = apiAgent(api.app);
      const { token } = await registerAndConfirm(agent);
      const res = await agent.call("GET", "/client", {
        headers: { Authorization: `Basic ${token}` },
      });
      expect(res.status).toBe(401);
    });

    it("refuses an expired session with 401", async () => {
      const agent = apiAgent(api.app);
      const { token } = await registerAndConfirm(agent);
      expect((await agent.get("/client", token)).status).toBe(200);
      await database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.tokenHash, hashToken(token)));
      expect((await agent.get("/client", token)).status).toBe(401);
    });

    it("keeps only the token's SHA-256 in the database", async () => {
      const agent = apiAgent(api.app);
      const { token } = await registerAndConfirm(agent);
      const rows = await database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(token)));
      expect(rows).toHaveLength(1);
      const all = await database.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
      expect(all.some((r) => r.tokenHash === token)).toBe(false);
    });
  });

  describe("POST /auth/logout", () => {
    it("revokes the token: it then answers 401, while another session of the client stays", async () => {
      const agent = apiAgent(api.app);
      const { email, password, token } = await registerAndConfirm(agent);
      const other = await signIn(agent, email, password);

      const res = await agent.post("/auth/logout", undefined, token);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: "accepted" });
      expect(await agent.get("/client", token)).toMatchObject({ status: 401, body: unauthorized });
      expect((await agent.post("/auth/logout", undefined, token)).status).toBe(401);
      expect((await agent.get("/client", other)).status).toBe(200);
    });

    it("needs a session: 401 without a bearer", async () => {
      const res = await apiAgent(api.app).post("/auth/logout");
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    });
  });

  describe("PUT /auth/change-password", () => {
    it("refuses a wrong current password with 400 WRONG_PASSWORD and changes nothing", async () => {
      const agent = apiAgent(api.app);
      const { email, password, token } = await registerAndConfirm(agent);

      const res = await agent.put(
        "/auth/change-password",
        {
          currentPassword: "Wrong-current-1",
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        },
        token,
      );

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "WRONG_PASSWORD" });
      expect((await agent.get("/client", token)).status).toBe(200);
      expect((await agent.post("/auth/login", { email, password })).status).toBe(200);
      expect((await agent.post("/auth/login", { email, password: NEW_PASSWORD })).status).toBe(400);
    });

    it("refuses a new password and confirmation that differ with 400 PASSWORDS_DONT_MATCH", async () => {
      const agent = apiAgent(api.app);
      const { email, password, token } = await registerAndConfirm(agent);

      const res = await agent.put(
        "/auth/change-password",
        {
          currentPassword: password,
          newPassword: NEW_PASSWORD,
          confirmPassword: `${NEW_PASSWORD}!`,
        },
        token,
      );

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "PASSWORDS_DONT_MATCH" });
      expect((await agent.get("/client", token)).status).toBe(200);
      expect((await agent.post("/auth/login", { email, password })).status).toBe(200);
    });

    it("refuses a new password under 8 characters with 400 INVALID_REQUEST", async () => {
      const agent = apiAgent(api.app);
      const { password, token } = await registerAndConfirm(agent);
      const res = await agent.put(
        "/auth/change-password",
        { currentPassword: password, newPassword: "Ab1!", confirmPassword: "Ab1!" },
        token,
      );
      expect(res.status).toBe(400);
      expect(res.body.msgCode).toBe("INVALID_REQUEST");
      expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(["newPassword"]);
    });

    it("needs a session: 401 without a bearer", async () => {
      const res = await apiAgent(api.app).put("/auth/change-password", {
        currentPassword: "whatever-1",
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(res.status).toBe(401);
    });

    it("answers a new token and revokes every older one, the one used included", async () => {
      const agent = apiAgent(api.app);
      const { email, password, token: confirmToken } = await registerAndConfirm(agent);
      const laptop = await signIn(agent, email, password);
      const phone = await signIn(apiAgent(api.app), email, password);

      const res = await agent.put(
        "/auth/change-password",
        { currentPassword: password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        laptop,
      );

      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["expiry", "token"]);
      const fresh = res.body.token as string;
      expect([confirmToken, laptop, phone]).not.toContain(fresh);
      for (const old of [confirmToken, laptop, phone]) {
        expect(await agent.get("/client", old)).toMatchObject({ status: 401, body: unauthorized });
      }
      const me = await agent.get("/client", fresh);
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(email);
    });

    it("makes the new password the one that signs in, and the old one no longer", async () => {
      const agent = apiAgent(api.app);
      const { email, password, token } = await registerAndConfirm(agent);

      await agent.put(
        "/auth/change-password",
        { currentPassword: password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        token,
      );

      const old = await agent.post("/auth/login", { email, password });
      expect(old.status).toBe(400);
      expect(old.body).toEqual({ msgCode: "INVALID_CREDENTIALS" });
      expect((await agent.post("/auth/login", { email, password: NEW_PASSWORD })).status).toBe(200);
    });
  });

  describe("forgotten password", () => {
    async function recoveryLink(agent: ApiAgent, email: string, lang = "en") {
      const res = await agent.post(`/auth/forgot-password?lang=${lang}`, { email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: "accepted" });
      const [mail] = await emailsTo(agent, email);
      return { mail: mail!, link: linkOf(mail!) };
    }

    it("emails a link to /en/recover-password carrying the email and a token", async () => {
      const agent = apiAgent(api.app);
      const { email } = await registerAndConfirm(agent);

      const { mail, link } = await recoveryLink(agent, email);

      expect(mail.subject).toBe("Choose a new password for hollytools");
      expect(mail.text).toContain("The link expires in 1 hour.");
      expect(link.origin).toBe(PUBLIC_URL);
      expect(link.pathname).toBe("/en/recover-password");
      expect(link.searchParams.get("email")).toBe(email);
      expect(link.searchParams.get("token")).toMatch(/^[\w-]{43}$/);
    });

    it("writes it in Spanish with a link to /es/recuperar-contrasena for lang=es", async () => {
      const agent = apiAgent(api.app);
      const { email } = await registerAndConfirm(agent);
      const { mail, link } = await recoveryLink(agent, email, "es");
      expect(mail.subject).toBe("Elige una nueva contraseña en hollytools");
      expect(mail.text).toContain("El enlace caduca en 1 hora.");
      expect(link.pathname).toBe("/es/recuperar-contrasena");
    });

    it("sets the new password with the link's token, once, and revokes every session", async () => {
      const agent = apiAgent(api.app);
      const { email, password, token: session1 } = await registerAndConfirm(agent);
      const session2 = await signIn(apiAgent(api.app), email, password);
      const { link } = await recoveryLink(agent, email);
      const body = {
        email: link.searchParams.get("email"),
        token: link.searchParams.get("token"),
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      };

      const res = await agent.post("/auth/recover-password", body);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: "accepted" });
      for (const old of [session1, session2]) {
        expect((await agent.get("/client", old)).status).toBe(401);
      }
      expect((await agent.post("/auth/login", { email, password })).status).toBe(400);
      expect((await agent.post("/auth/login", { email, password: NEW_PASSWORD })).status).toBe(200);
      const again = await agent.post("/auth/recover-password", {
        ...body,
        password: "Third-password-3",
        confirmPassword: "Third-password-3",
      });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ msgCode: "INVALID_TOKEN" });
      expect((await agent.post("/auth/login", { email, password: NEW_PASSWORD })).status).toBe(200);
    });

    it("makes the token last 1 hour, and refuses it once expired", async () => {
      const agent = apiAgent(api.app);
      const { email, password } = await registerAndConfirm(agent);
      const { link } = await recoveryLink(agent, email);
      const token = link.searchParams.get("token")!;
      const [row] = await database.db
        .select()
        .from(emailTokens)
        .where(eq(emailTokens.tokenHash, hashToken(token)));
      expect(row!.purpose).toBe("recover-password");
      const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
      expect(Math.abs(lifetime - 3_600_000)).toBeLessThan(5_000);

      await database.db
        .update(emailTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(emailTokens.tokenHash, hashToken(token)));
      const res = await agent.post("/auth/recover-password", {
        email,
        token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "INVALID_TOKEN" });
      expect((await agent.post("/auth/login", { email, password })).status).toBe(200);
    });

    it("refuses a recovery token for another email or a wrong token with 400 INVALID_TOKEN", async () => {
      const agent = apiAgent(api.app);
      const victim = await registerAndConfirm(agent);
      const attacker = await registerAndConfirm(agent);
      const { link } = await recoveryLink(agent, attacker.email);
      const token = link.searchParams.get("token")!;

      for (const body of [
        { email: victim.email, token },
        { email: attacker.email, token: token.slice(1) + "x" },
      ]) {
        const res = await agent.post("/auth/recover-password", {
          ...body,
          password: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ msgCode: "INVALID_TOKEN" });
      }
      expect(
        (await agent.post("/auth/login", { email: victim.email, password: victim.password }))
          .status,
      ).toBe(200);
    });

    it("does not take a confirm-email token as a recovery token", async () => {
      const agent = apiAgent(api.app);
      const form = signUpForm();
      await register(agent, form);
      const [mail] = await emailsTo(agent, form.email as string);
      const confirmLink = linkOf(mail!);
      const token = confirmLink.searchParams.get("token");

      const res = await agent.post("/auth/recover-password", {
        email: form.email,
        token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "INVALID_TOKEN" });
      // Still a valid confirmation token.
      expect((await agent.put("/auth/confirm-email", { email: form.email, token })).status).toBe(
        200,
      );
    });

    it("refuses a new password and confirmation that differ with 400 PASSWORDS_DONT_MATCH", async () => {
      const agent = apiAgent(api.app);
      const { email, password } = await registerAndConfirm(agent);
      const { link } = await recoveryLink(agent, email);
      const res = await agent.post("/auth/recover-password", {
        email,
        token: link.searchParams.get("token"),
        password: NEW_PASSWORD,
        confirmPassword: `${NEW_PASSWORD}?`,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msgCode: "PASSWORDS_DONT_MATCH" });
      expect((await agent.post("/auth/login", { email, password })).status).toBe(200);
    });

    it("answers an unknown email with the same 200 and sends nothing", async () => {
      const agent = apiAgent(api.app);
      const { email } = await registerAndConfirm(agent);
      const known = await agent.post("/auth/forgot-password", { email });
      const before = (await outbox(agent)).length;
      const nobody = uniqueEmail("nobody");

      const unknown = await agent.post("/auth/forgot-password", { email: nobody });

      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      expect((await outbox(agent)).length).toBe(before);
      expect(await emailsTo(agent, nobody)).toEqual([]);
    });

    it("lets a limited account sign in again after recovering its password", async () => {
      const agent = apiAgent(api.app);
      const { email } = await registerAndConfirm(agent);
      for (let i = 0; i < 5; i++) {
        await agent.post("/auth/login", { email, password: "Wrong-password-0" });
      }
      expect((await agent.post("/auth/login", { email, password: "whatever" })).status).toBe(429);
      const { link } = await recoveryLink(agent, email);
      await agent.post("/auth/recover-password", {
        email,
        token: link.searchParams.get("token"),
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect((await agent.post("/auth/login", { email, password: NEW_PASSWORD })).status).toBe(200);
    });
  });
});
