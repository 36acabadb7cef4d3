/**
 * From price series with their own calendars and currencies to one returns panel in the
 * portfolio's currency.
 *
 * Holiday rule (docs/analytics.md, "Alignment"): the calendar is the union of the weekdays on
 * which at least one of the assets traded, from the first common date (the latest first date of
 * the assets, and of the EUR/USD series when an asset needs converting) to the last common date
 * (the earliest last date). On a day its market is closed an asset's price carries forward, so its
 * return that day is 0 and the move is in the next day it trades. Weekend rows (crypto) are not
 * calendar days: a crypto weekend move is in its Monday return. EUR/USD carries forward the same
 * way (last rate on or before the day).
 */
import { indexOnOrBefore, isWeekend } from "./dates.ts";
import { EngineError } from "./errors.ts";
import type { ReturnsPanel } from "./panel.ts";

export type Currency = "EUR" | "USD";

export interface PriceSeries {
  /** Ascending day numbers (see dates.ts). */
  readonly dates: Int32Array;
  /** Closing prices (adjusted), > 0. */
  readonly prices: Float64Array;
  /** Currency the prices are quoted in. */
  readonly currency: Currency;
}

/** EUR/USD as quoted in fx/EURUSD.csv: USD per 1 EUR. */
export interface FxSeries {
  readonly dates: Int32Array;
  readonly rates: Float64Array;
}

export interface AlignOptions {
  /** The portfolio's currency; every price is converted into it. */
  readonly currency: Currency;
  /** Needed when an asset is quoted in the other currency. */
  readonly fx?: FxSeries;
  /** Optional first and last day of the window (day numbers), inside the common range. */
  readonly from?: number;
  readonly to?: number;
}

export interface AlignedReturns {
  /** Calendar days; returns[t] is the move from dates[t] to dates[t + 1]. */
  readonly dates: Int32Array;
  /** Returns in the portfolio currency (observations = dates.length - 1). */
  readonly panel: ReturnsPanel;
  /** Prices in the portfolio currency on the calendar, row-major dates x assets. */
  readonly prices: Float64Array;
  /**
   * Daily return of the other currency measured in the portfolio currency (USD in EUR for a
   * EUR portfolio), on the same observations; zeros when no asset is foreign.
   */
  readonly fxReturns: Float64Array;
  /** 1 for an asset quoted in the other currency. */
  readonly foreign: Uint8Array;
}

function checkSeries(s: PriceSeries, k: number): void {
  const n = s.dates.length;
  if (n === 0 || s.prices.length !== n)
    throw new EngineError("INVALID_INPUT", `series ${k}: ${n} dates and ${s.prices.length} prices`);
  for (let t = 0; t < n; t++) {
    if (!(s.prices[t]! > 0 && s.prices[t]! < Infinity))
      throw new EngineError("INVALID_INPUT", `series ${k}: price ${s.prices[t]} at row ${t}`);
    if (t > 0 && !(s.dates[t]! > s.dates[t - 1]!))
      throw new EngineError(
        "INVALID_INPUT",
        `series ${k}: dates not strictly ascending at row ${t}`,
      );
  }
}

/** Value of a level series (price, rate) on `day`: the last value on or before it. */
export function valueOnOrBefore(dates: Int32Array, values: Float64Array, day: number): number {
  const k = indexOnOrBefore(dates, day);
  if (k < 0) throw new EngineError("NO_DATA", `no value on or before day ${day}`);
  return values[k]!;
}

/**
 * Price in `to` currency of a price quoted in `from` currency, given EUR/USD (USD per EUR).
 */
export function convertPrice(price: number, from: Currency, to: Currency, eurUsd: number): number {
  if (from === to) return price;
  return from === "USD" ? price / eurUsd : price * eurUsd;
}

/** Aligns price series (see the holiday rule above) and returns their daily returns. */
export function alignReturns(
  series: readonly PriceSeries[],
  options: AlignOptions,
): AlignedReturns {
  const n = series.length;
  if (n === 0) throw new EngineError("NO_ASSETS", "alignReturns: no price series");
  series.forEach(checkSeries);
  const foreign = new Uint8Array(n);
  let anyForeign = false;
  let start = -Infinity;
  let end = Infinity;
  for (let i = 0; i < n; i++) {
    const s = series[i]!;
    foreign[i] = s.currency === options.currency ? 0 : 1;
    anyForeign ||= foreign[i] === 1;
    start = Math.max(start, s.dates[0]!);
    end = Math.min(end, s.dates[s.dates.length - 1]!);
  }
  const fx = options.fx;
  if (anyForeign) {
    if (!fx || fx.dates.length === 0)
      throw new EngineError(
        "NO_DATA",
        "alignReturns: an asset needs EUR/USD and no fx series was given",
      );
    checkSeries({ dates: fx.dates, prices: fx.rates, currency: "USD" }, -1);
    start = Math.max(start, fx.dates[0]!);
  }
  if (options.from !== undefined) start = Math.max(start, options.from);
  if (options.to !== undefined) end = Math.min(end, options.to);
  if (!(start <= end))
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      "alignReturns: the series have no common date range",
    );

  // Union of weekday trading days in [start, end]; every asset has a price on or before each.
  const days = new Set<number>();
  for (const s of series) {
    const from = indexOnOrBefore(s.dates, start - 1) + 1;
    for (let t = from; t < s.dates.length; t++) {
      const d = s.dates[t]!;
      if (d > end) break;
      if (!isWeekend(d)) days.add(d);
    }
  }
  const dates = Int32Array.from([...days].sort((a, b) => a - b));
  const tDays = dates.length;
  if (tDays < 2)
    throw new EngineError("NOT_ENOUGH_HISTORY", "alignReturns: fewer than two common trading days");

  const prices = new Float64Array(tDays * n);
  const fxOnDay = new Float64Array(tDays);
  if (anyForeign && fx) {
    let k = indexOnOrBefore(fx.dates, dates[0]!);
    for (let t = 0; t < tDays; t++) {
      while (k + 1 < fx.dates.length && fx.dates[k + 1]! <= dates[t]!) k++;
      fxOnDay[t] = fx.rates[k]!;
    }
  }
  for (let i = 0; i < n; i++) {
    const s = series[i]!;
    let k = indexOnOrBefore(s.dates, dates[0]!);
    for (let t = 0; t < tDays; t++) {
      while (k + 1 < s.dates.length && s.dates[k + 1]! <= dates[t]!) k++;
      const local = s.prices[k]!;
      prices[t * n + i] = foreign[i]
        ? convertPrice(local, s.currency, options.currency, fxOnDay[t]!)
        : local;
    }
  }

  const obs = tDays - 1;
  const data = new Float64Array(obs * n);
  const fxReturns = new Float64Array(obs);
  for (let t = 0; t < obs; t++) {
    for (let i = 0; i < n; i++) data[t * n + i] = prices[(t + 1) * n + i]! / prices[t * n + i]! - 1;
    if (anyForeign) {
      // Value of one unit of the other currency in the portfolio currency.
      const before = options.currency === "EUR" ? 1 / fxOnDay[t]! : fxOnDay[t]!;
      const after = options.currency === "EUR" ? 1 / fxOnDay[t + 1]! : fxOnDay[t + 1]!;
      fxReturns[t] = after / before - 1;
    }
  }
  return { dates, panel: { assets: n, observations: obs, data }, prices, fxReturns, foreign };
}

/**
 * One series from an older and a newer one: the older rows dated before the newer's first date,
 * then the newer (e.g. monthly EUR/USD before 2003-12 and the daily rates after, or US10Y_MONTHLY
 * before the daily US10Y). Levels are not rescaled.
 */
export function spliceSeries(
  older: { readonly dates: Int32Array; readonly values: Float64Array },
  newer: { readonly dates: Int32Array; readonly values: Float64Array },
): { dates: Int32Array; values: Float64Array } {
  if (newer.dates.length === 0) return { dates: older.dates.slice(), values: older.values.slice() };
  const cut = indexOnOrBefore(older.dates, newer.dates[0]! - 1) + 1;
  const dates = new Int32Array(cut + newer.dates.length);
  const values = new Float64Array(cut + newer.dates.length);
  dates.set(older.dates.subarray(0, cut));
  values.set(older.values.subarray(0, cut));
  dates.set(newer.dates, cut);
  values.set(newer.values, cut);
  return { dates, values };
}

/**
 * An index chained from an older one before the newer starts: the older levels rescaled so that
 * they meet the newer on its first date (older value on or before it), so the returns of the
 * chained series are the older index's returns before that date and the newer's after (e.g. the
 * DAX before the EURO STOXX 50 starts in 2007-03). Without an older value on or before the newer's
 * first date, the newer is returned alone.
 */
export function chainIndex(
  older: { readonly dates: Int32Array; readonly values: Float64Array },
  newer: { readonly dates: Int32Array; readonly values: Float64Array },
): { dates: Int32Array; values: Float64Array } {
  if (newer.dates.length === 0) return { dates: older.dates.slice(), values: older.values.slice() };
  const meet = indexOnOrBefore(older.dates, newer.dates[0]!);
  if (meet < 0) return { dates: newer.dates.slice(), values: newer.values.slice() };
  const scale = newer.values[0]! / older.values[meet]!;
  const spliced = spliceSeries(
    { dates: older.dates, values: older.values.map((v) => v * scale) },
    newer,
  );
  return spliced;
}
