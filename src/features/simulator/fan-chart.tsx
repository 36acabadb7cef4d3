import {
  AXIS_TITLE_ROOM,
  AxisTitle,
  ChartSvg,
  labelWidth,
  useChartWidth,
} from "../../ui/charts/frame.tsx";
import { labelsFit, linearScale, valueAxis } from "../../ui/charts/scale.ts";
import { ValueGrid } from "../../ui/charts/x-axis.tsx";

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
    /** The horizontal axis's title, with its unit, e.g. "Years from today". */
    readonly xTitle: string;
    /** The value axis's title, with its unit, e.g. "Value of the plan (USD)". */
    readonly yTitle: string;
    /** The same on a logarithmic scale, e.g. "Value of the plan (USD, log scale)". */
    readonly yTitleLog: string;
  };
  /** A tick of the value axis, compact (e.g. "$1.2M", "1,2 M $"). */
  readonly formatValue: (value: number) => string;
  readonly formatYear: (year: number) => string;
}

const FONT = 12;
const TOP = 10;
/** Tick, gap and label under the plot. */
const X_AXIS = 4 + FONT + 6;
const RIGHT = 8;
/** Pixels between two value ticks: a label's height and more. */
const Y_SPACING = 34;

const path = (points: readonly (readonly [number, number])[]) =>
  points.map(([x, y], i) => `${i === 0 ? "M" : "L"}${x.toFixed(2)} ${y.toFixed(2)}`).join("");

/**
 * The years with a tick: a step of 1, 2, 5, 10 or 20 years, the smallest whose labels fit side by
 * side in `length` pixels. Exported for its tests.
 */
export function yearTicks(
  years: number,
  length: number,
  label: (year: number) => string,
  measure: (text: string) => number,
): number[] {
  let ticks: number[] = [0];
  for (const step of [1, 2, 5, 10, 20]) {
    ticks = [];
    for (let k = 0; k <= years + 1e-9; k += step) ticks.push(k);
    const fit = labelsFit(
      ticks.map((k) => ({ at: (k / Math.max(years, 1e-9)) * length, width: measure(label(k)) })),
      -Infinity,
      Infinity,
      10,
    );
    if (fit) return ticks;
  }
  return ticks;
}

/**
 * The simulator's fan chart: the 5-95 and 25-75 percentile bands, the median, the money put in
 * and the historical replay, over the months of the horizon (x axis in years). Laid out in the
 * pixels of its box (text keeps its size on a phone); the value axis is logarithmic when the
 * figures span more than two orders of magnitude, so that the median, the money put in and the
 * goal do not lie flat on the floor beside a 95th percentile of hundreds of millions.
 */
export function FanChart(props: FanChartProps) {
  const [box, width] = useChartWidth();
  const { p5, p25, p50, p75, p95, invested, historical, goal, labels } = props;
  const months = p50.length - 1;
  const plotHeight = width < 480 ? 220 : 260;
  const height = TOP + plotHeight + X_AXIS + AXIS_TITLE_ROOM;
  const bottom = TOP + plotHeight;
  const all = [...p5, ...p95, ...invested, ...historical, ...(goal !== null ? [goal] : [])];
  const axis = valueAxis(all, [bottom, TOP], { spacing: Y_SPACING, zero: true });
  const y = axis.scale;
  const yLabels = axis.ticks.map((t) => ({ t, text: props.formatValue(t) }));
  const measure = (text: string) => labelWidth(text, FONT);
  const left =
    AXIS_TITLE_ROOM + Math.ceil(Math.max(24, ...yLabels.map((l) => measure(l.text)))) + 8;
  const years = months / 12;
  // The last year's label is centred on the right edge: leave room for its half.
  const right = Math.max(RIGHT, Math.ceil(measure(props.formatYear(Math.floor(years))) / 2) + 2);
  const x = linearScale([0, Math.max(1, months)], [left, width - right]);
  const ticks = yearTicks(years, width - right - left, props.formatYear, measure);
  const line = (values: readonly number[]) => path(values.map((v, k) => [x(k), y(v)] as const));
  const band = (lower: readonly number[], upper: readonly number[]) =>
    `${path([
      ...upper.map((v, k) => [x(k), y(v)] as const),
      ...lower.map((v, k) => [x(k), y(v)] as const).reverse(),
    ])}Z`;
  const yTitle = axis.kind === "log" ? labels.yTitleLog : labels.yTitle;
  return (
    <figure className="chart chart-fan">
      <figcaption className="chart-title">{props.title}</figcaption>
      <div className="chart-box" ref={box}>
        <ChartSvg
          width={width}
          height={height}
          title={props.title}
          description={`${props.description} ${yTitle}.`}
          data-scale={axis.kind}
        >
          <ValueGrid
            ticks={yLabels}
            y={y}
            left={left}
            right={width - right}
            bottom={bottom}
            font={FONT}
          />
          {ticks.map((k) => (
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
                textAnchor="middle"
              >
                {props.formatYear(k)}
              </text>
            </g>
          ))}
          <AxisTitle text={yTitle} side="left" x={FONT} y={(TOP + bottom) / 2} room={plotHeight} />
          <AxisTitle
            text={labels.xTitle}
            side="bottom"
            x={(left + width - right) / 2}
            y={height - 4}
            room={width - right - left}
          />
          <path className="fan-outer" d={band(p5, p95)} />
          <path className="fan-inner" d={band(p25, p75)} />
          {goal !== null ? (
            <line className="fan-goal" x1={left} x2={width - right} y1={y(goal)} y2={y(goal)} />
          ) : null}
          <path className="fan-invested" d={line(invested)} />
          {historical.length > 1 ? <path className="fan-historical" d={line(historical)} /> : null}
          <path className="fan-median" d={line(p50)} />
        </ChartSvg>
      </div>
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
