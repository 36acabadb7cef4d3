import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import {
  SessionFailure,
  sessionMachine,
  type SessionContext,
  type SessionFacts,
} from "../../machines/session.machine.ts";
import type { Client, Credentials } from "../../src/contract/accounts.ts";
import { demoClient } from "../support/clients.ts";

const client: Client = demoClient();

const session: SessionFacts = { expiry: "2030-01-01T00:00:00.000Z" };
/** The context with no session: nothing of a user, no error, no banner. */
const noSession: SessionContext = {
  expiry: null,
  client: null,
  error: null,
  welcomeBannerVisible: false,
};
const credentials: Credentials = { email: "ada@example.test", password: "Correct-Horse-42" };

interface Fakes {
  stored?: SessionFacts | null;
  signIn?: (c: Credentials) => Promise<SessionFacts>;
  fetchClient?: () => Promise<Client>;
  signOut?: (input: { hadSession: boolean }) => Promise<void>;
  goToIndex?: () => Promise<void>;
}

/** The session machine with every effect provided by spies. */
function start(fakes: Fakes = {}) {
  const spies = {
    restoreSession: vi.fn(async () => fakes.stored ?? null),
    signIn: vi.fn(fakes.signIn ?? (async () => session)),
    fetchClient: vi.fn(fakes.fetchClient ?? (async () => client)),
    signOut: vi.fn(fakes.signOut ?? (async () => {})),
    persistSession: vi.fn(),
    clearClientState: vi.fn(),
    navigateToIndex: vi.fn(fakes.goToIndex ?? (async () => {})),
    navigateToSignIn: vi.fn(),
  };
  const machine = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(() => spies.restoreSession()),
      signIn: fromPromise(({ input }) => spies.signIn(input)),
      fetchClient: fromPromise(() => spies.fetchClient()),
      signOut: fromPromise(({ input }) => spies.signOut(input)),
      goToIndex: fromPromise(async () => spies.navigateToIndex()),
    },
    actions: {
      persistSession: (_, params) => spies.persistSession(params),
      clearClientState: () => spies.clearClientState(),
      navigateToSignIn: () => spies.navigateToSignIn(),
    },
  });
  const visited: string[] = [];
  const actor = createActor(machine, {
    inspect: (event) => {
      if (event.type === "@xstate.snapshot" && event.actorRef === actor) {
        const value = (event.snapshot as { value?: unknown }).value;
        if (typeof value === "string" && visited.at(-1) !== value) visited.push(value);
      }
      if (event.type === "@xstate.microstep" && event.actorRef === actor) {
        const value = (event.snapshot as { value?: unknown }).value;
        if (typeof value === "string" && visited.at(-1) !== value) visited.push(value);
      }
    },
  });
  actor.start();
  return { actor, spies, visited };
}

type StateName =
  "restoring" | "signedOut" | "signingIn" | "loadingClient" | "signedIn" | "signingOut" | "expired";

const settled = (actor: ReturnType<typeof start>["actor"], state: StateName) =>
  waitFor(actor, (s) => s.matches(state), { timeout: 2000 });

async function signedIn(fakes: Fakes = {}) {
  const started = start(fakes);
  await settled(started.actor, "signedOut");
  started.actor.send({ type: "session.signIn", credentials });
  await settled(started.actor, "signedIn");
  return started;
}

describe("sessionMachine", () => {
  it("starts by restoring and, with no stored session, rests signed out without side effects", async () => {
    const { actor, spies } = start();
    expect(actor.getSnapshot().value).toBe("restoring");
    await settled(actor, "signedOut");
    expect(spies.fetchClient).not.toHaveBeenCalled();
    expect(spies.clearClientState).not.toHaveBeenCalled();
    expect(spies.navigateToSignIn).not.toHaveBeenCalled();
    expect(spies.navigateToIndex).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context).toEqual(noSession);
  });

  describe("sign-in", () => {
    it("stores the session's expiry, loads the client and ends signed in", async () => {
      const { actor, spies, visited } = await signedIn();

      expect(spies.signIn).toHaveBeenCalledWith(credentials);
      expect(spies.persistSession).toHaveBeenCalledTimes(1);
      expect(spies.persistSession).toHaveBeenCalledWith({ session });
      expect(spies.fetchClient).toHaveBeenCalledTimes(1);
      expect(visited).toEqual(["restoring", "signedOut", "signingIn", "loadingClient", "signedIn"]);
      expect(actor.getSnapshot().context).toEqual({
        expiry: "2030-01-01T00:00:00.000Z",
        client,
        error: null,
        welcomeBannerVisible: true,
      });
    });

    it("never keeps or persists a token, even when the sign-in answer carries one", async () => {
      const answer = { token: "token-123", expiry: session.expiry };
      const { actor, spies } = await signedIn({ signIn: async () => answer });
      expect(spies.persistSession).toHaveBeenCalledWith({ session: { expiry: session.expiry } });
      expect(JSON.stringify(actor.getSnapshot().context)).not.toContain("token-123");
    });

    it("persists the session before the client is fetched", async () => {
      const { spies } = await signedIn();
      expect(spies.persistSession.mock.invocationCallOrder[0]).toBeLessThan(
        spies.fetchClient.mock.invocationCallOrder[0]!,
      );
    });

    it("stays signed out with the failure's msgCode, storing nothing", async () => {
      const { actor, spies } = start({
        signIn: async () => {
          throw new SessionFailure("INVALID_CREDENTIALS");
        },
      });
      await settled(actor, "signedOut");

      actor.send({ type: "session.signIn", credentials });
      await waitFor(actor, (s) => s.matches("signedOut") && s.context.error !== null, {
        timeout: 2000,
      });

      expect(actor.getSnapshot().context).toMatchObject({
        error: "INVALID_CREDENTIALS",
        expiry: null,
        client: null,
      });
      expect(spies.persistSession).not.toHaveBeenCalled();
      expect(spies.fetchClient).not.toHaveBeenCalled();
    });

    it("reports an unexpected failure as INTERNAL_ERROR", async () => {
      const { actor } = start({
        signIn: async () => {
          throw new Error("boom");
        },
      });
      await settled(actor, "signedOut");
      actor.send({ type: "session.signIn", credentials });
      await waitFor(actor, (s) => s.context.error !== null, { timeout: 2000 });
      expect(actor.getSnapshot().context.error).toBe("INTERNAL_ERROR");
      expect(actor.getSnapshot().value).toBe("signedOut");
    });

    it("clears the previous error when signing in again", async () => {
      let attempts = 0;
      const { actor } = start({
        signIn: async () => {
          if (attempts++ === 0) throw new SessionFailure("INVALID_CREDENTIALS");
          return session;
        },
      });
      await settled(actor, "signedOut");
      actor.send({ type: "session.signIn", credentials });
      await waitFor(actor, (s) => s.context.error !== null, { timeout: 2000 });
      actor.send({ type: "session.signIn", credentials });
      expect(actor.getSnapshot().context.error).toBeNull();
      await settled(actor, "signedIn");
      expect(actor.getSnapshot().context.error).toBeNull();
    });

    it("signs in with a session started elsewhere (email confirmation), persisting it", async () => {
      const { actor, spies } = start();
      await settled(actor, "signedOut");
      actor.send({ type: "session.started", session });
      await settled(actor, "signedIn");
      expect(spies.persistSession).toHaveBeenCalledWith({ session });
      expect(spies.signIn).not.toHaveBeenCalled();
      expect(actor.getSnapshot().context.client).toEqual(client);
    });
  });

  describe("a 401 while signed in (session.unauthorized)", () => {
    it("clears the client state, goes to sign-in and ends signed out, saying why", async () => {
      const { actor, spies, visited } = await signedIn();

      actor.send({ type: "session.unauthorized" });

      expect(actor.getSnapshot().value).toBe("signedOut");
      expect(visited.slice(-2)).toEqual(["expired", "signedOut"]);
      expect(spies.clearClientState).toHaveBeenCalledTimes(1);
      expect(spies.navigateToSignIn).toHaveBeenCalledTimes(1);
      expect(spies.navigateToIndex).not.toHaveBeenCalled();
      expect(spies.signOut).not.toHaveBeenCalled();
      // Everything of the session is gone; the sign-in page shows why the user is there.
      expect(actor.getSnapshot().context).toEqual({ ...noSession, error: "UNAUTHORIZED" });
    });
  });

  describe("sign-out", () => {
    it("clears the state, then calls logout for the ending session, then goes to index", async () => {
      const { actor, spies } = await signedIn();
      expect(actor.getSnapshot().context.welcomeBannerVisible).toBe(true);
      const order: string[] = [];
      spies.clearClientState.mockImplementation(() => order.push("clear"));
      spies.signOut.mockImplementation(async () => void order.push("logout"));
      spies.navigateToIndex.mockImplementation(async () => void order.push("index"));

      actor.send({ type: "session.signOut" });
      // Nothing of the user is left from the first step on.
      expect(actor.getSnapshot().value).toBe("signingOut");
      expect(actor.getSnapshot().context).toEqual(noSession);
      await settled(actor, "signedOut");

      expect(order).toEqual(["clear", "logout", "index"]);
      expect(spies.signOut).toHaveBeenCalledWith({ hadSession: true });
      expect(spies.clearClientState).toHaveBeenCalledTimes(1);
      expect(spies.navigateToIndex).toHaveBeenCalledTimes(1);
      expect(spies.navigateToSignIn).not.toHaveBeenCalled();
    });

    it("is signing out until index is there, then signed out", async () => {
      let arrived!: () => void;
      const { actor } = await signedIn({
        goToIndex: () => new Promise<void>((resolve) => (arrived = resolve)),
      });
      actor.send({ type: "session.signOut" });
      await Promise.resolve();
      expect(actor.getSnapshot().value).toBe("signingOut");
      arrived();
      await settled(actor, "signedOut");
    });

    it("signs out locally even when the server's logout fails", async () => {
      const { actor, spies } = await signedIn({
        signOut: async () => {
          throw new Error("offline");
        },
      });
      actor.send({ type: "session.signOut" });
      await settled(actor, "signedOut");
      await vi.waitFor(() => expect(spies.signOut).toHaveBeenCalledTimes(1));
      await Promise.resolve();
      expect(actor.getSnapshot().value).toBe("signedOut");
      expect(actor.getSnapshot().status).toBe("active");
      expect(spies.clearClientState).toHaveBeenCalledTimes(1);
      expect(spies.navigateToIndex).toHaveBeenCalledTimes(1);
      expect(actor.getSnapshot().context.client).toBeNull();
    });

    it("does not wait for the logout call to answer", async () => {
      let answer!: () => void;
      const { actor, spies } = await signedIn({
        signOut: () => new Promise<void>((resolve) => (answer = resolve)),
      });
      actor.send({ type: "session.signOut" });
      await settled(actor, "signedOut");
      // Logout has not answered: the person is on index, with nothing of theirs left.
      expect(spies.signOut).toHaveBeenCalledTimes(1);
      expect(spies.navigateToIndex).toHaveBeenCalledTimes(1);
      expect(actor.getSnapshot().context).toMatchObject({ expiry: null, client: null });
      // A sign-in meanwhile is taken, and the late answer changes nothing.
      actor.send({ type: "session.signIn", credentials });
      await settled(actor, "signedIn");
      answer();
      await Promise.resolve();
      expect(actor.getSnapshot().value).toBe("signedIn");
      expect(actor.getSnapshot().context.expiry).toBe(session.expiry);
    });
  });

  describe("welcome banner and client updates", () => {
    it("hides the banner on dismiss and replaces the client on client.updated", async () => {
      const { actor } = await signedIn();
      actor.send({ type: "welcome.dismiss" });
      expect(actor.getSnapshot().context.welcomeBannerVisible).toBe(false);
      const renamed = { ...client, name: "Augusta" };
      actor.send({ type: "client.updated", client: renamed });
      expect(actor.getSnapshot().context.client).toEqual(renamed);
      expect(actor.getSnapshot().value).toBe("signedIn");
    });

    it("takes a new session while signed in, persists it and loads the client again", async () => {
      const { actor, spies } = await signedIn();
      const renewed = { expiry: "2031-01-01T00:00:00.000Z" };
      actor.send({ type: "session.started", session: renewed });
      expect(actor.getSnapshot().context).toMatchObject(renewed);
      expect(spies.persistSession).toHaveBeenLastCalledWith({ session: renewed });
      // The session may belong to another account (an email link opened while signed in).
      expect(actor.getSnapshot().value).toBe("loadingClient");
      await settled(actor, "signedIn");
      expect(spies.fetchClient).toHaveBeenCalledTimes(2);
    });
  });

  describe("restoring a stored session", () => {
    it("goes through loadingClient to signedIn with the stored session, without persisting it again", async () => {
      const { actor, spies, visited } = start({ stored: session });
      await settled(actor, "signedIn");
      expect(visited).toEqual(["restoring", "loadingClient", "signedIn"]);
      expect(spies.fetchClient).toHaveBeenCalledTimes(1);
      expect(spies.persistSession).not.toHaveBeenCalled();
      expect(actor.getSnapshot().context).toMatchObject({
        expiry: session.expiry,
        client,
        welcomeBannerVisible: false,
      });
    });

    it("on a 401 goes through expired to signedOut, clearing the state and going to sign-in", async () => {
      const { actor, spies, visited } = start({
        stored: session,
        fetchClient: async () => {
          throw new SessionFailure("UNAUTHORIZED");
        },
      });
      await waitFor(actor, () => spies.navigateToSignIn.mock.calls.length > 0, { timeout: 2000 });
      expect(actor.getSnapshot().value).toBe("signedOut");
      expect(visited).toEqual(["restoring", "loadingClient", "expired", "signedOut"]);
      expect(spies.clearClientState).toHaveBeenCalledTimes(1);
      expect(spies.navigateToSignIn).toHaveBeenCalledTimes(1);
      expect(spies.navigateToIndex).not.toHaveBeenCalled();
      expect(actor.getSnapshot().context.expiry).toBeNull();
    });

    it("on a network failure ends signed out without clearing anything or navigating", async () => {
      const { actor, spies } = start({
        stored: session,
        fetchClient: async () => {
          throw new SessionFailure("NETWORK_ERROR");
        },
      });
      await waitFor(actor, (s) => s.matches("signedOut") && s.context.error !== null, {
        timeout: 2000,
      });
      expect(actor.getSnapshot().context).toMatchObject({
        error: "NETWORK_ERROR",
        expiry: null,
        client: null,
      });
      expect(spies.clearClientState).not.toHaveBeenCalled();
      expect(spies.navigateToSignIn).not.toHaveBeenCalled();
      expect(spies.navigateToIndex).not.toHaveBeenCalled();
    });

    it("ends signed out when the stored session cannot be read", async () => {
      const machine = sessionMachine.provide({
        actors: {
          restoreSession: fromPromise<SessionFacts | null>(async () => {
            throw new Error("cookie unreadable");
          }),
        },
      });
      const actor = createActor(machine).start();
      await settled(actor, "signedOut");
      expect(actor.getSnapshot().context.expiry).toBeNull();
    });
  });
});
