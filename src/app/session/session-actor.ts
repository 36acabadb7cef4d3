import { createActor, fromPromise, type ActorRefFrom } from "xstate";
import { sessionMachine, SessionFailure } from "../../../machines/session.machine.ts";
import type { SessionToken } from "../../contract/accounts.ts";
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

export function readSessionCookie(source?: string): SessionToken | null {
  const raw = readCookie(cookieNames.auth, source);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SessionToken>;
    if (typeof value.token !== "string" || typeof value.expiry !== "string") return null;
    return new Date(value.expiry).getTime() > Date.now()
      ? { token: value.token, expiry: value.expiry }
      : null;
  } catch {
    return null;
  }
}

/** The auth cookie lives exactly as long as the token (specification section 4). */
export function writeSessionCookie(session: SessionToken): void {
  writeCookie(cookieNames.auth, JSON.stringify(session), { expires: new Date(session.expiry) });
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

/** The one long-lived session actor of the app, with its I/O provided. */
export function createSessionActor(deps: SessionDeps): SessionActor {
  const machine = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(async () => readSessionCookie()),
      signIn: fromPromise(async ({ input }) =>
        orFailure(() => deps.http.call(endpoints.login, { body: input })),
      ),
      fetchClient: fromPromise(async () => orFailure(() => deps.http.call(endpoints.client))),
      signOut: fromPromise(async ({ input }) => {
        if (input.session !== null)
          await deps.http.call(endpoints.logout, { session: input.session }).catch(() => {});
      }),
      goToIndex: fromPromise(async () => {
        await deps.navigate(pathFor("index", deps.locale()));
      }),
    },
    actions: {
      persistToken: (_, { session }) => writeSessionCookie(session),
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
  const inspect = inspectObserver();
  return createActor(machine, inspect ? { inspect } : {}).start();
}
