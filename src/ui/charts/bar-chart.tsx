import {
  AXIS_TITLE_ROOM,
  AxisTitle,
  ChartEmpty,
  ChartFigure,
  ChartSvg,
  type ChartTextProps,
  useChartWidth,
} from "./frame.tsx";
import { linearScale, niceTicks, textWidth, truncate } from "./scale.ts";

export interface Bar {
  readonly key: string;
  readonly label: string;
  readonly value: number;
}

export interface BarChartProps extends ChartTextProps {
  /** Bars that are not finite are left out. */
  readonly bars: ReadonlyArray<Bar>;
  readonly formatValue: (value: number) => string;
  /** Draws negative bars in the danger colour (they are always left of the zero line). */
  readonly highlightNegative?: boolean;
  /** Column headers of the hidden data table. */
  readonly columnLabels?: { readonly label: string; readonly value: string };
  /** Title of the value axis (what the bars measure, with unit, horizon and method where any). */
  readonly valueTitle: string;
}

const ROW = 42;
const FONT = 13;
const PAD_X = 4;
const PAD_Y = 8;
const BAR_TOP = 19;
const BAR_HEIGHT = 15;

/** Horizontal bars around a zero line, one row per item: label and value above its bar. */
export function BarChart({
  bars,
  title,
  description,
  formatValue,
  highlightNegative = false,
  columnLabels,
  valueTitle,
  emptyLabel,
  className,
}: BarChartProps) {
  const [box, width] = useChartWidth();
  const data = bars.filter((b) => Number.isFinite(b.value));
  if (data.length === 0)
    return (
      <ChartFigure title={title} kind="bar" className={className}>
        <ChartEmpty label={emptyLabel} />
      </ChartFigure>
    );
  const values = data.map((b) => b.value);
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  // All zeros: a domain around zero so that the zero line sits in the middle.
  const nice = lo === hi ? { min: -1, max: 1 } : niceTicks(lo, hi, 4);
  const x = linearScale([nice.min, nice.max], [PAD_X, width - PAD_X]);
  const zero = x(0);
  const plotBottom = PAD_Y * 2 + data.length * ROW;
  const height = plotBottom + AXIS_TITLE_ROOM;
  return (
    <ChartFigure title={title} kind="bar" className={className}>
      <div className="chart-box" ref={box}>
        <ChartSvg width={width} height={height} title={title} description={description}>
          {data.map((b, i) => {
            const top = PAD_Y + i * ROW;
            const end = x(b.value);
            const negative = b.value < 0;
            const valueText = formatValue(b.value);
            const room = width - 2 * PAD_X - textWidth(valueText, FONT) - FONT;
            const label = truncate(b.label, Math.max(4, Math.floor(room / (FONT * 0.6))));
            return (
              <g key={b.key} className={negative ? "chart-bar-row is-negative" : "chart-bar-row"}>
                <text className="chart-label" x={PAD_X} y={top + FONT}>
                  {label}
                </text>
                <text
                  className="chart-label chart-value"
                  x={width - PAD_X}
                  y={top + FONT}
                  textAnchor="end"
                >
                  {valueText}
                </text>
                <rect
                  className={
                    negative && highlightNegative ? "chart-bar chart-bar-negative" : "chart-bar"
                  }
                  x={Math.min(zero, end)}
                  y={top + BAR_TOP}
                  width={Math.max(Math.abs(end - zero), b.value === 0 ? 0 : 1)}
                  height={BAR_HEIGHT}
                />
              </g>
            );
          })}
          <line
            className="chart-axis"
            x1={zero}
            x2={zero}
            y1={PAD_Y + BAR_TOP - 4}
            y2={plotBottom - PAD_Y + 2}
          />
          <AxisTitle
            text={valueTitle}
            side="bottom"
            x={width / 2}
            y={height - 4}
            room={width - 2 * PAD_X}
          />
        </ChartSvg>
      </div>
      <table className="visually-hidden">
        <caption>{title}</caption>
        {columnLabels ? (
          <thead>
            <tr>
              <th scope="col">{columnLabels.label}</th>
              <th scope="col">{columnLabels.value}</th>
            </tr>
          </thead>
        ) : null}
        <tbody>
          {data.map((b) => (
            <tr key={b.key}>
              <th scope="row">{b.label}</th>
              <td>{formatValue(b.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFigure>
  );
}
