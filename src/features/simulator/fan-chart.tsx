import { SvgLabel, useChartIds } from "../../ui/charts/frame.tsx";
import { linearScale, niceTicks, textWidth } from "../../ui/charts/scale.ts";

export interface FanChartProps {
  readonly title: string;
  readonly description: string;
  /** Values per month 0..months of the percentiles 5, 25, 50, 75 and 95. */
  readonly p5: readonly number[];
  readonly p25: readonly number[];
  readonly p50: readonly number[];
  readonly p75: readonly number[];
  readonly p95: readonly number[];
  readonly invested: readonly number[];
  /** The replay of the past, months 0..historical (may be shorter than the horizon). */
  readonly historical: readonly number[];
  readonly goal: number | null;
  readonly labels: {
    readonly outer: string;
    readonly inner: string;
    readonly median: string;
    readonly invested: string;
    readonly historical: string;
    readonly goal: string;
  };
  readonly formatValue: (value: number) => string;
  readonly formatYear: (year: number) => string;
}

const WIDTH = 400;
const HEIGHT = 240;
const FONT = 12;
const TOP = 10;
const BOTTOM = 26;
const RIGHT = 8;

const path = (points: readonly (readonly [number, number])[]) =>
  points.map(([x, y], i) => `${i === 0 ? "M" : "L"}${x.toFixed(2)} ${y.toFixed(2)}`).join("");

/**
 * The simulator's fan chart: the 5-95 and 25-75 percentile bands, the median, the money put in
 * and the historical replay, over the months of the horizon (x axis in years).
 */
export function FanChart(props: FanChartProps) {
  const { titleId, descId } = useChartIds();
  const { p5, p25, p50, p75, p95, invested, historical, goal, labels } = props;
  const months = p50.length - 1;
  const all = [...p5, ...p95, ...invested, ...historical, ...(goal !== null ? [goal] : [])];
  const nice = niceTicks(Math.min(0, ...all), Math.max(...all), 5);
  const yLabels = nice.ticks.map((t) => ({ t, text: props.formatValue(t) }));
  const left = Math.ceil(Math.max(24, ...yLabels.map((l) => textWidth(l.text, FONT))) + 8);
  const bottom = HEIGHT - BOTTOM;
  const x = linearScale([0, Math.max(1, months)], [left, WIDTH - RIGHT]);
  const y = linearScale([nice.min, nice.max], [bottom, TOP]);
  const years = months / 12;
  const yearStep = years <= 5 ? 1 : years <= 10 ? 2 : years <= 25 ? 5 : 10;
  const yearTicks: number[] = [];
  for (let k = 0; k <= years; k += yearStep) yearTicks.push(k);
  const line = (values: readonly number[]) => path(values.map((v, k) => [x(k), y(v)] as const));
  const band = (lower: readonly number[], upper: readonly number[]) =>
    `${path([
      ...upper.map((v, k) => [x(k), y(v)] as const),
      ...lower.map((v, k) => [x(k), y(v)] as const).reverse(),
    ])}Z`;
  return (
    <figure className="chart chart-fan">
      <figcaption className="chart-title">{props.title}</figcaption>
      <svg
        className="chart-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
      >
        <SvgLabel
          titleId={titleId}
          descId={descId}
          title={props.title}
          description={props.description}
        />
        {yLabels.map(({ t, text }) => (
          <g key={t}>
            <line
              className={t === 0 ? "chart-axis" : "chart-grid"}
              x1={left}
              x2={WIDTH - RIGHT}
              y1={y(t)}
              y2={y(t)}
            />
            <text className="chart-tick-label" x={left - 6} y={y(t) + FONT / 3} textAnchor="end">
              {text}
            </text>
          </g>
        ))}
        {yearTicks.map((k, i) => (
          <g key={k}>
            <line
              className="chart-tick"
              x1={x(k * 12)}
              x2={x(k * 12)}
              y1={bottom}
              y2={bottom + 4}
            />
            <text
              className="chart-tick-label"
              x={x(k * 12)}
              y={bottom + 4 + FONT}
              textAnchor={i === 0 ? "start" : k * 12 >= months ? "end" : "middle"}
            >
              {props.formatYear(k)}
            </text>
          </g>
        ))}
        <path className="fan-outer" d={band(p5, p95)} />
        <path className="fan-inner" d={band(p25, p75)} />
        {goal !== null ? (
          <line className="fan-goal" x1={left} x2={WIDTH - RIGHT} y1={y(goal)} y2={y(goal)} />
        ) : null}
        <path className="fan-invested" d={line(invested)} />
        {historical.length > 1 ? <path className="fan-historical" d={line(historical)} /> : null}
        <path className="fan-median" d={line(p50)} />
      </svg>
      <ul className="chart-legend chart-legend-inline fan-legend" aria-hidden="true">
        <li>
          <span className="fan-swatch fan-swatch-outer" />
          {labels.outer}
        </li>
        <li>
          <span className="fan-swatch fan-swatch-inner" />
          {labels.inner}
        </li>
        <li>
          <span className="fan-swatch fan-swatch-median" />
          {labels.median}
        </li>
        <li>
          <span className="fan-swatch fan-swatch-invested" />
          {labels.invested}
        </li>
        {historical.length > 1 ? (
          <li>
            <span className="fan-swatch fan-swatch-historical" />
            {labels.historical}
          </li>
        ) : null}
        {goal !== null ? (
          <li>
            <span className="fan-swatch fan-swatch-goal" />
            {labels.goal}
          </li>
        ) : null}
      </ul>
    </figure>
  );
}
