import { Trans, useLingui } from "@lingui/react/macro";
import type * as Charts from "lightweight-charts";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { HistoryRange, PriceSeries } from "../../contract/market.ts";
import { formatDate, formatLongDate, toIntlLocale } from "../../ui/format.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { rangeLong, rangeShort, ranges } from "./market-format.ts";
import { LoadState, useMarketLoad } from "./market-parts.tsx";

type ChartLibrary = typeof Charts;

/** The charting library, loaded once, on the first chart (it is not in the initial bundle). */
let library: Promise<ChartLibrary> | null = null;
const loadLibrary = () => (library ??= import("lightweight-charts"));

/** Rows of the data table: at most this many, evenly spaced, the last close always included. */
export const TABLE_ROWS = 60;

export function tableRows(series: PriceSeries): number[] {
  const n = series.dates.length;
  const step = Math.max(1, Math.ceil(n / TABLE_ROWS));
  const rows: number[] = [];
  for (let k = n - 1; k >= 0; k -= step) rows.push(k);
  return rows.reverse();
}

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/** A #rrggbb colour with an alpha, for the area under the line (the canvas reads no CSS). */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x!, 16));
  return `rgba(${r},${g},${b},${alpha})`;
}

interface CanvasProps {
  readonly series: PriceSeries;
  readonly label: string;
  readonly locale: Locale;
  readonly formatValue: (value: number) => string;
}

/**
 * The price line on lightweight-charts' canvas, with a reading of the point under the crosshair
 * (pointer) or the chosen point (arrow keys, Home, End, Page Up/Down), and the same figures in a
 * table for screen readers.
 */
function ChartCanvas({ series, label, locale, formatValue }: CanvasProps) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const [lib, setLib] = useState<ChartLibrary | null>(null);
  const [failed, setFailed] = useState(false);
  const last = series.dates.length - 1;
  const [point, setPoint] = useState(last);
  const api = useRef<{ move: (index: number) => void } | null>(null);
  const readoutId = useId();

  useEffect(() => {
    let live = true;
    loadLibrary().then(
      (l) => live && setLib(l),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!lib || !el || last < 0) return;
    const chart = lib.createChart(el, {
      autoSize: true,
      layout: {
        background: { type: lib.ColorType.Solid, color: "transparent" },
        textColor: cssVar("--muted", "#4a5a57"),
        fontFamily: getComputedStyle(document.body).fontFamily,
      },
      grid: {
        vertLines: { visible: false },
        horzLines: { color: cssVar("--line", "#d5dfdd") },
      },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false },
      // Page scrolling stays with the page on phones; ranges are chosen with the buttons.
      handleScroll: false,
      handleScale: false,
      localization: {
        locale: toIntlLocale(locale),
        priceFormatter: formatValue,
      },
    });
    const primary = cssVar("--primary", "#0b5d55");
    const line = chart.addSeries(lib.AreaSeries, {
      lineColor: primary,
      topColor: withAlpha(primary, 0.25),
      bottomColor: withAlpha(primary, 0.02),
      lineWidth: 2,
      priceLineVisible: false,
    });
    line.setData(series.dates.map((time, k) => ({ time, value: series.closes[k]! })));
    chart.timeScale().fitContent();
    chart.subscribeCrosshairMove((param) => {
      if (param.logical === undefined || param.logical === null) return setPoint(last);
      setPoint(Math.max(0, Math.min(last, Math.round(param.logical))));
    });
    api.current = {
      move: (k) => line && chart.setCrosshairPosition(series.closes[k]!, series.dates[k]!, line),
    };
    return () => {
      api.current = null;
      chart.remove();
    };
  }, [lib, series, last, locale, formatValue]);

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.round(series.dates.length / 10));
    const moves: Record<string, number> = {
      ArrowLeft: point - 1,
      ArrowRight: point + 1,
      PageUp: point - page,
      PageDown: point + page,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const k = Math.max(0, Math.min(last, next));
    setPoint(k);
    api.current?.move(k);
  };

  if (last < 0)
    return (
      <p className="chart-empty">
        <Trans>No prices in this range.</Trans>
      </p>
    );
  const date = formatLongDate(series.dates[point]!, locale);
  const value = formatValue(series.closes[point]!);
  return (
    <>
      <p className="price-readout" id={readoutId} aria-live="polite" data-testid="chart-readout">
        <span className="price-readout-date">{date}</span>{" "}
        <strong className="price-readout-value">{value}</strong>
      </p>
      <p className="chart-axis-title price-axis-y" aria-hidden="true">
        <Trans>Closing price</Trans>
      </p>
      <div
        ref={box}
        className="price-canvas"
        tabIndex={0}
        role="group"
        aria-roledescription={t`chart`}
        aria-label={t`${label}: use the left and right arrow keys to read the closes`}
        aria-describedby={readoutId}
        onKeyDown={onKey}
      >
        {failed ? (
          <p className="chart-empty">
            <Trans>The chart could not be drawn; the figures are in the table.</Trans>
          </p>
        ) : !lib ? (
          <Spinner label={t`Loading the chart…`} />
        ) : null}
      </div>
      <p className="chart-axis-title price-axis-x" aria-hidden="true">
        <Trans>Market date</Trans>
      </p>
      {/* A table is as wide as its content whatever its width: the hidden box is a div. */}
      <div className="visually-hidden">
        <table>
          <caption>{t`${label}: closing prices`}</caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Date</Trans>
              </th>
              <th scope="col">
                <Trans>Closing price</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {tableRows(series).map((k) => (
              <tr key={series.dates[k]}>
                <th scope="row">{formatDate(series.dates[k]!, locale)}</th>
                <td>{formatValue(series.closes[k]!)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A range other than the one the page already has: the asset's history over it, from the API. */
function LoadedRange(props: Omit<CanvasProps, "series"> & { symbol: string; range: HistoryRange }) {
  const { t } = useLingui();
  const { symbol, range } = props;
  const { data, failed, retry } = useMarketLoad(
    (http) => http.call(endpoints.marketAsset, { params: { symbol }, query: { range } }),
    `${symbol}\u0000${range}`,
  );
  if (!data) return <LoadState failed={failed} retry={retry} loadingLabel={t`Loading prices…`} />;
  return <ChartCanvas {...props} series={data.history} />;
}

export interface PriceChartProps {
  readonly symbol: string;
  /** The instrument's name, for the chart's label and table caption. */
  readonly label: string;
  readonly locale: Locale;
  readonly formatValue: (value: number) => string;
  /** The series the page already has, and its range (no call for it). */
  readonly initial: { readonly range: HistoryRange; readonly series: PriceSeries };
}

/** A price chart with range buttons (1M to Max); ranges other than the initial one are fetched. */
export function PriceChart({ symbol, label, locale, formatValue, initial }: PriceChartProps) {
  const { i18n, t } = useLingui();
  const [range, setRange] = useState<HistoryRange>(initial.range);
  const common = { label, locale, formatValue };
  return (
    <div className="price-chart" data-symbol={symbol} data-range={range}>
      <div className="range-buttons" role="group" aria-label={t`Range of the ${label} chart`}>
        {ranges.map((r) => (
          <button
            key={r}
            type="button"
            className={r === range ? "tab active" : "tab"}
            aria-pressed={r === range}
            aria-label={`${i18n._(rangeShort[r])}, ${i18n._(rangeLong[r])}`}
            data-range={r}
            onClick={() => setRange(r)}
          >
            {i18n._(rangeShort[r])}
          </button>
        ))}
      </div>
      {range === initial.range ? (
        <ChartCanvas {...common} series={initial.series} />
      ) : (
        <LoadedRange key={`${symbol}-${range}`} {...common} symbol={symbol} range={range} />
      )}
    </div>
  );
}
