import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { SHOCKS, SHOCK_KEYS } from "../../../machines/what-if.machine.ts";
import type { WhatIfResponse } from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { BarChart, LineChart } from "../../ui/charts/index.ts";
import {
  formatDate,
  formatLongDate,
  formatMoney,
  formatNumber,
  formatPercent,
} from "../../ui/format.ts";
import {
  backtestNames,
  factorNames,
  methodNames,
  rebalancingNames,
  scenarioNames,
  scenarioStories,
  hasSeriesName,
  seriesName,
  shockNames,
} from "./what-if-texts.ts";
import { TermLinks } from "../../app/term-link.tsx";
import { HindsightCaution } from "../../app/hindsight-caution.tsx";
import { DataTable } from "../../ui/data-table.tsx";

type Custom = Extract<WhatIfResponse, { kind: "custom" }>;
type Scenario = Extract<WhatIfResponse, { kind: "scenario" }>;
type Backtest = Extract<WhatIfResponse, { kind: "backtest" }>;
type Sensitivities = Custom["sensitivities"];
type Asset = (Custom | Scenario)["assets"][number];

const LEVEL_FACTORS = new Set(["rates", "inflation"]);

function useFormats(locale: Locale, currency: "EUR" | "USD") {
  return {
    money: (v: number) => formatMoney(v, currency, locale),
    pct: (v: number) => formatPercent(v, locale),
    num: (v: number) =>
      formatNumber(v, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    date: (iso: string) => formatDate(iso, locale),
    longDate: (iso: string) => formatLongDate(iso, locale),
  };
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** Total gain or loss, return and amount invested. */
function Totals({ r, locale }: { r: Custom | Scenario; locale: Locale }) {
  const { t } = useLingui();
  const f = useFormats(locale, r.currency);
  return (
    <dl className="figures">
      <Figure label={t`Gain or loss`} value={f.money(r.totalChange)} testId="whatif-total-change" />
      <Figure label={t`Return`} value={f.pct(r.totalReturn)} testId="whatif-total-return" />
      <Figure label={t`Invested`} value={f.money(r.totalInvested)} testId="whatif-invested" />
    </dl>
  );
}

/** Gain or loss of each asset, as bars and as a table. */
function PerAsset({
  r,
  locale,
  betas,
}: {
  r: Custom | Scenario;
  locale: Locale;
  betas: readonly string[];
}) {
  const { t, i18n } = useLingui();
  const f = useFormats(locale, r.currency);
  const showMethod = r.kind === "scenario";
  const currency = r.currency;
  const factorName = (b: string) => i18n._(factorNames[b as keyof typeof factorNames]);
  return (
    <>
      <BarChart
        bars={r.assets.map((a) => ({ key: a.symbol, label: a.name, value: a.change }))}
        title={t`Gain or loss of each asset`}
        description={t`Gain or loss of each asset in the scenario, in ${currency}.`}
        formatValue={f.money}
        valueTitle={t`Gain or loss over the scenario (${currency})`}
        highlightNegative
      />
      <DataTable
        caption={t`Each asset`}
        captionVisible
        testId="whatif-assets"
        rows={r.assets}
        rowKey={(a) => a.symbol}
        rowProps={(a) => ({ "data-symbol": a.symbol })}
        columns={[
          {
            key: "asset",
            header: t`Asset`,
            cell: (a) => (
              <>
                {a.name} <span className="muted">{a.symbol}</span>
              </>
            ),
          },
          { key: "amount", header: t`Amount`, cell: (a) => f.money(a.investedAmount) },
          {
            key: "return",
            header: t`Return`,
            cell: (a) => f.pct(a.return),
            className: (a) => (a.return < 0 ? "negative" : undefined),
          },
          {
            key: "change",
            header: t`Gain or loss`,
            cell: (a) => f.money(a.change),
            className: (a) => (a.change < 0 ? "negative" : undefined),
          },
          ...(showMethod
            ? [
                {
                  key: "method",
                  header: t`Measured with`,
                  cell: (a: Asset) => (a.method ? i18n._(methodNames[a.method]) : ""),
                },
              ]
            : []),
          ...betas.map((b) => ({
            key: `beta-${b}`,
            header: `${t`Beta`}: ${factorName(b)}`,
            cell: (a: Asset) => (a.betas[b] === undefined ? "" : f.num(a.betas[b])),
          })),
        ]}
        footer={[t`Total`, f.money(r.totalInvested), f.pct(r.totalReturn), f.money(r.totalChange)]}
      />
    </>
  );
}

function SensitivityNote({ s, locale }: { s: Sensitivities; locale: Locale }) {
  const { i18n } = useLingui();
  const periods = s.periods;
  const from = formatLongDate(s.from, locale);
  const to = formatLongDate(s.to, locale);
  const excluded = s.excluded.map((x) => i18n._(factorNames[x])).join(", ");
  return (
    <>
      <Trans>
        Sensitivities (betas): least squares of each asset's weekly returns on the factors' weekly
        changes, {periods} weeks from {from} to {to}.
      </Trans>
      {s.excluded.length > 0 ? (
        <>
          {" "}
          <Trans>Left out, without data in that window: {excluded}.</Trans>
        </>
      ) : null}
    </>
  );
}

function Sources({ r }: { r: WhatIfResponse }) {
  const { i18n } = useLingui();
  if (r.kind === "backtest") return null;
  const list = r.sources
    .map((s) => `${i18n._(factorNames[s.factor])}: ${seriesName(i18n, s.series)}`)
    .join("; ");
  return (
    <p className="figure-method">
      <Trans>Factor series: {list}.</Trans>
      {r.simulated ? (
        <>
          {" "}
          <strong>
            <Trans>Simulated prices.</Trans>
          </strong>
        </>
      ) : null}
    </p>
  );
}

function CustomResult({ r, locale }: { r: Custom; locale: Locale }) {
  const { t, i18n } = useLingui();
  const given = SHOCK_KEYS.filter((k) => r.shocks[k] != null);
  const ignored = r.ignored.map((x) => i18n._(factorNames[x])).join(", ");
  return (
    <section className="card analysis-block" aria-labelledby="whatif-result" data-kind="custom">
      <h2 id="whatif-result">
        <Trans>Your own shocks</Trans>
      </h2>
      <ul className="shock-list" data-testid="whatif-shocks">
        {given.map((k) => {
          const v = r.shocks[k]!;
          const text =
            SHOCKS[k].optionsType === "return"
              ? formatPercent(v, locale)
              : `${formatNumber(v, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" })} ${t`pp`}`;
          return (
            <li key={k}>
              {i18n._(shockNames[k])}: <strong>{text}</strong>
            </li>
          );
        })}
      </ul>
      <p className="figure-method">
        <Trans>
          Method: each asset moves by its beta to each factor times the factor's shock, all at once
          (no drift, no intercept); an asset cannot lose more than its amount.
        </Trans>{" "}
        <SensitivityNote s={r.sensitivities} locale={locale} />
      </p>
      {r.ignored.length > 0 ? (
        <p className="form-message">
          <Trans>
            These shocks move nothing in this portfolio (no data to measure them): {ignored}.
          </Trans>
        </p>
      ) : null}
      <Totals r={r} locale={locale} />
      <PerAsset r={r} locale={locale} betas={r.sensitivities.factors} />
      <Sources r={r} />
    </section>
  );
}

function ScenarioResult({
  r,
  locale,
  chosenOn,
}: {
  r: Scenario;
  locale: Locale;
  chosenOn: string;
}) {
  const { t, i18n } = useLingui();
  const f = useFormats(locale, r.currency);
  const start = f.longDate(r.scenario.start);
  const end = f.longDate(r.scenario.end);
  const currency = r.currency;
  const moves = Object.entries(r.factorMoves);
  const missing = r.missingFactors.map((x) => i18n._(factorNames[x])).join(", ");
  const path = r.path;
  const low = path?.values.reduce<{ value: number; date: string } | null>(
    (m, v, j) => (m === null || v < m.value ? { value: v, date: path.dates[j]! } : m),
    null,
  );
  return (
    <section className="card analysis-block" aria-labelledby="whatif-result" data-kind="scenario">
      <h2 id="whatif-result">{i18n._(scenarioNames[r.scenario.type]!)}</h2>
      <p>
        {i18n._(scenarioStories[r.scenario.type]!)}{" "}
        <Trans>
          From {start} to {end}.
        </Trans>
      </p>
      <HindsightCaution
        kind="scenario"
        windowStart={r.scenario.start}
        chosenOn={chosenOn}
        locale={locale}
      />
      <p className="figure-method">
        <Trans>
          Method: each asset's return from its last close on or before {start} to its last close on
          or before {end}, in {currency}. An asset without prices over the whole window is
          reconstructed from its sensitivities to the factors, day by day, until its first price.
        </Trans>
        {r.sensitivities ? (
          <>
            {" "}
            <SensitivityNote s={r.sensitivities} locale={locale} />
          </>
        ) : null}
      </p>
      <Totals r={r} locale={locale} />
      {path && low ? (
        <>
          <dl className="figures">
            <Figure
              label={t`Lowest value during the scenario`}
              value={f.money(low.value)}
              testId="whatif-path-low"
            />
            <Figure
              label={t`Reached on`}
              value={f.longDate(low.date)}
              testId="whatif-path-low-date"
            />
          </dl>
          <LineChart
            series={[{ key: "portfolio", label: t`Portfolio`, values: path.values }]}
            dates={path.dates}
            title={t`Value of the portfolio over the scenario`}
            description={t`Value in ${currency} on each trading day from ${start} to ${end}, starting from the amount invested, each asset measured as in the table.`}
            formatValue={f.money}
            formatDate={f.date}
            dateLabel={t`Date`}
            xTitle={t`Market date`}
            yTitle={t`Value (${currency})`}
          />
        </>
      ) : null}
      <PerAsset r={r} locale={locale} betas={[]} />
      {moves.length > 0 ? (
        <DataTable
          caption={t`How the markets moved over the scenario`}
          captionVisible
          testId="whatif-factor-moves"
          rows={moves}
          rowKey={([factor]) => factor}
          columns={[
            {
              key: "factor",
              header: t`Factor`,
              cell: ([factor]) => i18n._(factorNames[factor as keyof typeof factorNames]),
            },
            {
              key: "move",
              header: t`Move`,
              cell: ([factor, v]) =>
                LEVEL_FACTORS.has(factor)
                  ? `${formatNumber(v, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" })} ${t`pp`}`
                  : f.pct(v),
            },
          ]}
        />
      ) : null}
      {r.missingFactors.length > 0 ? (
        <p className="figure-method">
          <Trans>No data for this scenario, counted as still: {missing}.</Trans>
        </p>
      ) : null}
      <Sources r={r} />
    </section>
  );
}

const performanceRows = [
  "totalReturn",
  "annualizedReturn",
  "volatility",
  "maxDrawdown",
  "sharpe",
] as const;

function BacktestResult({
  r,
  locale,
  chosenOn,
}: {
  r: Backtest;
  locale: Locale;
  chosenOn: string;
}) {
  const { t, i18n } = useLingui();
  const f = useFormats(locale, r.currency);
  const windowName = i18n._(backtestNames[r.backTesting]!);
  const rebalancing = i18n._(rebalancingNames[r.rebalancing]);
  const from = f.longDate(r.from);
  const to = f.longDate(r.to);
  const currency = r.currency;
  const days = r.values.length - 1;
  const rebalances = r.rebalances;
  const benchmark = r.benchmark;
  // A series the screens have no name of (a fund the person chose) reads by its data's name.
  const series = benchmark
    ? !hasSeriesName(benchmark.series) && benchmark.name
      ? benchmark.name
      : seriesName(i18n, benchmark.series, msg`Benchmark`)
    : "";
  const limitedBy = r.limitedBy.join(", ");
  const rowNames = {
    totalReturn: t`Total return`,
    annualizedReturn: t`Annualised return`,
    volatility: t`Volatility (annualised)`,
    maxDrawdown: t`Maximum drawdown`,
    sharpe: t`Sharpe ratio`,
  };
  const show = (key: (typeof performanceRows)[number], v: number) =>
    key === "sharpe" ? f.num(v) : f.pct(v);
  return (
    <section className="card analysis-block" aria-labelledby="whatif-result" data-kind="backtest">
      <h2 id="whatif-result">
        <Trans>
          Backtest over {windowName}: {rebalancing}
        </Trans>
      </h2>
      <HindsightCaution kind="backtest" windowStart={r.from} chosenOn={chosenOn} locale={locale} />
      <p className="figure-method">
        <Trans>
          Method: the portfolio's daily closes in {currency} from {from} to {to} ({days} trading
          days), starting from the amounts invested today, against {series}.
        </Trans>{" "}
        {r.rebalancing === "none" ? (
          <Trans>Buy and hold: the weights drift with prices.</Trans>
        ) : (
          <Trans>
            Back to today's weights on the first trading day of each period ({rebalances} times).
          </Trans>
        )}{" "}
        <Trans>
          Volatility: standard deviation of daily returns × √252. Sharpe ratio: (mean daily return −
          2% / 252) ÷ standard deviation × √252. Maximum drawdown: the largest fall from a previous
          peak.
        </Trans>
      </p>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["total-return", t`Total return`],
          ["annualised-volatility", t`Annualised volatility`],
          ["maximum-drawdown", t`Maximum drawdown`],
          ["sharpe-ratio", t`Sharpe ratio`],
          ["benchmark", t`Benchmark`],
        ]}
      />
      {benchmark ? (
        <p className="figure-method" data-testid="bt-benchmark-choice">
          {benchmark.chosen ? (
            <Trans>Benchmark: {series}, the one chosen for this portfolio.</Trans>
          ) : (
            <Trans>Benchmark: {series}, the market of the portfolio's currency.</Trans>
          )}
        </p>
      ) : null}
      {r.limitedBy.length > 0 ? (
        <p className="form-message">
          <Trans>The window is shorter because of the history of: {limitedBy}.</Trans>
        </p>
      ) : null}
      <dl className="figures">
        <Figure
          label={t`Value at the end`}
          value={f.money(r.values[r.values.length - 1] ?? r.totalInvested)}
          testId="bt-end-value"
        />
        <Figure
          label={t`Total return`}
          value={f.pct(r.performance.totalReturn)}
          testId="bt-total-return"
        />
        {benchmark ? (
          <Figure
            label={t`Total return of ${series}`}
            value={f.pct(benchmark.performance.totalReturn)}
            testId="bt-benchmark-total-return"
          />
        ) : null}
      </dl>
      <LineChart
        series={[
          { key: "portfolio", label: t`Portfolio`, values: r.values },
          ...(r.benchmark ? [{ key: "benchmark", label: series, values: r.benchmark.values }] : []),
        ]}
        dates={r.dates}
        title={t`Value of the portfolio and of its benchmark`}
        description={t`Daily value in ${currency} from ${from} to ${to}, both starting from the amount invested.`}
        formatValue={f.money}
        formatDate={f.date}
        dateLabel={t`Date`}
        xTitle={t`Market date`}
        yTitle={t`Value (${currency})`}
      />
      <DataTable
        caption={t`Performance against the benchmark`}
        captionVisible
        testId="bt-performance"
        rows={performanceRows}
        rowKey={(k) => k}
        rowProps={(k) => ({ "data-row": k })}
        columns={[
          { key: "figure", header: t`Figure`, cell: (k) => rowNames[k] },
          {
            key: "portfolio",
            header: t`Portfolio`,
            cell: (k) => show(k, r.performance[k]),
            testId: (k) => `bt-portfolio-${k}`,
          },
          ...(benchmark
            ? [
                {
                  key: "benchmark",
                  header: series,
                  cell: (k: (typeof performanceRows)[number]) => show(k, benchmark.performance[k]),
                  testId: (k: (typeof performanceRows)[number]) => `bt-benchmark-${k}`,
                },
              ]
            : []),
        ]}
      />
      {r.benchmark ? (
        <dl className="figures">
          <Figure
            label={t`Return above the benchmark`}
            value={f.pct(r.benchmark.excessReturn)}
            testId="bt-excess-return"
          />
          <Figure
            label={t`Tracking error (annualised)`}
            value={f.pct(r.benchmark.trackingError)}
            testId="bt-tracking-error"
          />
        </dl>
      ) : null}
      {r.simulated ? (
        <p className="figure-method">
          <strong>
            <Trans>Simulated prices.</Trans>
          </strong>
        </p>
      ) : null}
    </section>
  );
}

/**
 * The answer of a what-if, by its kind, each figure with its method and window. `marketToday`: the
 * market day the holdings stand chosen on (see HindsightCaution); until it is known, the window's
 * last day stands in for it (the market's today is never earlier), so the caution never waits.
 */
export function WhatIfResultView({
  result,
  locale,
  marketToday = null,
}: {
  result: WhatIfResponse;
  locale: Locale;
  marketToday?: string | null;
}) {
  if (result.kind === "custom") return <CustomResult r={result} locale={locale} />;
  if (result.kind === "scenario")
    return (
      <ScenarioResult r={result} locale={locale} chosenOn={marketToday ?? result.scenario.end} />
    );
  return <BacktestResult r={result} locale={locale} chosenOn={marketToday ?? result.to} />;
}
