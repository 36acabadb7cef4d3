import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useSession } from "../../app/session/use-session.ts";
import { FormMessage, TextField } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";

export default function SignInScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const [{ signingIn, error }, session] = useSession((s) => ({
    signingIn: s.matches("signingIn") || s.matches("loadingClient"),
    error: s.context.error,
  }));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    session.send({ type: "session.signIn", credentials: { email: email.trim(), password } });
  };
  return (
    <div>
      <PageHeading title={t`Sign in`} summary={t`Sign in to your account.`} />
      <form className="form" onSubmit={submit} noValidate>
        {error ? <FormMessage kind="error">{i18n._(msgCodeText[error])}</FormMessage> : null}
        <TextField
          label={t`Email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={t`Password`}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={signingIn}>
          {signingIn ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
        </button>
        <div className="form-links">
          <Link to={pathFor("auth-forgotPassword", locale)}>
            <Trans>Forgot your password?</Trans>
          </Link>
          <Link to={pathFor("auth-signUp", locale)}>
            <Trans>Create an account</Trans>
          </Link>
        </div>
      </form>
    </div>
  );
}
