import {
  ChartEmpty,
  ChartFigure,
  ChartSvg,
  type ChartTextProps,
  defaultFormatShare,
  PALETTE_SIZE,
  paletteColor,
} from "./frame.tsx";
import { arcPath, donutArcs, groupSlices, type Slice } from "./scale.ts";

export interface AllocationChartProps extends ChartTextProps {
  /** Weights or amounts; slices that are not positive and finite are left out. */
  readonly slices: ReadonlyArray<Slice>;
  readonly formatValue: (value: number) => string;
  /** Label of the slice that gathers the smallest ones past the tenth colour. */
  readonly otherLabel: string;
  /** Formats a share of the total (0.125); default: a percentage in the page's locale. */
  readonly formatShare?: (share: number) => string;
  /** Column headers of the hidden data table: slice, value, share. */
  readonly columnLabels?: {
    readonly label: string;
    readonly value: string;
    readonly share: string;
  };
}

const SIZE = 200;
const OUTER = 96;
const INNER = 58;

/** A donut of portfolio weights with a legend (label, value, percentage). */
export function AllocationChart({
  slices,
  title,
  description,
  formatValue,
  otherLabel,
  formatShare = defaultFormatShare,
  columnLabels,
  emptyLabel,
  className,
}: AllocationChartProps) {
  const grouped = groupSlices(slices, otherLabel, PALETTE_SIZE);
  if (grouped.length === 0)
    return (
      <ChartFigure title={title} kind="allocation" className={className}>
        <ChartEmpty label={emptyLabel} />
      </ChartFigure>
    );
  const arcs = donutArcs(grouped.map((s) => s.value));
  const c = SIZE / 2;
  return (
    <ChartFigure title={title} kind="allocation" className={className}>
      <div className="chart-allocation-body">
        <ChartSvg
          width={SIZE}
          height={SIZE}
          title={title}
          description={description}
          className="chart-svg chart-donut"
        >
          {grouped.map((s, i) => {
            const arc = arcs[i];
            if (!arc) return null;
            return (
              <path
                key={s.key}
                className="chart-slice"
                d={arcPath(c, c, OUTER, INNER, arc.startAngle, arc.endAngle)}
                fill={s.isOther ? "var(--chart-other)" : paletteColor(i)}
                fillRule="evenodd"
              />
            );
          })}
        </ChartSvg>
        <ul className="chart-legend" aria-hidden="true">
          {grouped.map((s, i) => (
            <li key={s.key}>
              <span
                className="chart-swatch"
                style={{ background: s.isOther ? "var(--chart-other)" : paletteColor(i) }}
              />
              <span className="chart-legend-label">{s.label}</span>
              <span className="chart-legend-value">
                {formatValue(s.value)}{" "}
                <span className="chart-legend-share">{formatShare(s.share)}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <table className="visually-hidden">
        <caption>{title}</caption>
        {columnLabels ? (
          <thead>
            <tr>
              <th scope="col">{columnLabels.label}</th>
              <th scope="col">{columnLabels.value}</th>
              <th scope="col">{columnLabels.share}</th>
            </tr>
          </thead>
        ) : null}
        <tbody>
          {grouped.map((s) => (
            <tr key={s.key}>
              <th scope="row">{s.label}</th>
              <td>{formatValue(s.value)}</td>
              <td>{formatShare(s.share)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFigure>
  );
}
