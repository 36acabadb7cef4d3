// The session machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { sessionMachine, SessionFailure } from "./session.machine.ts";

const demoSession = { expiry: "2030-01-01T00:00:00.000Z" };

/** The session machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const sessionEntry: MachineEntry = {
  machine: sessionMachine,
  title: "Session and sign-out",
  guards: {
    hasStoredSession:
      "The auth cookie (the session's expiry) from an earlier visit exists and has not expired.",
    isUnauthorized:
      "The API answered 401: the session is dead, so it ends and the user goes to sign-in.",
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
    { type: "xstate.done.actor.goToIndex" },
    { type: "session.unauthorized" },
    { type: "session.started", session: demoSession },
  ],
};
