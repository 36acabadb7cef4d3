import { useSelector } from "@xstate/react";
import { useEffect, useMemo, type ReactNode } from "react";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { policyGateMachine } from "../../../machines/policy-gate.machine.ts";
import { cookieNames, readCookie, removeCookie, writeCookie } from "../../client/cookies.ts";
import type { Locale } from "../../contract/common.ts";
import { matchPath, pathFor } from "../paths.ts";
import { safeReturnPath } from "../redirect.ts";
import { useServices } from "../services.tsx";
import { useAppMachine } from "../use-app-machine.ts";
import type { SessionActor } from "./session-actor.ts";

/** Wraps every route: in the ht edition, sends users who must accept the policy to its page first. */
export function PolicyGate({ locale, children }: { locale: Locale; children: ReactNode }) {
  const { session } = useServices();
  return session ? (
    <SessionPolicyGate session={session} locale={locale}>
      {children}
    </SessionPolicyGate>
  ) : (
    <>{children}</>
  );
}

function SessionPolicyGate({
  session,
  locale,
  children,
}: {
  session: SessionActor;
  locale: Locale;
  children: ReactNode;
}) {
  const { config } = useServices();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useSelector(session, (s) => (s.matches("signedIn") ? s.context.client : null));
  const machine = useMemo(
    () =>
      policyGateMachine.provide({
        actions: {
          rememberPath: (_, { path }) => {
            if (matchPath(path.split("?")[0] ?? "")?.route.id !== "auth-acceptPolicy")
              writeCookie(cookieNames.policyReturnPath, path);
          },
          restorePath: () => {
            const back = safeReturnPath(readCookie(cookieNames.policyReturnPath));
            removeCookie(cookieNames.policyReturnPath);
            navigate(back ?? pathFor("index", locale), { replace: true });
          },
        },
      }),
    [navigate, locale],
  );
  const [snapshot, send] = useAppMachine(machine);
  const path = location.pathname + location.search;
  const accepted = client?.policies.accepted ?? false;
  useEffect(() => {
    send({
      type: "facts.changed",
      path,
      facts: {
        edition: config.edition,
        signedIn: client !== null,
        kind: client?.kind ?? null,
        policiesAccepted: accepted,
      },
    });
  }, [send, path, config.edition, client, accepted]);

  const onPolicyPage = matchPath(location.pathname)?.route.id === "auth-acceptPolicy";
  if (snapshot.matches("gated") && !accepted && !onPolicyPage)
    return <Navigate replace to={pathFor("auth-acceptPolicy", locale)} />;
  return <>{children}</>;
}
