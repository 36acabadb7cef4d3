/**
 * Pure maths behind the charts: nice ticks, linear scales, histogram bins, donut arcs and the
 * grouping of small slices. No DOM, no React: everything here is unit-tested.
 */

export const TAU = 2 * Math.PI;

/** The finite numbers of a list (NaN and ±Infinity dropped). */
export function finite(values: ReadonlyArray<number>): number[] {
  return values.filter((v) => Number.isFinite(v));
}

/** [min, max] of the finite values, or null when there are none. */
export function extent(values: ReadonlyArray<number>): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : null;
}

/** A zero-width domain is widened so that a scale over it stays defined. */
export function widen(min: number, max: number): [number, number] {
  if (min < max) return [min, max];
  if (min > max) return [max, min];
  const pad = min === 0 ? 1 : Math.abs(min) * 0.1;
  return [min - pad, max + pad];
}

/** Rounds away the floating-point noise of `i * step` (0.30000000000000004 becomes 0.3). */
function clean(value: number, step: number): number {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const rounded = Number(value.toFixed(Math.min(decimals, 20)));
  return rounded === 0 ? 0 : rounded;
}

/** The step of 1, 2 or 5 times a power of ten nearest to splitting the span into `count` parts. */
export function tickStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  const factor =
    error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.SQRT2 ? 2 : 1;
  return factor * power;
}

export interface NiceTicks {
  /** The domain, widened to whole steps. */
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly ticks: number[];
}

/**
 * About `count` intervals of 1, 2 or 5 times a power of ten covering [min, max] (Heckbert's nice
 * numbers). An empty or one-point range is widened first; non-finite bounds give no ticks.
 */
export function niceTicks(min: number, max: number, count = 5): NiceTicks {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { min: 0, max: 1, step: 1, ticks: [] };
  const [lo, hi] = widen(min, max);
  const step = tickStep(hi - lo, count);
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(clean(i * step, step));
  return { min: clean(first * step, step), max: clean(last * step, step), step, ticks };
}

/** A linear map from `domain` to `range`; a zero-width domain maps to the middle of the range. */
export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d0 === d1) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (value) => r0 + (value - d0) * k;
}

/** Sturges' rule, kept between 1 and 50 bins. */
export function defaultBinCount(n: number): number {
  if (n <= 1) return 1;
  return Math.min(50, Math.max(1, Math.ceil(Math.log2(n) + 1)));
}

export interface Bin {
  readonly x0: number;
  readonly x1: number;
  readonly count: number;
}

/**
 * Counts the finite values into `bins` equal-width bins over `domain` (default: the values'
 * extent). Bins are [x0, x1) except the last, which also holds its upper edge; values outside the
 * domain are clamped into the end bins, so the counts always add up to the number of finite
 * values. All-equal values make one bin.
 */
export function histogram(
  values: ReadonlyArray<number>,
  bins?: number,
  domain?: readonly [number, number],
): Bin[] {
  const data = finite(values);
  const ext = domain ?? extent(data);
  if (!ext || data.length === 0) return [];
  const [lo, hi] = ext[0] <= ext[1] ? ext : [ext[1], ext[0]];
  if (lo === hi) return [{ x0: lo, x1: hi, count: data.length }];
  const n = Math.max(1, Math.floor(bins ?? defaultBinCount(data.length)));
  const width = (hi - lo) / n;
  const counts = new Array<number>(n).fill(0);
  for (const v of data) {
    const i = Math.min(n - 1, Math.max(0, Math.floor((v - lo) / width)));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts.map((count, i) => ({
    x0: lo + i * width,
    x1: i === n - 1 ? hi : lo + (i + 1) * width,
    count,
  }));
}

export interface Arc {
  readonly startAngle: number;
  readonly endAngle: number;
}

/**
 * Angles (radians, clockwise from twelve o'clock) of each value's share of the total. Values that
 * are not positive and finite get an empty arc. The arcs of a non-zero total cover exactly 2π.
 */
export function donutArcs(values: ReadonlyArray<number>): Arc[] {
  const positive = values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const total = positive.reduce((s, v) => s + v, 0);
  let angle = 0;
  let cumulative = 0;
  return positive.map((v) => {
    const start = angle;
    cumulative += v;
    // From the running total, so that the last arc ends at exactly 2π.
    angle = total > 0 ? (cumulative / total) * TAU : 0;
    return { startAngle: start, endAngle: angle };
  });
}

/** The point at `angle` (clockwise from twelve o'clock) on a circle. */
export function polar(cx: number, cy: number, r: number, angle: number): [number, number] {
  return [cx + r * Math.sin(angle), cy - r * Math.cos(angle)];
}

const fmt = (n: number) => {
  const s = n.toFixed(3).replace(/\.?0+$/, "");
  return s === "-0" ? "0" : s;
};

/** One SVG path command: a letter and its numbers, rounded to 3 decimals. */
const cmd = (command: string, ...numbers: number[]) => command + numbers.map(fmt).join(" ");

/**
 * SVG path of a ring sector between `start` and `end` (radians). A full turn is drawn as two half
 * arcs, since an SVG arc cannot start and end on the same point. An `inner` radius of 0 draws a pie
 * sector.
 */
export function arcPath(
  cx: number,
  cy: number,
  outer: number,
  inner: number,
  start: number,
  end: number,
): string {
  const sweep = end - start;
  if (!(sweep > 0)) return "";
  if (sweep >= TAU - 1e-9) {
    const mid = start + Math.PI;
    const ring = (r: number, dir: 0 | 1) => {
      const [ax, ay] = polar(cx, cy, r, start);
      const [bx, by] = polar(cx, cy, r, mid);
      return (
        cmd("M", ax, ay) +
        cmd("A", r, r, 0, 1, dir, bx, by) +
        cmd("A", r, r, 0, 1, dir, ax, ay) +
        "Z"
      );
    };
    return inner > 0 ? ring(outer, 1) + ring(inner, 0) : ring(outer, 1);
  }
  const large = sweep > Math.PI ? 1 : 0;
  const [x0, y0] = polar(cx, cy, outer, start);
  const [x1, y1] = polar(cx, cy, outer, end);
  const outerArc = cmd("M", x0, y0) + cmd("A", outer, outer, 0, large, 1, x1, y1);
  if (inner <= 0) return outerArc + cmd("L", cx, cy) + "Z";
  const [x2, y2] = polar(cx, cy, inner, end);
  const [x3, y3] = polar(cx, cy, inner, start);
  return outerArc + cmd("L", x2, y2) + cmd("A", inner, inner, 0, large, 0, x3, y3) + "Z";
}

export interface Slice {
  readonly key: string;
  readonly label: string;
  readonly value: number;
}

export interface GroupedSlice extends Slice {
  /** Fraction of the total, 0 to 1. */
  readonly share: number;
  readonly isOther: boolean;
}

export const OTHER_KEY = "__other__";

/**
 * The slices a donut can show: positive finite values, largest first; past `max` slices the
 * smallest are merged into one "other" slice labelled `otherLabel` (so at most `max` in all).
 */
export function groupSlices(
  slices: ReadonlyArray<Slice>,
  otherLabel: string,
  max = 10,
): GroupedSlice[] {
  const kept = slices
    .filter((s) => Number.isFinite(s.value) && s.value > 0)
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.value - a.s.value || a.i - b.i)
    .map(({ s }) => s);
  const total = kept.reduce((sum, s) => sum + s.value, 0);
  const limit = Math.max(1, Math.floor(max));
  const shown = kept.length > limit ? kept.slice(0, limit - 1) : kept;
  const rest = kept.length > limit ? kept.slice(limit - 1) : [];
  const result: GroupedSlice[] = shown.map((s) => ({
    key: s.key,
    label: s.label,
    value: s.value,
    share: s.value / total,
    isOther: false,
  }));
  if (rest.length > 0) {
    const value = rest.reduce((sum, s) => sum + s.value, 0);
    result.push({ key: OTHER_KEY, label: otherLabel, value, share: value / total, isOther: true });
  }
  return result;
}

/** About `count` evenly spread indices of a series of `n` points, always the first and the last. */
export function indexTicks(n: number, count = 5): number[] {
  if (n <= 0) return [];
  if (n === 1) return [0];
  const k = Math.max(2, Math.min(n, Math.floor(count)));
  const ticks: number[] = [];
  for (let i = 0; i < k; i++) {
    const index = Math.round((i * (n - 1)) / (k - 1));
    if (ticks[ticks.length - 1] !== index) ticks.push(index);
  }
  return ticks;
}

/**
 * The runs of consecutive finite points of a series, as [index, value] pairs, so that a line has a
 * gap where a value is missing instead of a drop to zero.
 */
export function segments(values: ReadonlyArray<number>): Array<Array<[number, number]>> {
  const runs: Array<Array<[number, number]>> = [];
  let run: Array<[number, number]> = [];
  values.forEach((v, i) => {
    if (Number.isFinite(v)) run.push([i, v]);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

/** A rough width of a label in SVG units: average glyph width ~0.6 em. */
export function textWidth(text: string, fontSize: number): number {
  return text.length * fontSize * 0.6;
}

/** Shortens a label to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

/**
 * Show every n-th of evenly spaced axis labels so that they do not overlap: the smallest n for
 * which the widest label (plus a gap) fits in its share of `available` width.
 */
export function labelStride(widths: ReadonlyArray<number>, available: number, gap = 8): number {
  if (widths.length <= 1) return 1;
  const widest = Math.max(...widths) + gap;
  const slot = available / (widths.length - 1);
  return Math.max(1, Math.ceil(widest / slot));
}

/**
 * How often to label ticks drawn at `positions` so that no two labels overlap, with the axes'
 * anchoring: the first label starts at its tick, the last ends at its tick, the others are centred
 * on theirs (a start-anchored first label reaches further right than `labelStride`'s even slots
 * assume). Every `stride`-th label is shown, from the first: the smallest stride with `gap` pixels
 * between each shown label and the next.
 */
export function anchoredLabelStride(
  positions: ReadonlyArray<number>,
  widths: ReadonlyArray<number>,
  gap = 8,
): number {
  const n = positions.length;
  if (n <= 1) return 1;
  const box = (i: number): [number, number] => {
    const p = positions[i] ?? 0;
    const w = widths[i] ?? 0;
    return i === 0 ? [p, p + w] : i === n - 1 ? [p - w, p] : [p - w / 2, p + w / 2];
  };
  for (let stride = 1; stride < n; stride++) {
    let fits = true;
    for (let i = 0; i + stride < n && fits; i += stride)
      fits = box(i)[1] + gap <= box(i + stride)[0];
    if (fits) return stride;
  }
  // Only the first label.
  return n;
}

/**
 * The scale of a meter comparing `value` with `limit`: from zero (or the lowest negative amount)
 * to `max` when given and above zero, else to a nice number at least 15% past the larger amount.
 */
export function gaugeDomain(value: number, limit: number, max?: number): [number, number] {
  const lo = Math.min(0, value, limit);
  if (max !== undefined && Number.isFinite(max) && max > lo) return [lo, max];
  const top = Math.max(value, limit, 0);
  if (top === lo) return [lo, lo + 1];
  return [lo, niceTicks(lo, lo + (top - lo) * 1.15, 4).max];
}

/** -0 (and the -0.000… a float sum leaves) as 0: a tick never reads "-0" or "-0.0 %". */
export function noNegativeZero(value: number): number {
  return value === 0 || Math.abs(value) < 1e-12 ? 0 : value;
}

/**
 * Whether values are drawn on a logarithmic scale: when none is negative and the positive ones
 * span more than two orders of magnitude (max / min > 100). Zeros are allowed (drawn on the floor).
 */
export function wantsLogScale(values: ReadonlyArray<number>): boolean {
  const data = finite(values);
  if (data.some((v) => v < 0)) return false;
  const ext = extent(data.filter((v) => v > 0));
  return ext !== null && ext[1] / ext[0] > 100;
}

const decade = (m: number, e: number) => Number((m * 10 ** e).toPrecision(12));

export interface LogTicks {
  readonly min: number;
  readonly max: number;
  readonly ticks: number[];
}

/**
 * Ticks of a log scale over the positive [min, max]: 1, 2 and 5 times the powers of ten when they
 * fit in room for `maxCount` evenly spaced ticks, else the powers of ten only, else every k-th
 * power of ten from the one at or below `min`. The domain is
 * widened to the ticks just outside the values, so that the first and last ticks bound the plot.
 */
export function logTicks(min: number, max: number, maxCount = 8): LogTicks {
  if (!(min > 0) || !(max > 0) || !Number.isFinite(min) || !Number.isFinite(max))
    return { min: 1, max: 10, ticks: [1, 10] };
  const [lo, hi] = min < max ? [min, max] : [min / 10, max * 10];
  const e0 = Math.floor(Math.log10(lo) + 1e-9);
  const e1 = Math.ceil(Math.log10(hi) - 1e-9);
  const limit = Math.max(2, Math.floor(maxCount));
  // 1-2-5 within the values' bounds.
  const candidates: number[] = [];
  for (let e = e0; e <= e1; e++) for (const m of [1, 2, 5]) candidates.push(decade(m, e));
  const below = candidates.filter((c) => c <= lo * (1 + 1e-9)).at(-1) ?? decade(1, e0);
  const above = candidates.find((c) => c >= hi * (1 - 1e-9)) ?? decade(1, e1);
  const oneTwoFive = candidates.filter((c) => c >= below && c <= above);
  // 1-2-5 ticks are unevenly spaced (the closest 0.9 of the mean): fewer of them fit.
  if (oneTwoFive.length <= Math.floor((limit - 1) * 0.9) + 1)
    return { min: below, max: above, ticks: oneTwoFive };
  // Powers of ten, every k-th so that at most `limit` fit.
  const decades = e1 - e0 + 1;
  const k = Math.max(1, Math.ceil((decades - 1) / (limit - 1)));
  const first = e0;
  const ticks: number[] = [];
  for (let e = first; ; e += k) {
    ticks.push(decade(1, e));
    if (e >= e1) break;
  }
  return { min: ticks[0] ?? lo, max: ticks.at(-1) ?? hi, ticks };
}

/** A log10 map from the positive `domain` to `range`; values at or below zero go to the floor. */
export function logScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): (value: number) => number {
  const l0 = Math.log10(domain[0]);
  const l1 = Math.log10(domain[1]);
  const lin = linearScale([l0, l1], range);
  return (value) => lin(value > 0 ? Math.max(l0, Math.log10(value)) : l0);
}

export interface ValueAxis {
  readonly kind: "linear" | "log";
  readonly min: number;
  readonly max: number;
  /** The linear step (0 on a log scale). */
  readonly step: number;
  readonly ticks: number[];
  readonly scale: (value: number) => number;
}

/**
 * The value (vertical) axis of a plot `length` pixels tall: log when the values span more than
 * two orders of magnitude (`wantsLogScale`, unless `log` is false), else nice linear ticks (with
 * zero when `zero`); as many ticks as fit with `spacing` pixels between two of them (at least 2).
 */
export function valueAxis(
  values: ReadonlyArray<number>,
  range: readonly [number, number],
  options: {
    readonly spacing: number;
    readonly zero?: boolean;
    readonly log?: boolean;
    /** About how many intervals at most (default 5). */
    readonly maxCount?: number;
    /** The tick's label: fewer ticks until no two read the same. */
    readonly label?: (value: number) => string;
  },
): ValueAxis {
  const length = Math.abs(range[1] - range[0]);
  const fit = Math.max(1, Math.floor(length / Math.max(1, options.spacing)));
  const most = Math.min(fit, options.maxCount ?? 5);
  const data = finite(values);
  if (options.log !== false && wantsLogScale(data)) {
    const ext = extent(data.filter((v) => v > 0)) ?? [1, 10];
    const log = logTicks(ext[0], ext[1], fit + 1);
    return {
      kind: "log",
      min: log.min,
      max: log.max,
      step: 0,
      ticks: log.ticks,
      scale: logScale([log.min, log.max], range),
    };
  }
  const ext = extent(options.zero ? [0, ...data] : data) ?? [0, 1];
  let nice = niceTicks(ext[0], ext[1], most);
  // niceTicks gives about `count` intervals: fewer until they are far enough apart.
  const label = options.label;
  const repeats = (ticks: number[]) =>
    label !== undefined && new Set(ticks.map((t) => label(noNegativeZero(t)))).size < ticks.length;
  for (
    let count = most - 1;
    count >= 1 && (nice.ticks.length - 1 > fit || repeats(nice.ticks));
    count--
  )
    nice = niceTicks(ext[0], ext[1], count);
  return {
    kind: "linear",
    min: nice.min,
    max: nice.max,
    step: nice.step,
    ticks: nice.ticks.map(noNegativeZero),
    scale: linearScale([nice.min, nice.max], range),
  };
}

/**
 * Nice linear ticks along a horizontal axis `length` pixels long whose labels, centred on their
 * ticks, never overlap: the most ticks (up to `maxCount` intervals) for which the widest label plus
 * `gap` fits between two ticks. `label` formats a tick given the step (its decimals may depend on
 * it); `measure` gives a label's width in pixels.
 */
export function fitHorizontalTicks(
  min: number,
  max: number,
  length: number,
  label: (value: number, step: number) => string,
  measure: (text: string) => number,
  { maxCount = 8, gap = 10 }: { readonly maxCount?: number; readonly gap?: number } = {},
): NiceTicks & { readonly labels: string[] } {
  let last: (NiceTicks & { labels: string[] }) | null = null;
  for (let count = Math.max(1, maxCount); count >= 1; count--) {
    const nice = niceTicks(min, max, count);
    const ticks = nice.ticks.map(noNegativeZero);
    const labels = ticks.map((t) => label(t, nice.step));
    last = { ...nice, ticks, labels };
    const spacing = ticks.length > 1 ? length / (ticks.length - 1) : length;
    const widest = Math.max(0, ...labels.map(measure));
    if (widest + gap <= spacing && new Set(labels).size === labels.length) return last;
  }
  return last ?? { ...niceTicks(min, max, 1), labels: [] };
}

/**
 * Whether labels centred on `positions` (pixels, any order) with the given widths leave at least
 * `gap` pixels between neighbours and stay within [from, to].
 */
export function labelsFit(
  labels: ReadonlyArray<{ readonly at: number; readonly width: number }>,
  from: number,
  to: number,
  gap = 4,
): boolean {
  const spans = labels
    .map((l) => [l.at - l.width / 2, l.at + l.width / 2] as const)
    .sort((a, b) => a[0] - b[0]);
  if (spans.length === 0) return true;
  if ((spans[0]?.[0] ?? 0) < from - 1e-6 || (spans.at(-1)?.[1] ?? 0) > to + 1e-6) return false;
  return spans.every((s, i) => i === 0 || s[0] >= (spans[i - 1]?.[1] ?? 0) + gap - 1e-6);
}

/** Most rows the hidden data table of a line chart holds (ten years of month ends). */
export const TABLE_ROWS_MAX = 130;

/**
 * The indices of the points a line chart's data table lists: every point when they are few;
 * otherwise the last point of each month (ISO dates), then of every n-th month, always with the
 * first and the last point. Ten years of daily closes as 2,500 rows made a page of three charts
 * slow to render and unusable with a screen reader; the CSV of the figures keeps every day.
 */
export function tableRowIndices(dates: ReadonlyArray<string>, max = TABLE_ROWS_MAX): number[] {
  const n = dates.length;
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const monthEnds: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i === n - 1 || dates[i]!.slice(0, 7) !== dates[i + 1]!.slice(0, 7)) monthEnds.push(i);
  }
  const step = Math.ceil(monthEnds.length / (max - 1));
  // Counted back from the last point, so that the latest month end is always listed.
  const kept = monthEnds.filter((_, k) => (monthEnds.length - 1 - k) % step === 0);
  return kept[0] === 0 ? kept : [0, ...kept];
}
