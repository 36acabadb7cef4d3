import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useFormSubmit } from "../../app/use-form-submit.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { FormMessage, TextField } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";

export default function ForgotPasswordScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [email, setEmail] = useState("");
  const form = useFormSubmit((value: string) =>
    orFailure(() => http.call(endpoints.forgotPassword, { body: { email: value } })),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    form.submit(email.trim());
  };
  return (
    <div>
      <PageHeading
        title={t`Forgot your password?`}
        summary={t`We will send you a link to choose a new password.`}
      />
      <form className="form" onSubmit={submit} noValidate>
        {form.error ? (
          <FormMessage kind="error">{i18n._(msgCodeText[form.error])}</FormMessage>
        ) : null}
        {form.succeeded ? (
          <FormMessage kind="success">
            <Trans>
              If an account uses that email, a link to choose a new password is on its way. It
              expires in 1 hour.
            </Trans>
          </FormMessage>
        ) : null}
        <TextField
          label={t`Email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={form.submitting}>
          <Trans>Send me the link</Trans>
        </button>
        <Link to={pathFor("auth-SignIn", locale)}>
          <Trans>Back to sign in</Trans>
        </Link>
      </form>
    </div>
  );
}
