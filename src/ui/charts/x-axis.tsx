import { labelWidth } from "./frame.tsx";
import { anchoredLabelStride } from "./scale.ts";

/** The horizontal layout both pieces below share: the plot's width, side padding and font size. */
export interface XLayout {
  readonly x: (value: number) => number;
  readonly width: number;
  readonly padX: number;
  readonly font: number;
  /** Where the plot starts on the left, when not at `padX` (room for an axis title). */
  readonly left?: number;
}

/**
 * A value axis along the bottom of a plot: the line, a tick per value, and as many of the labels as
 * fit without overlapping (the first and last aligned to the plot's edges).
 */
export function XAxis({
  ticks,
  bottom,
  layout: { x, width, padX, font, left = padX },
}: {
  ticks: ReadonlyArray<{ readonly value: number; readonly text: string }>;
  bottom: number;
  layout: XLayout;
}) {
  const every = anchoredLabelStride(
    ticks.map((t) => x(t.value)),
    ticks.map((t) => labelWidth(t.text, font)),
  );
  return (
    <>
      <line className="chart-axis" x1={left} x2={width - padX} y1={bottom} y2={bottom} />
      {ticks.map(({ value, text }, i) => {
        const tx = x(value);
        const anchor = i === 0 ? "start" : i === ticks.length - 1 ? "end" : "middle";
        return (
          <g key={value}>
            <line className="chart-tick" x1={tx} x2={tx} y1={bottom} y2={bottom + 4} />
            {i % every === 0 ? (
              <text className="chart-tick-label" x={tx} y={bottom + 4 + font} textAnchor={anchor}>
                {text}
              </text>
            ) : null}
          </g>
        );
      })}
    </>
  );
}

/**
 * The value axis of a plot drawn across it: a grid line at each tick (the axis line itself at zero)
 * with its label right-aligned left of the plot, and the base line along the bottom.
 */
export function ValueGrid({
  ticks,
  y,
  left,
  right,
  bottom,
  font,
}: {
  ticks: ReadonlyArray<{ readonly t: number; readonly text: string }>;
  y: (value: number) => number;
  left: number;
  right: number;
  bottom: number;
  font: number;
}) {
  return (
    <>
      {ticks.map(({ t, text }) => (
        <g key={t}>
          <line
            className={t === 0 ? "chart-axis" : "chart-grid"}
            x1={left}
            x2={right}
            y1={y(t)}
            y2={y(t)}
          />
          <text className="chart-tick-label" x={left - 6} y={y(t) + font / 3} textAnchor="end">
            {text}
          </text>
        </g>
      ))}
      <line className="chart-axis" x1={left} x2={right} y1={bottom} y2={bottom} />
    </>
  );
}

export interface VerticalMark {
  readonly key: string;
  readonly label: string;
  readonly value: number;
  /** The class of the mark's group (its colour). */
  readonly className: string;
  /** The line's dash pattern; solid when undefined. */
  readonly dash: string | undefined;
}

/**
 * Vertical lines at values, each labelled in its own row above the plot (on the side with more
 * room), from its row down to the axis at `bottom`.
 */
export function VerticalMarks({
  marks,
  bottom,
  labelRow,
  layout: { x, width, font },
}: {
  marks: ReadonlyArray<VerticalMark>;
  bottom: number;
  labelRow: number;
  layout: XLayout;
}) {
  return marks.map((m, i) => {
    const mx = x(m.value);
    const labelY = 6 + i * labelRow + font - 2;
    const right = mx > width / 2;
    return (
      <g key={m.key} className={m.className}>
        <line x1={mx} x2={mx} y1={labelY + 3} y2={bottom} strokeDasharray={m.dash} />
        <text x={right ? mx - 4 : mx + 4} y={labelY} textAnchor={right ? "end" : "start"}>
          {m.label}
        </text>
      </g>
    );
  });
}
