import type { ReactNode } from "react";
import { TableScroll } from "../data-table.tsx";

export interface HeatMapItem {
  /** The short label of its row and column (a symbol). */
  readonly short: string;
  /** Its full name (the row header, and the column header's title). */
  readonly name: string;
}

export interface HeatMapProps {
  readonly title: string;
  readonly items: ReadonlyArray<HeatMapItem>;
  /** matrix[i][j], in the order of `items`, between -1 and 1. */
  readonly matrix: ReadonlyArray<ReadonlyArray<number>>;
  readonly formatValue: (value: number) => string;
  /** One more column after the matrix (e.g. each row's average), with its heading. */
  readonly extra?: { readonly header: string; readonly cell: (index: number) => ReactNode };
  /** Names the colour scale's ends, e.g. "−1: move opposite" and "+1: move together". */
  readonly legend: { readonly low: string; readonly mid: string; readonly high: string };
  /** Heading of the corner cell (the rows' column). */
  readonly corner: string;
  readonly testId?: string;
}

/**
 * The fill of a value of -1 … 1: white at 0, towards blue below and towards red above, light
 * enough at both ends for dark text (contrast above 4.5:1).
 */
export function heatColor(value: number): string {
  const v = Math.max(-1, Math.min(1, Number.isFinite(value) ? value : 0));
  const lightness = 97 - Math.abs(v) * 33;
  const [hue, saturation] = v >= 0 ? [8, 85] : [212, 80];
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS colour, not a text
  return `hsl(${hue} ${saturation}% ${lightness}%)`;
}

/**
 * A matrix of values between -1 and 1 (correlations) as a table whose cells are coloured by value:
 * a table for screen readers and for reading the numbers, a heat map to the eye. Columns are headed
 * by short labels (full names in the row headers and as abbreviations' titles); the table scrolls
 * in its own region on a phone.
 */
export function HeatMap({
  title,
  items,
  matrix,
  formatValue,
  extra,
  legend,
  corner,
  testId,
}: HeatMapProps) {
  return (
    <figure className="chart heat-map" data-chart="heat-map" data-testid={testId}>
      <figcaption className="chart-title">{title}</figcaption>
      <TableScroll label={title}>
        <table className="heat-map-table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{corner}</th>
              {items.map((it) => (
                <th key={it.short} scope="col">
                  <abbr title={it.name}>{it.short}</abbr>
                </th>
              ))}
              {extra ? <th scope="col">{extra.header}</th> : null}
            </tr>
          </thead>
          <tbody>
            {items.map((it, i) => (
              <tr key={it.short}>
                <th scope="row">
                  <span className="heat-map-short">{it.short}</span>{" "}
                  <span className="heat-map-name">{it.name}</span>
                </th>
                {items.map((col, j) => {
                  const v = matrix[i]?.[j] ?? NaN;
                  return (
                    <td
                      key={col.short}
                      className="heat-map-cell"
                      style={{ background: heatColor(v) }}
                    >
                      {Number.isFinite(v) ? formatValue(v) : ""}
                    </td>
                  );
                })}
                {extra ? <td>{extra.cell(i)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <div className="heat-map-legend" aria-hidden="true">
        <span className="heat-map-ramp" />
        <span className="heat-map-legend-labels">
          <span>{legend.low}</span>
          <span>{legend.mid}</span>
          <span>{legend.high}</span>
        </span>
      </div>
    </figure>
  );
}
