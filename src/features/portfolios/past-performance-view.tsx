import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type ReactNode } from "react";
import { PlanLock } from "../../app/plan-lock.tsx";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import type { Locale, Product } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { MsgCode } from "../../contract/msg-codes.ts";
import type { Portfolio } from "../../contract/portfolios.ts";
import {
  BENCHMARK_SERIES_PERMISSION,
  pastPerformancePermissions,
  type PastPerformance,
  type PastPerformanceSection,
} from "../../contract/past-performance.ts";
import { ApiCallError } from "../../client/http.ts";
import { HeatMap, LineChart } from "../../ui/charts/index.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { Field } from "../../ui/form.tsx";
import {
  formatDate,
  formatLongDate,
  formatMoney,
  formatNumber,
  formatPercent,
} from "../../ui/format.ts";
import { LockIcon } from "../../ui/lock-icon.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { saveFile } from "../../ui/save-file.ts";
import { hasSeriesName, seriesName } from "../../ui/series-names.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { factorNames } from "../../ui/factor-names.ts";
import { LoadFailed } from "../../ui/load-failed.tsx";

const unavailableTexts = {
  "not-enough-history": msg`The holdings' common history is too short for this figure.`,
  "no-factor-data": msg`No market factor data covers this window.`,
  "no-benchmark-data": msg`The benchmark has no prices on the holdings' market days.`,
  "benchmark-unavailable": msg`The benchmark you chose is no longer in our market data: the market of the portfolio's currency is used instead.`,
} as const;

/** A cell of a CSV file: numbers as they are (a dot for decimals), text quoted when it must be. */
const csvCell = (v: string | number | boolean | null): string => {
  if (v === null) return "";
  if (typeof v !== "string") return String(v);
  return /[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
};

/** A table as CSV: a header row, then one line per row (RFC 4180, CRLF). */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null)[])[],
): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** A file name part: lower case letters, digits and dashes. */
export const fileSlug = (s: string): string =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "portfolio";

function CsvButton({
  label,
  file,
  header,
  rows,
}: {
  label: string;
  file: string;
  header: readonly string[];
  rows: readonly (readonly (string | number | boolean | null)[])[];
}) {
  return (
    <div className="actions-row">
      <button
        type="button"
        className="button secondary small"
        onClick={() =>
          saveFile(
            // A byte-order mark, so that spreadsheets read the accents (as the portfolio's export).
            new Blob(["\ufeff", toCsv(header, rows)], { type: "text/csv;charset=utf-8" }),
            file,
          )
        }
      >
        {label}
      </button>
    </div>
  );
}

/** A section: locked, unavailable, or its figures with method, window and data date. */
function PastSection({
  id,
  title,
  method,
  figure,
  answer,
  product,
  locale,
  children,
}: {
  id: PastPerformanceSection;
  title: string;
  method: string;
  figure: { from: string; to: string; observations: number; dataDate: string } | null;
  answer: PastPerformance;
  product: Product;
  locale: Locale;
  children: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const headingId = `past-${id}-title`;
  const lock = pastPerformancePermissions[id].find((n) => answer.locked.includes(n)) ?? null;
  if (lock)
    return (
      <section
        className="card analysis-block locked"
        aria-labelledby={headingId}
        data-block={`past-${id}`}
      >
        <h3 id={headingId}>
          <LockIcon /> {title}
        </h3>
        <p>
          <PlanLock product={product} permission={lock} locale={locale} />
        </p>
      </section>
    );
  const missing = answer.unavailable.find((u) => u.section === id) ?? null;
  const from = figure ? formatLongDate(figure.from, locale) : "";
  const to = figure ? formatLongDate(figure.to, locale) : "";
  const count = figure ? formatNumber(figure.observations, locale) : "";
  const dataDate = figure ? formatLongDate(figure.dataDate, locale) : "";
  return (
    <section className="card analysis-block" aria-labelledby={headingId} data-block={`past-${id}`}>
      <h3 id={headingId}>{title}</h3>
      <p className="figure-method">{method}</p>
      {figure ? (
        <p className="figure-window" data-testid={`past-${id}-window`}>
          <Trans>
            From {from} to {to} ({count} daily returns); data as of {dataDate} (market date).
          </Trans>
        </p>
      ) : null}
      {figure ? (
        children
      ) : (
        <p data-testid={`past-${id}-unavailable`}>
          {missing
            ? i18n._(unavailableTexts[missing.reason])
            : t`No figures for this portfolio yet.`}
        </p>
      )}
    </section>
  );
}

export interface PastPerformanceViewProps {
  readonly portfolioId: number;
  readonly portfolioName: string;
  /** The portfolio's version: an edition reloads the figures. */
  readonly version: number;
  readonly product: Product;
  readonly locale: Locale;
  /** The portfolio as stored after a new benchmark (the what-if's backtest compares with it too). */
  readonly onBenchmarkStored?: (portfolio: Portfolio) => void;
}

/**
 * The saved portfolio page's "How these holdings would have done" (issue 27): the past of the
 * holdings held at today's weights (not the person's own past), beside a benchmark the person
 * chooses; each section with its method, window and data date, locked by plan where the answer's
 * `locked` says so.
 */
export function PastPerformanceView({
  portfolioId,
  portfolioName,
  version,
  product,
  locale,
  onBenchmarkStored,
}: PastPerformanceViewProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [stored, setStored] = useState(0);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<MsgCode | null>(null);
  const [span, setSpan] = useState<"full" | "window">("full");
  const past = useData<PastPerformance>(
    `past-performance:${portfolioId}:${version}:${stored}`,
    () => http.call(endpoints.portfolioPastPerformance, { params: { id: portfolioId } }),
  );

  // While new figures load (another benchmark, an edition), the last ones stay on the page, so
  // that the selector keeps its place and its focus.
  const [shown, setShown] = useState<PastPerformance | null>(null);
  if (past.data && past.data !== shown) setShown(past.data);
  const current = past.data ?? (past.loading ? shown : null);

  const chooseBenchmark = async (series: string | null) => {
    setSaving(true);
    setSaveError(null);
    try {
      const saved = await http.call(endpoints.setPortfolioBenchmarkSeries, {
        params: { id: portfolioId },
        body: { series },
      });
      setStored((n) => n + 1);
      onBenchmarkStored?.(saved);
    } catch (e) {
      const failure = e instanceof ApiCallError ? e.failure : null;
      setSaveError(
        failure?.kind === "http"
          ? failure.msgCode
          : failure?.kind === "network"
            ? "NETWORK_ERROR"
            : "INTERNAL_ERROR",
      );
    } finally {
      setSaving(false);
    }
  };

  const heading = (
    <>
      <h2 id="past-performance-title">{t`How these holdings would have done`}</h2>
      <p className="muted">
        <Trans>
          The past of the holdings you hold today, at today&apos;s weights, over their longest
          common history: not the past of your own investment.
        </Trans>
      </p>
    </>
  );
  if (!current)
    return (
      <section aria-labelledby="past-performance-title" data-testid="past-performance">
        {heading}
        {past.error ? (
          <LoadFailed error={past.error} onRetry={past.retry} />
        ) : (
          <Spinner label={t`Loading the holdings' past…`} />
        )}
      </section>
    );

  const p = current;
  const dates = p.dates;
  const pct = (v: number) => formatPercent(v, locale);
  const pctOrDash = (v: number | null) => (v === null ? "—" : pct(v));
  const money = (v: number) => formatMoney(v, p.currency, locale);
  const day = (iso: string) => formatDate(iso, locale);
  const longDay = (iso: string) => formatLongDate(iso, locale);
  const num = (v: number, digits = 2) =>
    formatNumber(v, locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const nan = (v: number | null | undefined) => (v === null || v === undefined ? NaN : v);
  const marketDate = t`Market date`;
  const invested = money(p.totalInvested);
  const wholeMoney = (v: number) =>
    formatNumber(v, locale, { style: "currency", currency: p.currency, maximumFractionDigits: 0 });
  const currency = p.currency;
  const partialText = (from: string, to: string) => t`partial: ${from} to ${to}`;
  const betaName = (factor: string, source: string) => t`Beta to ${factor} (${source})`;
  const file = (table: string) => `${fileSlug(portfolioName)}-${table}.csv`;
  const benchmarkName = p.benchmark
    ? hasSeriesName(p.benchmark.series)
      ? seriesName(i18n, p.benchmark.series)
      : p.benchmark.name
    : null;
  const bench = benchmarkName ?? t`Benchmark`;
  const portfolioLabel = t`Portfolio`;
  const unavailable = (s: PastPerformance["unavailable"][number]["section"]) =>
    p.unavailable.find((u) => u.section === s) ?? null;

  const benchmarkLock = p.locked.includes(BENCHMARK_SERIES_PERMISSION)
    ? BENCHMARK_SERIES_PERMISSION
    : null;
  const choiceName = (c: PastPerformance["benchmarkChoices"][number]) =>
    hasSeriesName(c.series) ? seriesName(i18n, c.series) : c.name;
  const indices = p.benchmarkChoices.filter((c) => c.kind === "index");
  const funds = p.benchmarkChoices.filter((c) => c.kind !== "index");
  const benchmarkUnavailable = unavailable("benchmark");

  // Growth: the whole history or the analysis window.
  const path = p.growth ? (span === "window" ? p.growth.window : p.growth.full) : null;
  const pathDates = path ? dates.slice(path.start, path.start + path.portfolio.length) : [];

  const years = p.calendarYears?.years ?? [];
  const rolling = p.rolling;
  const rollingDates = rolling
    ? dates.slice(rolling.start, rolling.start + rolling.portfolioReturn.length)
    : [];
  const dd = p.drawdowns;
  const corr = p.correlation;
  const reg = p.regression;
  const windowDays = rolling ? formatNumber(rolling.windowDays, locale) : "";
  const periodDays = reg ? formatNumber(reg.periodDays, locale) : "";

  type Fall = NonNullable<typeof dd>["portfolio"]["worst"][number];
  const fallsTable = (who: string, key: string, falls: readonly Fall[]) => {
    const header = [
      t`Rank`,
      t`Depth`,
      t`Start (high)`,
      t`Trough`,
      t`Recovery`,
      t`Length (market days)`,
    ];
    return (
      <>
        <DataTable
          caption={t`Five worst falls: ${who}`}
          captionVisible
          testId={`past-falls-${key}`}
          columns={[
            {
              key: "rank",
              header: header[0]!,
              cell: (f: Fall) => formatNumber(falls.indexOf(f) + 1, locale),
            },
            { key: "depth", header: header[1]!, cell: (f) => pct(-f.depth) },
            { key: "start", header: header[2]!, cell: (f) => day(f.start) },
            { key: "trough", header: header[3]!, cell: (f) => day(f.trough) },
            {
              key: "recovery",
              header: header[4]!,
              cell: (f) => (f.recovery ? day(f.recovery) : t`Not recovered`),
            },
            { key: "length", header: header[5]!, cell: (f) => formatNumber(f.length, locale) },
          ]}
          rows={falls}
          rowKey={(f) => f.start}
        />
        <CsvButton
          label={t`Download the worst falls (${who}) as CSV`}
          file={file(`worst-falls-${key}`)}
          header={header}
          rows={falls.map((f, i) => [
            i + 1,
            -f.depth,
            f.start,
            f.trough,
            f.recovery ?? t`Not recovered`,
            f.length,
          ])}
        />
      </>
    );
  };

  return (
    <section aria-labelledby="past-performance-title" data-testid="past-performance">
      {heading}
      {past.loading || saving ? <Spinner label={t`Loading the holdings' past…`} /> : null}
      <p className="muted" data-testid="past-history">
        {(() => {
          const from = longDay(p.history.from);
          const to = longDay(p.history.to);
          return (
            <Trans>
              Common history of the holdings: {from} to {to}. Amount invested: {invested}.
            </Trans>
          );
        })()}
        {p.simulated ? (
          <>
            {" "}
            <Trans>Simulated market data.</Trans>
          </>
        ) : null}
      </p>

      <div className="card analysis-block" data-block="benchmark">
        <h3>{t`Benchmark`}</h3>
        {benchmarkLock ? (
          <p>
            <LockIcon /> <PlanLock product={product} permission={benchmarkLock} locale={locale} />
          </p>
        ) : (
          <>
            <Field
              label={t`Compare with`}
              hint={t`Stored with the portfolio. By default, the market of its currency.`}
              error={saveError ? i18n._(msgCodeText[saveError]) : undefined}
            >
              {(control) => (
                <select
                  {...control}
                  value={p.benchmark?.chosen ? p.benchmark.series : ""}
                  disabled={saving || past.loading}
                  onChange={(e) => void chooseBenchmark(e.target.value || null)}
                  data-testid="benchmark-select"
                >
                  <option value="">{t`The market of the portfolio's currency (default)`}</option>
                  {[
                    { label: t`Indices`, choices: indices },
                    { label: t`Funds`, choices: funds },
                  ]
                    .filter((group) => group.choices.length)
                    .map((group) => (
                      <optgroup key={group.label} label={group.label}>
                        {group.choices.map((c) => (
                          <option key={c.series} value={c.series}>
                            {choiceName(c)} ({c.currency})
                          </option>
                        ))}
                      </optgroup>
                    ))}
                </select>
              )}
            </Field>
            {benchmarkName ? (
              <p data-testid="past-benchmark">
                <Trans>Compared with: {benchmarkName}.</Trans>
              </p>
            ) : null}
            {benchmarkUnavailable ? (
              <p className="notice">{i18n._(unavailableTexts[benchmarkUnavailable.reason])}</p>
            ) : null}
          </>
        )}
      </div>

      <PastSection
        answer={p}
        product={product}
        locale={locale}
        id="growth"
        title={t`Growth of the amount invested`}
        method={t`Today's weights held every market day, from the amount invested, at daily closes.`}
        figure={p.growth}
      >
        <div role="group" aria-label={t`Period`} className="actions-row">
          <button
            type="button"
            className={span === "full" ? "button primary small" : "button secondary small"}
            aria-pressed={span === "full"}
            onClick={() => setSpan("full")}
          >
            <Trans>Whole common history</Trans>
          </button>
          <button
            type="button"
            className={span === "window" ? "button primary small" : "button secondary small"}
            aria-pressed={span === "window"}
            onClick={() => setSpan("window")}
          >
            <Trans>Analysis window</Trans>
          </button>
        </div>
        {path ? (
          <>
            <dl className="figures">
              <div className="figure">
                <dt>{t`Portfolio at the end`}</dt>
                <dd data-testid="past-growth-end">{money(path.portfolio.at(-1) ?? 0)}</dd>
              </div>
              {path.benchmark ? (
                <div className="figure">
                  <dt>{t`${bench} at the end`}</dt>
                  <dd data-testid="past-growth-benchmark-end">
                    {money(nan(path.benchmark.at(-1)))}
                  </dd>
                </div>
              ) : null}
            </dl>
            <LineChart
              series={[
                { key: "portfolio", label: portfolioLabel, values: path.portfolio },
                ...(path.benchmark
                  ? [{ key: "benchmark", label: bench, values: path.benchmark.map(nan) }]
                  : []),
              ]}
              dates={pathDates}
              title={t`Growth of ${invested} invested`}
              description={t`Value of the amount invested in the holdings at today's weights, beside the benchmark, market day by market day.`}
              formatValue={wholeMoney}
              formatDate={day}
              dateLabel={marketDate}
              xTitle={marketDate}
              yTitle={t`Value (${currency})`}
              yTitleLog={t`Value (${currency}, log scale)`}
            />
          </>
        ) : null}
      </PastSection>

      <PastSection
        answer={p}
        product={product}
        locale={locale}
        id="calendarYears"
        title={t`Calendar-year returns`}
        method={t`Daily returns compounded within each calendar year; a partial year is one the history starts inside or ends before its end.`}
        figure={p.calendarYears}
      >
        <DataTable
          caption={t`Calendar-year returns`}
          testId="past-calendar-years"
          columns={[
            {
              key: "year",
              header: t`Year`,
              cell: (r) => (
                <>
                  {String(r.year)}
                  {r.partial ? (
                    <>
                      {" "}
                      <span className="badge">{partialText(day(r.from), day(r.to))}</span>
                    </>
                  ) : null}
                </>
              ),
            },
            { key: "portfolio", header: portfolioLabel, cell: (r) => pct(r.portfolio) },
            { key: "benchmark", header: bench, cell: (r) => pctOrDash(r.benchmark) },
            { key: "difference", header: t`Difference`, cell: (r) => pctOrDash(r.difference) },
          ]}
          rows={years}
          rowKey={(r) => String(r.year)}
        />
        <CsvButton
          label={t`Download the calendar-year returns as CSV`}
          file={file("calendar-year-returns")}
          header={[t`Year`, t`Partial year`, portfolioLabel, bench, t`Difference`]}
          rows={years.map((r) => [r.year, r.partial, r.portfolio, r.benchmark, r.difference])}
        />
      </PastSection>

      <PastSection
        answer={p}
        product={product}
        locale={locale}
        id="rolling"
        title={t`Rolling 12-month return and volatility`}
        method={t`Over each window of ${windowDays} market days: the compounded return, and the volatility (standard deviation of the daily returns, annualised with √252).`}
        figure={rolling}
      >
        {rolling ? (
          <>
            <LineChart
              series={[
                { key: "portfolio", label: portfolioLabel, values: rolling.portfolioReturn },
                ...(rolling.benchmarkReturn
                  ? [{ key: "benchmark", label: bench, values: rolling.benchmarkReturn.map(nan) }]
                  : []),
              ]}
              dates={rollingDates}
              title={t`Rolling 12-month return`}
              description={t`The return over the 12 months up to each market day.`}
              formatValue={pct}
              formatDate={day}
              dateLabel={t`Window's last day`}
              xTitle={t`Window's last day (market date)`}
              yTitle={t`Return over 12 months (%)`}
            />
            <LineChart
              series={[
                { key: "portfolio", label: portfolioLabel, values: rolling.portfolioVolatility },
                ...(rolling.benchmarkVolatility
                  ? [
                      {
                        key: "benchmark",
                        label: bench,
                        values: rolling.benchmarkVolatility.map(nan),
                      },
                    ]
                  : []),
              ]}
              dates={rollingDates}
              title={t`Rolling 12-month volatility`}
              description={t`The annualised volatility of the daily returns over the 12 months up to each market day.`}
              formatValue={pct}
              formatDate={day}
              dateLabel={t`Window's last day`}
              xTitle={t`Window's last day (market date)`}
              yTitle={t`Volatility, annualised (%)`}
            />
          </>
        ) : null}
      </PastSection>

      <PastSection
        answer={p}
        product={product}
        locale={locale}
        id="drawdowns"
        title={t`Drawdowns`}
        method={t`Each fall measured from a high to its lowest point (the trough) and to the first day back at the high.`}
        figure={dd}
      >
        {dd ? (
          <>
            <dl className="figures">
              <div className="figure">
                <dt>{t`Deepest fall of the portfolio`}</dt>
                <dd data-testid="past-max-drawdown">{pct(-dd.portfolio.maxDrawdown)}</dd>
              </div>
              {dd.benchmark ? (
                <div className="figure">
                  <dt>{t`Deepest fall of ${bench}`}</dt>
                  <dd>{pct(-dd.benchmark.maxDrawdown)}</dd>
                </div>
              ) : null}
            </dl>
            <LineChart
              series={[
                {
                  key: "portfolio",
                  label: portfolioLabel,
                  values: dd.portfolio.underwater.map(nan),
                },
                ...(dd.benchmark
                  ? [{ key: "benchmark", label: bench, values: dd.benchmark.underwater.map(nan) }]
                  : []),
              ]}
              dates={dates}
              title={t`Underwater chart: below the previous high`}
              description={t`How far below its previous high the value was on each market day.`}
              formatValue={pct}
              formatDate={day}
              dateLabel={marketDate}
              xTitle={marketDate}
              yTitle={t`Below the previous high (%)`}
            />
            {fallsTable(portfolioLabel, "portfolio", dd.portfolio.worst)}
            {dd.benchmark ? fallsTable(bench, "benchmark", dd.benchmark.worst) : null}
          </>
        ) : null}
      </PastSection>

      <PastSection
        answer={p}
        product={product}
        locale={locale}
        id="correlation"
        title={t`How the holdings move together`}
        method={t`Correlation of the holdings' daily returns (Pearson), ordered so that related holdings sit together (average-linkage clustering).`}
        figure={corr}
      >
        {corr ? (
          <>
            <HeatMap
              title={t`Correlation of the holdings' daily returns`}
              testId="past-correlation"
              corner={t`Holding`}
              items={corr.assets.map((a) => ({ short: a.symbol, name: a.name }))}
              matrix={corr.matrix}
              formatValue={(v) => num(v)}
              extra={{
                header: t`Average correlation to the others`,
                cell: (i) => {
                  const a = corr.assets[i]?.averageCorrelation ?? null;
                  return a === null ? "—" : num(a);
                },
              }}
              legend={{
                low: t`−1: opposite`,
                mid: t`0: unrelated`,
                high: t`+1: together`,
              }}
            />
            {corr.assets.some((a) => a.constant) ? (
              <p className="muted">
                <Trans>
                  A holding whose price did not change over the window has its correlations shown as
                  0.
                </Trans>
              </p>
            ) : null}
            <CsvButton
              label={t`Download the correlation matrix as CSV`}
              file={file("correlation")}
              header={[
                t`Holding`,
                t`Name`,
                ...corr.assets.map((a) => a.symbol),
                t`Average correlation to the others`,
              ]}
              rows={corr.assets.map((a, i) => [
                a.symbol,
                a.name,
                ...(corr.matrix[i] ?? []),
                a.averageCorrelation,
              ])}
            />
          </>
        ) : null}
      </PastSection>

      <PastSection
        answer={p}
        product={product}
        locale={locale}
        id="regression"
        title={t`The portfolio against the market factors`}
        method={t`Least squares regression of the portfolio's ${periodDays}-day returns on the market factors' returns: alpha, betas and R², with their standard errors.`}
        figure={reg}
      >
        {reg ? (
          <>
            <dl className="figures">
              <div className="figure">
                <dt>{t`R²`}</dt>
                <dd data-testid="past-r-squared">{num(reg.rSquared)}</dd>
              </div>
              <div className="figure">
                <dt>{t`Adjusted R²`}</dt>
                <dd>{num(reg.adjustedRSquared)}</dd>
              </div>
              <div className="figure">
                <dt>{t`Periods`}</dt>
                <dd>{formatNumber(reg.periods, locale)}</dd>
              </div>
            </dl>
            {(() => {
              const rows = [
                {
                  key: "alpha",
                  name: t`Alpha, annualised`,
                  c: reg.alphaAnnualised,
                  percent: true,
                },
                ...reg.factors.map((f) => ({
                  key: f.factor,
                  name: betaName(i18n._(factorNames[f.factor]), seriesName(i18n, f.series)),
                  c: f.beta,
                  percent: false,
                })),
              ];
              const header = [t`Coefficient`, t`Estimate`, t`Standard error`, t`t-statistic`];
              // Betas to rates or inflation are small: three decimals keep them readable.
              const value = (v: number, percent: boolean) => (percent ? pct(v) : num(v, 3));
              return (
                <>
                  <DataTable
                    caption={t`Alpha and betas`}
                    testId="past-regression"
                    columns={[
                      { key: "name", header: header[0]!, cell: (r) => r.name },
                      {
                        key: "estimate",
                        header: header[1]!,
                        cell: (r) => value(r.c.estimate, r.percent),
                      },
                      {
                        key: "se",
                        header: header[2]!,
                        cell: (r) => value(r.c.standardError, r.percent),
                      },
                      {
                        key: "t",
                        header: header[3]!,
                        cell: (r) => (r.c.tStatistic === null ? "—" : num(r.c.tStatistic)),
                      },
                    ]}
                    rows={rows}
                    rowKey={(r) => r.key}
                  />
                  <CsvButton
                    label={t`Download the alpha and betas as CSV`}
                    file={file("market-factors")}
                    header={header}
                    rows={rows.map((r) => [
                      r.name,
                      r.c.estimate,
                      r.c.standardError,
                      r.c.tStatistic,
                    ])}
                  />
                </>
              );
            })()}
            {reg.excluded.length ? (
              <p className="muted">
                {t`Left out (no data or no variance over the window):`}{" "}
                {reg.excluded.map((x) => i18n._(factorNames[x])).join(", ")}
              </p>
            ) : null}
          </>
        ) : null}
      </PastSection>
    </section>
  );
}
