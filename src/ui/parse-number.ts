import type { Locale } from "../contract/common.ts";
import { toIntlLocale } from "./format.ts";

/** The decimal and grouping separators of each language (es: `3.323,96`, en: `3,323.96`). */
export const separators: Record<Locale, { decimal: string; group: string }> = {
  en: { decimal: ".", group: "," },
  es: { decimal: ",", group: "." },
};

/**
 * A number typed or pasted by the user, in their language's format, or null when the text is not
 * a number. Accepted, besides the language's own `3.323,96` (es) / `3,323.96` (en):
 * - spaces (also no-break and narrow no-break), a currency sign or code, a percent sign;
 * - a minus sign (`-` or `−`);
 * - a value pasted in the other language's format when it cannot be read otherwise: with both
 *   separators the last one is the decimal one (`3,323.96` in Spanish is 3323.96); a single kind
 *   of separator is a group separator only where it groups exactly three digits (`3.323` in
 *   Spanish is 3323, `3.5` is 3.5, as a numeric keypad types it).
 */
export function parseLocaleNumber(text: string, locale: Locale): number | null {
  let t = text
    .trim()
    .replace(/[\s\u00a0\u202f]/g, "")
    .replace(/€|\$|EUR|USD|%/gi, "")
    .replace(/\u2212/g, "-");
  if (t === "") return null;
  let sign = 1;
  if (t.startsWith("-")) {
    sign = -1;
    t = t.slice(1);
  }
  if (!/^[0-9.,]+$/.test(t) || !/[0-9]/.test(t)) return null;
  const { decimal, group } = separators[locale];
  const lastDot = t.lastIndexOf(".");
  const lastComma = t.lastIndexOf(",");
  let decimalSeparator: string | null = null;
  let groupSeparator: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) {
    decimalSeparator = lastDot > lastComma ? "." : ",";
    groupSeparator = decimalSeparator === "." ? "," : ".";
  } else if (lastDot >= 0 || lastComma >= 0) {
    const only = lastDot >= 0 ? "." : ",";
    const count = t.split(only).length - 1;
    const groupsOfThree = groupedByThree(t, only);
    if (only === group && groupsOfThree) groupSeparator = only;
    else if (count === 1) decimalSeparator = only;
    else if (only === decimal && groupsOfThree) groupSeparator = only;
    else return null;
  }
  const [whole = "", fraction, extra] = decimalSeparator ? t.split(decimalSeparator) : [t];
  if (extra !== undefined) return null;
  if (groupSeparator && whole.includes(groupSeparator) && !groupedByThree(whole, groupSeparator))
    return null;
  const digits = groupSeparator ? whole.split(groupSeparator).join("") : whole;
  if (!/^[0-9]*$/.test(digits)) return null;
  if (fraction !== undefined && !/^[0-9]*$/.test(fraction)) return null;
  if (digits === "" && !fraction) return null;
  const value = Number(`${digits || "0"}${fraction ? `.${fraction}` : ""}`);
  return Number.isFinite(value) ? sign * value : null;
}

/** `1.234.567`: one to three digits, then groups of exactly three after each separator. */
function groupedByThree(text: string, separator: string): boolean {
  const parts = text.split(separator);
  return /^[0-9]{1,3}$/.test(parts[0]!) && parts.slice(1).every((p) => /^[0-9]{3}$/.test(p));
}

/**
 * A number as an input shows it: the language's separators, always grouped (`3.323,96`, where
 * Intl's Spanish would leave four digits ungrouped), from `minimumFractionDigits` up to
 * `maximumFractionDigits` decimals (money: exactly two, `1.250,00`).
 */
export function formatInputNumber(
  value: number,
  locale: Locale,
  maximumFractionDigits = 2,
  minimumFractionDigits = 0,
): string {
  return new Intl.NumberFormat(toIntlLocale(locale), {
    useGrouping: "always",
    minimumFractionDigits: Math.min(minimumFractionDigits, maximumFractionDigits),
    maximumFractionDigits,
  }).format(value);
}
