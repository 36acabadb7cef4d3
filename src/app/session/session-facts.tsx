import { useSelector } from "@xstate/react";
import { useMemo, useSyncExternalStore, type ReactNode } from "react";
import type { AccessFacts } from "../../../machines/guards/access-facts.ts";
import { accountFactsOf } from "../../../machines/guards/account-facts.ts";
import { AccessFactsProvider } from "../access-facts.tsx";
import { useServices } from "../services.tsx";
import { useWorkspaceFacts } from "../use-workspace.ts";
import type { SessionActor } from "./session-actor.ts";

type SessionSnapshot = ReturnType<SessionActor["getSnapshot"]>;

/**
 * The session as the guards see it: still unknown while restoring or loading the client, and while
 * signing out is on its way to index (a guard would otherwise send the person from a private page
 * to sign in, racing the move to index).
 */
export function sessionStatusOf(snapshot: SessionSnapshot): AccessFacts["session"] {
  const undecided = ["restoring", "loadingClient", "signingOut"] as const;
  if (undecided.some((state) => snapshot.matches(state))) return "unknown";
  return snapshot.matches("signedIn") ? "signedIn" : "signedOut";
}

const noSubscription = () => () => {};

/** Keeps the route guards' facts in step with the session machine. */
export function SessionAccessFacts({
  session,
  children,
}: {
  session: SessionActor;
  children: ReactNode;
}) {
  const { config, product, app, products } = useServices();
  const status = useSelector(session, sessionStatusOf);
  const portfolio = useWorkspaceFacts();
  const current = useSyncExternalStore(products?.subscribe ?? noSubscription, product);
  const client = useSelector(session, (s) => s.context.client);
  const facts = useMemo<AccessFacts>(
    () => ({
      edition: config.edition,
      product: current,
      session: status,
      account: status === "signedIn" && client ? accountFactsOf(client) : null,
      ...(status === "signedIn" && app
        ? portfolio
        : { creationInProgress: false, portfolioLoaded: false }),
    }),
    [config.edition, current, status, client, app, portfolio],
  );
  return <AccessFactsProvider facts={facts}>{children}</AccessFactsProvider>;
}
