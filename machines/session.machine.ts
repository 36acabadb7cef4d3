import { assertEvent, assign, fromPromise, setup, spawnChild, type ErrorActorEvent } from "xstate";
import type { Client, Credentials, SessionToken } from "../src/contract/accounts.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";

export interface SessionContext {
  readonly token: string | null;
  readonly expiry: string | null;
  readonly client: Client | null;
  /** The last failure, as a msgCode the screen translates. */
  readonly error: MsgCode | null;
  readonly welcomeBannerVisible: boolean;
}

export type SessionEvent =
  | { type: "session.signIn"; credentials: Credentials }
  | { type: "session.tokenReceived"; session: SessionToken }
  | { type: "session.signOut" }
  | { type: "session.unauthorized" }
  | { type: "client.updated"; client: Client }
  | { type: "welcome.dismiss" }
  /** The logout call that signing out left running (the child `signOut`) failed. */
  | ErrorActorEvent<unknown, "signOut">;

const initialContext: SessionContext = {
  token: null,
  expiry: null,
  client: null,
  error: null,
  welcomeBannerVisible: false,
};

/** A failure the actors report: the API's msgCode, or a network problem. */
export class SessionFailure extends Error {
  readonly msgCode: MsgCode;
  constructor(msgCode: MsgCode) {
    super(msgCode);
    this.name = "SessionFailure";
    this.msgCode = msgCode;
  }
}

const msgCodeOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

/**
 * The session (specification section 4): sign-in stores the token in a cookie that expires with it;
 * later requests carry it as a bearer header. Sign-out clears everything and goes to index; any 401
 * signs out and goes to sign-in. I/O and navigation are abstract: the app provides them.
 */
export const sessionMachine = setup({
  types: { context: {} as SessionContext, events: {} as SessionEvent },
  actors: {
    /** Reads the session cookie: the stored token and expiry, or null. */
    restoreSession: fromPromise<SessionToken | null>(async () => {
      throw new Error("restoreSession must be provided");
    }),
    signIn: fromPromise<SessionToken, Credentials>(async () => {
      throw new Error("signIn must be provided");
    }),
    fetchClient: fromPromise<Client, { token: string }>(async () => {
      throw new Error("fetchClient must be provided");
    }),
    /**
     * Calls logout for the session that is ending (its token, given here because the context no
     * longer holds it), when a session cookie existed (`session` is then not null).
     */
    signOut: fromPromise<void, { session: string | null }>(async () => {
      throw new Error("signOut must be provided");
    }),
    /** Goes to index; done once the page is there. */
    goToIndex: fromPromise<void>(async () => {
      throw new Error("goToIndex must be provided");
    }),
  },
  actions: {
    /** Sets the auth cookie with the token's expiry. */
    persistToken: (_, _params: { session: SessionToken }) => {
      throw new Error("persistToken must be provided");
    },
    /** Clears client, portfolio, what-if and cache state; removes the selected-plan and auth cookies. */
    clearClientState: () => {
      throw new Error("clearClientState must be provided");
    },
    navigateToSignIn: () => {
      throw new Error("navigateToSignIn must be provided");
    },
    reset: assign(() => initialContext),
  },
  guards: {
    hasStoredSession: (_, params: { session: SessionToken | null }) => params.session !== null,
    isUnauthorized: (_, params: { error: unknown }) => msgCodeOf(params.error) === "UNAUTHORIZED",
  },
}).createMachine({
  id: "session",
  description: "Session and sign-out (specification sections 4 and 8).",
  context: initialContext,
  initial: "restoring",
  on: {
    // The logout call started by signing out failed: the user is signed out all the same (the
    // token is forgotten here and expires on the server).
    "xstate.error.actor.signOut": {},
  },
  states: {
    restoring: {
      description: "Reading the session cookie left by an earlier visit.",
      invoke: {
        id: "restoreSession",
        src: "restoreSession",
        onDone: [
          {
            guard: { type: "hasStoredSession", params: ({ event }) => ({ session: event.output }) },
            target: "loadingClient",
            actions: assign(({ event }) => ({
              token: event.output!.token,
              expiry: event.output!.expiry,
            })),
          },
          { target: "signedOut" },
        ],
        onError: "signedOut",
      },
    },
    signedOut: {
      on: {
        "session.signIn": { target: "signingIn", actions: assign({ error: null }) },
        "session.tokenReceived": {
          target: "loadingClient",
          actions: [
            assign(({ event }) => ({
              token: event.session.token,
              expiry: event.session.expiry,
              error: null,
            })),
            { type: "persistToken", params: ({ event }) => ({ session: event.session }) },
          ],
        },
      },
    },
    signingIn: {
      invoke: {
        id: "signIn",
        src: "signIn",
        input: ({ event }) => {
          assertEvent(event, "session.signIn");
          return event.credentials;
        },
        onDone: {
          target: "loadingClient",
          actions: [
            assign(({ event }) => ({
              token: event.output.token,
              expiry: event.output.expiry,
              welcomeBannerVisible: true,
            })),
            { type: "persistToken", params: ({ event }) => ({ session: event.output }) },
          ],
        },
        onError: {
          target: "signedOut",
          actions: assign({ error: ({ event }) => msgCodeOf(event.error) }),
        },
      },
    },
    loadingClient: {
      description: "The token is known; fetching the client's data.",
      invoke: {
        id: "fetchClient",
        src: "fetchClient",
        input: ({ context }) => ({ token: context.token! }),
        onDone: { target: "signedIn", actions: assign({ client: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: "isUnauthorized", params: ({ event }) => ({ error: event.error }) },
            target: "expired",
          },
          // The API could not be reached: the cookie stays, the next visit tries again.
          {
            target: "signedOut",
            actions: assign({
              token: null,
              expiry: null,
              error: ({ event }) => msgCodeOf(event.error),
            }),
          },
        ],
      },
    },
    signedIn: {
      on: {
        // Specification section 4, in its order: the client data, portfolio, what-if and cache
        // state, the welcome banner and both cookies go first; then logout is called for the
        // session that is ending; then index. Logout runs on as a child and is not waited for:
        // nothing of the user stays on screen or in storage meanwhile, and its outcome changes
        // nothing for the user (signing out never fails for them).
        "session.signOut": {
          target: "signingOut",
          actions: [
            "clearClientState",
            spawnChild("signOut", {
              id: "signOut",
              input: ({ context }) => ({ session: context.token }),
            }),
            "reset",
          ],
        },
        "session.unauthorized": "expired",
        "client.updated": { actions: assign({ client: ({ event }) => event.client }) },
        // A new token may belong to another account (an email link opened while signed in):
        // the client is loaded again for it.
        "session.tokenReceived": {
          target: "loadingClient",
          actions: [
            assign(({ event }) => ({ token: event.session.token, expiry: event.session.expiry })),
            { type: "persistToken", params: ({ event }) => ({ session: event.session }) },
          ],
        },
        "welcome.dismiss": { actions: assign({ welcomeBannerVisible: false }) },
      },
    },
    signingOut: {
      description:
        "Signed out here; on the way to index. The route guards wait meanwhile instead of sending the person to sign in.",
      invoke: { id: "goToIndex", src: "goToIndex", onDone: "signedOut", onError: "signedOut" },
    },
    expired: {
      description: "A 401 or a dead token: everything is cleared and the user goes to sign-in.",
      always: {
        target: "signedOut",
        // The sign-in page then says why the user is there.
        actions: [
          "clearClientState",
          "reset",
          assign({ error: "UNAUTHORIZED" }),
          "navigateToSignIn",
        ],
      },
    },
  },
});
