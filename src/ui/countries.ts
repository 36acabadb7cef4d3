import type { Locale } from "../contract/common.ts";

/** Countries offered at sign-up, named in the user's language by Intl. */
const codes = [
  "AD",
  "AR",
  "AT",
  "BE",
  "BO",
  "BR",
  "CA",
  "CH",
  "CL",
  "CO",
  "CR",
  "CU",
  "CZ",
  "DE",
  "DK",
  "DO",
  "EC",
  "ES",
  "FI",
  "FR",
  "GB",
  "GR",
  "GT",
  "HN",
  "IE",
  "IT",
  "LU",
  "MA",
  "MX",
  "NI",
  "NL",
  "NO",
  "PA",
  "PE",
  "PL",
  "PR",
  "PT",
  "PY",
  "SE",
  "SV",
  "US",
  "UY",
  "VE",
] as const;

export function countryOptions(locale: Locale): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([locale], { type: "region" });
  return codes
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}
