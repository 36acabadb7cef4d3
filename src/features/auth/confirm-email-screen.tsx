import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useSession } from "../../app/session/use-session.ts";
import { useFormSubmit } from "../../app/use-form-submit.ts";
import type { SessionToken } from "../../contract/accounts.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { FormMessage, TextField } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";

/** Confirms the email from the link (and signs the user in), or sends the link again. */
export default function ConfirmEmailScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [params] = useSearchParams();
  const [, session] = useSession((s) => s.value);
  const linkEmail = params.get("email") ?? "";
  const token = params.get("token");
  const confirm = useFormSubmit((body: { email: string; token: string }) =>
    orFailure(() => http.call(endpoints.confirmEmail, { body })),
  );
  const resend = useFormSubmit((email: string) =>
    orFailure(() => http.call(endpoints.resendConfirmation, { body: { email } })),
  );
  const [email, setEmail] = useState(linkEmail);
  const started = useRef(false);

  useEffect(() => {
    if (token && linkEmail && !started.current) {
      started.current = true;
      confirm.submit({ email: linkEmail, token });
    }
  }, [token, linkEmail, confirm]);
  useEffect(() => {
    if (confirm.succeeded && confirm.result)
      // The server set the session's cookie; the app keeps only when it ends.
      session.send({
        type: "session.started",
        session: { expiry: (confirm.result as SessionToken).expiry },
      });
  }, [confirm.succeeded, confirm.result, session]);

  const submitResend = (e: FormEvent) => {
    e.preventDefault();
    resend.submit(email.trim());
  };

  return (
    <div>
      <PageHeading
        title={t`Confirm your email`}
        summary={t`Confirm your email address to activate your account.`}
      />
      {token && confirm.submitting ? <Spinner label={t`Confirming your email…`} /> : null}
      {confirm.succeeded ? (
        <div className="form">
          <FormMessage kind="success">
            <Trans>Your email is confirmed. Welcome!</Trans>
          </FormMessage>
          <Link className="button primary" to={pathFor("create-q1", locale)}>
            <Trans>Create your first portfolio</Trans>
          </Link>
        </div>
      ) : (
        <form className="form" onSubmit={submitResend} noValidate>
          {confirm.error ? (
            <FormMessage kind="error">{i18n._(msgCodeText[confirm.error])}</FormMessage>
          ) : null}
          {resend.error ? (
            <FormMessage kind="error">{i18n._(msgCodeText[resend.error])}</FormMessage>
          ) : null}
          {resend.succeeded ? (
            <FormMessage kind="success">
              <Trans>
                If that email has an account waiting for confirmation, a new link is on its way.
              </Trans>
            </FormMessage>
          ) : (
            <p>
              <Trans>Did not get the email, or the link expired? We can send it again.</Trans>
            </p>
          )}
          <TextField
            label={t`Email`}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="button primary" disabled={resend.submitting}>
            <Trans>Send the link again</Trans>
          </button>
        </form>
      )}
    </div>
  );
}
