/**
 * Calendar-year returns of a daily return series on its calendar. Formulas: docs/analytics.md,
 * "Portfolio history".
 */
import { isWeekend, monthKey } from "../dates.ts";
import { EngineError } from "../errors.ts";

export interface CalendarYear {
  readonly year: number;
  /** Index of the year's first return (the move from dates[first] to dates[first + 1]). */
  readonly first: number;
  /** Index of the year's last return. */
  readonly last: number;
  /** prod (1 + r_t) - 1 over the year's returns. */
  readonly return: number;
  /**
   * The history does not cover the whole year: it starts inside it (its first close is in the
   * year, so the move from the previous year's last close is missing), or it ends before the
   * year's last weekday.
   */
  readonly partial: boolean;
}

const MS_PER_DAY = 86_400_000;

export const yearOf = (day: number): number => Math.floor(monthKey(day) / 12);

/** The last weekday (Monday to Friday) of a year, as a day number. */
export function lastWeekdayOfYear(year: number): number {
  let day = Date.UTC(year, 11, 31) / MS_PER_DAY;
  while (isWeekend(day)) day--;
  return day;
}

/**
 * One row per year with at least one return: a return belongs to the year of the day it ends on
 * (dates[t + 1]), so a year compounds from the previous year's last close to its own last close.
 */
export function calendarYears(dates: Int32Array, returns: Float64Array): CalendarYear[] {
  const t = returns.length;
  if (dates.length !== t + 1)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `calendarYears: ${dates.length} dates for ${t} returns (needs ${t + 1})`,
    );
  const out: CalendarYear[] = [];
  let s = 0;
  while (s < t) {
    const year = yearOf(dates[s + 1]!);
    let growth = 1;
    let e = s;
    for (; e < t && yearOf(dates[e + 1]!) === year; e++) {
      const r = returns[e]!;
      if (!(r >= -1 && r < Infinity))
        throw new EngineError("INVALID_INPUT", `calendarYears: return ${r} at ${e}`);
      growth *= 1 + r;
    }
    const partial = yearOf(dates[s]!) === year || (e === t && dates[t]! < lastWeekdayOfYear(year));
    out.push({ year, first: s, last: e - 1, return: growth - 1, partial });
    s = e;
  }
  return out;
}
