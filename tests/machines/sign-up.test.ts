import { afterEach, describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { SessionFailure } from "../../machines/session.machine.ts";
import { signUpMachine, type SignUpForm } from "../../machines/sign-up.machine.ts";

const form: SignUpForm = {
  name: "Ada",
  surname: "Lovelace",
  email: "ada@example.test",
  password: "Correct-Horse-42",
  confirmPassword: "Correct-Horse-42",
  countryId: "ES",
  newsletter: false,
  policies: true,
  language: "en",
};

function start(register: (form: SignUpForm) => Promise<void> = async () => {}) {
  const spy = vi.fn(register);
  const actor = createActor(
    signUpMachine.provide({ actors: { register: fromPromise(({ input }) => spy(input)) } }),
  ).start();
  return { actor, register: spy };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("signUpMachine", () => {
  it("starts editing with no error", () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe("editing");
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('logs exactly "Passwords don\'t match" on a mismatch, sends nothing and shows PASSWORDS_DONT_MATCH', async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const { actor, register } = start();

    actor.send({
      type: "signUp.submit",
      form: { ...form, confirmPassword: "Correct-Horse-43" },
    });
    await Promise.resolve();

    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith("Passwords don't match");
    expect(register).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe("editing");
    expect(actor.getSnapshot().context.error).toBe("PASSWORDS_DONT_MATCH");
  });

  it("refuses a weak password with PASSWORD_TOO_WEAK and sends nothing, logging nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const { actor, register } = start();

    for (const password of ["abcdefgh", "Ab1!", "1234567890123"]) {
      actor.send({ type: "signUp.submit", form: { ...form, password, confirmPassword: password } });
      await Promise.resolve();
      expect(actor.getSnapshot().value).toBe("editing");
      expect(actor.getSnapshot().context.error).toBe("PASSWORD_TOO_WEAK");
    }
    expect(register).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it("sends a medium password", async () => {
    const { actor, register } = start();
    const password = "abcdefg1";
    actor.send({ type: "signUp.submit", form: { ...form, password, confirmPassword: password } });
    await waitFor(actor, (s) => s.matches("registered"), { timeout: 2000 });
    expect(register).toHaveBeenCalledTimes(1);
  });

  it("shows the msgCode of a failed registration and lets the user try again", async () => {
    let attempt = 0;
    const { actor, register } = start(async () => {
      if (attempt++ === 0) throw new SessionFailure("CAPTCHA_FAILED");
    });

    actor.send({ type: "signUp.submit", form });
    await waitFor(actor, (s) => s.context.error !== null, { timeout: 2000 });
    expect(actor.getSnapshot().value).toBe("editing");
    expect(actor.getSnapshot().context.error).toBe("CAPTCHA_FAILED");

    actor.send({ type: "signUp.edit" });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: "signUp.submit", form });
    await waitFor(actor, (s) => s.matches("registered"), { timeout: 2000 });
    expect(register).toHaveBeenCalledTimes(2);
  });

  it("shows INTERNAL_ERROR for a failure that carries no msgCode", async () => {
    const { actor } = start(async () => {
      throw new Error("boom");
    });
    actor.send({ type: "signUp.submit", form });
    await waitFor(actor, (s) => s.context.error !== null, { timeout: 2000 });
    expect(actor.getSnapshot().context.error).toBe("INTERNAL_ERROR");
  });

  it("sends the form once and ends registered", async () => {
    const { actor, register } = start();

    actor.send({ type: "signUp.submit", form });
    expect(actor.getSnapshot().value).toBe("submitting");
    actor.send({ type: "signUp.submit", form });
    await waitFor(actor, (s) => s.matches("registered"), { timeout: 2000 });

    expect(register).toHaveBeenCalledTimes(1);
    expect(register).toHaveBeenCalledWith(form);
    expect(actor.getSnapshot().status).toBe("done");
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
