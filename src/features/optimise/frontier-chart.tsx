import { useId } from "react";
import { linearScale, niceTicks } from "../../ui/charts/index.ts";

export interface FrontierPoint {
  /** Monthly volatility (fraction). */
  readonly volatility: number;
  /** Annual expected return (fraction). */
  readonly expectedReturn: number;
}

export interface FrontierChartProps {
  readonly title: string;
  readonly description: string;
  readonly frontier: readonly FrontierPoint[];
  readonly current: FrontierPoint;
  readonly optimised: FrontierPoint;
  readonly labels: {
    readonly risk: string;
    readonly expectedReturn: string;
    readonly frontier: string;
    readonly current: string;
    readonly optimised: string;
    readonly point: (n: number) => string;
  };
  readonly formatShare: (v: number) => string;
}

const WIDTH = 360;
const HEIGHT = 240;
const LEFT = 48;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 40;
const FONT = 11;

/**
 * The efficient frontier (risk against expected return) with the current and the optimised
 * portfolios marked, and the same figures as a table.
 */
export function FrontierChart(p: FrontierChartProps) {
  const id = useId();
  const all = [...p.frontier, p.current, p.optimised];
  const xs = niceTicks(
    Math.min(...all.map((v) => v.volatility)),
    Math.max(...all.map((v) => v.volatility)),
    4,
  );
  const ys = niceTicks(
    Math.min(...all.map((v) => v.expectedReturn)),
    Math.max(...all.map((v) => v.expectedReturn)),
    4,
  );
  const x = linearScale([xs.min, xs.max], [LEFT, WIDTH - RIGHT]);
  const y = linearScale([ys.min, ys.max], [HEIGHT - BOTTOM, TOP]);
  const path = p.frontier
    .map(
      (v, i) =>
        `${i === 0 ? "M" : "L"}${x(v.volatility).toFixed(1)},${y(v.expectedReturn).toFixed(1)}`,
    )
    .join(" ");
  const ox = x(p.optimised.volatility);
  const oy = y(p.optimised.expectedReturn);
  return (
    <figure className="chart chart-frontier">
      <figcaption className="chart-title">{p.title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        className="frontier-svg"
      >
        <title id={`${id}-t`}>{p.title}</title>
        <desc id={`${id}-d`}>{p.description}</desc>
        {ys.ticks.map((t) => (
          <g key={`y${t}`}>
            <line className="chart-grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(t)} y2={y(t)} />
            <text className="chart-tick-label" x={LEFT - 6} y={y(t) + FONT / 3} textAnchor="end">
              {p.formatShare(t)}
            </text>
          </g>
        ))}
        {xs.ticks.map((t) => (
          <g key={`x${t}`}>
            <line
              className="chart-tick"
              x1={x(t)}
              x2={x(t)}
              y1={HEIGHT - BOTTOM}
              y2={HEIGHT - BOTTOM + 4}
            />
            <text
              className="chart-tick-label"
              x={x(t)}
              y={HEIGHT - BOTTOM + 4 + FONT}
              textAnchor="middle"
            >
              {p.formatShare(t)}
            </text>
          </g>
        ))}
        <line
          className="chart-axis"
          x1={LEFT}
          x2={WIDTH - RIGHT}
          y1={HEIGHT - BOTTOM}
          y2={HEIGHT - BOTTOM}
        />
        <line className="chart-axis" x1={LEFT} x2={LEFT} y1={TOP} y2={HEIGHT - BOTTOM} />
        <text
          className="chart-tick-label"
          x={(LEFT + WIDTH - RIGHT) / 2}
          y={HEIGHT - 6}
          textAnchor="middle"
        >
          {p.labels.risk}
        </text>
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
      </ul>
      <details className="chart-data">
        <summary>
          {p.title}: {p.labels.frontier}
        </summary>
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
              ].map(({ label, v }) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{p.formatShare(v.volatility)}</td>
                  <td>{p.formatShare(v.expectedReturn)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
