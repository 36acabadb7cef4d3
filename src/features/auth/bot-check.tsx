import { useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import type { Locale } from "../../contract/common.ts";
import { recaptchaToken } from "../../app/recaptcha.ts";
import { useServices } from "../../app/services.tsx";
import type { TokenStore } from "./token-store.ts";

/**
 * The bot check of the sign-up form: Google's invisible score-based check when a site key is
 * configured, otherwise ALTCHA's proof of work, solved by the browser while the user types.
 */
export function BotCheck({ locale, store }: { locale: Locale; store: TokenStore }) {
  const { config } = useServices();
  const siteKey = config.recaptchaSiteKey;
  useEffect(() => {
    if (siteKey) store.setSource(() => recaptchaToken(siteKey));
  }, [siteKey, store]);
  if (siteKey) return <RecaptchaNotice />;
  return <ProofOfWork locale={locale} store={store} />;
}

function RecaptchaNotice() {
  const { t } = useLingui();
  return (
    <p className="muted">{t`This form is protected by reCAPTCHA; Google's privacy policy and terms of service apply.`}</p>
  );
}

interface AltchaState {
  readonly state: string;
  readonly payload?: string;
}

function ProofOfWork({ locale, store }: { locale: Locale; store: TokenStore }) {
  const { config } = useServices();
  const widget = useRef<HTMLElement | null>(null);
  useEffect(() => {
    let element: HTMLElement | null = null;
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<AltchaState>).detail;
      if (detail.state === "verified" && detail.payload) store.set(detail.payload);
      else if (detail.state === "expired") store.set(null);
    };
    let cancelled = false;
    void Promise.all([
      import("altcha"),
      import("altcha/i18n/es-es"),
      import("altcha/i18n/en"),
    ]).then(() => {
      if (cancelled || !widget.current) return;
      element = widget.current;
      element.addEventListener("statechange", onState);
    });
    return () => {
      cancelled = true;
      element?.removeEventListener("statechange", onState);
    };
  }, [store]);
  return (
    <altcha-widget
      ref={widget}
      challenge={`${config.apiBase}/auth/captcha/pow`}
      auto="onload"
      language={locale === "es" ? "es-es" : "en"}
      name="altcha"
      hidelogo=""
    />
  );
}

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "altcha-widget": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & {
        challenge?: string;
        auto?: string;
        language?: string;
        name?: string;
        hidelogo?: string;
      };
    }
  }
}
