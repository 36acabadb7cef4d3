import { Trans, useLingui } from "@lingui/react/macro";
import { useSelector } from "@xstate/react";
import { Link } from "react-router-dom";
import type { Locale } from "../../contract/common.ts";
import { pathFor } from "../paths.ts";
import { useServices } from "../services.tsx";
import type { SessionActor } from "./session-actor.ts";

const signedInClient = (s: ReturnType<SessionActor["getSnapshot"]>) =>
  s.matches("signedIn") ? s.context.client : null;

function GuestLinks({ locale }: { locale: Locale }) {
  return (
    <>
      <Link className="button ghost" to={pathFor("auth-SignIn", locale)}>
        <Trans>Sign in</Trans>
      </Link>
      <Link className="button primary" to={pathFor("auth-signUp", locale)}>
        <Trans>Sign up</Trans>
      </Link>
    </>
  );
}

/** The header's account area: sign in / sign up, or the user's name, profile and sign-out. */
export function UserMenu({ locale }: { locale: Locale }) {
  const { session } = useServices();
  return session ? (
    <SessionUserMenu session={session} locale={locale} />
  ) : (
    <GuestLinks locale={locale} />
  );
}

function SessionUserMenu({ session, locale }: { session: SessionActor; locale: Locale }) {
  const client = useSelector(session, signedInClient);
  const { t } = useLingui();
  if (!client) return <GuestLinks locale={locale} />;
  const name = client.name;
  return (
    <div className="user-menu">
      <Link
        className="user-name"
        to={pathFor("account-profile", locale)}
        aria-label={t`Your profile, ${name}`}
        title={name}
      >
        {name}
      </Link>
      <button
        type="button"
        className="button ghost"
        onClick={() => session.send({ type: "session.signOut" })}
      >
        <Trans>Sign out</Trans>
      </button>
    </div>
  );
}

/** Shown after signing in; hidden when dismissed and on sign-out. */
export function WelcomeBanner() {
  const { session } = useServices();
  return session ? <SessionWelcome session={session} /> : null;
}

function SessionWelcome({ session }: { session: SessionActor }) {
  const client = useSelector(session, signedInClient);
  const visible = useSelector(session, (s) => s.context.welcomeBannerVisible);
  if (!client || !visible) return null;
  const name = client.name;
  return (
    <div className="welcome-banner" role="status">
      <p>
        <Trans>Welcome, {name}.</Trans>
      </p>
      <button
        type="button"
        className="link-button"
        onClick={() => session.send({ type: "welcome.dismiss" })}
      >
        <Trans>Close</Trans>
      </button>
    </div>
  );
}
