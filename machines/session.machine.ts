import { assertEvent, assign, fromPromise, setup, spawnChild, type ErrorActorEvent } from "xstate";
import type { Client, Credentials } from "../src/contract/accounts.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";

/**
 * What the app knows of a session: when it expires. The token itself is in the server's HttpOnly
 * cookie, out of reach of the page's scripts (docs/operations.md, "Security").
 */
export interface SessionFacts {
  readonly expiry: string;
}

export interface SessionContext {
  /** When the session ends; null when there is none. */
  readonly expiry: string | null;
  readonly client: Client | null;
  /** The last failure, as a msgCode the screen translates. */
  readonly error: MsgCode | null;
  readonly welcomeBannerVisible: boolean;
}

export type SessionEvent =
  | { type: "session.signIn"; credentials: Credentials }
  /** A session began elsewhere (email confirmation, a changed password): the server set its cookie. */
  | { type: "session.started"; session: SessionFacts }
  | { type: "session.signOut" }
  | { type: "session.unauthorized" }
  | { type: "client.updated"; client: Client }
  | { type: "welcome.dismiss" }
  /** The logout call that signing out left running (the child `signOut`) failed. */
  | ErrorActorEvent<unknown, "signOut">;

const initialContext: SessionContext = {
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
 * The session (specification section 4): sign-in answers with the session in an HttpOnly cookie the
 * server sets, expiring with the token, which later requests carry; the app keeps only the expiry
 * in its own auth cookie, to know a session exists. Sign-out clears everything and goes to index;
 * any 401 signs out and goes to sign-in. I/O and navigation are abstract: the app provides them.
 */
export const sessionMachine = setup({
  types: { context: {} as SessionContext, events: {} as SessionEvent },
  actors: {
    /** Reads the auth cookie: the stored session's expiry, or null. */
    restoreSession: fromPromise<SessionFacts | null>(async () => {
      throw new Error("restoreSession must be provided");
    }),
    signIn: fromPromise<SessionFacts, Credentials>(async () => {
      throw new Error("signIn must be provided");
    }),
    fetchClient: fromPromise<Client>(async () => {
      throw new Error("fetchClient must be provided");
    }),
    /**
     * Calls logout for the session that is ending (the browser still sends its cookie; the server
     * answers by removing it), when a session existed (`hadSession`, told here because the context
     * no longer says so).
     */
    signOut: fromPromise<void, { hadSession: boolean }>(async () => {
      throw new Error("signOut must be provided");
    }),
    /** Goes to index; done once the page is there. */
    goToIndex: fromPromise<void>(async () => {
      throw new Error("goToIndex must be provided");
    }),
  },
  actions: {
    /** Sets the auth cookie (the expiry only, never the token) expiring with the session. */
    persistSession: (_, _params: { session: SessionFacts }) => {
      throw new Error("persistSession must be provided");
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
    hasStoredSession: (_, params: { session: SessionFacts | null }) => params.session !== null,
    isUnauthorized: (_, params: { error: unknown }) => msgCodeOf(params.error) === "UNAUTHORIZED",
  },
}).createMachine({
  id: "session",
  description: "Session and sign-out (specification sections 4 and 8).",
  context: initialContext,
  initial: "restoring",
  on: {
    // The logout call started by signing out failed: the user is signed out all the same (the
    // app forgot the session; the server's cookie ends with it, or at the next sign-in).
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
            actions: assign(({ event }) => ({ expiry: event.output!.expiry })),
          },
          { target: "signedOut" },
        ],
        onError: "signedOut",
      },
    },
    signedOut: {
      on: {
        "session.signIn": { target: "signingIn", actions: assign({ error: null }) },
        "session.started": {
          target: "loadingClient",
          actions: [
            assign(({ event }) => ({ expiry: event.session.expiry, error: null })),
            {
              type: "persistSession",
              params: ({ event }) => ({ session: { expiry: event.session.expiry } }),
            },
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
            assign(({ event }) => ({ expiry: event.output.expiry, welcomeBannerVisible: true })),
            {
              type: "persistSession",
              params: ({ event }) => ({ session: { expiry: event.output.expiry } }),
            },
          ],
        },
        onError: {
          target: "signedOut",
          actions: assign({ error: ({ event }) => msgCodeOf(event.error) }),
        },
      },
    },
    loadingClient: {
      description: "A session exists; fetching the client's data with it.",
      invoke: {
        id: "fetchClient",
        src: "fetchClient",
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
              input: ({ context }) => ({ hadSession: context.expiry !== null }),
            }),
            "reset",
          ],
        },
        "session.unauthorized": "expired",
        "client.updated": { actions: assign({ client: ({ event }) => event.client }) },
        // A new session may belong to another account (an email link opened while signed in):
        // the client is loaded again for it.
        "session.started": {
          target: "loadingClient",
          actions: [
            assign(({ event }) => ({ expiry: event.session.expiry })),
            {
              type: "persistSession",
              params: ({ event }) => ({ session: { expiry: event.session.expiry } }),
            },
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
      description: "A 401 or a dead session: everything is cleared and the user goes to sign-in.",
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
