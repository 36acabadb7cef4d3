import { seriesName } from "../../ui/series-names.ts";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import {
  SIMULATION_ASSUMPTIONS,
  type SimulateResponse,
  type SimulationCaution,
} from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { FormMessage } from "../../ui/form.tsx";
import { formatDate, formatMoney, formatNumber, formatPercent } from "../../ui/format.ts";
import { HindsightCaution } from "../../app/hindsight-caution.tsx";
import { FanChart } from "./fan-chart.tsx";
import { TermLinks } from "../../app/term-link.tsx";
import { modeNames, ASSUMPTIONS_ID } from "./simulator-texts.ts";

/**
 * The assumptions the figures below follow from, printed above the chart (PRODUCT.md "Simulator
 * assumptions"): the mode, the annual return and volatility, the history they rest on, how they
 * were obtained, and the cautions.
 */
export function PrintedAssumptions({
  result,
  locale,
}: {
  result: SimulateResponse;
  locale: Locale;
}) {
  const { t, i18n } = useLingui();
  const a = result.assumptions;
  const mode = i18n._(modeNames[a.mode]);
  const annualReturn = formatPercent(a.annualReturn, locale, 1);
  const volatility = formatPercent(a.annualVolatility, locale, 1);
  const history = a.history;
  const historyFrom = history ? formatDate(history.from, locale) : "";
  const historyTo = history ? formatDate(history.to, locale) : "";
  const historyYears = history
    ? formatNumber(history.years, locale, { maximumFractionDigits: 1 })
    : "";
  const years = formatNumber(result.months / 12, locale);
  const bound = formatPercent(SIMULATION_ASSUMPTIONS.returnCaution, locale, 0);
  const capm = a.capm;
  const riskFree = capm ? formatPercent(capm.riskFreeRate, locale, 1) : "";
  const premium = capm ? formatPercent(capm.equityRiskPremium, locale, 1) : "";
  const beta = capm ? formatNumber(capm.beta, locale, { maximumFractionDigits: 2 }) : "";
  const market = capm?.market ? seriesName(i18n, capm.market) : "";
  const betaFrom = capm ? formatDate(capm.from, locale) : "";
  const betaTo = capm ? formatDate(capm.to, locale) : "";
  const betaDays = capm ? formatNumber(capm.observations, locale) : "";
  const blocks = a.blocks !== null ? formatNumber(a.blocks, locale) : "";
  const cautionText: Record<SimulationCaution, string> = {
    "horizon-beyond-history": i18n._(
      msg`Caution: the horizon (${years} years) is longer than the history these assumptions rest on (${historyYears} years). Nothing in that history shows how such a portfolio behaves over the remaining years.`,
    ),
    "return-above-bound": i18n._(
      msg`Caution: an assumed annual return of ${annualReturn} is above ${bound}. The long-run return of world equities has been about 5 to 7 % a year above inflation; returns like this one rarely last for decades.`,
    ),
  };
  return (
    <section
      className="simulator-assumptions-printed"
      aria-labelledby="simulator-assumptions-title"
    >
      <h3 id="simulator-assumptions-title">
        <Trans>Assumptions of these figures</Trans>
      </h3>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["capm", t`CAPM`],
          ["beta", t`Beta`],
          ["risk-free-rate", t`Risk-free rate`],
          ["equity-risk-premium", t`Equity risk premium`],
          ["expected-return", t`Expected return`],
          ["annualised-volatility", t`Annualised volatility`],
          ["ledoit-wolf-shrinkage", t`Ledoit-Wolf shrinkage`],
          ["lognormal-distribution", t`Lognormal distribution`],
          ["volatility-drag", t`Volatility drag`],
        ]}
      />
      <dl className="simulator-figures">
        <div>
          <dt>
            <Trans>Assumptions</Trans>
          </dt>
          <dd data-figure="mode">{mode}</dd>
        </div>
        <div>
          <dt>
            <Trans>Expected annual return</Trans>
          </dt>
          <dd data-figure="annual-return">{annualReturn}</dd>
        </div>
        <div>
          <dt>
            <Trans>Volatility (a year)</Trans>
          </dt>
          <dd data-figure="annual-volatility">{volatility}</dd>
        </div>
        <div>
          <dt>
            <Trans>History they rest on</Trans>
          </dt>
          <dd data-figure="history">
            {history ? (
              <Trans>
                {historyFrom} to {historyTo} ({historyYears} years)
              </Trans>
            ) : (
              <Trans>None: typed by you</Trans>
            )}
          </dd>
        </div>
      </dl>
      <p data-figure="assumptions-source">
        {a.mode === "equilibrium" && capm ? (
          capm.market ? (
            <Trans>
              Expected return = risk-free rate {riskFree} + beta {beta} × equity premium {premium},
              the beta measured against the {market} from {betaFrom} to {betaTo} ({betaDays} days).
              Volatility from the shrunk (Ledoit-Wolf) covariance of the assets over their longest
              common history.
            </Trans>
          ) : (
            <Trans>
              Expected return = risk-free rate {riskFree} + beta {beta} × equity premium {premium},
              the beta measured against the portfolio&apos;s assets equally weighted (no market
              index data) from {betaFrom} to {betaTo} ({betaDays} days). Volatility from the shrunk
              (Ledoit-Wolf) covariance of the assets over their longest common history.
            </Trans>
          )
        ) : a.mode === "historical" ? (
          <Trans>
            The return and volatility of one year drawn from the {blocks} blocks of 12 consecutive
            months of the history, as the paths draw them; no drift is added.
          </Trans>
        ) : (
          <Trans>The expected annual return and the volatility you typed.</Trans>
        )}{" "}
        <a href={`#${ASSUMPTIONS_ID}`}>
          <Trans>Change the assumptions</Trans>
        </a>
      </p>
      {a.cautions.map((caution) => (
        <p key={caution} className="simulator-caution" role="note" data-caution={caution}>
          {cautionText[caution]}
        </p>
      ))}
    </section>
  );
}

/**
 * The answer of a run. `marketToday`: the market day the assets stand chosen on (the simulator runs
 * on today's holdings, like a what-if); until it is known, the historical path's last day stands in
 * for it (the market's today is never earlier), so the hindsight caution never waits.
 */
export function SimulationResult({
  result,
  stale,
  locale,
  marketToday = null,
}: {
  result: SimulateResponse;
  stale: boolean;
  locale: Locale;
  marketToday?: string | null;
}) {
  const { t, i18n } = useLingui();
  const money = (v: number) => formatMoney(v, result.currency, locale);
  const currency = result.currency;
  const compact = (v: number) =>
    formatNumber(v, locale, {
      style: "currency",
      currency: result.currency,
      notation: "compact",
      maximumFractionDigits: 1,
    });
  const p = (percentile: number) =>
    result.percentiles.find((q) => q.percentile === percentile)?.values ?? [];
  const [p5, p25, p50, p75, p95] = [p(5), p(25), p(50), p(75), p(95)];
  const m = result.months;
  const years = m / 12;
  const h = result.historical;
  const w = result.window;
  const paths = formatNumber(result.paths, locale);
  const mean = formatPercent(result.monthlyLogMean, locale, 2);
  const volatility = formatPercent(result.monthlyLogVolatility, locale, 2);
  const modeName = i18n._(modeNames[result.assumptions.mode]);
  const blocks = formatNumber(result.assumptions.blocks ?? 0, locale);
  const goal = result.goal;
  const goalAmount = goal ? money(goal.amount) : "";
  const historyMonths = h.months;
  const historyFrom = h.months > 0 && h.from ? formatDate(h.from, locale) : null;
  const historyTo = h.months > 0 && h.to ? formatDate(h.to, locale) : null;
  const inflation = result.inflation
    ? {
        rate: formatPercent(result.inflation.annualRate, locale, 2),
        series: seriesName(i18n, result.inflation.series),
        from: formatDate(result.inflation.from, locale),
        to: formatDate(result.inflation.to, locale),
      }
    : null;
  const { rate: inflationRate, series: inflationSeries } = inflation ?? { rate: "", series: "" };
  const { from: inflationFrom, to: inflationTo } = inflation ?? { from: "", to: "" };
  const rows: number[] = [];
  for (let k = 0; k <= m; k += 12) rows.push(k);
  return (
    <section
      className={stale ? "simulator-result is-stale" : "simulator-result"}
      aria-labelledby="simulator-result-title"
    >
      <h2 id="simulator-result-title">
        <Trans>Where the plan can end up in {years} years</Trans>
      </h2>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["monte-carlo-simulation", t`Monte Carlo simulation`],
          ["fan-chart", t`Fan chart`],
          ["percentile", t`Percentile`],
          ["geometric-brownian-motion", t`Geometric Brownian motion`],
          ["goal-probability", t`Goal probability`],
          ["real-return", t`Real return`],
        ]}
      />
      {stale ? (
        <FormMessage kind="error">
          <Trans>
            The inputs changed: these figures are for the previous inputs. Simulate again to update
            them.
          </Trans>
        </FormMessage>
      ) : null}
      {w.simulated ? (
        <p>
          <span className="badge">
            <Trans>Simulated prices</Trans>
          </span>
        </p>
      ) : null}
      <PrintedAssumptions result={result} locale={locale} />
      <dl className="simulator-figures">
        <div>
          <dt>
            <Trans>Median at the horizon</Trans>
          </dt>
          <dd data-figure="median">{money(p50[m] ?? 0)}</dd>
        </div>
        <div>
          <dt>
            <Trans>9 in 10 paths end between</Trans>
          </dt>
          <dd data-figure="range">
            {money(p5[m] ?? 0)} – {money(p95[m] ?? 0)}
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Money put in</Trans>
          </dt>
          <dd data-figure="invested">{money(result.invested[m] ?? 0)}</dd>
        </div>
        {goal ? (
          <div>
            <dt>
              <Trans>Chance of reaching {goalAmount}</Trans>
            </dt>
            <dd data-figure="goal-probability">{formatPercent(goal.probability, locale, 1)}</dd>
          </div>
        ) : null}
        {h.months > 0 ? (
          <div>
            <dt>
              <Trans>The same plan over the last {historyMonths} months</Trans>
            </dt>
            <dd data-figure="historical">{money(h.values[h.months] ?? 0)}</dd>
          </div>
        ) : null}
      </dl>
      <FanChart
        title={t`Value of the plan month by month: percentiles of ${paths} simulated paths`}
        description={t`Bands from the 5th to the 95th and from the 25th to the 75th percentile, the median, the money put in and the historical path. The table below gives the figures year by year.`}
        p5={p5}
        p25={p25}
        p50={p50}
        p75={p75}
        p95={p95}
        invested={result.invested}
        historical={h.values}
        goal={goal?.amount ?? null}
        labels={{
          outer: t`5th to 95th percentile`,
          inner: t`25th to 75th percentile`,
          median: t`Median`,
          invested: t`Money put in`,
          historical: t`Historical path`,
          goal: t`Goal`,
          xTitle: t`Years from today`,
          yTitle: t`Value of the plan (${currency})`,
          yTitleLog: t`Value of the plan (${currency}, log scale)`,
        }}
        formatValue={compact}
        formatYear={(y) => t`${y} y`}
      />
      <p data-figure="method">
        {result.method === "block-bootstrap" ? (
          <Trans>
            Method: Monte Carlo, {paths} paths with the {modeName} assumptions: each year of a path
            is a block of 12 consecutive monthly returns of the portfolio drawn at random, with
            replacement, from its {blocks} blocks; months of 21 trading days.
          </Trans>
        ) : (
          <Trans>
            Method: Monte Carlo, {paths} paths of lognormal monthly growth (geometric Brownian
            motion) with the {modeName} assumptions: a monthly log mean of {mean} and a monthly
            volatility of {volatility}, so that a year&apos;s expected growth is the expected annual
            return above.
          </Trans>
        )}
      </p>
      {historyFrom && historyTo ? (
        <p>
          <Trans>
            Historical path: the same contributions invested over the portfolio&apos;s own last{" "}
            {historyMonths} months, {historyFrom} to {historyTo}.
          </Trans>
        </p>
      ) : null}
      {h.months > 0 && h.from && h.to ? (
        // The historical path is a backtest of today's assets over a past they were chosen after.
        <HindsightCaution
          kind="backtest"
          windowStart={h.from}
          chosenOn={marketToday ?? h.to}
          locale={locale}
        />
      ) : null}
      {inflation ? (
        <p data-figure="inflation">
          <Trans>
            In today&apos;s money: every figure is deflated by {inflationRate} a year, the average
            inflation of {inflationSeries} from {inflationFrom} to {inflationTo}.
          </Trans>
        </p>
      ) : null}
      <details>
        <summary>
          <Trans>The figures year by year (table)</Trans>
        </summary>
        <div
          className="simulator-table-wrap"
          tabIndex={0}
          role="region"
          aria-label={t`The figures year by year`}
        >
          <table className="simulator-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Year</Trans>
                </th>
                <th scope="col">
                  <Trans>Money put in</Trans>
                </th>
                <th scope="col">5%</th>
                <th scope="col">25%</th>
                <th scope="col">
                  <Trans>Median</Trans>
                </th>
                <th scope="col">75%</th>
                <th scope="col">95%</th>
                <th scope="col">
                  <Trans>Historical</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((k) => (
                <tr key={k}>
                  <th scope="row">{formatNumber(k / 12, locale)}</th>
                  <td>{money(result.invested[k] ?? 0)}</td>
                  <td>{money(p5[k] ?? 0)}</td>
                  <td>{money(p25[k] ?? 0)}</td>
                  <td>{money(p50[k] ?? 0)}</td>
                  <td>{money(p75[k] ?? 0)}</td>
                  <td>{money(p95[k] ?? 0)}</td>
                  <td>{k <= h.months ? money(h.values[k] ?? 0) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
