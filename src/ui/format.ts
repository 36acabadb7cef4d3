import type { Locale } from "../contract/common.ts";

const intlLocale: Record<Locale, string> = { en: "en-US", es: "es-ES" };

/** The Intl locale behind each product language (en: US conventions, es: Spain). */
export const toIntlLocale = (locale: Locale): string => intlLocale[locale];

/** First day of the week, 0 = Sunday (specification section 9: Sunday in en, Monday in es). */
export const firstWeekday: Record<Locale, 0 | 1> = { en: 0, es: 1 };

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** mm/dd/yy in English, dd/mm/yy in Spanish. */
export function formatDate(date: Date | string, locale: Locale): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale[locale], {
      year: "2-digit",
      month: "2-digit",
      day: "2-digit",
      timeZone: "UTC",
    });
    dateFormats.set(locale, format);
  }
  return format.format(typeof date === "string" ? new Date(date) : date);
}

export function formatDateTime(date: Date | string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], {
    year: "2-digit",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).format(typeof date === "string" ? new Date(date) : date);
}

/**
 * A number as Intl writes it, but never a negative zero: a value that rounds to zero (a beta of
 * -0.001 at two decimals, or -0 itself) is written as zero ("0.00", not "-0.00"). Intl's
 * `signDisplay: "negative"` does the same, but not in every browser we support, so the parts are
 * read instead.
 */
function withoutNegativeZero(format: Intl.NumberFormat, value: number): string {
  if (!(value < 0 || Object.is(value, -0))) return format.format(value);
  const parts = format.formatToParts(value);
  const zero = parts.every(
    (p) => (p.type !== "integer" && p.type !== "fraction") || /^0+$/.test(p.value),
  );
  return zero ? format.format(0) : parts.map((p) => p.value).join("");
}

export function formatNumber(
  value: number,
  locale: Locale,
  options?: Intl.NumberFormatOptions,
): string {
  return withoutNegativeZero(new Intl.NumberFormat(intlLocale[locale], options), value);
}

export function formatMoney(value: number, currency: "EUR" | "USD", locale: Locale): string {
  return withoutNegativeZero(
    new Intl.NumberFormat(intlLocale[locale], { style: "currency", currency }),
    value,
  );
}

export function formatPercent(value: number, locale: Locale, fractionDigits = 2): string {
  return withoutNegativeZero(
    new Intl.NumberFormat(intlLocale[locale], {
      style: "percent",
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    }),
    value,
  );
}

/** An amount in integer cents (billing keeps money in cents), as money in the user's locale. */
export function formatCents(cents: number, currency: "EUR" | "USD", locale: Locale): string {
  return formatMoney(cents / 100, currency, locale);
}

/** A date spelled out for reading ("December 21, 2026" / "21 de diciembre de 2026"). */
export function formatLongDate(date: Date | string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(
    typeof date === "string" ? new Date(date) : date,
  );
}
