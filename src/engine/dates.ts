/**
 * Dates as day numbers (days since 1970-01-01, UTC) in Int32Array: compact, comparable with `<`,
 * and free of time zones. ISO strings only at the edges.
 */
import { EngineError } from "./errors.ts";

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2008-10-09" -> day number. */
export function dayNumber(iso: string): number {
  const m = ISO_DATE.exec(iso);
  if (!m) throw new EngineError("INVALID_INPUT", `not an ISO date (YYYY-MM-DD): "${iso}"`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const day = ms / MS_PER_DAY;
  if (isoDate(day) !== iso) throw new EngineError("INVALID_INPUT", `not a calendar date: "${iso}"`);
  return day;
}

/** Day number -> "2008-10-09". */
export function isoDate(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function isWeekend(day: number): boolean {
  const w = weekday(day);
  return w === 0 || w === 6;
}

/** Year * 12 + month index (0-11) of a day number: equal for two days of the same month. */
export function monthKey(day: number): number {
  const d = new Date(day * MS_PER_DAY);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/**
 * Index of the last date on or before `day` in ascending `dates`, or -1 when every date is later
 * (binary search).
 */
export function indexOnOrBefore(dates: Int32Array, day: number): number {
  let lo = 0;
  let hi = dates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
