// The sign-up machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { signUpMachine } from "./sign-up.machine.ts";

const signUpForm = {
  name: "Ada",
  surname: "Lovelace",
  email: "ada@example.com",
  password: "Analytical-Engine-1843",
  confirmPassword: "Analytical-Engine-1843",
  countryId: "GB",
  newsletter: false,
  policies: true as const,
  language: "en" as const,
};

/** The sign-up machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const signUpEntry: MachineEntry = {
  machine: signUpMachine,
  title: "Sign-up",
  guards: {
    passwordsMatch:
      'The password and its confirmation must match; otherwise nothing is sent and "Passwords don\'t match" is logged.',
    passwordStrongEnough:
      "The password is at least Medium (8 characters and two kinds of character).",
  },
  pathEvents: [
    { type: "signUp.submit", form: signUpForm },
    { type: "signUp.submit", form: { ...signUpForm, confirmPassword: "different" } },
    {
      type: "signUp.submit",
      form: { ...signUpForm, password: "short", confirmPassword: "short" },
    },
    { type: "xstate.done.actor.register" },
    { type: "xstate.error.actor.register", error: new SessionFailure("CAPTCHA_FAILED") },
    { type: "signUp.edit" },
  ],
};
