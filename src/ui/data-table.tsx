import { useLingui } from "@lingui/react/macro";
import { useId, type ReactNode } from "react";

/** A column of a data table: its heading (also each card's label for its value) and its cell. */
export interface DataColumn<R> {
  readonly key: string;
  readonly header: string;
  readonly cell: (row: R) => ReactNode;
  /** A class name of the cell (e.g. "negative"). */
  readonly className?: (row: R) => string | undefined;
  /** A test id of the cell. */
  readonly testId?: (row: R) => string | undefined;
}

/** Rows under a heading of their own (a stock exchange, an asset class). */
export interface DataTableGroup<R> {
  readonly key: string;
  readonly label: ReactNode;
  readonly rows: readonly R[];
}

export interface DataTableProps<R> {
  /** Names the table; visually hidden unless `captionVisible`. */
  readonly caption: string;
  readonly captionVisible?: boolean;
  /** The first column names each row (its row header, the card's title on a phone). */
  readonly columns: readonly [DataColumn<R>, ...DataColumn<R>[]];
  readonly rows?: readonly R[];
  /** Rows in groups, each with a heading row (instead of `rows`). */
  readonly groups?: readonly DataTableGroup<R>[];
  readonly rowKey: (row: R) => string;
  /** Attributes of a row: data-*, aria-current, its class name (e.g. the user's own row). */
  readonly rowProps?: (row: R) => Record<string, string | undefined>;
  /** A total row, cell by cell in column order (the first names it; null: no total there). */
  readonly footer?: readonly ReactNode[];
  /** The first column has no heading (a comparison's corner). */
  readonly emptyCorner?: boolean;
  readonly className?: string;
  readonly testId?: string;
}

/**
 * A table of rows of figures that becomes a list of cards on a phone (at 600 px and less, in
 * styles.css): each row a card titled by its first cell, each other cell a label (its column's
 * heading, from `data-label`) and its value. The roles are written out, so the rows, headers and
 * cells stay a table for screen readers when the cards change how they are displayed.
 */
export function DataTable<R>({
  caption,
  captionVisible = false,
  columns,
  rows,
  groups,
  rowKey,
  rowProps,
  footer,
  emptyCorner = false,
  className,
  testId,
}: DataTableProps<R>) {
  const [first, ...rest] = columns;
  const row = (r: R) => (
    <tr key={rowKey(r)} role="row" {...rowProps?.(r)}>
      <th
        scope="row"
        role="rowheader"
        className={first.className?.(r)}
        data-testid={first.testId?.(r)}
      >
        {first.cell(r)}
      </th>
      {rest.map((c) => (
        <td
          key={c.key}
          role="cell"
          data-label={c.header}
          className={c.className?.(r)}
          data-testid={c.testId?.(r)}
        >
          {c.cell(r)}
        </td>
      ))}
    </tr>
  );
  return (
    <table
      role="table"
      className={["data-table", "card-table", className].filter(Boolean).join(" ")}
      data-testid={testId}
    >
      <caption className={captionVisible ? undefined : "visually-hidden"}>{caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((c, i) =>
            i === 0 && emptyCorner ? (
              <td key={c.key} role="cell" />
            ) : (
              <th key={c.key} scope="col" role="columnheader">
                {c.header}
              </th>
            ),
          )}
        </tr>
      </thead>
      {groups ? (
        groups.map((g) => (
          <tbody key={g.key} role="rowgroup">
            <tr role="row" className="group-row">
              <th scope="colgroup" role="columnheader" colSpan={columns.length}>
                {g.label}
              </th>
            </tr>
            {g.rows.map(row)}
          </tbody>
        ))
      ) : (
        <tbody role="rowgroup">{(rows ?? []).map(row)}</tbody>
      )}
      {footer ? (
        <tfoot role="rowgroup">
          <tr role="row" className="total-row">
            <th scope="row" role="rowheader">
              {footer[0]}
            </th>
            {rest.map((c, i) => {
              const value = footer[i + 1];
              // A column with no total has no line on the total's card.
              const empty = value === null || value === undefined || value === "";
              return (
                <td
                  key={c.key}
                  role="cell"
                  data-label={empty ? undefined : c.header}
                  className={empty ? "empty-cell" : undefined}
                >
                  {value}
                </td>
              );
            })}
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}

/**
 * A table that stays a table on a phone (too many columns to read as cards): it scrolls in its own
 * focusable, labelled region, and says so on a phone ("Scroll for more columns").
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useLingui();
  const hintId = useId();
  return (
    <div className="table-scroll-frame">
      <p className="table-scroll-hint" id={hintId}>
        {t`Scroll for more columns`} <span aria-hidden="true">→</span>
      </p>
      <div
        className="table-scroll"
        role="region"
        aria-label={label}
        aria-describedby={hintId}
        tabIndex={0}
      >
        {children}
      </div>
    </div>
  );
}
