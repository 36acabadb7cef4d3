import { createActor, fromPromise, type ActorRefFrom } from "xstate";
import {
  sessionMachine,
  SessionFailure,
  type SessionFacts,
} from "../../../machines/session.machine.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { Locale } from "../../contract/common.ts";
import { ApiCallError, type HttpClient } from "../../client/http.ts";
import { cookieNames, readCookie, removeCookie, writeCookie } from "../../client/cookies.ts";
import { inspectObserver } from "../inspector.ts";
import { pathFor } from "../paths.ts";

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

/** Turns an API failure into the msgCode the machines and screens work with. */
export async function orFailure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiCallError) {
      throw new SessionFailure(
        error.failure.kind === "http" ? error.failure.msgCode : "NETWORK_ERROR",
      );
    }
    throw error;
  }
}

/**
 * The session the auth cookie says exists: its expiry, while it lasts. The token is not there: the
 * server keeps it in an HttpOnly cookie the page cannot read. An auth cookie of an older version
 * that still holds a token is removed and means no session (the server has no cookie for it).
 */
export function readSessionCookie(source?: string): SessionFacts | null {
  const raw = readCookie(cookieNames.auth, source);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { expiry?: unknown; token?: unknown };
    if ("token" in value) {
      if (source === undefined) removeCookie(cookieNames.auth);
      return null;
    }
    if (typeof value.expiry !== "string") return null;
    return new Date(value.expiry).getTime() > Date.now() ? { expiry: value.expiry } : null;
  } catch {
    return null;
  }
}

/** The auth cookie (the expiry, nothing secret) lives exactly as long as the session (specification section 4). */
export function writeSessionCookie(session: SessionFacts): void {
  writeCookie(cookieNames.auth, JSON.stringify({ expiry: session.expiry }), {
    expires: new Date(session.expiry),
  });
}

export interface SessionDeps {
  readonly http: HttpClient;
  /** Goes to a page of the app; a returned promise settles once the page is there. */
  readonly navigate: (to: string) => Promise<void> | void;
  readonly locale: () => Locale;
  readonly currentPath: () => string;
  /** Clears the portfolio, what-if and cache state and anything else kept for the signed-in user. */
  readonly clearUserState: () => void;
}

/**
 * The session machine with its I/O provided: the app's root actor runs it as its `session` child
 * (src/app/app-actor.ts).
 */
export function sessionLogic(deps: SessionDeps) {
  return sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(async () => readSessionCookie()),
      // The answer's token is for API clients; the browser has it in the server's cookie.
      signIn: fromPromise(async ({ input }) => {
        const { expiry } = await orFailure(() => deps.http.call(endpoints.login, { body: input }));
        return { expiry };
      }),
      fetchClient: fromPromise(async () => orFailure(() => deps.http.call(endpoints.client))),
      signOut: fromPromise(async ({ input }) => {
        if (input.hadSession) await deps.http.call(endpoints.logout).catch(() => {});
      }),
      goToIndex: fromPromise(async () => {
        await deps.navigate(pathFor("index", deps.locale()));
      }),
    },
    actions: {
      persistSession: (_, { session }) => writeSessionCookie(session),
      clearClientState: () => {
        removeCookie(cookieNames.auth);
        removeCookie(cookieNames.selectedPlan);
        deps.clearUserState();
      },
      navigateToSignIn: () => {
        const returnTo = encodeURIComponent(deps.currentPath());
        void deps.navigate(`${pathFor("auth-SignIn", deps.locale())}?returnTo=${returnTo}`);
      },
    },
  });
}

/** A session actor on its own, outside the app's root (the session's own tests). */
export function createSessionActor(deps: SessionDeps): SessionActor {
  const inspect = inspectObserver();
  return createActor(sessionLogic(deps), inspect ? { inspect } : {}).start();
}
