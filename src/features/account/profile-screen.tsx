import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent } from "react";
import { SessionFailure } from "../../../machines/session.machine.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useSession } from "../../app/session/use-session.ts";
import { useFormSubmit } from "../../app/use-form-submit.ts";
import type { Client, SessionToken, UpdateClientRequest } from "../../contract/accounts.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { CheckboxField, FormMessage, TextField } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";

type Draft = {
  [K in keyof UpdateClientRequest]: UpdateClientRequest[K] extends boolean ? boolean : string;
};

const draftOf = (c: Client): Draft => ({
  name: c.name,
  surname: c.surname,
  phone: c.phone ?? "",
  telephone: c.telephone ?? "",
  countryId: c.countryId ?? "",
  newsletter: c.newsletter,
  language: c.language,
  birthDate: c.birthDate ?? "",
  tin: c.tin ?? "",
  postalCode: c.postalCode ?? "",
  city: c.city ?? "",
  address: c.address ?? "",
  profession: c.profession ?? "",
  alias: c.alias ?? "",
});

const orNull = (s: string) => (s.trim() === "" ? null : s.trim());

/** Every client field, the newsletter, the language and the password. */
export default function ProfileScreen(_: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [client, session] = useSession((s) => s.context.client);
  const [draft, setDraft] = useState<Draft | null>(client ? draftOf(client) : null);
  const save = useFormSubmit((body: UpdateClientRequest) =>
    orFailure(() => http.call(endpoints.updateClient, { body })),
  );
  const password = useFormSubmit(
    async (body: { currentPassword: string; newPassword: string; confirmPassword: string }) => {
      if (body.newPassword !== body.confirmPassword)
        throw new SessionFailure("PASSWORDS_DONT_MATCH");
      return orFailure(() => http.call(endpoints.changePassword, { body }));
    },
  );
  const [passwords, setPasswords] = useState({
    currentPassword: "",
    newPassword: "",
    confirmPassword: "",
  });

  useEffect(() => {
    if (save.succeeded && save.result)
      session.send({ type: "client.updated", client: save.result as Client });
  }, [save.succeeded, save.result, session]);
  useEffect(() => {
    if (password.succeeded && password.result) {
      // The server set the session's cookie; the app keeps only when it ends.
      session.send({
        type: "session.started",
        session: { expiry: (password.result as SessionToken).expiry },
      });
    }
  }, [password.succeeded, password.result, session]);

  if (!client || !draft) return null;
  const field = (key: keyof Draft) => ({
    value: String(draft[key] ?? ""),
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      setDraft({ ...draft, [key]: e.target.value });
      save.edit();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.submit({
      name: draft.name.trim(),
      surname: draft.surname.trim(),
      phone: orNull(draft.phone),
      telephone: orNull(draft.telephone),
      countryId: orNull(draft.countryId.toUpperCase()),
      newsletter: draft.newsletter,
      language: draft.language as Locale,
      birthDate: orNull(draft.birthDate),
      tin: orNull(draft.tin),
      postalCode: orNull(draft.postalCode),
      city: orNull(draft.city),
      address: orNull(draft.address),
      profession: orNull(draft.profession),
      alias: orNull(draft.alias ?? ""),
    });
  };
  const email = client.email;
  return (
    <div>
      <PageHeading title={t`Profile`} summary={t`Your personal details and preferences.`} />
      {!client.emailConfirmed ? (
        <p className="notice">
          <Trans>Your email {email} is not confirmed yet: open the link we sent you.</Trans>
        </p>
      ) : null}
      <form className="form form-wide" onSubmit={submit} noValidate aria-labelledby="details-title">
        <h2 id="details-title">{t`Your details`}</h2>
        {save.error ? (
          <FormMessage kind="error">{i18n._(msgCodeText[save.error])}</FormMessage>
        ) : null}
        {save.succeeded ? (
          <FormMessage kind="success">{t`Your profile is saved.`}</FormMessage>
        ) : null}
        <TextField
          label={t`Email`}
          type="email"
          value={email}
          readOnly
          hint={t`To change your email, contact us.`}
        />
        <div className="form-grid">
          <TextField
            label={t`Name`}
            name="name"
            autoComplete="given-name"
            required
            {...field("name")}
          />
          <TextField
            label={t`Surname`}
            name="surname"
            autoComplete="family-name"
            required
            {...field("surname")}
          />
          <TextField
            label={t`Mobile phone`}
            type="tel"
            name="phone"
            autoComplete="tel"
            {...field("phone")}
          />
          <TextField label={t`Telephone`} type="tel" name="telephone" {...field("telephone")} />
          <TextField
            label={t`Birth date`}
            type="date"
            name="birthDate"
            autoComplete="bday"
            {...field("birthDate")}
          />
          <TextField label={t`Tax id (TIN)`} name="tin" {...field("tin")} />
          <TextField
            label={t`Address`}
            name="address"
            autoComplete="street-address"
            {...field("address")}
          />
          <TextField label={t`City`} name="city" autoComplete="address-level2" {...field("city")} />
          <TextField
            label={t`Postal code`}
            name="postalCode"
            autoComplete="postal-code"
            {...field("postalCode")}
          />
          <TextField
            label={t`Country (ISO code, e.g. ES)`}
            name="countryId"
            maxLength={2}
            {...field("countryId")}
          />
          <TextField label={t`Profession`} name="profession" {...field("profession")} />
          <TextField
            label={t`Alias in the banana challenge ranking`}
            name="alias"
            maxLength={24}
            hint={t`3 to 24 letters, digits, spaces, dots or dashes. Other members see it instead of your name; your email is never shown.`}
            {...field("alias")}
          />
          <div className="field">
            <label htmlFor="profile-language">{t`Language`}</label>
            <select
              id="profile-language"
              name="language"
              {...field("language")}
              onChange={(e) => {
                setDraft({ ...draft, language: e.target.value as Locale });
                save.edit();
              }}
            >
              <option value="en">{t`English`}</option>
              <option value="es">{t`Spanish`}</option>
            </select>
          </div>
        </div>
        <CheckboxField
          label={t`Send me the newsletter`}
          checked={draft.newsletter}
          onChange={(e) => {
            setDraft({ ...draft, newsletter: e.target.checked });
            save.edit();
          }}
        />
        <button type="submit" className="button primary" disabled={save.submitting}>
          <Trans>Save my details</Trans>
        </button>
      </form>

      <form
        className="form"
        aria-labelledby="password-title"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          password.submit(passwords);
          // Passwords never stay on screen once sent.
          setPasswords({ currentPassword: "", newPassword: "", confirmPassword: "" });
        }}
      >
        <h2 id="password-title">{t`Change your password`}</h2>
        {password.error ? (
          <FormMessage kind="error">{i18n._(msgCodeText[password.error])}</FormMessage>
        ) : null}
        {password.succeeded ? (
          <FormMessage kind="success">{t`Your password has changed; your other devices were signed out.`}</FormMessage>
        ) : null}
        <TextField
          label={t`Current password`}
          type="password"
          autoComplete="current-password"
          value={passwords.currentPassword}
          onChange={(e) => setPasswords({ ...passwords, currentPassword: e.target.value })}
        />
        <TextField
          label={t`New password`}
          type="password"
          autoComplete="new-password"
          value={passwords.newPassword}
          onChange={(e) => setPasswords({ ...passwords, newPassword: e.target.value })}
        />
        <TextField
          label={t`Confirm the password`}
          type="password"
          autoComplete="new-password"
          value={passwords.confirmPassword}
          onChange={(e) => setPasswords({ ...passwords, confirmPassword: e.target.value })}
        />
        <button type="submit" className="button ghost" disabled={password.submitting}>
          <Trans>Change my password</Trans>
        </button>
      </form>
    </div>
  );
}
