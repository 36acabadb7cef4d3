import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect } from "react";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useSession } from "../../app/session/use-session.ts";
import { useFormSubmit } from "../../app/use-form-submit.ts";
import type { Client } from "../../contract/accounts.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { formatDate } from "../../ui/format.ts";
import { FormMessage } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";

/** The current privacy policy; accepting it lets the user go back where they were going. */
export default function AcceptPolicyScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http, brand } = useServices();
  const [client, session] = useSession((s) => s.context.client);
  const form = useFormSubmit((version: string) =>
    orFailure(() => http.call(endpoints.acceptPolicies, { body: { version } })),
  );
  useEffect(() => {
    if (form.succeeded && form.result)
      session.send({ type: "client.updated", client: form.result as Client });
  }, [form.succeeded, form.result, session]);
  const version = client?.policies.currentVersion ?? "";
  const brandName = brand.name;
  const previous = client?.policies.acceptedAt
    ? formatDate(client.policies.acceptedAt, locale)
    : null;
  return (
    <section aria-labelledby="policy-title">
      <h1 id="policy-title">{t`Accept the privacy policy`}</h1>
      <p className="lead">
        <Trans>
          Our privacy policy (version {version}) has changed since you last accepted it. Read it and
          accept it to go on.
        </Trans>
      </p>
      {previous ? (
        <p className="muted">
          <Trans>You accepted the previous version on {previous}.</Trans>
        </p>
      ) : null}
      <div className="policy-text" tabIndex={0}>
        <p>
          <Trans>
            {brandName} keeps the data you give it (your name, email, portfolios and preferences) to
            provide the service, and for nothing else. It never sells it. You can read, correct,
            export or delete it from your profile at any time.
          </Trans>
        </p>
        <p>
          <Trans>
            Prices and analyses are for information and education; they are not investment advice.
            Past returns do not promise future ones.
          </Trans>
        </p>
      </div>
      {form.error ? (
        <FormMessage kind="error">{i18n._(msgCodeText[form.error])}</FormMessage>
      ) : null}
      <p>
        <button
          type="button"
          className="button primary"
          disabled={form.submitting || !version}
          onClick={() => form.submit(version)}
        >
          <Trans>I accept the privacy policy</Trans>
        </button>{" "}
        <button
          type="button"
          className="button ghost"
          onClick={() => session.send({ type: "session.signOut" })}
        >
          <Trans>Sign out</Trans>
        </button>
      </p>
    </section>
  );
}
