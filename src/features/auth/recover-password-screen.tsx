import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { passwordStrength } from "../../../machines/guards/password-strength.ts";
import { SessionFailure } from "../../../machines/session.machine.ts";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useFormSubmit } from "../../app/use-form-submit.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { FormMessage, TextField } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { PasswordStrengthMeter } from "./password-strength-meter.tsx";

export default function RecoverPasswordScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [params] = useSearchParams();
  const email = params.get("email") ?? "";
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirm] = useState("");
  const [weak, setWeak] = useState(false);
  const form = useFormSubmit(async (values: { password: string; confirmPassword: string }) => {
    if (values.password !== values.confirmPassword)
      throw new SessionFailure("PASSWORDS_DONT_MATCH");
    return orFailure(() =>
      http.call(endpoints.recoverPassword, { body: { email, token, ...values } }),
    );
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const strength = passwordStrength(password);
    setWeak(strength === "weak" || strength === "empty");
    if (strength === "weak" || strength === "empty") return;
    form.submit({ password, confirmPassword });
  };
  if (!email || !token) {
    return (
      <div>
        <PageHeading title={t`Choose a new password`} />
        <FormMessage kind="error">{i18n._(msgCodeText.INVALID_TOKEN)}</FormMessage>
        <Link to={pathFor("auth-forgotPassword", locale)}>
          <Trans>Ask for a new link</Trans>
        </Link>
      </div>
    );
  }
  return (
    <div>
      <PageHeading
        title={t`Choose a new password`}
        summary={t`Set a new password for your account.`}
      />
      {form.succeeded ? (
        <div className="form">
          <FormMessage kind="success">
            <Trans>
              Your password has changed. Every device was signed out: sign in with the new password.
            </Trans>
          </FormMessage>
          <Link className="button primary" to={pathFor("auth-SignIn", locale)}>
            <Trans>Sign in</Trans>
          </Link>
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          {form.error ? (
            <FormMessage kind="error">{i18n._(msgCodeText[form.error])}</FormMessage>
          ) : null}
          {weak ? (
            <FormMessage kind="error">{i18n._(msgCodeText.PASSWORD_TOO_WEAK)}</FormMessage>
          ) : null}
          <TextField label={t`Email`} type="email" name="email" value={email} readOnly />
          <TextField
            label={t`New password`}
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            hint={<PasswordStrengthMeter password={password} />}
          />
          <TextField
            label={t`Confirm the password`}
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <button type="submit" className="button primary" disabled={form.submitting}>
            <Trans>Save the new password</Trans>
          </button>
        </form>
      )}
    </div>
  );
}
