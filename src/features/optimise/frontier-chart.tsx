import { useId } from "react";
import { AXIS_TITLE_ROOM, AxisTitle, labelWidth, useChartWidth } from "../../ui/charts/frame.tsx";
import { fitHorizontalTicks, linearScale, valueAxis } from "../../ui/charts/index.ts";

export interface FrontierPoint {
  /** Monthly volatility (fraction). */
  readonly volatility: number;
  /** Annual expected return (fraction). */
  readonly expectedReturn: number;
}

/** An asset alone on the frontier's axes, labelled with its symbol (its name in the table). */
export interface FrontierHolding extends FrontierPoint {
  readonly symbol: string;
  readonly name: string;
}

export interface FrontierChartProps {
  readonly title: string;
  readonly description: string;
  readonly frontier: readonly FrontierPoint[];
  readonly current: FrontierPoint;
  readonly optimised: FrontierPoint;
  /** The portfolio's assets, each as a point beside the portfolio (none: not drawn). */
  readonly holdings?: readonly FrontierHolding[];
  readonly labels: {
    /** The volatility: the horizontal axis's title (with its unit) and the table's column. */
    readonly risk: string;
    /** The expected return: the vertical axis's title (with its unit) and the table's column. */
    readonly expectedReturn: string;
    readonly frontier: string;
    readonly current: string;
    readonly optimised: string;
    /** The legend of the assets' points ("Holdings"). */
    readonly holdings?: string;
    /** A holding's row of the table and its point's tooltip, e.g. "Apple (AAPL)". */
    readonly holding?: (h: FrontierHolding) => string;
    readonly point: (n: number) => string;
    /** What opens the table of the figures. */
    readonly table: string;
  };
  /** A share as a percentage, with `digits` decimals (the ticks') or the caller's own. */
  readonly formatShare: (v: number, digits?: number) => string;
}

const PLOT_HEIGHT = 240;
const HEIGHT = PLOT_HEIGHT + AXIS_TITLE_ROOM;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 24;
const FONT = 12;
/** Pixels between two value ticks. */
const Y_SPACING = 34;

/**
 * Decimals of a percentage that tell ticks `step` apart (a step of 1, 2 or 5 times a power of
 * ten): 0.5 % needs one, 0.02 % two, 5 % none.
 */
export function tickDigits(step: number): number {
  if (!(step > 0)) return 1;
  return Math.min(10, Math.max(0, -Math.floor(Math.log10(step * 100) + 1e-9)));
}

/**
 * The efficient frontier (risk against expected return) with the current and the optimised
 * portfolios marked, and the same figures as a table. Both axes are titled; the ticks have the
 * decimals their step needs, and there are as many volatility ticks as fit side by side in the
 * chart's width. Laid out in the pixels of its box, so that its text keeps its size on a phone.
 */
export function FrontierChart(p: FrontierChartProps) {
  const id = useId();
  const [box, width] = useChartWidth();
  const measure = (text: string) => labelWidth(text, FONT);
  const holdings = p.holdings ?? [];
  const all = [...p.frontier, p.current, p.optimised, ...holdings];
  const bottom = PLOT_HEIGHT - BOTTOM;
  const ys = valueAxis(
    all.map((v) => v.expectedReturn),
    [bottom, TOP],
    // Returns, not levels: never a log scale (a holding near 0 % would set one off, and sink).
    { spacing: Y_SPACING, maxCount: 4, log: false },
  );
  const yDigits = ys.kind === "log" ? 2 : tickDigits(ys.step);
  const yLabels = ys.ticks.map((t) => ({ t, text: p.formatShare(t, yDigits) }));
  const left =
    AXIS_TITLE_ROOM + Math.ceil(Math.max(24, ...yLabels.map((l) => measure(l.text)))) + 8;
  const vols = all.map((v) => v.volatility);
  // Room for half of a volatility label right of the plot (the last one is centred on its edge).
  const right = Math.max(RIGHT, Math.ceil(measure(p.formatShare(Math.max(...vols), 2)) / 2) + 2);
  const xs = fitHorizontalTicks(
    Math.min(...vols),
    Math.max(...vols),
    width - right - left,
    (t, step) => p.formatShare(t, tickDigits(step)),
    measure,
    { maxCount: 6 },
  );
  const xLabels = xs.ticks.map((t, k) => ({ t, text: xs.labels[k] ?? "" }));
  const x = linearScale([xs.min, xs.max], [left, width - right]);
  const y = ys.scale;
  const path = p.frontier
    .map(
      (v, i) =>
        `${i === 0 ? "M" : "L"}${x(v.volatility).toFixed(1)},${y(v.expectedReturn).toFixed(1)}`,
    )
    .join(" ");
  const ox = x(p.optimised.volatility);
  const oy = y(p.optimised.expectedReturn);
  const holdingName = (h: FrontierHolding) => p.labels.holding?.(h) ?? h.symbol;
  const marks = holdingMarks(
    holdings.map((h) => ({ h, cx: x(h.volatility), cy: y(h.expectedReturn) })),
    measure,
    width - right,
  );
  return (
    <figure className="chart chart-frontier">
      <figcaption className="chart-title">{p.title}</figcaption>
      <div className="chart-box" ref={box}>
        <svg
          viewBox={`0 0 ${width} ${HEIGHT}`}
          data-scale={ys.kind}
          role="img"
          aria-labelledby={`${id}-t ${id}-d`}
          className="chart-svg frontier-svg"
        >
          <title id={`${id}-t`}>{p.title}</title>
          <desc id={`${id}-d`}>{p.description}</desc>
          {yLabels.map(({ t, text }) => (
            <g key={`y${t}`}>
              <line className="chart-grid" x1={left} x2={width - right} y1={y(t)} y2={y(t)} />
              <text className="chart-tick-label" x={left - 6} y={y(t) + FONT / 3} textAnchor="end">
                {text}
              </text>
            </g>
          ))}
          {xLabels.map(({ t, text }) => (
            <g key={`x${t}`}>
              <line className="chart-tick" x1={x(t)} x2={x(t)} y1={bottom} y2={bottom + 4} />
              <text className="chart-tick-label" x={x(t)} y={bottom + 4 + FONT} textAnchor="middle">
                {text}
              </text>
            </g>
          ))}
          <line className="chart-axis" x1={left} x2={width - right} y1={bottom} y2={bottom} />
          <line className="chart-axis" x1={left} x2={left} y1={TOP} y2={bottom} />
          <AxisTitle
            text={p.labels.expectedReturn}
            side="left"
            x={FONT}
            y={(TOP + bottom) / 2}
            room={bottom - TOP}
          />
          <AxisTitle
            text={p.labels.risk}
            side="bottom"
            x={(left + width - right) / 2}
            y={HEIGHT - 4}
            room={width - right - left}
          />
          <path className="frontier-line" d={path} />
          {p.frontier.map((v, i) => (
            <circle
              key={i}
              className="frontier-dot"
              cx={x(v.volatility)}
              cy={y(v.expectedReturn)}
              r={2}
            />
          ))}
          {marks.map(({ h, cx, cy, tx, ty, anchor }) => (
            <g key={h.symbol} className="frontier-holding" data-symbol={h.symbol}>
              <title>{holdingName(h)}</title>
              <rect className="frontier-holding-mark" x={cx - 4} y={cy - 4} width={8} height={8} />
              <text className="frontier-holding-label" x={tx} y={ty} textAnchor={anchor}>
                {h.symbol}
              </text>
            </g>
          ))}
          <circle
            className="frontier-current"
            cx={x(p.current.volatility)}
            cy={y(p.current.expectedReturn)}
            r={6}
          />
          <path
            className="frontier-optimised"
            d={`M${ox},${oy - 7} L${ox + 7},${oy} L${ox},${oy + 7} L${ox - 7},${oy} Z`}
          />
        </svg>
      </div>
      <ul className="chart-legend chart-legend-inline" aria-hidden="true">
        <li>
          <span className="frontier-key frontier-key-line" />
          <span className="chart-legend-label">{p.labels.frontier}</span>
        </li>
        <li>
          <span className="frontier-key frontier-key-current" />
          <span className="chart-legend-label">{p.labels.current}</span>
        </li>
        <li>
          <span className="frontier-key frontier-key-optimised" />
          <span className="chart-legend-label">{p.labels.optimised}</span>
        </li>
        {holdings.length > 0 && p.labels.holdings ? (
          <li>
            <span className="frontier-key frontier-key-holding" />
            <span className="chart-legend-label">{p.labels.holdings}</span>
          </li>
        ) : null}
      </ul>
      <details className="chart-data">
        <summary>{p.labels.table}</summary>
        <div className="table-scroll">
          <table data-testid="frontier-table">
            <thead>
              <tr>
                <td />
                <th scope="col">{p.labels.risk}</th>
                <th scope="col">{p.labels.expectedReturn}</th>
              </tr>
            </thead>
            <tbody>
              {[
                ...p.frontier.map((v, i) => ({ label: p.labels.point(i + 1), v })),
                { label: p.labels.current, v: p.current },
                { label: p.labels.optimised, v: p.optimised },
                ...holdings.map((h) => ({ label: holdingName(h), v: h, symbol: h.symbol })),
              ].map(({ label, v, ...rest }) => (
                <tr key={label} data-symbol={"symbol" in rest ? rest.symbol : undefined}>
                  <th scope="row">{label}</th>
                  <td>{p.formatShare(v.volatility, 2)}</td>
                  <td>{p.formatShare(v.expectedReturn, 2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

const LABEL_FONT = 11;

/**
 * Where each holding's symbol goes: right of its mark (left of it near the plot's right edge),
 * moved down a line when it would cover a label already placed (points close together).
 */
function holdingMarks(
  points: readonly { h: FrontierHolding; cx: number; cy: number }[],
  measure: (text: string) => number,
  plotRight: number,
) {
  const placed: { x0: number; x1: number; y: number }[] = [];
  return [...points]
    .sort((a, b) => a.cy - b.cy || a.cx - b.cx)
    .map((pt) => {
      const w = (measure(pt.h.symbol) * LABEL_FONT) / FONT;
      const leftSide = pt.cx + 7 + w > plotRight;
      const x0 = leftSide ? pt.cx - 7 - w : pt.cx + 7;
      let ty = pt.cy + LABEL_FONT / 3;
      while (placed.some((q) => q.x0 < x0 + w && x0 < q.x1 && Math.abs(q.y - ty) < LABEL_FONT))
        ty += LABEL_FONT;
      placed.push({ x0, x1: x0 + w, y: ty });
      return {
        ...pt,
        tx: leftSide ? pt.cx - 7 : pt.cx + 7,
        ty,
        anchor: leftSide ? ("end" as const) : ("start" as const),
      };
    });
}
