import "vanilla-cookieconsent/dist/cookieconsent.css";
import type { I18n } from "@lingui/core";
import type * as CookieConsentLibrary from "vanilla-cookieconsent";
import { msg } from "@lingui/core/macro";
import type { Locale } from "../contract/common.ts";
import type { EditionBrand } from "../ui/editions.ts";

type Library = typeof CookieConsentLibrary;

export interface ConsentOptions {
  readonly brand: EditionBrand;
  readonly locale: Locale;
  readonly i18n: I18n;
  /** The edition's marketing or chat script; loaded only after consent, never when null. */
  readonly marketingScriptUrl: string | null;
  /** Injected in tests; the library's loader by default. */
  readonly loadScript?: (url: string) => Promise<unknown>;
}

/** The banner's texts (the library's and the first page's copy of its markup). */
export function consentTexts(i18n: I18n, brandName: string) {
  return {
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
  };
}

/**
 * The first page carries a copy of the banner's markup (`data-first-page`, see
 * scripts/prerender-shell.tsx) so it paints without JavaScript; the library, loaded from its own
 * chunk, replaces it. A click on the copy before that is replayed on the library's banner.
 */
const FIRST_PAGE_BANNER = "#cc-main[data-first-page]";

let library: Library | null = null;
let loading: Promise<Library> | null = null;
let started: Promise<void> | null = null;
let marketingLoaded = false;
let earlyChoice: string | null = null;

const loadLibrary = () =>
  (loading ??= import("vanilla-cookieconsent").then((lib) => (library = lib)));

/**
 * Remembers a choice made on the first page's banner before the library runs. The copy's buttons
 * arrive disabled (a click before this script would be lost) and are enabled here, once a click
 * is remembered.
 */
export function watchFirstPageBanner(): void {
  const copy = document.querySelector(FIRST_PAGE_BANNER);
  if (!copy) return;
  copy.addEventListener("click", (event) => {
    const role = (event.target as Element | null)
      ?.closest("[data-role]")
      ?.getAttribute("data-role");
    if (role) earlyChoice = role;
  });
  copy.querySelectorAll<HTMLButtonElement>("button[data-role]").forEach((b) => {
    b.disabled = false;
  });
}

/** Starts the edition's cookie-consent banner (vanilla-cookieconsent, from a lazy chunk). */
export function startConsent(options: ConsentOptions): Promise<void> {
  return (started = run(options));
}

async function run(options: ConsentOptions): Promise<void> {
  const { brand, i18n } = options;
  const CookieConsent = await loadLibrary();
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
  const translation = () => consentTexts(i18n, brand.name);
  const firstPage = document.querySelector(FIRST_PAGE_BANNER);
  await CookieConsent.run({
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
  if (!firstPage) return;
  // In the same task as the library's banner was added: no frame shows both, or neither.
  firstPage.remove();
  const banner = document.getElementById("cc-main")?.querySelector(".cm-wrapper");
  // Shown at once, as the copy was (the library would fade it in after 100 ms).
  banner?.classList.add("cc--anim");
  const choice = earlyChoice;
  earlyChoice = null;
  if (choice) banner?.querySelector<HTMLElement>(`[data-role="${choice}"]`)?.click();
}

export async function setConsentLanguage(locale: Locale): Promise<void> {
  if (!started) return; // the banner starts in the page's language
  await started;
  await library?.setLanguage(locale, true);
}

export function showCookiePreferences(): void {
  if (library) library.showPreferences();
  else void started?.then(() => library?.showPreferences());
}

/** For tests: forget the banner and the choice. */
export function resetConsent(): void {
  library?.reset(true);
  started = null;
  marketingLoaded = false;
  earlyChoice = null;
}
