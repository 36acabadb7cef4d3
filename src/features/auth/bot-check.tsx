import { useLingui } from "@lingui/react/macro";
import { useEffect, useRef, type RefObject } from "react";
import type { Locale } from "../../contract/common.ts";
import { recaptchaToken } from "../../client/recaptcha.ts";
import { useServices } from "../../app/services.tsx";

/** Gives the sign-up form its bot-protection token when it submits. */
export type TokenSource = () => Promise<string>;

/**
 * The bot check of the sign-up form: Google's invisible score-based check when a site key is
 * configured, otherwise ALTCHA's proof of work, solved by the browser while the user types.
 */
export function BotCheck({
  locale,
  tokenSource,
}: {
  locale: Locale;
  tokenSource: RefObject<TokenSource | null>;
}) {
  const { config } = useServices();
  const siteKey = config.recaptchaSiteKey;
  useEffect(() => {
    if (siteKey) tokenSource.current = () => recaptchaToken(siteKey);
  }, [siteKey, tokenSource]);
  if (siteKey) return <RecaptchaNotice />;
  return <ProofOfWork locale={locale} tokenSource={tokenSource} />;
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

function ProofOfWork({
  locale,
  tokenSource,
}: {
  locale: Locale;
  tokenSource: RefObject<TokenSource | null>;
}) {
  const { config } = useServices();
  const widget = useRef<HTMLElement | null>(null);
  const payload = useRef<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    const waiters: ((value: string) => void)[] = [];
    tokenSource.current = () =>
      payload.current
        ? Promise.resolve(payload.current)
        : new Promise<string>((resolve) => waiters.push(resolve));
    void Promise.all([
      import("altcha"),
      import("altcha/i18n/es-es"),
      import("altcha/i18n/en"),
    ]).then(() => {
      if (cancelled || !widget.current) return;
      widget.current.addEventListener("statechange", (event) => {
        const detail = (event as CustomEvent<AltchaState>).detail;
        if (detail.state === "verified" && detail.payload) {
          payload.current = detail.payload;
          for (const resolve of waiters.splice(0)) resolve(detail.payload);
        } else if (detail.state === "expired") {
          payload.current = null;
        }
      });
    });
    return () => {
      cancelled = true;
    };
  }, [tokenSource]);
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
