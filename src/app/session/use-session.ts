import { useSelector } from "@xstate/react";
import { useServices } from "../services.tsx";
import type { SessionActor } from "./session-actor.ts";

type SessionSnapshot = ReturnType<SessionActor["getSnapshot"]>;

/** The session actor of the app and a selection of its state. */
export function useSession<T>(select: (snapshot: SessionSnapshot) => T): [T, SessionActor] {
  const { session } = useServices();
  if (!session) throw new Error("useSession needs the session actor");
  return [useSelector(session, select), session];
}
