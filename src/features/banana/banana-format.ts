import { msg } from "@lingui/core/macro";
import type { I18n } from "@lingui/core";
import type { MonkeyRegion } from "../../contract/banana.ts";
import type { Locale } from "../../contract/common.ts";
import { formatPercent, toIntlLocale } from "../../ui/format.ts";

/** The regions as the screens name them. */
export const regionNames = {
  eu: msg`Europe (EUR)`,
  usa: msg`USA (USD)`,
} as const satisfies Record<MonkeyRegion, ReturnType<typeof msg>>;

export const regionIndexNames = {
  eu: msg`EURO STOXX 50`,
  usa: msg`S&P 500`,
} as const satisfies Record<MonkeyRegion, ReturnType<typeof msg>>;

export const regions: readonly MonkeyRegion[] = ["eu", "usa"];

/** A return (fraction) with its sign, or null when the API has none yet. */
export function signedPercent(value: number, locale: Locale): string {
  return new Intl.NumberFormat(toIntlLocale(locale), {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
  }).format(value);
}

export const percentOrDash = (value: number | null, locale: Locale): string =>
  value === null ? "—" : signedPercent(value, locale);

/** The percentile (0 to 100) as "62.5%". */
export const percentileText = (percentile: number, locale: Locale): string =>
  formatPercent(percentile / 100, locale, 1);

/**
 * A moment in the user's own time zone (the browser's), with the zone's short name, e.g.
 * "Tue 10:00 AM CET" or "mar, 10:00 CET"; `timeZone` is for tests.
 */
export function localMoment(iso: string, locale: Locale, timeZone?: string): string {
  return new Intl.DateTimeFormat(toIntlLocale(locale), {
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** Hours and minutes from `now` to `iso`, in words of the user's language ("3 h 20 min"). */
export function timeLeft(iso: string, now: Date, i18n: I18n): string {
  const minutes = Math.max(0, Math.ceil((Date.parse(iso) - now.getTime()) / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return i18n._(msg`${m} min`);
  if (m === 0) return i18n._(msg`${h} h`);
  return i18n._(msg`${h} h ${m} min`);
}
