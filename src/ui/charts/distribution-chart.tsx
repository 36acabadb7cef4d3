import {
  AXIS_TITLE_ROOM,
  AxisTitle,
  ChartEmpty,
  ChartFigure,
  ChartSvg,
  type ChartTextProps,
  defaultFormatCount,
  labelWidth,
  useChartWidth,
} from "./frame.tsx";
import { extent, finite, fitHorizontalTicks, histogram, linearScale } from "./scale.ts";
import { VerticalMarks, XAxis } from "./x-axis.tsx";

export type MarkerTone = "danger" | "warning" | "neutral";

export interface DistributionMarker {
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly tone?: MarkerTone;
}

export interface DistributionChartProps extends ChartTextProps {
  /** Returns (fractions) or amounts; NaN and infinities are left out. */
  readonly values: ReadonlyArray<number>;
  /** Number of bins; default: Sturges' rule. */
  readonly bins?: number;
  /** Vertical lines (VaR, CVaR, what the user can bear); the first one bounds the shaded tail. */
  readonly markers: ReadonlyArray<DistributionMarker>;
  readonly formatValue: (value: number) => string;
  /** Which side of the first marker is shaded: "left" (default, losses as negative numbers). */
  readonly tail?: "left" | "right" | "none";
  /** Formats a bin's count; default: an integer in the page's locale. */
  readonly formatCount?: (count: number) => string;
  /** Column headers of the hidden table of bins. */
  readonly columnLabels?: { readonly range: string; readonly count: string };
  /** Title of the value axis, with its unit and horizon, e.g. "Gain or loss in a month (EUR)". */
  readonly xTitle: string;
  /** Title of the count axis, e.g. "Number of months". */
  readonly yTitle: string;
}

const FONT = 12;
const PAD_X = 6;
const LABEL_ROW = 15;
const PLOT_HEIGHT = 150;
const AXIS = 24;

const toneDash: Record<MarkerTone, string | undefined> = {
  danger: undefined,
  warning: "6 3",
  neutral: "2 3",
};

/** Histogram of a distribution of returns or gains/losses, with vertical markers. */
export function DistributionChart({
  values,
  bins,
  markers,
  title,
  description,
  formatValue,
  tail = "left",
  formatCount = defaultFormatCount,
  columnLabels,
  xTitle,
  yTitle,
  emptyLabel,
  className,
}: DistributionChartProps) {
  const [box, width] = useChartWidth();
  const data = finite(values);
  if (data.length === 0)
    return (
      <ChartFigure title={title} kind="distribution" className={className}>
        <ChartEmpty label={emptyLabel} />
      </ChartFigure>
    );
  const marks = markers.filter((m) => Number.isFinite(m.value));
  const binned = histogram(data, bins);
  const [lo, hi] = extent([...data, ...marks.map((m) => m.value)]) ?? [0, 1];
  // As many value ticks as fit side by side with their labels (at most 6 intervals).
  const plotLeft = PAD_X + AXIS_TITLE_ROOM;
  const nice = fitHorizontalTicks(
    lo,
    hi,
    width - PAD_X - plotLeft,
    (v) => formatValue(v),
    (text) => labelWidth(text, FONT),
    { maxCount: 5 },
  );
  const top = marks.length * LABEL_ROW + 6;
  const bottom = top + PLOT_HEIGHT;
  const height = bottom + AXIS + AXIS_TITLE_ROOM;
  // The count axis's title sits in a band left of the plot (plotLeft).
  const x = linearScale([nice.min, nice.max], [plotLeft, width - PAD_X]);
  const maxCount = Math.max(...binned.map((b) => b.count));
  const y = linearScale([0, maxCount], [bottom, top + 4]);
  const threshold = marks[0]?.value;
  const hasTail = tail !== "none" && threshold !== undefined;
  const cut = hasTail ? x(threshold) : 0;
  // One-point bins (all values equal) get a visible width.
  const minWidth = (width - PAD_X - plotLeft) / 40;

  const barRects = binned.flatMap((b, i) => {
    let x0 = x(b.x0);
    let x1 = x(b.x1);
    if (x1 - x0 < minWidth) {
      const mid = (x0 + x1) / 2;
      x0 = mid - minWidth / 2;
      x1 = mid + minWidth / 2;
    }
    if (b.count === 0) return [];
    const yTop = y(b.count);
    const parts: Array<{ from: number; to: number; inTail: boolean }> = [];
    if (!hasTail || cut <= x0 || cut >= x1) {
      const inTail = hasTail && (tail === "left" ? x1 <= cut : x0 >= cut);
      parts.push({ from: x0, to: x1, inTail });
    } else {
      parts.push({ from: x0, to: cut, inTail: tail === "left" });
      parts.push({ from: cut, to: x1, inTail: tail === "right" });
    }
    return parts.map((p, j) => (
      <rect
        key={`${i}-${j}`}
        className={p.inTail ? "chart-bin chart-bin-tail" : "chart-bin"}
        x={p.from}
        y={yTop}
        width={Math.max(0, p.to - p.from)}
        height={bottom - yTop}
      />
    ));
  });

  const layout = { x, width, padX: PAD_X, font: FONT, left: plotLeft };
  const ticks = nice.ticks.map((value, i) => ({ value, text: nice.labels[i] ?? "" }));

  return (
    <ChartFigure title={title} kind="distribution" className={className}>
      <div className="chart-box" ref={box}>
        <ChartSvg width={width} height={height} title={title} description={description}>
          {hasTail ? (
            <rect
              className="chart-tail"
              x={tail === "left" ? plotLeft : cut}
              y={top}
              width={Math.max(0, tail === "left" ? cut - plotLeft : width - PAD_X - cut)}
              height={PLOT_HEIGHT}
            />
          ) : null}
          {barRects}
          <XAxis ticks={ticks} bottom={bottom} layout={layout} />
          <AxisTitle
            text={yTitle}
            side="left"
            x={FONT}
            y={(top + bottom) / 2}
            room={bottom - top}
          />
          <AxisTitle
            text={xTitle}
            side="bottom"
            x={(plotLeft + width - PAD_X) / 2}
            y={height - 4}
            room={width - PAD_X - plotLeft}
          />
          <VerticalMarks
            marks={marks.map((m) => ({
              ...m,
              className: `chart-marker chart-marker-${m.tone ?? "neutral"}`,
              dash: toneDash[m.tone ?? "neutral"],
            }))}
            bottom={bottom}
            labelRow={LABEL_ROW}
            layout={layout}
          />
        </ChartSvg>
      </div>
      {marks.length > 0 ? (
        <ul className="chart-legend chart-legend-inline" aria-hidden="true">
          {marks.map((m) => (
            <li key={m.key} className={`chart-marker-${m.tone ?? "neutral"}`}>
              <svg className="chart-line-swatch" viewBox="0 0 24 12" aria-hidden="true">
                <line
                  x1="0"
                  x2="24"
                  y1="6"
                  y2="6"
                  strokeDasharray={toneDash[m.tone ?? "neutral"]}
                />
              </svg>
              <span className="chart-legend-label">{m.label}</span>
              <span className="chart-legend-value">{formatValue(m.value)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {marks.length > 0 ? (
        <table className="visually-hidden">
          <caption>{title}</caption>
          <tbody>
            {marks.map((m) => (
              <tr key={m.key}>
                <th scope="row">{m.label}</th>
                <td>{formatValue(m.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <table className="visually-hidden">
        <caption>{title}</caption>
        {columnLabels ? (
          <thead>
            <tr>
              <th scope="col">{columnLabels.range}</th>
              <th scope="col">{columnLabels.count}</th>
            </tr>
          </thead>
        ) : null}
        <tbody>
          {binned.map((b, i) => (
            <tr key={i}>
              <th scope="row">
                {b.x0 === b.x1 ? formatValue(b.x0) : `${formatValue(b.x0)} – ${formatValue(b.x1)}`}
              </th>
              <td>{formatCount(b.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFigure>
  );
}
