import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { Locale } from "../../contract/common.ts";
import type { ChangeUnit, HistoryRange, MarketQuote, WidgetId } from "../../contract/market.ts";
import { formatNumber } from "../../ui/format.ts";

/** How a close reads: indices and VIX in points, EUR/USD with four decimals, yields in percent. */
export function formatClose(
  value: number,
  quote: Pick<MarketQuote, "kind" | "currency">,
  locale: Locale,
): string {
  switch (quote.kind) {
    case "index":
      return formatNumber(value, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    case "fx":
      return formatNumber(value, locale, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
    case "rate":
      return formatNumber(value / 100, locale, {
        style: "percent",
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
    default:
      return formatNumber(value, locale, {
        style: "currency",
        currency: quote.currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
  }
}

/** A change with its sign: a percentage, or percentage points for yields ("+0.12 pp"). */
export function formatChange(
  value: number,
  unit: ChangeUnit,
  locale: Locale,
  pointsSuffix: string,
): string {
  if (unit === "points")
    return `${formatNumber(value, locale, {
      signDisplay: "exceptZero",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    })} ${pointsSuffix}`;
  return formatNumber(value, locale, {
    style: "percent",
    signDisplay: "exceptZero",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

export const widgetTitles: Record<WidgetId, MessageDescriptor> = {
  indices: msg`Indices`,
  volatility: msg`Volatility`,
  currencies: msg`Currencies`,
  commodities: msg`Commodities`,
  crypto: msg`Crypto`,
  yields: msg`10-year yields`,
};

export const ranges: readonly HistoryRange[] = ["1m", "3m", "6m", "1y", "3y", "5y", "max"];

/** Short labels of the range buttons. */
export const rangeShort: Record<HistoryRange, MessageDescriptor> = {
  "1m": msg({ message: "1M", comment: "Chart range button: one month" }),
  "3m": msg({ message: "3M", comment: "Chart range button: three months" }),
  "6m": msg({ message: "6M", comment: "Chart range button: six months" }),
  "1y": msg({ message: "1Y", comment: "Chart range button: one year" }),
  "3y": msg({ message: "3Y", comment: "Chart range button: three years" }),
  "5y": msg({ message: "5Y", comment: "Chart range button: five years" }),
  max: msg({ message: "Max", comment: "Chart range button: the whole history" }),
};

/** Spoken names of the ranges. */
export const rangeLong: Record<HistoryRange, MessageDescriptor> = {
  "1m": msg`1 month`,
  "3m": msg`3 months`,
  "6m": msg`6 months`,
  "1y": msg`1 year`,
  "3y": msg`3 years`,
  "5y": msg`5 years`,
  max: msg`All the history`,
};

export const kindNames: Record<string, MessageDescriptor> = {
  stock: msg`Stock`,
  etf: msg`Fund`,
  index: msg`Index`,
  crypto: msg`Cryptocurrency`,
  commodity: msg`Commodity`,
  fx: msg`Currency pair`,
  rate: msg`Bond yield`,
  cash: msg`Money market`,
};

/** GICS sectors of the stock universe; other names are shown as the data gives them. */
export const sectorNames: Record<string, MessageDescriptor> = {
  "Communication Services": msg`Communication services`,
  "Consumer Discretionary": msg`Consumer discretionary`,
  "Consumer Staples": msg`Consumer staples`,
  Energy: msg`Energy`,
  Financials: msg`Financials`,
  "Health Care": msg`Health care`,
  Industrials: msg`Industrials`,
  "Information Technology": msg`Information technology`,
  Materials: msg`Materials`,
  "Real Estate": msg`Real estate`,
  Utilities: msg`Utilities`,
};

export const regionNames: Record<string, MessageDescriptor> = {
  all: msg`All regions`,
  usa: msg`United States`,
  eu: msg`Euro area`,
};

/** Short names of the widgets' instruments, in the page's language (the data's names are long). */
export const instrumentNames: Record<string, MessageDescriptor> = {
  GSPC_INDEX: msg`S&P 500`,
  NDX_INDEX: msg`Nasdaq-100`,
  STOXX50E_INDEX: msg`EURO STOXX 50`,
  IBEX_INDEX: msg`IBEX 35`,
  GDAXI_INDEX: msg`DAX`,
  FCHI_INDEX: msg`CAC 40`,
  FTSEMIB_INDEX: msg`FTSE MIB`,
  VIX_INDEX: msg`VIX volatility index`,
  EURUSD: msg`EUR/USD`,
  GOLD_USD: msg`Gold`,
  GLD: msg`Gold (SPDR Gold Shares fund)`,
  BRENT_USD: msg`Brent crude oil`,
  "BTC-USD": msg`Bitcoin in US dollars`,
  "ETH-USD": msg`Ether in US dollars`,
  US10Y: msg`US 10-year Treasury yield`,
  DE10Y: msg`German 10-year Bund yield`,
};
