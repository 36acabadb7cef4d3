import { useCallback, useId, useLayoutEffect, useState, type ReactNode } from "react";
import { locales, type Locale } from "../../contract/common.ts";
import { toIntlLocale } from "../format.ts";
import { textWidth } from "./scale.ts";
import "./charts.css";

/** Props every chart takes: texts arrive translated, numbers are formatted by the caller. */
export interface ChartTextProps {
  /** Shown as the figure's caption and read as the SVG's title. */
  readonly title: string;
  /** Read as the SVG's description. */
  readonly description: string;
  /** Shown instead of the chart when there is nothing to draw (e.g. "No data yet"). */
  readonly emptyLabel?: string;
  readonly className?: string;
}

/** Width of a chart where it cannot be measured (tests in jsdom, the first render). */
export const DEFAULT_CHART_WIDTH = 400;

/**
 * The width in CSS pixels of the box a chart is drawn in, followed as it changes (ResizeObserver).
 * Charts lay out in real pixels (viewBox as wide as the box), so their text keeps its CSS size on a
 * phone instead of shrinking with a scaled viewBox. Attach the returned ref to the chart's box.
 */
export function useChartWidth(): [(element: HTMLElement | null) => void, number] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(DEFAULT_CHART_WIDTH);
  const ref = useCallback((el: HTMLElement | null) => setElement(el), []);
  useLayoutEffect(() => {
    if (!element) return;
    const update = (w: number) => {
      if (w > 0) setWidth(Math.floor(w));
    };
    update(element.getBoundingClientRect().width);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) update(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [ref, width];
}

let context: CanvasRenderingContext2D | null | undefined;

/**
 * The width in pixels of a label at `size` px in the page's font: measured on a canvas in a
 * browser, estimated (`textWidth`) elsewhere.
 */
export function labelWidth(text: string, size: number, weight = 400): number {
  if (context === undefined)
    context =
      typeof document !== "undefined" &&
      typeof navigator !== "undefined" &&
      !/jsdom/i.test(navigator.userAgent)
        ? document.createElement("canvas").getContext("2d")
        : null;
  if (!context) return textWidth(text, size);
  const family =
    getComputedStyle(document.documentElement).getPropertyValue("--font").trim() || "sans-serif";
  context.font = `${weight} ${size}px ${family}`;
  return Math.max(textWidth(text, size) * 0.8, context.measureText(text).width);
}

/** Ids of the SVG's <title> and <desc>, unique per chart instance. */
export function useChartIds() {
  const id = useId();
  return { titleId: `${id}-title`, descId: `${id}-desc` };
}

/**
 * The picture of a chart: an SVG of role img, named by its <title> and described by its <desc>,
 * scaled to its box by its viewBox. Every chart draws inside one.
 */
export function ChartSvg({
  width,
  height,
  title,
  description,
  className = "chart-svg",
  children,
  ...data
}: {
  width: number;
  height: number;
  title: string;
  description: string;
  className?: string;
  children: ReactNode;
} & { [attribute: `data-${string}`]: string | undefined }) {
  const { titleId, descId } = useChartIds();
  return (
    <svg
      className={className}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={titleId}
      aria-describedby={descId}
      {...data}
    >
      <SvgLabel titleId={titleId} descId={descId} title={title} description={description} />
      {children}
    </svg>
  );
}

/** The figure around every chart: caption, then the picture, then the hidden data table. */
export function ChartFigure({
  title,
  kind,
  className,
  children,
}: {
  title: string;
  kind: string;
  className?: string | undefined;
  children: ReactNode;
}) {
  return (
    <figure className={["chart", `chart-${kind}`, className].filter(Boolean).join(" ")}>
      <figcaption className="chart-title">{title}</figcaption>
      {children}
    </figure>
  );
}

export function ChartEmpty({ label }: { label: string | undefined }) {
  return label ? <p className="chart-empty">{label}</p> : null;
}

/**
 * An axis's title, drawn in the SVG (never clipped: the charts leave room for it). `side` "bottom":
 * centred under the plot at `y`; "left": turned a quarter, centred on the plot's height at `x`.
 */
export function AxisTitle({
  text,
  side,
  x,
  y,
  room,
}: {
  text: string;
  side: "bottom" | "left";
  x: number;
  y: number;
  /** The length along the axis the title may take; a longer one is drawn condensed into it. */
  room: number;
}) {
  const fits = labelWidth(text, AXIS_TITLE_FONT, 600) <= room;
  return (
    <text
      className="chart-axis-title"
      data-axis={side === "bottom" ? "x" : "y"}
      x={x}
      y={y}
      textAnchor="middle"
      transform={side === "left" ? `rotate(-90 ${x} ${y})` : undefined}
      textLength={fits ? undefined : room}
      lengthAdjust={fits ? undefined : "spacingAndGlyphs"}
    >
      {text}
    </text>
  );
}

/** Font size of axis titles (charts.css), in SVG units. */
const AXIS_TITLE_FONT = 12;

/** Height an axis title takes (font size plus its gap), in SVG units. */
export const AXIS_TITLE_ROOM = 18;

/** The accessible name and description of a chart's SVG. */
export function SvgLabel({
  titleId,
  descId,
  title,
  description,
}: {
  titleId: string;
  descId: string;
  title: string;
  description: string;
}) {
  return (
    <>
      <title id={titleId}>{title}</title>
      <desc id={descId}>{description}</desc>
    </>
  );
}

/** The Intl locale of the page (`<html lang>`, set by the app), for the few numbers charts format. */
export function pageIntlLocale(): string | undefined {
  if (typeof document === "undefined") return undefined;
  const lang = document.documentElement.lang.slice(0, 2);
  return (locales as readonly string[]).includes(lang) ? toIntlLocale(lang as Locale) : undefined;
}

/** A share (0.125) as a percentage in the page's locale (12.5%). */
export function defaultFormatShare(share: number): string {
  return new Intl.NumberFormat(pageIntlLocale(), {
    style: "percent",
    maximumFractionDigits: 1,
  }).format(share);
}

/** A count (of observations) in the page's locale. */
export function defaultFormatCount(count: number): string {
  return new Intl.NumberFormat(pageIntlLocale(), { maximumFractionDigits: 0 }).format(count);
}

/** Number of series/slice colours (CSS variables --chart-1 to --chart-10 in charts.css). */
export const PALETTE_SIZE = 10;
export const paletteColor = (i: number) => `var(--chart-${(i % PALETTE_SIZE) + 1})`;

/** Dash patterns, so that lines differ by more than colour. */
const dashes = ["", "6 4", "2 3", "10 3 2 3", "1 5", "8 6"];
export const dashPattern = (i: number): string | undefined =>
  dashes[i % dashes.length] || undefined;
