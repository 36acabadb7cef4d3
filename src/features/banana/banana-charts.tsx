import { Trans, useLingui } from "@lingui/react/macro";
import type { BananaHistory, MonkeyDistribution } from "../../contract/banana.ts";
import type { Locale } from "../../contract/common.ts";
import { LineChart, linearScale, niceTicks } from "../../ui/charts/index.ts";
import { AXIS_TITLE_ROOM, AxisTitle, ChartFigure, ChartSvg } from "../../ui/charts/frame.tsx";
import { VerticalMarks, XAxis } from "../../ui/charts/x-axis.tsx";
import { formatDate, formatNumber } from "../../ui/format.ts";
import { percentileText, signedPercent } from "./banana-format.ts";

/** One bar of the monkeys' distribution: 5% of the monkeys between two quantiles. */
export interface QuantileBar {
  readonly from: number;
  readonly to: number;
  /** Share of the monkeys in the bar (1 / 20). */
  readonly share: number;
  /** Share per unit of return (the bar's height). */
  readonly density: number;
}

/**
 * The 21 quantiles (0%, 5%, ..., 100%) as 20 bars of equal mass: a bar's area is the share of the
 * monkeys between its quantiles, so its height is that share over its width. A bar narrower than
 * 1/200 of the whole range is drawn that wide (equal quantiles would be infinitely tall).
 */
export function quantileBars(quantiles: readonly number[]): QuantileBar[] {
  const n = quantiles.length - 1;
  if (n < 1) return [];
  const lo = quantiles[0]!;
  const hi = quantiles[n]!;
  const minWidth = Math.max((hi - lo) / 200, 1e-9);
  const share = 1 / n;
  return quantiles.slice(0, n).map((from, i) => {
    const to = quantiles[i + 1]!;
    return { from, to, share, density: share / Math.max(to - from, minWidth) };
  });
}

const WIDTH = 400;
const FONT = 12;
const PAD_X = 8;
const LABEL_ROW = 15;
const PLOT = 140;
const AXIS = 24;
const markerDash = { you: undefined, monkey: "6 3", mean: "2 3" } as const;

/**
 * Where the portfolio stands among the 10,000 monkeys: their distribution of returns (from its
 * quantiles), the monkeys it beats shaded, and lines at its return, the monkey's and the mean.
 */
export function MonkeyDistributionChart({
  distribution,
  portfolioReturn,
  monkeyReturn,
  locale,
}: {
  distribution: MonkeyDistribution;
  portfolioReturn: number;
  monkeyReturn: number | null;
  locale: Locale;
}) {
  const { t } = useLingui();
  const fmt = (v: number) => signedPercent(v, locale);
  const bars = quantileBars(distribution.quantiles);
  const count = formatNumber(distribution.count, locale);
  const beaten = percentileText(distribution.percentile, locale);
  const markers = [
    { key: "you", label: t`Your portfolio`, value: portfolioReturn, tone: "you" as const },
    ...(monkeyReturn === null
      ? []
      : [{ key: "monkey", label: t`Your monkey`, value: monkeyReturn, tone: "monkey" as const }]),
    { key: "mean", label: t`Mean of the monkeys`, value: distribution.mean, tone: "mean" as const },
  ];
  const values = [...distribution.quantiles, ...markers.map((m) => m.value)];
  const nice = niceTicks(Math.min(...values), Math.max(...values), 5);
  const top = markers.length * LABEL_ROW + 6;
  const bottom = top + PLOT;
  const height = bottom + AXIS + AXIS_TITLE_ROOM;
  const plotLeft = PAD_X + AXIS_TITLE_ROOM;
  const x = linearScale([nice.min, nice.max], [plotLeft, WIDTH - PAD_X]);
  const maxDensity = Math.max(...bars.map((b) => b.density), 1e-9);
  const y = linearScale([0, maxDensity], [bottom, top + 4]);
  const cut = x(portfolioReturn);
  const layout = { x, width: WIDTH, padX: PAD_X, font: FONT, left: plotLeft };
  const ticks = nice.ticks.map((value) => ({ value, text: fmt(value) }));
  const title = t`Your return among ${count} monkeys`;
  const description = t`Distribution of the returns of ${count} random portfolios of the same size, region and day; your portfolio beats ${beaten} of them.`;
  return (
    <ChartFigure title={title} kind="distribution" className="monkey-chart">
      <ChartSvg
        width={WIDTH}
        height={height}
        title={title}
        description={description}
        data-testid="monkey-chart"
      >
        {bars.map((b, i) => {
          const x0 = x(b.from);
          const x1 = Math.max(x(b.to), x0 + 1);
          const yTop = y(b.density);
          const parts =
            cut <= x0
              ? [{ from: x0, to: x1, beaten: false }]
              : cut >= x1
                ? [{ from: x0, to: x1, beaten: true }]
                : [
                    { from: x0, to: cut, beaten: true },
                    { from: cut, to: x1, beaten: false },
                  ];
          return parts.map((p, j) => (
            <rect
              key={`${i}-${j}`}
              className={p.beaten ? "monkey-bin beaten" : "monkey-bin"}
              x={p.from}
              y={yTop}
              width={Math.max(0, p.to - p.from)}
              height={bottom - yTop}
            />
          ));
        })}
        <XAxis ticks={ticks} bottom={bottom} layout={layout} />
        <AxisTitle
          text={t`Share of the monkeys`}
          side="left"
          x={FONT}
          y={(top + bottom) / 2}
          room={bottom - top}
        />
        <AxisTitle
          text={t`Return since creation`}
          side="bottom"
          x={(plotLeft + WIDTH - PAD_X) / 2}
          y={height - 4}
          room={WIDTH - PAD_X - plotLeft}
        />
        <VerticalMarks
          marks={markers.map((m) => ({
            ...m,
            className: `chart-marker monkey-marker-${m.tone}`,
            dash: markerDash[m.tone],
          }))}
          bottom={bottom}
          labelRow={LABEL_ROW}
          layout={layout}
        />
      </ChartSvg>
      <ul className="chart-legend chart-legend-inline" aria-hidden="true">
        <li>
          <span className="chart-swatch monkey-swatch beaten" />
          <span className="chart-legend-label">{t`Monkeys you beat`}</span>
        </li>
        {markers.map((m) => (
          <li key={m.key} className={`monkey-marker-${m.tone}`}>
            <span className="chart-legend-label">{m.label}</span>{" "}
            <span className="chart-legend-value">{fmt(m.value)}</span>
          </li>
        ))}
      </ul>
      <details className="banana-table-details">
        <summary>
          <Trans>The monkeys&apos; returns by percentile (table)</Trans>
        </summary>
        <div
          className="table-scroll"
          role="region"
          aria-label={t`The monkeys' returns by percentile`}
          tabIndex={0}
        >
          <table className="data-table">
            <caption className="visually-hidden">{t`The monkeys' returns by percentile`}</caption>
            <thead>
              <tr>
                <th scope="col">{t`Percentile`}</th>
                <th scope="col">{t`Monkeys' return`}</th>
              </tr>
            </thead>
            <tbody>
              {distribution.quantiles.map((q, i) => (
                <tr key={i}>
                  <th scope="row">
                    {formatNumber((i * 100) / (distribution.quantiles.length - 1), locale)}
                  </th>
                  <td>{fmt(q)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {markers.map((m) => (
                <tr key={m.key}>
                  <th scope="row">{m.label}</th>
                  <td>{fmt(m.value)}</td>
                </tr>
              ))}
            </tfoot>
          </table>
        </div>
      </details>
    </ChartFigure>
  );
}

/**
 * Returns since creation day by day: the portfolio, its monkey and the region's index, as lines
 * and as a table.
 */
export function ValuePathChart({
  history,
  indexName,
  locale,
}: {
  history: BananaHistory;
  indexName: string;
  locale: Locale;
}) {
  const { t } = useLingui();
  const fmt = (v: number) => signedPercent(v, locale);
  const date = (iso: string) => formatDate(iso, locale);
  const index = history.indexReturns.map((v) => v ?? NaN);
  const hasIndex = index.some((v) => Number.isFinite(v));
  const series = [
    { key: "portfolio", label: t`Your portfolio`, values: history.returns },
    { key: "monkey", label: t`Your monkey`, values: history.monkeyReturns },
    ...(hasIndex ? [{ key: "index", label: indexName, values: index }] : []),
  ];
  return (
    <>
      <LineChart
        title={t`Return since creation: your portfolio, your monkey and the ${indexName}`}
        description={t`Return since the creation day, one point per valuation day.`}
        dates={history.dates}
        series={series}
        formatValue={fmt}
        formatDate={date}
        dateLabel={t`Market date`}
        xTitle={t`Market date`}
        yTitle={t`Return since creation`}
        emptyLabel={t`No valuation yet.`}
      />
      <details className="banana-table-details">
        <summary>
          <Trans>The returns day by day (table)</Trans>
        </summary>
        <div
          className="table-scroll"
          role="region"
          aria-label={t`The returns day by day`}
          tabIndex={0}
        >
          <table className="data-table">
            <caption className="visually-hidden">{t`The returns day by day`}</caption>
            <thead>
              <tr>
                <th scope="col">{t`Date`}</th>
                {series.map((s) => (
                  <th key={s.key} scope="col">
                    {s.label}
                  </th>
                ))}
                <th scope="col">{t`Monkeys beaten`}</th>
              </tr>
            </thead>
            <tbody>
              {history.dates.map((d, i) => (
                <tr key={d}>
                  <th scope="row">{date(d)}</th>
                  {series.map((s) => {
                    const v = s.values[i];
                    return (
                      <td key={s.key}>{v !== undefined && Number.isFinite(v) ? fmt(v) : "—"}</td>
                    );
                  })}
                  <td>
                    {history.percentiles[i] === undefined
                      ? "—"
                      : percentileText(history.percentiles[i], locale)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
