import { chainIndex, spliceSeries, type Currency, type FxSeries } from "../../engine/returns.ts";
import {
  factorChanges,
  yearOnYearInflation,
  type FactorSeries,
  type WhatIfFactor,
} from "../../engine/whatif/factors.ts";
import type { Db } from "../db/database.ts";
import { marketView, type MarketView } from "../market/market-view.ts";
import { seriesOf } from "../market/snapshot.ts";

interface Levels {
  dates: Int32Array;
  values: Float64Array;
}

/**
 * The series each what-if factor is measured with, by portfolio currency (docs/analytics.md,
 * "What-if"): the first candidate with data wins; a "+" joins an older series before a newer one
 * (indices chained at the join, rates spliced).
 */
interface FactorSource {
  readonly series: string;
  readonly older?: string;
}

export const FACTOR_SOURCES: Record<Currency, Record<WhatIfFactor, readonly FactorSource[]>> = {
  USD: {
    market: [{ series: "GSPC_INDEX" }],
    rates: [{ series: "US10Y", older: "US10Y_MONTHLY" }],
    crypto: [{ series: "BTC-USD" }],
    commodities: [{ series: "BRENT_USD" }, { series: "DBC" }],
    inflation: [{ series: "US_CPI" }],
  },
  EUR: {
    market: [{ series: "STOXX50E_INDEX", older: "GDAXI_INDEX" }],
    rates: [{ series: "DE10Y" }],
    crypto: [{ series: "BTC-USD" }],
    commodities: [{ series: "BRENT_USD" }, { series: "DBC" }],
    inflation: [{ series: "EA_HICP" }],
  },
};

/** Which factors read macro series (rates, inflation) rather than prices. */
const FROM_MACRO: Record<WhatIfFactor, boolean> = {
  market: false,
  rates: true,
  crypto: false,
  commodities: false,
  inflation: true,
};

export interface LoadedFactors {
  readonly series: FactorSeries[];
  /** The series behind each factor, as the response names them ("STOXX50E_INDEX+GDAXI_INDEX"). */
  readonly sources: { factor: WhatIfFactor; series: string }[];
}

/** The what-if factor series of a portfolio currency, whole history, in two queries. */
export async function loadFactors(db: Db, currency: Currency): Promise<LoadedFactors> {
  return factorsAt(await marketView(db), currency);
}

/** loadFactors on a market view (also in the analytics workers). */
export function factorsAt(view: MarketView, currency: Currency): LoadedFactors {
  const plan = FACTOR_SOURCES[currency];
  const priceNames: string[] = [];
  const macroNames: string[] = [];
  for (const [factor, candidates] of Object.entries(plan) as [
    WhatIfFactor,
    readonly FactorSource[],
  ][])
    for (const c of candidates)
      (FROM_MACRO[factor] ? macroNames : priceNames).push(c.series, ...(c.older ? [c.older] : []));
  const levels = new Map<string, Levels>();
  for (const name of priceNames) {
    const i = view.snapshot.index.get(name);
    if (i === undefined || view.todayIndex < 0) continue;
    levels.set(name, seriesOf(view.snapshot, i, Number.NEGATIVE_INFINITY, view.todayIndex));
  }
  for (const name of macroNames) {
    const m = macroUpToToday(view, name);
    if (m) levels.set(name, m);
  }
  const series: FactorSeries[] = [];
  const sources: LoadedFactors["sources"] = [];
  for (const [factor, candidates] of Object.entries(plan) as [
    WhatIfFactor,
    readonly FactorSource[],
  ][]) {
    for (const c of candidates) {
      const newer = levels.get(c.series);
      if (!newer || newer.dates.length < 2) continue;
      const older = c.older ? levels.get(c.older) : undefined;
      let joined: Levels = newer;
      if (older && older.dates.length > 0 && older.dates[0]! < newer.dates[0]!)
        joined = FROM_MACRO[factor] ? spliceSeries(older, newer) : chainIndex(older, newer);
      const values =
        factor === "inflation" ? yearOnYearInflation(joined.dates, joined.values) : joined;
      if (values.dates.length < 2) continue;
      series.push({ factor, dates: values.dates, values: values.values });
      sources.push({
        factor,
        series: joined === newer ? c.series : `${c.series}+${c.older}`,
      });
      break;
    }
  }
  return { series, sources };
}

/** A macro series up to the market's today. */
function macroUpToToday(view: MarketView, name: string): Levels | null {
  const m = view.snapshot.macroByName.get(name);
  if (!m || view.todayIndex < 0) return null;
  const today = view.snapshot.calendar[view.todayIndex]!;
  let n = m.dates.length;
  while (n > 0 && m.dates[n - 1]! > today) n--;
  return { dates: m.dates.subarray(0, n), values: m.values.subarray(0, n) };
}

/** EUR/USD for dates before the daily series: the monthly rates (fx/EURUSD_MONTHLY) spliced in. */
export async function extendFx(db: Db, daily: FxSeries | null): Promise<FxSeries | null> {
  return extendFxAt(await marketView(db), daily);
}

export function extendFxAt(view: MarketView, daily: FxSeries | null): FxSeries | null {
  const monthly = macroUpToToday(view, "EURUSD_MONTHLY");
  if (!monthly || monthly.dates.length === 0) return daily;
  if (!daily) return { dates: monthly.dates, rates: monthly.values };
  const s = spliceSeries(monthly, { dates: daily.dates, values: daily.rates });
  return { dates: s.dates, rates: s.values };
}

/** The index of a portfolio's market and its levels (whole history up to the market's today). */
export interface MarketIndex {
  /** The series, as the answers name them ("STOXX50E_INDEX+GDAXI_INDEX" when chained). */
  readonly series: string;
  readonly dates: Int32Array;
  readonly values: Float64Array;
}

/**
 * The index of the portfolio's market (docs/analytics.md, "Expected and required returns"): the
 * currency's stock market index, the what-if `market` factor and the backtests' benchmark (S&P
 * 500 for USD; EURO STOXX 50, chained to the DAX before 2007-03, for EUR). Both are quoted in the
 * portfolio's currency. Null when the market has none of the candidates.
 */
export function marketIndexAt(view: MarketView, currency: Currency): MarketIndex | null {
  if (view.todayIndex < 0) return null;
  const levelsOf = (name: string) => {
    const i = view.snapshot.index.get(name);
    return i === undefined
      ? null
      : seriesOf(view.snapshot, i, Number.NEGATIVE_INFINITY, view.todayIndex);
  };
  for (const c of FACTOR_SOURCES[currency].market) {
    const newer = levelsOf(c.series);
    if (!newer || newer.dates.length < 2) continue;
    const older = c.older ? levelsOf(c.older) : null;
    if (older && older.dates.length > 0 && older.dates[0]! < newer.dates[0]!) {
      const joined = chainIndex(older, newer);
      return { series: `${c.series}+${c.older}`, dates: joined.dates, values: joined.values };
    }
    return { series: c.series, dates: newer.dates, values: newer.values };
  }
  return null;
}

/**
 * Daily returns of the market index on a panel's calendar (`dates`: observations + 1 days), its
 * level carried forward like a price on a day it has none, for the last `days` observations; the
 * earlier observations are 0 (the estimators read only the window). Null when the index has no
 * level on or before the window's first day.
 */
export function marketReturnsOn(
  index: MarketIndex,
  dates: Int32Array,
  days: number,
): Float64Array | null {
  const observations = dates.length - 1;
  const n = Math.min(days, observations);
  if (n < 1) return null;
  const window = dates.subarray(observations - n);
  if (index.dates.length === 0 || index.dates[0]! > window[0]!) return null;
  const changes = factorChanges(
    [{ factor: "market", dates: index.dates, values: index.values }],
    window,
  );
  const out = new Float64Array(observations);
  out.set(changes.data, observations - n);
  return out;
}
