/**
 * Charts on a PDF page (pdf.ts): a line chart on the history's calendar (axes, ticks, grid,
 * legend; series as paths, an optional area to the zero line), a heat map of a matrix with its
 * colour scale, and the text helpers the report's layout needs (wrapping, nice ticks).
 */
import { fitText, textWidth, type Page, type Rgb } from "./pdf.ts";

export const INK: Rgb = [0.1, 0.12, 0.16];
export const MUTED: Rgb = [0.42, 0.45, 0.5];
export const GRID: Rgb = [0.85, 0.87, 0.9];
export const AXIS: Rgb = [0.55, 0.58, 0.62];
export const PORTFOLIO: Rgb = [0.13, 0.4, 0.75];
export const BENCHMARK: Rgb = [0.85, 0.45, 0.1];
export const PORTFOLIO_AREA: Rgb = [0.8, 0.87, 0.96];

/** The lines of `text` that fit `width` at `size`, cut between words. */
export function wrap(text: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, bold) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines.map((l) => fitText(l, width, size, bold));
}

/** About `count` round tick values (1, 2, 2.5 or 5 times a power of ten) covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0];
  if (max - min < 1e-12) {
    const pad = Math.abs(max) > 1e-12 ? Math.abs(max) * 0.1 : 1;
    min -= pad;
    max += pad;
  }
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const first = Math.floor(min / step + 1e-9) * step;
  const ticks: number[] = [];
  for (let v = first; v < max + step - 1e-9 * step; v += step)
    ticks.push(Number((Math.round(v / step) * step).toPrecision(12)) || 0);
  return ticks;
}

export interface ChartSeries {
  /** One value per date of the chart (null: no value that day). */
  readonly values: ArrayLike<number | null>;
  readonly label: string;
  readonly color: Rgb;
  readonly width?: number;
  readonly dash?: readonly number[];
  /** Filled from the zero line (or the axis' bottom) to the series, in this colour. */
  readonly area?: Rgb;
}

export interface ChartOptions {
  /** The values on the y axis in words (percent, amounts); `step` is the ticks' spacing. */
  readonly format: (value: number, step: number) => string;
  /** The axis includes zero and draws it. */
  readonly zero?: boolean;
  /** A tick label of a date index's year ("2024") or month ("03/24"), as the caller formats. */
  readonly yearLabel?: (iso: string) => string;
  readonly monthLabel?: (iso: string) => string;
}

export interface Box {
  readonly x: number;
  /** The bottom edge. */
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Screen points of a series: when it has more values than twice the plot's width in points, each
 * bucket of days keeps its lowest and highest value (in their order), so peaks and troughs stay.
 */
function seriesPoints(
  values: ArrayLike<number | null>,
  xOf: (i: number) => number,
  yOf: (v: number) => number,
  width: number,
): number[] {
  const n = values.length;
  const out: number[] = [];
  const bucket = n > 2 * width ? Math.ceil(n / width) : 1;
  for (let start = 0; start < n; start += bucket) {
    const end = Math.min(n, start + bucket);
    let lo = -1;
    let hi = -1;
    let gap = false;
    for (let i = start; i < end; i++) {
      const v = values[i];
      if (v === null || v === undefined || !Number.isFinite(v)) {
        gap = true;
        continue;
      }
      if (lo < 0 || v < values[lo]!) lo = i;
      if (hi < 0 || v > values[hi]!) hi = i;
    }
    if (lo < 0) {
      if (gap) out.push(NaN, NaN);
      continue;
    }
    for (const i of lo === hi ? [lo] : lo < hi ? [lo, hi] : [hi, lo])
      out.push(xOf(i), yOf(values[i]!));
  }
  return out;
}

/** Indices of `dates` where a tick goes: the first day of each year, or of each month when short. */
function dateTicks(dates: readonly string[]): { index: number; year: boolean }[] {
  const years: number[] = [];
  const months: number[] = [];
  for (let i = 1; i < dates.length; i++) {
    if (dates[i]!.slice(0, 4) !== dates[i - 1]!.slice(0, 4)) years.push(i);
    if (dates[i]!.slice(0, 7) !== dates[i - 1]!.slice(0, 7)) months.push(i);
  }
  if (years.length >= 2) {
    const step = Math.ceil(years.length / 10);
    return years.filter((_, k) => k % step === 0).map((index) => ({ index, year: true }));
  }
  const step = Math.max(1, Math.ceil(months.length / 8));
  return months.filter((_, k) => k % step === 0).map((index) => ({ index, year: false }));
}

/**
 * A line chart in `box`: the y axis on the left with round ticks and a light grid, the dates on
 * the x axis (one trading day per step), the legend above the plot, one path per series.
 */
export function lineChart(
  page: Page,
  box: Box,
  dates: readonly string[],
  series: readonly ChartSeries[],
  options: ChartOptions,
): void {
  const left = box.x + 52;
  const right = box.x + box.width;
  const bottom = box.y + 14;
  const top = box.y + box.height - 16;
  const n = dates.length;
  let min = Infinity;
  let max = -Infinity;
  for (const s of series)
    for (let i = 0; i < s.values.length; i++) {
      const v = s.values[i];
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  if (options.zero) {
    min = Math.min(min, 0);
    max = Math.max(max, 0);
  }
  if (!Number.isFinite(min)) [min, max] = [0, 1];
  const ticks = niceTicks(min, max);
  const lo = Math.min(ticks[0]!, min);
  const hi = Math.max(ticks.at(-1)!, max);
  const span = hi - lo || 1;
  const yOf = (v: number) => bottom + ((v - lo) / span) * (top - bottom);
  const xOf = (i: number) => left + (n > 1 ? (i / (n - 1)) * (right - left) : 0);

  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1;
  for (const t of ticks) {
    const y = yOf(t);
    page.line(left, y, right, y, GRID, 0.4, { dash: [1, 2] });
    page.text(left - 4, y - 2.5, options.format(t, step), {
      size: 7,
      color: MUTED,
      align: "right",
    });
  }
  for (const tick of dateTicks(dates)) {
    const x = xOf(tick.index);
    page.line(x, bottom, x, bottom - 3, AXIS, 0.5);
    const iso = dates[tick.index]!;
    const label = tick.year
      ? (options.yearLabel ?? ((d: string) => d.slice(0, 4)))(iso)
      : (options.monthLabel ?? ((d: string) => `${d.slice(5, 7)}/${d.slice(2, 4)}`))(iso);
    page.text(x, bottom - 11, label, { size: 7, color: MUTED, align: "center" });
  }
  if (options.zero && lo < 0 && hi > 0) page.line(left, yOf(0), right, yOf(0), AXIS, 0.6);
  page.line(left, bottom, right, bottom, AXIS, 0.6);
  page.line(left, bottom, left, top, AXIS, 0.6);

  const base = yOf(options.zero ? 0 : lo);
  for (const s of series) {
    const points = seriesPoints(s.values, xOf, yOf, right - left);
    if (s.area) {
      // The area of each unbroken piece, closed along the base line.
      let piece: number[] = [];
      const flush = () => {
        if (piece.length >= 4)
          page.path([...piece, piece.at(-2)!, base, piece[0]!, base], { fill: s.area });
        piece = [];
      };
      for (let i = 0; i < points.length; i += 2) {
        if (Number.isFinite(points[i]!)) piece.push(points[i]!, points[i + 1]!);
        else flush();
      }
      flush();
    }
    page.path(points, {
      stroke: s.color,
      width: s.width ?? 1,
      ...(s.dash ? { dash: s.dash } : {}),
    });
  }

  // Legend: a short line and the label of each series, left to right above the plot.
  let x = left;
  for (const s of series) {
    page.line(x, top + 8, x + 14, top + 8, s.color, 2, s.dash ? { dash: s.dash } : {});
    page.text(x + 18, top + 5.5, s.label, { size: 8, color: INK });
    x += 18 + textWidth(s.label, 8) + 16;
  }
}

/** Diverging colour of a correlation: blue at -1, white at 0, red at +1. */
export function correlationColor(v: number): Rgb {
  const t = Math.max(-1, Math.min(1, v));
  const to: Rgb = t >= 0 ? [0.8, 0.16, 0.12] : [0.13, 0.33, 0.75];
  const a = Math.abs(t);
  return [1 + (to[0] - 1) * a, 1 + (to[1] - 1) * a, 1 + (to[2] - 1) * a];
}

/**
 * A heat map of a square matrix with its rows numbered and labelled on the left, columns numbered
 * on top, the values written in the cells when they fit, and the colour scale from -1 to 1 below.
 * `top` is the upper edge; returns the lower edge of what it drew.
 */
export function heatMap(
  page: Page,
  x: number,
  top: number,
  width: number,
  labels: readonly string[],
  matrix: readonly (readonly number[])[],
  format: (v: number) => string,
): number {
  const n = labels.length;
  const labelWidth = 90;
  const cell = Math.min(26, (width - labelWidth) / Math.max(1, n));
  const left = x + labelWidth;
  const valueSize = Math.min(7, cell / 3.6);
  const headSize = Math.min(7, cell * 0.6);
  for (let j = 0; j < n; j++)
    page.text(left + (j + 0.5) * cell, top - 8, String(j + 1), {
      size: headSize,
      color: MUTED,
      align: "center",
    });
  const gridTop = top - 12;
  for (let i = 0; i < n; i++) {
    const y = gridTop - (i + 1) * cell;
    const labelSize = Math.min(7, Math.max(4, cell * 0.6));
    page.text(
      x,
      y + cell / 2 - labelSize / 3,
      fitText(`${i + 1}. ${labels[i]}`, labelWidth - 6, labelSize),
      {
        size: labelSize,
        color: INK,
      },
    );
    for (let j = 0; j < n; j++) {
      const v = matrix[i]![j]!;
      page.rect(left + j * cell, y, cell, cell, correlationColor(v));
      if (cell >= 16)
        page.text(left + (j + 0.5) * cell, y + cell / 2 - valueSize / 3, format(v), {
          size: valueSize,
          color: Math.abs(v) > 0.6 ? [1, 1, 1] : INK,
          align: "center",
        });
    }
  }
  // The colour scale: 21 steps from -1 to 1.
  const scaleTop = gridTop - n * cell - 14;
  const steps = 21;
  const stepWidth = Math.min(10, (width - labelWidth) / steps);
  for (let k = 0; k < steps; k++)
    page.rect(
      left + k * stepWidth,
      scaleTop - 8,
      stepWidth,
      8,
      correlationColor(-1 + (2 * k) / (steps - 1)),
    );
  for (const [v, at] of [
    [-1, 0],
    [0, 0.5],
    [1, 1],
  ] as const)
    page.text(left + at * steps * stepWidth, scaleTop - 17, format(v), {
      size: 7,
      color: MUTED,
      align: "center",
    });
  return scaleTop - 20;
}

/** The decimals a tick spacing needs to tell its ticks apart (0 for 5, 1 for 2.5, 2 for 0.25). */
export function stepDigits(step: number): number {
  let digits = 0;
  while (digits < 4 && Math.abs(Math.round(step * 10 ** digits) - step * 10 ** digits) > 1e-6)
    digits++;
  return digits;
}
