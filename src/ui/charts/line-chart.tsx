import {
  AXIS_TITLE_ROOM,
  AxisTitle,
  ChartEmpty,
  ChartFigure,
  ChartSvg,
  type ChartTextProps,
  dashPattern,
  labelWidth,
  paletteColor,
  useChartWidth,
} from "./frame.tsx";
import {
  anchoredLabelStride,
  extent,
  indexTicks,
  linearScale,
  segments,
  tableRowIndices,
  valueAxis,
} from "./scale.ts";
import { ValueGrid } from "./x-axis.tsx";

export interface LineSeries {
  readonly key: string;
  readonly label: string;
  /** One value per date; NaN leaves a gap. */
  readonly values: ReadonlyArray<number>;
}

export interface LineBand {
  readonly lower: ReadonlyArray<number>;
  readonly upper: ReadonlyArray<number>;
  readonly label: string;
}

export interface LineChartProps extends ChartTextProps {
  readonly series: ReadonlyArray<LineSeries>;
  /** ISO dates, one per point, equally spaced on the x axis. */
  readonly dates: ReadonlyArray<string>;
  /** A shaded range (e.g. the simulator's 5th to 95th percentile fan). */
  readonly band?: LineBand;
  readonly formatValue: (value: number) => string;
  readonly formatDate: (iso: string) => string;
  /** Header of the date column of the hidden data table. */
  readonly dateLabel?: string;
  /** Title of the horizontal (date) axis, e.g. "Market date". */
  readonly xTitle: string;
  /** Title of the vertical (value) axis, with its unit, e.g. "Value (USD)". */
  readonly yTitle: string;
  /**
   * The same on a log scale, e.g. "Value (USD, log scale)": the value axis is logarithmic when the
   * values span more than two orders of magnitude.
   */
  readonly yTitleLog?: string;
}

const PLOT_HEIGHT = 230;
const FONT = 12;
const TOP = 10;
const BOTTOM = 26;
const RIGHT = 8;
/** Pixels between two value ticks. */
const Y_SPACING = 34;

const pointsPath = (points: ReadonlyArray<readonly [number, number]>) =>
  points.map(([px, py], i) => `${i === 0 ? "M" : "L"}${px.toFixed(2)} ${py.toFixed(2)}`).join("");

/** One or more series over dates, with an optional band, nice y ticks and 4 to 6 date ticks. */
export function LineChart({
  series,
  dates,
  band,
  title,
  description,
  formatValue,
  formatDate,
  dateLabel,
  xTitle,
  yTitle,
  yTitleLog,
  emptyLabel,
  className,
}: LineChartProps) {
  const [box, width] = useChartWidth();
  const n = dates.length;
  const clip = (values: ReadonlyArray<number>) => values.slice(0, n);
  const lines = series.map((s) => ({ ...s, values: clip(s.values) }));
  const lower = band ? clip(band.lower) : [];
  const upper = band ? clip(band.upper) : [];
  const all = [...lines.flatMap((s) => s.values), ...lower, ...upper];
  const ext = extent(all);
  if (n === 0 || !ext)
    return (
      <ChartFigure title={title} kind="line" className={className}>
        <ChartEmpty label={emptyLabel} />
      </ChartFigure>
    );

  const HEIGHT = PLOT_HEIGHT + AXIS_TITLE_ROOM;
  const bottom = PLOT_HEIGHT - BOTTOM;
  const axis = valueAxis(all, [bottom, TOP], { spacing: Y_SPACING, label: formatValue });
  const y = axis.scale;
  const measure = (text: string) => labelWidth(text, FONT);
  const yLabels = axis.ticks.map((t) => ({ t, text: formatValue(t) }));
  const left =
    AXIS_TITLE_ROOM + Math.ceil(Math.max(24, ...yLabels.map((l) => measure(l.text))) + 8);
  const x = linearScale([0, n - 1], [left, width - RIGHT]);
  // As many dates as fit side by side (4 to 6 where there is room).
  const dateWidth = Math.max(...[0, n - 1].map((i) => measure(formatDate(dates[i] ?? ""))));
  const fit = Math.floor((width - RIGHT - left) / (dateWidth + 12)) + 1;
  const xTicks = indexTicks(n, Math.min(6, Math.max(2, Math.min(fit, Math.max(4, n)))));
  const xLabels = xTicks.map((i) => ({ i, text: formatDate(dates[i] ?? "") }));
  const stride = anchoredLabelStride(
    xLabels.map((l) => x(l.i)),
    xLabels.map((l) => measure(l.text)),
  );

  const bandPaths: string[] = [];
  if (band) {
    const both = lower.map((l, i) =>
      Number.isFinite(l) && Number.isFinite(upper[i] ?? NaN) ? 0 : NaN,
    );
    for (const run of segments(both)) {
      const top = run.map(([i]) => [x(i), y(upper[i] ?? 0)] as const);
      const low = run.map(([i]) => [x(i), y(lower[i] ?? 0)] as const).reverse();
      bandPaths.push(`${pointsPath([...top, ...low])}Z`);
    }
  }

  const showLegend = lines.length > 1 || band !== undefined;
  return (
    <ChartFigure title={title} kind="line" className={className}>
      <div className="chart-box" ref={box}>
        <ChartSvg
          width={width}
          height={HEIGHT}
          title={title}
          description={description}
          data-scale={axis.kind}
        >
          <ValueGrid
            ticks={yLabels}
            y={y}
            left={left}
            right={width - RIGHT}
            bottom={bottom}
            font={FONT}
          />
          <AxisTitle
            text={axis.kind === "log" ? (yTitleLog ?? yTitle) : yTitle}
            side="left"
            x={FONT}
            y={(TOP + bottom) / 2}
            room={PLOT_HEIGHT - 4}
          />
          <AxisTitle
            text={xTitle}
            side="bottom"
            x={(left + width - RIGHT) / 2}
            y={HEIGHT - 4}
            room={width - RIGHT - left}
          />
          {xLabels.map(({ i, text }, k) => {
            const tx = x(i);
            const anchor =
              xLabels.length === 1
                ? "middle"
                : k === 0
                  ? "start"
                  : k === xLabels.length - 1
                    ? "end"
                    : "middle";
            return (
              <g key={i}>
                <line className="chart-tick" x1={tx} x2={tx} y1={bottom} y2={bottom + 4} />
                {k % stride === 0 ? (
                  <text
                    className="chart-tick-label"
                    x={tx}
                    y={bottom + 4 + FONT}
                    textAnchor={anchor}
                  >
                    {text}
                  </text>
                ) : null}
              </g>
            );
          })}
          {bandPaths.map((d, i) => (
            <path key={i} className="chart-band" d={d} />
          ))}
          {lines.map((s, si) =>
            segments(s.values).map((run, ri) =>
              run.length === 1 ? (
                <circle
                  key={`${s.key}-${ri}`}
                  className="chart-point"
                  cx={x(run[0]?.[0] ?? 0)}
                  cy={y(run[0]?.[1] ?? 0)}
                  r={3}
                  fill={paletteColor(si)}
                />
              ) : (
                <path
                  key={`${s.key}-${ri}`}
                  className="chart-line"
                  d={pointsPath(run.map(([i, v]) => [x(i), y(v)] as const))}
                  stroke={paletteColor(si)}
                  strokeDasharray={dashPattern(si)}
                />
              ),
            ),
          )}
        </ChartSvg>
      </div>
      {showLegend ? (
        <ul className="chart-legend chart-legend-inline" aria-hidden="true">
          {lines.map((s, si) => (
            <li key={s.key}>
              <svg
                className="chart-line-swatch"
                viewBox="0 0 24 12"
                aria-hidden="true"
                style={{ color: paletteColor(si) }}
              >
                <line x1="0" x2="24" y1="6" y2="6" strokeDasharray={dashPattern(si)} />
              </svg>
              <span className="chart-legend-label">{s.label}</span>
            </li>
          ))}
          {band ? (
            <li>
              <span className="chart-swatch chart-band-swatch" />
              <span className="chart-legend-label">{band.label}</span>
            </li>
          ) : null}
        </ul>
      ) : null}
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            {dateLabel ? <th scope="col">{dateLabel}</th> : <td />}
            {lines.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
            {band ? <th scope="col">{band.label}</th> : null}
          </tr>
        </thead>
        <tbody>
          {tableRowIndices(dates).map((i) => {
            const d = dates[i]!;
            const l = lower[i];
            const u = upper[i];
            return (
              <tr key={`${d}-${i}`}>
                <th scope="row">{formatDate(d)}</th>
                {lines.map((s) => {
                  const v = s.values[i];
                  return (
                    <td key={s.key}>
                      {v !== undefined && Number.isFinite(v) ? formatValue(v) : ""}
                    </td>
                  );
                })}
                {band ? (
                  <td>
                    {l !== undefined && u !== undefined && Number.isFinite(l) && Number.isFinite(u)
                      ? `${formatValue(l)} – ${formatValue(u)}`
                      : ""}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ChartFigure>
  );
}
