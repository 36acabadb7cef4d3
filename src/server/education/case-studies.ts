/**
 * Case studies' figures (docs/education.md, "Case studies"): each portfolio of a case study is
 * valued by the engine's backtest on the market data at request time, so a figure is never out of
 * step with the engine or the data.
 *
 * - The window is the episode's (its first and last calendar days, at or before each date) when
 *   every holding has a symbol with prices over all of it. Otherwise (the simulated market, or data
 *   that starts later) the figures are computed on the latest window of as many trading days that
 *   the data covers, and the answer says which dates and which data (`data.episode` false).
 * - A holding lists symbols in order of preference; the first with prices over the window is used.
 * - Days are the market calendar's days on which at least one chosen symbol has a close; a symbol
 *   without a close that day keeps its last one (a return of 0). Returns are in each instrument's
 *   own currency (a case study compares instruments of one currency).
 */
import { backtest } from "../../engine/backtest.ts";
import { dayNumber, isoDate } from "../../engine/dates.ts";
import type { Locale } from "../../contract/common.ts";
import type { CaseStudy, CaseStudyFigures, CaseStudyFile } from "../../contract/education.ts";
import type { MarketView } from "../market/market-view.ts";
import { lastIndexOf, type MarketSnapshot } from "../market/snapshot.ts";

/** Points of a case study's chart path, at most. */
export const PATH_POINTS = 120;

/** Monday-to-Friday days from one ISO day to another, both included. */
export function weekdaysBetween(from: string, to: string): number {
  let count = 0;
  for (let d = dayNumber(from); d <= dayNumber(to); d++) {
    const weekday = new Date(d * 86_400_000).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

/** Whether an asset has a close at or before `a` and is still listed at `b`. */
const covers = (s: MarketSnapshot, i: number, a: number, b: number) =>
  s.first[i]! >= 0 && s.first[i]! <= a && s.last[i]! >= b;

/** The symbol of each holding of each portfolio over [a, b], or null when one has none. */
function chooseSymbols(
  s: MarketSnapshot,
  file: CaseStudyFile,
  a: number,
  b: number,
): number[][] | null {
  const chosen: number[][] = [];
  for (const p of file.portfolios) {
    const row: number[] = [];
    for (const h of p.holdings) {
      const i = h.symbols
        .map((sym) => s.index.get(sym))
        .find((i) => i !== undefined && covers(s, i, a, b));
      if (i === undefined) return null;
      row.push(i);
    }
    chosen.push(row);
  }
  return chosen;
}

export interface CaseStudyWindow {
  /** Calendar indices of the first and last day. */
  readonly a: number;
  readonly b: number;
  readonly episode: boolean;
  /** Snapshot index of each holding's symbol, per portfolio. */
  readonly symbols: number[][];
}

/** The window a case study is computed on (see the file's comment), or null without data. */
export function caseStudyWindow(view: MarketView, file: CaseStudyFile): CaseStudyWindow | null {
  const s = view.snapshot;
  if (view.todayIndex < 1) return null;
  const a = s.indexAtOrBefore(dayNumber(file.period.from));
  const b = Math.min(s.indexAtOrBefore(dayNumber(file.period.to)), view.todayIndex);
  const near = (index: number, iso: string) =>
    index >= 0 && dayNumber(iso) - s.calendar[index]! <= 7;
  if (near(a, file.period.from) && near(b, file.period.to) && b - a >= 2) {
    const symbols = chooseSymbols(s, file, a, b);
    if (symbols) return { a, b, episode: true, symbols };
  }
  // Not covered: the latest window of as many trading days the data has for every holding.
  const length = Math.max(2, weekdaysBetween(file.period.from, file.period.to) - 1);
  const end = view.todayIndex;
  for (let start = Math.max(0, end - length); start < end - 1; start += Math.max(1, length >> 3)) {
    const symbols = chooseSymbols(s, file, start, end);
    if (symbols) return { a: start, b: end, episode: false, symbols };
  }
  return null;
}

/** Values one portfolio of a case study over a window with the engine's backtest. */
export function valuePortfolio(
  s: MarketSnapshot,
  window: CaseStudyWindow,
  symbols: readonly number[],
  weights: readonly number[],
  rebalancing: CaseStudyFile["rebalancing"],
) {
  const T = s.calendar.length;
  const n = symbols.length;
  const last = symbols.map((i) => s.closes[i * T + lastIndexOf(s, i, window.a)]!);
  const days: number[] = [s.calendar[window.a]!];
  const rows: number[][] = [];
  for (let k = window.a + 1; k <= window.b; k++) {
    if (!symbols.some((i) => !Number.isNaN(s.closes[i * T + k]!))) continue;
    const row: number[] = [];
    for (let j = 0; j < n; j++) {
      const price = s.closes[symbols[j]! * T + k]!;
      if (Number.isNaN(price)) row.push(0);
      else {
        row.push(price / last[j]! - 1);
        last[j] = price;
      }
    }
    rows.push(row);
    days.push(s.calendar[k]!);
  }
  const data = new Float64Array(rows.length * n);
  rows.forEach((row, t) => row.forEach((r, j) => (data[t * n + j] = r)));
  return {
    dates: Int32Array.from(days),
    result: backtest({
      panel: { assets: n, observations: rows.length, data },
      weights: Float64Array.from(weights),
      dates: Int32Array.from(days),
      rebalancing,
      initialValue: 100,
    }),
  };
}

/** At most `points` evenly spaced points of a path, its first and last always in. */
export function thinPath(dates: Int32Array, values: Float64Array, points = PATH_POINTS) {
  const t = values.length;
  const step = Math.max(1, (t - 1) / (points - 1));
  const out: { date: string; value: number }[] = [];
  for (let x = 0; Math.round(x) < t - 1; x += step) {
    const k = Math.round(x);
    out.push({ date: isoDate(dates[k]!), value: values[k]! });
  }
  out.push({ date: isoDate(dates[t - 1]!), value: values[t - 1]! });
  return out;
}

/** A case study in one language with its figures computed on the market as of now. */
export function caseStudyOf(view: MarketView, file: CaseStudyFile, lang: Locale): CaseStudy {
  const text = file.text[lang];
  const s = view.snapshot;
  const window = caseStudyWindow(view, file);
  const portfolios: CaseStudyFigures[] = window
    ? file.portfolios.map((p, pi) => {
        const symbols = window.symbols[pi]!;
        const weights = p.holdings.map((h) => h.weight);
        const { dates, result } = valuePortfolio(s, window, symbols, weights, file.rebalancing);
        return {
          key: p.key,
          label: p.label[lang],
          holdings: symbols.map((i, j) => ({
            symbol: s.assets[i]!.symbol,
            name: s.assets[i]!.name,
            currency: s.assets[i]!.currency,
            weight: weights[j]!,
          })),
          performance: { ...result.performance },
          path: thinPath(dates, result.values),
        };
      })
    : [];
  return {
    id: file.id,
    slug: file.slug[lang],
    title: text.title,
    summary: text.summary,
    user: text.user,
    pro: text.pro,
    terms: file.terms,
    rebalancing: file.rebalancing,
    period: file.period,
    data: {
      source: view.source,
      from: window ? isoDate(s.calendar[window.a]!) : null,
      to: window ? isoDate(s.calendar[window.b]!) : null,
      episode: window?.episode ?? false,
    },
    portfolios,
  };
}
