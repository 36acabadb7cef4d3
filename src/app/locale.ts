import { type Locale, defaultLocale, locales } from "../contract/common.ts";
import { LOCALE_COOKIE_DAYS, cookieNames, readCookie, writeCookie } from "../client/cookies.ts";

const isLocale = (value: string | null | undefined): value is Locale =>
  (locales as readonly string[]).includes(value ?? "");

/** The language for `/`: the remembered one, else the browser's, else English. */
export function preferredLocale(): Locale {
  const remembered = readCookie(cookieNames.locale);
  if (isLocale(remembered)) return remembered;
  const browser = navigator.language?.slice(0, 2);
  return isLocale(browser) ? browser : defaultLocale;
}

/** Remembers the language for a year (specification section 9). */
export function rememberLocale(locale: Locale): void {
  if (readCookie(cookieNames.locale) !== locale)
    writeCookie(cookieNames.locale, locale, { days: LOCALE_COOKIE_DAYS });
  document.documentElement.lang = locale;
}

/** The language the API client sends: the cookie's (specification section 7). */
export const cookieLocale = (): Locale => {
  const value = readCookie(cookieNames.locale);
  return isLocale(value) ? value : defaultLocale;
};
