/**
 * What a portfolio's past is compared with (issue 27): one of the market's indices and funds, or
 * by default the market of the portfolio's currency (the what-if's `market` factor: S&P 500 for
 * USD, EURO STOXX 50 chained to the DAX for EUR), as daily returns in the portfolio's currency on
 * the holdings' calendar.
 */
import type { BenchmarkChoice } from "../../contract/past-performance.ts";
import { dayNumber, indexOnOrBefore } from "../../engine/dates.ts";
import type { BenchmarkReturns } from "../../engine/history/past-performance.ts";
import { convertPrice, type Currency, type FxSeries } from "../../engine/returns.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { hasEurUsd, holdingProblem } from "../market/holdable.ts";
import type { MarketView } from "../market/market-view.ts";
import { shiftDays, STALE_AFTER_DAYS } from "../market/repository.ts";
import { isoOf, lastIndexOf, seriesOf } from "../market/snapshot.ts";
import { FACTOR_SOURCES, marketIndexAt } from "./factors.ts";

/** Kinds of instrument a portfolio can be compared with: indices and funds (cash indices too). */
const BENCHMARK_KINDS = ["index", "etf", "cash"] as const;

/** The indices of the markets of the currencies (the what-if's `market` factor). */
const MARKET_INDICES = new Set(
  Object.values(FACTOR_SOURCES).flatMap((f) =>
    f.market.flatMap((c) => [c.series, ...(c.older ? [c.older] : [])]),
  ),
);

/**
 * The indices and funds of the market a portfolio of `currency` can be compared with: with an
 * asset class (which leaves out the VIX, a volatility index in points) or one of the markets'
 * indices, in a currency EUR/USD converts, with a price in the last STALE_AFTER_DAYS days;
 * indices first, then funds, each by name.
 */
export function benchmarkChoices(view: MarketView, currency: Currency): BenchmarkChoice[] {
  if (!view.today) return [];
  const s = view.snapshot;
  const eurUsd = hasEurUsd(view);
  const staleBefore = shiftDays(view.today, -STALE_AFTER_DAYS);
  const out: BenchmarkChoice[] = [];
  s.assets.forEach((a, i) => {
    const kind = BENCHMARK_KINDS.indexOf(a.kind as (typeof BENCHMARK_KINDS)[number]);
    if (kind < 0 || !(a.assetClass || MARKET_INDICES.has(a.symbol))) return;
    if (holdingProblem(a, currency, eurUsd) !== null) return;
    const last = lastIndexOf(s, i, view.todayIndex);
    if (last < 0 || isoOf(s, last) < staleBefore) return;
    out.push({
      series: a.symbol,
      name: a.name,
      kind: a.kind,
      assetClass: a.assetClass,
      currency: a.currency,
    });
  });
  const rank = (c: BenchmarkChoice) =>
    BENCHMARK_KINDS.indexOf(c.kind as (typeof BENCHMARK_KINDS)[number]);
  return out.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, "en"));
}

/** A chosen series that is not among the choices: 400 UNKNOWN_BENCHMARK, naming it at `path`. */
export function requireBenchmarkChoice(
  choices: readonly BenchmarkChoice[],
  series: string,
  path: string,
): BenchmarkChoice {
  const choice = choices.find((c) => c.series === series);
  if (!choice) throw new ApiFailure(400, "UNKNOWN_BENCHMARK", [{ path, message: series }]);
  return choice;
}

/** A benchmark's levels in the currency they are quoted in, with what the answer says of it. */
export interface BenchmarkLevels extends BenchmarkChoice {
  readonly chosen: boolean;
  readonly dates: Int32Array;
  readonly values: Float64Array;
}

/**
 * The chosen series' levels (whole history up to the market's today), or the market of the
 * currency when `series` is null; null when the market has neither.
 */
export function benchmarkLevels(
  view: MarketView,
  currency: Currency,
  series: string | null,
): BenchmarkLevels | null {
  const s = view.snapshot;
  if (view.todayIndex < 0) return null;
  const describe = (symbol: string) => {
    const a = s.assets[s.index.get(symbol)!]!;
    return { name: a.name, kind: a.kind, assetClass: a.assetClass, currency: a.currency };
  };
  if (series !== null) {
    const i = s.index.get(series);
    if (i === undefined) return null;
    const levels = seriesOf(s, i, Number.NEGATIVE_INFINITY, view.todayIndex);
    return { series, chosen: true, ...describe(series), ...levels };
  }
  const market = marketIndexAt(view, currency);
  if (!market) return null;
  // "STOXX50E_INDEX+GDAXI_INDEX": named after the index of today, quoted in the currency.
  const main = market.series.split("+")[0]!;
  return {
    series: market.series,
    chosen: false,
    ...describe(main),
    currency,
    dates: market.dates,
    values: market.values,
  };
}

/**
 * The benchmark's daily returns on a calendar (`dates`: observations + 1 days), in `currency`:
 * its level on or before each day (carried forward, as the holdings' prices are), converted with
 * EUR/USD on or before the day when it is quoted in the other currency, from the first day it has
 * a level (and a rate). Null when it has none before the calendar's last day.
 */
export function benchmarkReturnsOn(
  levels: Pick<BenchmarkLevels, "dates" | "values" | "currency">,
  currency: Currency,
  fx: FxSeries | null,
  dates: Int32Array,
): BenchmarkReturns | null {
  const t = dates.length - 1;
  if (levels.dates.length === 0) return null;
  const foreign = levels.currency !== currency;
  if (foreign && (!fx || fx.dates.length === 0)) return null;
  let first = levels.dates[0]!;
  if (foreign) first = Math.max(first, fx!.dates[0]!);
  let start = 0;
  while (start <= t && dates[start]! < first) start++;
  if (start >= t) return null;
  const prices = new Float64Array(t - start + 1);
  let k = indexOnOrBefore(levels.dates, dates[start]!);
  let f = foreign ? indexOnOrBefore(fx!.dates, dates[start]!) : -1;
  for (let d = start; d <= t; d++) {
    const day = dates[d]!;
    while (k + 1 < levels.dates.length && levels.dates[k + 1]! <= day) k++;
    let price = levels.values[k]!;
    if (foreign) {
      while (f + 1 < fx!.dates.length && fx!.dates[f + 1]! <= day) f++;
      price = convertPrice(price, levels.currency as Currency, currency, fx!.rates[f]!);
    }
    prices[d - start] = price;
  }
  const returns = new Float64Array(t - start);
  for (let j = 0; j < returns.length; j++) returns[j] = prices[j + 1]! / prices[j]! - 1;
  return { start, returns };
}

/**
 * The monitoring's comparison (issue 27): the benchmark's return since the first of `isoDates`
 * (the day the portfolio's valuations start) on each of them, in `currency`, null before its first
 * level; the stored `series` when it is among the choices, else the market of the currency. Null
 * when the market has neither or fewer than two days are given.
 */
export function benchmarkSince(
  view: MarketView,
  currency: Currency,
  series: string | null,
  isoDates: readonly string[],
): { levels: BenchmarkLevels; returns: (number | null)[] } | null {
  if (isoDates.length < 2) return null;
  const known =
    series !== null && benchmarkChoices(view, currency).some((c) => c.series === series);
  const levels = benchmarkLevels(view, currency, known ? series : null);
  if (!levels) return null;
  const first = isoDates[0]!;
  const fx = hasEurUsd(view) ? fxOf(view, first) : null;
  const dates = Int32Array.from(isoDates, dayNumber);
  const bench = benchmarkReturnsOn(levels, currency, fx, dates);
  if (!bench) return null;
  const returns: (number | null)[] = isoDates.map(() => null);
  let growth = 1;
  returns[bench.start] = 0;
  bench.returns.forEach((r, j) => {
    growth *= 1 + r;
    returns[bench.start + j + 1] = growth - 1;
  });
  return { levels, returns };
}

/** EUR/USD from a little before `from` (the rate on or before its first day) to the market's today. */
function fxOf(view: MarketView, from: string): FxSeries | null {
  const i = view.snapshot.index.get("EURUSD");
  if (i === undefined || view.todayIndex < 0) return null;
  const s = seriesOf(view.snapshot, i, dayNumber(shiftDays(from, -14)), view.todayIndex);
  return s.dates.length ? { dates: s.dates, rates: s.values } : null;
}
