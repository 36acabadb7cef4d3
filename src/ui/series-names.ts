import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/**
 * The market series the API names by their ids (what-if factor sources, backtest benchmarks, the
 * market proxy of the betas), by their names in the page's language (PRODUCT.md "Names a person
 * sees": a series by its translated name, never by its symbol). Every series the server can
 * answer with has a name here (tests/app/series-names.test.tsx checks it against the server's
 * tables).
 */
const seriesNames: Record<string, MessageDescriptor> = {
  GSPC_INDEX: msg`S&P 500`,
  STOXX50E_INDEX: msg`EURO STOXX 50`,
  GDAXI_INDEX: msg`DAX`,
  "BTC-USD": msg`Bitcoin in US dollars`,
  BRENT_USD: msg`Brent crude oil`,
  DBC: msg`Commodities index fund (DBC)`,
  US10Y: msg`US 10-year yield`,
  DE10Y: msg`German 10-year yield`,
  US_CPI: msg`US consumer prices`,
  EA_HICP: msg`Euro area consumer prices`,
  EURUSD_MONTHLY: msg`Euro to US dollar exchange rate`,
};

/** "US10Y_MONTHLY" is the monthly history of "US10Y": the same series, by the same name. */
const MONTHLY = "_MONTHLY";
const known = (id: string): MessageDescriptor | undefined =>
  seriesNames[id] ?? (id.endsWith(MONTHLY) ? seriesNames[id.slice(0, -MONTHLY.length)] : undefined);

/** Whether a series id (or each part of a joined one) has a name for people. */
export const hasSeriesName = (series: string): boolean =>
  series.split("+").every((part) => known(part) !== undefined);

/**
 * A series as a person reads it. The API joins an older series before a newer one with a "+"
 * ("STOXX50E_INDEX+GDAXI_INDEX": the DAX before the EURO STOXX 50 existed; "US10Y+US10Y_MONTHLY":
 * the same yield, monthly before the daily data): the newer's name, with the older's when it is
 * another series. A series without a name reads as `fallback` (by default "a series of our market
 * data"), never as its id.
 */
export function seriesName(
  i18n: I18n,
  series: string,
  fallback: MessageDescriptor = msg`a series of our market data`,
): string {
  const [newer = "", older] = series.split("+");
  const name = known(newer);
  if (!name) return i18n._(fallback);
  const newerName = i18n._(name);
  const olderName = older ? known(older) : undefined;
  if (!olderName || olderName === name) return newerName;
  const before = i18n._(olderName);
  return i18n._(msg`${newerName} (earlier: ${before})`);
}

/** The main series only ("STOXX50E_INDEX+GDAXI_INDEX" as "EURO STOXX 50"), for running text. */
export function mainSeriesName(
  i18n: I18n,
  series: string,
  fallback: MessageDescriptor = msg`a series of our market data`,
): string {
  return seriesName(i18n, series.split("+")[0] ?? "", fallback);
}
