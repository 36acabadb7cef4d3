import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_LIMITS } from "../../src/server/accounts/email-limits.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  apiAgent,
  buildAccountsApp,
  emailsTo,
  register,
  signUpForm,
  uniqueEmail,
  type AccountsApp,
  type ApiAnswer,
} from "../support/accounts.ts";
import { eq } from "drizzle-orm";
import { clients } from "../../src/server/db/schema.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";

function expectLimited(res: ApiAnswer, maxSeconds = 3600) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ msgCode: "TOO_MANY_EMAILS" });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe("email limits are those of PRODUCT.md", () => {
  it("allow 3 emails an hour per account and 20 per address", () => {
    expect(EMAIL_LIMITS).toEqual({ account: 3, address: 20, windowSeconds: 3600 });
  });
});

describe.each(databaseTargets)("emails anyone can trigger on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let api: AccountsApp;
  let now = new Date("2026-11-27T10:00:00Z");
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    api = await buildAccountsApp(database, {}, { clock: () => now });
  });
  afterAll(async () => drop());

  /** The email of a confirmed account made directly in the database (no email sent for it). */
  const accountEmail = async () => {
    const { id } = await signedInClient(database);
    const [row] = await database.db
      .select({ email: clients.email })
      .from(clients)
      .where(eq(clients.id, id));
    return row!.email;
  };

  it("sends at most 3 recovery emails an hour to an account, whatever the addresses, then 429 with Retry-After", async () => {
    const email = await accountEmail();
    for (let i = 0; i < 3; i++)
      expect((await apiAgent(api.app).post("/auth/forgot-password", { email })).status).toBe(200);
    const fourth = await apiAgent(api.app).post("/auth/forgot-password", {
      email: email.toUpperCase(),
    });
    expectLimited(fourth);
    const recovery = (await emailsTo(apiAgent(api.app), email)).filter((m) =>
      /password/i.test(m.subject),
    );
    expect(recovery).toHaveLength(3);
  });

  it("answers an unknown email exactly as a known one, limit included", async () => {
    const email = await accountEmail();
    const nobody = uniqueEmail("nobody");
    const answers: Record<string, ApiAnswer[]> = { known: [], unknown: [] };
    for (let i = 0; i < 4; i++) {
      answers.known!.push(await apiAgent(api.app).post("/auth/forgot-password", { email }));
      answers.unknown!.push(
        await apiAgent(api.app).post("/auth/forgot-password", { email: nobody }),
      );
    }
    const shape = (a: ApiAnswer) => ({
      status: a.status,
      body: a.body,
      retryAfter: a.headers.has("retry-after"),
    });
    expect(answers.unknown!.map(shape)).toEqual(answers.known!.map(shape));
    expect(answers.known!.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(await emailsTo(apiAgent(api.app), nobody)).toEqual([]);
  });

  it("counts the sign-up's, confirmation-again and recovery emails of an account together", async () => {
    const email = uniqueEmail();
    expect((await register(apiAgent(api.app), signUpForm({ email }))).status).toBe(201);
    const agent = apiAgent(api.app);
    expect((await agent.post("/auth/resend-register-email-confirmation", { email })).status).toBe(
      200,
    );
    expect((await agent.post("/auth/forgot-password", { email })).status).toBe(200);
    expectLimited(await agent.post("/auth/resend-register-email-confirmation", { email }));
    expectLimited(await agent.post("/auth/forgot-password", { email }));
    // The sign-up's own confirmation email and the two asked for.
    expect(await emailsTo(agent, email)).toHaveLength(3);
  });

  it("sends at most 20 such emails an hour from one address; other addresses go on", async () => {
    const agent = apiAgent(api.app);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push(
        (
          await agent.post(
            i % 2 ? "/auth/forgot-password" : "/auth/resend-register-email-confirmation",
            { email: uniqueEmail(`spray${i}`) },
          )
        ).status,
      );
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses[20]).toBe(429);
    expectLimited(await agent.post("/auth/forgot-password", { email: uniqueEmail() }));
    expect(
      (await apiAgent(api.app).post("/auth/forgot-password", { email: uniqueEmail() })).status,
    ).toBe(200);
  });

  it("limits sign-ups of one email (the owner of a known one is emailed), known or not", async () => {
    const email = await accountEmail();
    const fresh = uniqueEmail();
    const statuses: Record<string, number[]> = { known: [], fresh: [] };
    for (let i = 0; i < 4; i++) {
      statuses.known!.push((await register(apiAgent(api.app), signUpForm({ email }))).status);
      statuses.fresh!.push(
        (await register(apiAgent(api.app), signUpForm({ email: fresh }))).status,
      );
    }
    expect(statuses.known).toEqual([201, 201, 201, 429]);
    expect(statuses.fresh).toEqual(statuses.known);
  });

  it("allows the emails again when the hour has passed (the app's clock)", async () => {
    const email = await accountEmail();
    for (let i = 0; i < 3; i++) await apiAgent(api.app).post("/auth/forgot-password", { email });
    now = new Date(now.getTime() + 59 * 60_000);
    const limited = await apiAgent(api.app).post("/auth/forgot-password", { email });
    expectLimited(limited, 60);
    now = new Date(now.getTime() + 60_000);
    expect((await apiAgent(api.app).post("/auth/forgot-password", { email })).status).toBe(200);
  });
});
