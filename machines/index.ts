import type { AnyStateMachine, EventObject } from "xstate";
import { dataLoadMachine } from "./data-load.machine.ts";
import { routeGuardNames, routeGuards } from "./guards/route-guards.ts";
import { signedOutFacts } from "./guards/access-facts.ts";
import { routeAccessMachine } from "./route-access.machine.ts";
import { versionCheckMachine } from "./version-check.machine.ts";
import { formSubmitMachine } from "./form-submit.machine.ts";
import { policyGateMachine } from "./policy-gate.machine.ts";
import { recaptchaErrors, recaptchaLoadMachine } from "./recaptcha-load.machine.ts";
import { sessionMachine, SessionFailure } from "./session.machine.ts";
import { signUpMachine } from "./sign-up.machine.ts";

/** What the documents and the path tests need to know about a machine. */
export interface MachineEntry {
  readonly machine: AnyStateMachine;
  readonly title: string;
  /** Each guard (as it appears in the chart) and the rule of the specification it mirrors. */
  readonly guards: Readonly<Record<string, string>>;
  /** Input for a representative actor. */
  readonly input?: unknown;
  /** Events to explore for paths; internal events (done, error, after) must be listed here. */
  readonly pathEvents: readonly (EventObject & Record<string, unknown>)[];
}

const guestFacts = signedOutFacts("ht", "simAssets");

const demoSession = { token: "t0k3n", expiry: "2030-01-01T00:00:00.000Z" };
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

export const machineRegistry: readonly MachineEntry[] = [
  {
    machine: routeAccessMachine,
    title: "Route access (route guards)",
    guards: {
      awaitsSession: "A guard of the route needs the session, which is still being restored.",
      staysUndecided:
        "Once a route is allowed, a session that is reloading (e.g. after a new token) keeps it rendered.",
      ...Object.fromEntries(
        routeGuardNames.map((g) => [`deniedBy(${g})`, `${g}: ${routeGuards[g].rule}`]),
      ),
    },
    input: {
      guards: ["auth-registered", "portfolio-creation", "subscribed"],
      facts: { ...guestFacts, session: "unknown" },
    },
    pathEvents: [
      { type: "facts.changed", facts: guestFacts },
      {
        type: "facts.changed",
        facts: {
          ...guestFacts,
          session: "signedIn",
          account: {
            kind: "standard",
            trial: false,
            subscribedProducts: [],
            bananaPermission: false,
            policiesAccepted: true,
          },
        },
      },
      {
        type: "facts.changed",
        facts: {
          ...guestFacts,
          session: "signedIn",
          creationInProgress: true,
          account: {
            kind: "standard",
            trial: false,
            subscribedProducts: ["simAssets"],
            bananaPermission: false,
            policiesAccepted: true,
          },
        },
      },
    ],
  },
  {
    machine: versionCheckMachine,
    title: "New version check",
    guards: {
      isNewBuild:
        "builds/latest.json names another build than the running one (poll every 10 seconds).",
    },
    input: { currentBuild: "build-1" },
    pathEvents: [
      { type: "xstate.after.pollInterval.versionCheck.waiting" },
      { type: "xstate.done.actor.fetchLatestBuild", output: "build-1" },
      { type: "xstate.done.actor.fetchLatestBuild", output: "build-2" },
      { type: "xstate.error.actor.fetchLatestBuild", error: new Error("offline") },
      { type: "version.reload" },
      { type: "version.dismiss" },
    ],
  },
  {
    machine: dataLoadMachine,
    title: "Data loading",
    guards: {},
    pathEvents: [
      { type: "xstate.done.actor.load", output: { ok: true } },
      { type: "xstate.error.actor.load", error: new Error("offline") },
      { type: "data.retry" },
      { type: "data.refresh" },
    ],
  },
  {
    machine: sessionMachine,
    title: "Session and sign-out",
    guards: {
      hasStoredSession:
        "A session cookie (token and expiry) from an earlier visit exists and has not expired.",
      isUnauthorized:
        "The API answered 401: the token is dead, so the session ends and the user goes to sign-in.",
    },
    pathEvents: [
      { type: "xstate.done.actor.restoreSession", output: null },
      { type: "xstate.done.actor.restoreSession", output: demoSession },
      { type: "session.signIn", credentials: { email: "ada@example.com", password: "pw" } },
      { type: "xstate.done.actor.signIn", output: demoSession },
      { type: "xstate.error.actor.signIn", error: new SessionFailure("INVALID_CREDENTIALS") },
      { type: "xstate.done.actor.fetchClient", output: null },
      { type: "xstate.error.actor.fetchClient", error: new SessionFailure("UNAUTHORIZED") },
      { type: "session.signOut" },
      { type: "xstate.done.actor.signOut" },
      { type: "session.unauthorized" },
      { type: "session.tokenReceived", session: demoSession },
    ],
  },
  {
    machine: policyGateMachine,
    title: "Policy gate",
    guards: {
      mustAccept:
        "ht edition, signed in, not an HT account, and the current policy version not accepted.",
      acceptedNow:
        "The signed-in user has now accepted the current policy: back to the remembered path.",
    },
    pathEvents: [
      {
        type: "facts.changed",
        path: "/en/markets",
        facts: { edition: "ht", signedIn: true, kind: "standard", policiesAccepted: false },
      },
      {
        type: "facts.changed",
        path: "/en/markets",
        facts: { edition: "ht", signedIn: true, kind: "standard", policiesAccepted: true },
      },
      {
        type: "facts.changed",
        path: "/en/markets",
        facts: { edition: "ht", signedIn: true, kind: "HT", policiesAccepted: false },
      },
      { type: "policies.accepted" },
    ],
  },
  {
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
  },
  {
    // Explored as in a browser whose script is ready after one poll; the key "outside-browser"
    // stands for a call made outside a browser.
    machine: recaptchaLoadMachine.provide({
      guards: {
        isBrowser: ({ event }) => event.siteKey !== "outside-browser",
        isReady: ({ context }) => context.waitedMs >= 25,
      },
    }),
    title: "reCAPTCHA load",
    guards: {
      isBrowser: `Runs only in a browser; elsewhere loading fails with "${recaptchaErrors.notBrowser}".`,
      isReady: "The script has loaded and grecaptcha is ready (checked every 25 ms).",
      differentKey: `Already loading or loaded with another site key: "${recaptchaErrors.differentKey}".`,
      timedOut: "The script was not ready after 15 seconds.",
    },
    pathEvents: [
      { type: "recaptcha.load", siteKey: "key-a" },
      { type: "recaptcha.load", siteKey: "key-b" },
      { type: "recaptcha.load", siteKey: "outside-browser" },
      { type: "xstate.after.poll.recaptchaLoad.loading" },
    ],
  },
  {
    machine: formSubmitMachine,
    title: "Form submit",
    guards: {},
    pathEvents: [
      { type: "form.submit", values: { email: "ada@example.com" } },
      { type: "xstate.done.actor.submit", output: { status: "accepted" } },
      { type: "xstate.error.actor.submit", error: new SessionFailure("INVALID_TOKEN") },
      { type: "form.edit" },
    ],
  },
];

export function machineEntry(id: string): MachineEntry {
  const entry = machineRegistry.find((e) => e.machine.id === id);
  if (!entry)
    throw new Error(
      `Unknown machine "${id}"; known: ${machineRegistry.map((e) => e.machine.id).join(", ")}`,
    );
  return entry;
}
