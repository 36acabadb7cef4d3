import { useId } from "react";
import {
  ChartEmpty,
  ChartFigure,
  ChartSvg,
  type ChartTextProps,
  labelWidth,
  useChartWidth,
} from "./frame.tsx";
import { anchoredLabelStride, fitHorizontalTicks, gaugeDomain, linearScale } from "./scale.ts";

export interface GaugeChartProps extends ChartTextProps {
  /** The amount measured (the portfolio's loss at 95%), drawn as a bar from zero. */
  readonly value: number;
  /** The amount it is compared with (what the user can bear), drawn as a mark. */
  readonly limit: number;
  /** End of the scale; default: a nice number above both amounts. */
  readonly max?: number;
  readonly valueLabel: string;
  readonly limitLabel: string;
  readonly formatValue: (value: number) => string;
  /** Words shown next to the warning sign when the value exceeds the limit. */
  readonly overLabel?: string;
  /** Words shown next to the tick sign when the value is within the limit. */
  readonly withinLabel?: string;
}

const FONT = 12;
const PAD_X = 8;
const MARK_TOP = 4;
const TRACK_Y = 18;
const TRACK_H = 22;
const HEIGHT = TRACK_Y + TRACK_H + 24;

/**
 * A horizontal meter: a bar for `value` and a mark for `limit`. Going past the limit shows in the
 * bar's colour, in its hatching and in the warning sign (not by colour alone).
 */
export function GaugeChart({
  value,
  limit,
  max,
  valueLabel,
  limitLabel,
  title,
  description,
  formatValue,
  overLabel,
  withinLabel,
  emptyLabel,
  className,
}: GaugeChartProps) {
  const [box, width] = useChartWidth();
  const patternId = `chart-hatch-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  if (!Number.isFinite(value) || !Number.isFinite(limit))
    return (
      <ChartFigure title={title} kind="gauge" className={className}>
        <ChartEmpty label={emptyLabel} />
      </ChartFigure>
    );
  const over = value > limit;
  const [lo, hi] = gaugeDomain(value, limit, max);
  const x = linearScale([lo, hi], [PAD_X, width - PAD_X]);
  const clamp = (v: number) => Math.min(width - PAD_X, Math.max(PAD_X, x(v)));
  const zero = clamp(0);
  const end = clamp(value);
  const mark = clamp(limit);
  const measure = (text: string) => labelWidth(text, FONT);
  const fitted = fitHorizontalTicks(lo, hi, width - 2 * PAD_X, (t) => formatValue(t), measure, {
    maxCount: 4,
  });
  const tickLabels = fitted.ticks
    .map((t, i) => ({ t, text: fitted.labels[i] ?? "" }))
    .filter(({ t }) => t >= lo && t <= hi);
  const stride = anchoredLabelStride(
    tickLabels.map((l) => x(l.t)),
    tickLabels.map((l) => measure(l.text)),
  );
  const status = over ? overLabel : withinLabel;
  return (
    <ChartFigure title={title} kind="gauge" className={className}>
      <div className="chart-box" ref={box}>
        <ChartSvg
          width={width}
          height={HEIGHT}
          title={title}
          description={description}
          className={over ? "chart-svg is-over" : "chart-svg is-within"}
        >
          <defs>
            <pattern
              id={patternId}
              width="8"
              height="8"
              patternUnits="userSpaceOnUse"
              patternTransform="rotate(45)"
            >
              <rect className="chart-gauge-over" width="8" height="8" />
              <line className="chart-hatch" x1="0" x2="0" y1="0" y2="8" />
            </pattern>
          </defs>
          <rect
            className="chart-gauge-track"
            x={PAD_X}
            y={TRACK_Y}
            width={width - 2 * PAD_X}
            height={TRACK_H}
            rx={4}
          />
          <rect
            className={
              over ? "chart-gauge-fill chart-gauge-over" : "chart-gauge-fill chart-gauge-within"
            }
            x={Math.min(zero, end)}
            y={TRACK_Y}
            width={Math.abs(end - zero)}
            height={TRACK_H}
            rx={4}
            style={over ? { fill: `url(#${patternId})` } : undefined}
          />
          <g className="chart-gauge-limit">
            <line x1={mark} x2={mark} y1={MARK_TOP + 8} y2={TRACK_Y + TRACK_H + 4} />
            <path d={`M${mark - 6} ${MARK_TOP}L${mark + 6} ${MARK_TOP}L${mark} ${MARK_TOP + 9}Z`} />
          </g>
          {tickLabels.map(({ t, text }, i) =>
            i % stride === 0 ? (
              <text
                key={t}
                className="chart-tick-label"
                x={x(t)}
                y={TRACK_Y + TRACK_H + 8 + FONT}
                textAnchor={i === 0 ? "start" : i === tickLabels.length - 1 ? "end" : "middle"}
              >
                {text}
              </text>
            ) : null,
          )}
        </ChartSvg>
      </div>
      <ul className="chart-legend chart-legend-inline" aria-hidden="true">
        <li>
          <span
            className={over ? "chart-swatch chart-gauge-over" : "chart-swatch chart-gauge-within"}
          />
          <span className="chart-legend-label">{valueLabel}</span>
          <span className="chart-legend-value">{formatValue(value)}</span>
        </li>
        <li>
          <svg
            className="chart-line-swatch chart-gauge-limit"
            viewBox="0 0 12 12"
            aria-hidden="true"
          >
            <path d="M0 0L12 0L6 10Z" />
          </svg>
          <span className="chart-legend-label">{limitLabel}</span>
          <span className="chart-legend-value">{formatValue(limit)}</span>
        </li>
      </ul>
      <p className={over ? "chart-status is-over" : "chart-status is-within"} data-over={over}>
        <svg className="chart-status-icon" viewBox="0 0 20 20" aria-hidden="true">
          {over ? (
            <>
              <path d="M10 1.5L19 18H1Z" />
              <path className="chart-status-glyph" d="M10 7v5M10 14.5v1.5" />
            </>
          ) : (
            <>
              <circle cx="10" cy="10" r="9" />
              <path className="chart-status-glyph" d="M5.5 10.5l3 3 6-6.5" />
            </>
          )}
        </svg>
        {status ? <span>{status}</span> : null}
      </p>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          <tr>
            <th scope="row">{valueLabel}</th>
            <td>{formatValue(value)}</td>
          </tr>
          <tr>
            <th scope="row">{limitLabel}</th>
            <td>{formatValue(limit)}</td>
          </tr>
        </tbody>
      </table>
    </ChartFigure>
  );
}
