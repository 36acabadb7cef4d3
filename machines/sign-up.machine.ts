import { assign, fromPromise, setup } from "xstate";
import type { SignUpRequest } from "../src/contract/accounts.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import { passwordStrength } from "./guards/password-strength.ts";
import { SessionFailure } from "./session.machine.ts";

/** The form as typed, before the bot check adds its token. */
export type SignUpForm = Omit<SignUpRequest, "recaptchaToken">;

export type SignUpEvent = { type: "signUp.submit"; form: SignUpForm } | { type: "signUp.edit" };

export type SignUpError = MsgCode | "PASSWORD_TOO_WEAK";

interface SignUpContext {
  readonly form: SignUpForm | null;
  readonly error: SignUpError | null;
}

/**
 * Sign-up (specification section 5): when the password and its confirmation differ nothing is sent
 * and "Passwords don't match" is logged; a weak password is refused before sending; the bot check's
 * token goes with the form; every msgCode the server answers is shown in the user's language.
 */
export const signUpMachine = setup({
  types: { context: {} as SignUpContext, events: {} as SignUpEvent },
  actors: {
    /** Obtains the bot-protection token and posts the form to /auth/register. */
    register: fromPromise<void, SignUpForm>(async () => {
      throw new Error("register must be provided");
    }),
  },
  actions: {
    logMismatch: () => {
      console.error("Passwords don't match");
    },
  },
  guards: {
    passwordsMatch: ({ context }) =>
      context.form !== null && context.form.password === context.form.confirmPassword,
    passwordStrongEnough: ({ context }) => {
      const strength = passwordStrength(context.form?.password ?? "");
      return strength === "medium" || strength === "strong";
    },
  },
}).createMachine({
  id: "signUp",
  description: "The sign-up form and its rules (specification section 5).",
  context: { form: null, error: null },
  initial: "editing",
  states: {
    editing: {
      on: {
        "signUp.submit": {
          target: "checking",
          actions: assign({ form: ({ event }) => event.form, error: null }),
        },
        "signUp.edit": { actions: assign({ error: null }) },
      },
    },
    checking: {
      always: [
        { guard: "passwordsMatch", target: "checkingStrength" },
        { target: "editing", actions: ["logMismatch", assign({ error: "PASSWORDS_DONT_MATCH" })] },
      ],
    },
    checkingStrength: {
      always: [
        { guard: "passwordStrongEnough", target: "submitting" },
        { target: "editing", actions: assign({ error: "PASSWORD_TOO_WEAK" }) },
      ],
    },
    submitting: {
      invoke: {
        id: "register",
        src: "register",
        input: ({ context }) => context.form!,
        onDone: "registered",
        onError: {
          target: "editing",
          actions: assign({
            error: ({ event }) =>
              event.error instanceof SessionFailure ? event.error.msgCode : "INTERNAL_ERROR",
          }),
        },
      },
    },
    registered: {
      description: "Done: the user is asked to follow the link sent by email.",
      type: "final",
    },
  },
});
