import { Trans, useLingui } from "@lingui/react/macro";
import { useAppMachine } from "../../app/use-app-machine.ts";
import { useMemo, useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { fromPromise } from "xstate";
import { signUpMachine, type SignUpForm } from "../../../machines/sign-up.machine.ts";
import { SessionFailure } from "../../../machines/session.machine.ts";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { CheckboxField, FormMessage, TextField } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { BotCheck } from "./bot-check.tsx";
import { createTokenStore } from "./token-store.ts";
import { countryOptions } from "../../ui/countries.ts";
import { PasswordStrengthMeter } from "./password-strength-meter.tsx";

const emptyForm = {
  name: "",
  surname: "",
  email: "",
  password: "",
  confirmPassword: "",
  phone: "",
  countryId: "ES",
  profession: "",
  newsletter: false,
  policies: false,
};

export default function SignUpScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [tokens] = useState(createTokenStore);
  const [form, setForm] = useState(emptyForm);
  const machine = useMemo(
    () =>
      signUpMachine.provide({
        actors: {
          register: fromPromise<void, SignUpForm>(async ({ input }) => {
            const token = await tokens.token().catch(() => null);
            if (!token) throw new SessionFailure("CAPTCHA_FAILED");
            await orFailure(() =>
              http.call(endpoints.register, { body: { ...input, recaptchaToken: token } }),
            );
          }),
        },
      }),
    [http, tokens],
  );
  const [snapshot, send] = useAppMachine(machine);
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const set = (key: keyof typeof emptyForm) => (value: string | boolean) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (snapshot.context.error) send({ type: "signUp.edit" });
  };

  if (snapshot.matches("registered")) {
    const email = form.email.trim();
    return (
      <div>
        <PageHeading title={t`Check your email`} />
        <FormMessage kind="success">
          <Trans>We have sent a link to {email}. Open it to confirm your email and start.</Trans>
        </FormMessage>
        <p>
          <Link to={`${pathFor("auth-confirmEmail", locale)}?email=${encodeURIComponent(email)}`}>
            <Trans>Did not get it? Send it again</Trans>
          </Link>
        </p>
      </div>
    );
  }

  const error = snapshot.context.error;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.policies) return;
    send({
      type: "signUp.submit",
      form: {
        name: form.name.trim(),
        surname: form.surname.trim(),
        email: form.email.trim(),
        password: form.password,
        confirmPassword: form.confirmPassword,
        countryId: form.countryId,
        newsletter: form.newsletter,
        policies: true,
        language: locale,
        ...(form.phone.trim() ? { phone: form.phone.trim() } : {}),
        ...(form.profession.trim() ? { profession: form.profession.trim() } : {}),
      },
    });
  };
  const submitting = snapshot.matches("submitting");
  return (
    <div>
      <PageHeading
        title={t`Create your account`}
        summary={t`Sign up to build and save portfolios.`}
      />
      <form className="form form-wide" onSubmit={submit} noValidate>
        {error ? <FormMessage kind="error">{i18n._(msgCodeText[error])}</FormMessage> : null}
        <div className="form-grid">
          <TextField
            label={t`Name`}
            name="name"
            autoComplete="given-name"
            required
            value={form.name}
            onChange={(e) => set("name")(e.target.value)}
          />
          <TextField
            label={t`Surname`}
            name="surname"
            autoComplete="family-name"
            required
            value={form.surname}
            onChange={(e) => set("surname")(e.target.value)}
          />
        </div>
        <TextField
          label={t`Email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={(e) => set("email")(e.target.value)}
        />
        <div className="form-grid">
          <TextField
            label={t`Password`}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            value={form.password}
            onChange={(e) => set("password")(e.target.value)}
            hint={<PasswordStrengthMeter password={form.password} />}
          />
          <TextField
            label={t`Confirm the password`}
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={form.confirmPassword}
            onChange={(e) => set("confirmPassword")(e.target.value)}
            error={
              error === "PASSWORDS_DONT_MATCH" ? i18n._(msgCodeText.PASSWORDS_DONT_MATCH) : null
            }
          />
        </div>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="sign-up-country">{t`Country`}</label>
            <select
              id="sign-up-country"
              name="countryId"
              value={form.countryId}
              onChange={(e) => set("countryId")(e.target.value)}
            >
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label={t`Phone (optional)`}
            type="tel"
            name="phone"
            autoComplete="tel"
            value={form.phone}
            onChange={(e) => set("phone")(e.target.value)}
          />
        </div>
        <TextField
          label={t`Profession (optional)`}
          name="profession"
          value={form.profession}
          onChange={(e) => set("profession")(e.target.value)}
        />
        <CheckboxField
          label={t`Send me the newsletter`}
          checked={form.newsletter}
          onChange={(e) => set("newsletter")(e.target.checked)}
        />
        <CheckboxField
          label={t`I have read and accept the privacy policy`}
          required
          checked={form.policies}
          onChange={(e) => set("policies")(e.target.checked)}
        />
        <BotCheck locale={locale} store={tokens} />
        <button type="submit" className="button primary" disabled={submitting || !form.policies}>
          {submitting ? <Trans>Creating your account…</Trans> : <Trans>Create my account</Trans>}
        </button>
        <p>
          <Trans>Already have an account?</Trans>{" "}
          <Link to={pathFor("auth-SignIn", locale)}>
            <Trans>Sign in</Trans>
          </Link>
        </p>
      </form>
    </div>
  );
}
