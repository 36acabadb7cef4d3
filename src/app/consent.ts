import "vanilla-cookieconsent/dist/cookieconsent.css";
import * as CookieConsent from "vanilla-cookieconsent";
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { Locale } from "../contract/common.ts";
import type { EditionBrand } from "../ui/editions.ts";

export interface ConsentOptions {
  readonly brand: EditionBrand;
  readonly locale: Locale;
  readonly i18n: I18n;
  /** The edition's marketing or chat script; loaded only after consent, never when null. */
  readonly marketingScriptUrl: string | null;
  /** Injected in tests; the library's loader by default. */
  readonly loadScript?: (url: string) => Promise<unknown>;
}

let marketingLoaded = false;

/** Starts the edition's cookie-consent banner (vanilla-cookieconsent). */
export function startConsent(options: ConsentOptions): Promise<void> {
  const { brand, i18n } = options;
  const brandName = brand.name;
  const loadScript = options.loadScript ?? ((url: string) => CookieConsent.loadScript(url));
  const applyConsent = () => {
    if (
      !marketingLoaded &&
      options.marketingScriptUrl &&
      CookieConsent.acceptedCategory("marketing")
    ) {
      marketingLoaded = true;
      void loadScript(options.marketingScriptUrl);
    }
  };
  // Texts are built when the library asks for a language, which is after the app activated it.
  const translation = () => ({
    consentModal: {
      title: i18n._(msg`We use cookies`),
      description: i18n._(
        msg`${brandName} uses the cookies it needs to work. With your consent it also loads a marketing and chat service.`,
      ),
      acceptAllBtn: i18n._(msg`Accept all`),
      acceptNecessaryBtn: i18n._(msg`Reject all`),
      showPreferencesBtn: i18n._(msg`Manage preferences`),
    },
    preferencesModal: {
      title: i18n._(msg`Cookie preferences`),
      acceptAllBtn: i18n._(msg`Accept all`),
      acceptNecessaryBtn: i18n._(msg`Reject all`),
      savePreferencesBtn: i18n._(msg`Save preferences`),
      closeIconLabel: i18n._(msg`Close`),
      sections: [
        {
          title: i18n._(msg`Strictly necessary`),
          description: i18n._(msg`Your language, your session and this choice. Always on.`),
          linkedCategory: "necessary",
        },
        {
          title: i18n._(msg`Marketing and chat`),
          description: i18n._(msg`A service that helps us reach you and answer your questions.`),
          linkedCategory: "marketing",
        },
      ],
    },
  });
  return CookieConsent.run({
    revision: 1,
    // Shown to automated browsers too, so the consent flow is covered by end-to-end tests.
    hideFromBots: false,
    cookie: { name: `${brand.edition}_consent`, expiresAfterDays: 182, sameSite: "Lax" },
    guiOptions: {
      consentModal: { layout: "box", position: "bottom right" },
      preferencesModal: { layout: "box" },
    },
    categories: { necessary: { enabled: true, readOnly: true }, marketing: {} },
    language: { default: options.locale, translations: { en: translation, es: translation } },
    onConsent: applyConsent,
    onChange: applyConsent,
  });
}

export async function setConsentLanguage(locale: Locale): Promise<void> {
  await CookieConsent.setLanguage(locale, true);
}

export function showCookiePreferences(): void {
  CookieConsent.showPreferences();
}

/** For tests: forget the banner and the choice. */
export function resetConsent(): void {
  CookieConsent.reset(true);
  marketingLoaded = false;
}
