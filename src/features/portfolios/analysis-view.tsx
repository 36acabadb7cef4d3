import { msg } from "@lingui/core/macro";
import { TermLink } from "../../app/term-link.tsx";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState, type ReactNode } from "react";
import type { AnalysisResponse } from "../../contract/analytics.ts";
import type { Locale, Product } from "../../contract/common.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import type { PortfolioHistory } from "../../contract/portfolios.ts";
import { AllocationChart, BarChart, DistributionChart, LineChart } from "../../ui/charts/index.ts";
import { DataTable } from "../../ui/data-table.tsx";
import {
  formatDate,
  formatLongDate,
  formatMoney,
  formatNumber,
  formatPercent,
  toIntlLocale,
} from "../../ui/format.ts";
import { hasPermission, type PermissionPath } from "../../contract/permissions.ts";
import { covarianceLabels, marketIndexName, windowNote } from "./figure-notes.ts";
import { hasSeriesName, seriesName } from "../../ui/series-names.ts";
import { PlanLock } from "../../app/plan-lock.tsx";
import { LockIcon } from "../../ui/lock-icon.tsx";

const breakdownKeys = {
  asset: msg`By asset`,
  exchange: msg`By stock exchange`,
  assetClass: msg`By asset class`,
  currency: msg`By currency`,
  sector: msg`By sector`,
  region: msg`By region`,
} as const;

export interface AnalysisViewProps {
  readonly analysis: AnalysisResponse;
  readonly permissions: ProductPermissions;
  readonly product: Product;
  readonly locale: Locale;
  /** Daily valuations of a saved portfolio (monitoring); null for an unsaved one. */
  readonly history: PortfolioHistory | null;
  /**
   * The permissions of the required and expected returns: the optimised portfolio's full analysis
   * uses analysis.requiredReturnsOptimPortfolio and analysis.expectedReturnsOptimPortfolio.
   */
  readonly returnsPermissions?: {
    readonly required: PermissionPath;
    readonly expected: PermissionPath;
  };
}

/** A block of the full analysis, or what unlocks it when the plan does not include it. */
function Block({
  id,
  title,
  method,
  term,
  permission,
  permissions,
  product,
  locale,
  children,
}: {
  id: string;
  title: string;
  method?: string;
  /** The dictionary entry that explains the block's figure (content/dictionary). */
  term?: string;
  permission: PermissionPath | PermissionPath[];
  permissions: ProductPermissions;
  product: Product;
  locale: Locale;
  children: ReactNode;
}) {
  const needed = Array.isArray(permission) ? permission : [permission];
  const open = needed.some((p) => hasPermission(permissions, p));
  const headingId = `${id}-title`;
  if (!open) {
    return (
      <section className="card analysis-block locked" aria-labelledby={headingId} data-block={id}>
        <h2 id={headingId}>
          <LockIcon /> {title}
        </h2>
        <p>
          <PlanLock product={product} permission={needed[0]!} locale={locale} />
        </p>
      </section>
    );
  }
  return (
    <section className="card analysis-block" aria-labelledby={headingId} data-block={id}>
      <h2 id={headingId}>{title}</h2>
      {method ? <p className="figure-method">{method}</p> : null}
      {term ? (
        <p className="figure-term">
          <TermLink term={term}>
            <Trans>{title}: what it means</Trans>
          </TermLink>
        </p>
      ) : null}
      {children}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/**
 * Monitoring before there is anything to chart: a new portfolio has one valuation (its save day)
 * or none yet, and the charts need two. Says when the next valuation comes: the market day whose
 * closes it uses and the day, in the person's calendar, that market day arrives.
 */
function MonitoringEmpty({ history, locale }: { history: PortfolioHistory; locale: Locale }) {
  const first = history.dates[0] ?? null;
  const next = history.nextValuation;
  const valuedOn = first ? formatLongDate(first, locale) : "";
  const nextDay = next ? formatLongDate(next.date, locale) : "";
  const arrives = next
    ? new Intl.DateTimeFormat(toIntlLocale(locale), { dateStyle: "long" }).format(new Date(next.at))
    : "";
  return (
    <div className="notice monitoring-empty" data-testid="monitoring-empty">
      <p>
        <strong>
          <Trans>Nothing to chart yet.</Trans>
        </strong>{" "}
        <Trans>
          The portfolio is valued once a market day, at that day&apos;s closes; its charts start
          with its second valuation.
        </Trans>
      </p>
      {first ? (
        <p>
          <Trans>Valued on the day it was saved, at the closes of {valuedOn} (market date).</Trans>
        </p>
      ) : null}
      <p>
        {next ? (
          first ? (
            <Trans>
              Next valuation: at the closes of {nextDay} (market date), ready on {arrives}.
            </Trans>
          ) : (
            <Trans>
              First valuation: at the closes of {nextDay} (market date), ready on {arrives}.
            </Trans>
          )
        ) : (
          <Trans>
            Next valuation: with the market&apos;s next day of prices, which has no date yet.
          </Trans>
        )}
      </p>
    </div>
  );
}

/** Every block of the full analysis (issue "Portfolios": breakdown to monitoring), each behind its permission. */

export function AnalysisView({
  analysis: a,
  permissions,
  product,
  locale,
  history,
  returnsPermissions = {
    required: "analysis.requiredReturns",
    expected: "analysis.expectedReturns",
  },
}: AnalysisViewProps) {
  const { t, i18n } = useLingui();
  const money = (v: number) => formatMoney(v, a.currency, locale);
  const pct = (v: number) => formatPercent(v, locale);
  const num = (v: number) => formatNumber(v, locale, { maximumFractionDigits: 2 });
  const windowText = windowNote(a, i18n, locale);
  const covariance = i18n._(
    covarianceLabels[a.window.covariance] ?? covarianceLabels["ledoit-wolf"]!,
  );
  const common = { permissions, product, locale };
  // The monitoring's benchmark (issue 27): the one stored with the portfolio, or the market of
  // its currency; a fund the screens have no name of reads by its data's name.
  const monitored = history?.benchmark ?? null;
  const monitoredName = monitored
    ? hasSeriesName(monitored.series)
      ? seriesName(i18n, monitored.series)
      : monitored.name
    : null;
  const breakdownTabs = (
    ["asset", "exchange", "assetClass", "currency", "sector", "region"] as const
  ).filter((k) => k === "asset" || (a.breakdown[k]?.length ?? 0) > 0);
  const [tab, setTab] = useState<(typeof breakdownTabs)[number]>("asset");
  const tabsId = useId();
  const slices =
    tab === "asset"
      ? a.assets.map((x) => ({ key: x.symbol, label: x.name, value: x.investedAmount }))
      : (a.breakdown[tab] ?? []).map((e) => ({ key: e.key, label: e.key, value: e.amount }));
  // A figure the plan lacks comes back null from the server; its block shows what unlocks it.
  const hv = a.var?.historical ?? null;
  const pv = a.var?.parametric ?? null;
  const conf = formatPercent(a.window.confidence, locale, 0);
  const limitedBy = a.window.limitedBy.join(", ");
  const shrinkage = a.expectedReturn ? num(a.expectedReturn.shrinkage) : "";
  // The market proxy of the betas, by its name ("EURO STOXX 50"; the DAX before 2007 is its chain).
  const proxy = a.expectedReturn?.market;
  const marketIndex = proxy ? marketIndexName(proxy, i18n) : null;
  const riskFree = a.requiredReturn ? pct(a.requiredReturn.riskFreeRate) : "";
  const targetSharpe = a.requiredReturn ? num(a.requiredReturn.targetSharpe) : "";
  const d = a.diversification;
  const horizonDays = a.window.horizonDays;
  const currency = a.currency;
  const annualVolatility = pct(a.volatility.annual);
  const marketDate = t`Market date`;
  return (
    <div className="analysis">
      <section className="headline-risk" aria-labelledby="headline-risk-title">
        <h2 id="headline-risk-title" className="headline-risk-label">
          <TermLink term="risk-horizon">
            <Trans>Risk: volatility over {horizonDays} trading days (one month)</Trans>
          </TermLink>
        </h2>
        <p className="headline-risk-value" data-testid="headline-risk">
          {pct(a.volatility.horizon)}
        </p>
        <p className="figure-method">
          <Trans>
            The headline risk figure of this analysis. The same volatility over a year is{" "}
            {annualVolatility} (× √12); every other risk figure below names its horizon and method.
          </Trans>
        </p>
      </section>
      <p className="figure-window">
        {windowText}
        {a.window.limitedBy.length > 0 ? (
          <>
            {" "}
            <strong>
              <Trans>
                Some assets have no recent prices ({limitedBy}): the analysis uses the latest window
                they all share.
              </Trans>
            </strong>
          </>
        ) : null}
        {a.window.simulated ? (
          <>
            {" "}
            <span className="badge">
              <Trans>Simulated prices</Trans>
            </span>
          </>
        ) : null}
      </p>

      <Block
        id="breakdown"
        title={t`Breakdown`}
        term="portfolio-breakdown"
        permission="analysis.breakdown"
        {...common}
      >
        <div role="tablist" aria-label={t`Breakdown`} className="tabs" id={tabsId}>
          {breakdownTabs.map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={tab === k}
              className={tab === k ? "tab active" : "tab"}
              onClick={() => setTab(k)}
            >
              {i18n._(breakdownKeys[k])}
            </button>
          ))}
        </div>
        <AllocationChart
          slices={slices}
          title={i18n._(breakdownKeys[tab])}
          description={t`Share of the amount invested.`}
          formatValue={money}
          otherLabel={t`Other`}
        />
      </Block>

      <Block
        id="diversification"
        title={t`Diversification risk`}
        term="diversification-risk-reduction"
        method={t`Volatility over ${horizonDays} trading days (one month): the sum of each asset's stand-alone volatility against the portfolio's. ${covariance}.`}
        permission="analysis.diversificationRisk"
        {...common}
      >
        {d ? (
          <dl className="figures">
            <Figure
              label={t`Sum of stand-alone volatilities (1 month)`}
              value={pct(d.standAloneSum)}
            />
            <Figure
              label={t`Portfolio volatility (1 month)`}
              value={pct(d.portfolio)}
              testId="portfolio-risk"
            />
            {hasPermission(permissions, "analysis.diversificationRiskReduction") &&
            d.reduction !== null ? (
              <Figure
                label={t`Risk reduced by diversification`}
                value={pct(d.reduction)}
                testId="diversification-reduction"
              />
            ) : (
              <Figure label={t`Risk reduced by diversification`} value={t`Locked`} />
            )}
          </dl>
        ) : null}
      </Block>

      <Block
        id="returns"
        title={t`Required and expected returns`}
        term="expected-return"
        method={
          marketIndex
            ? t`Annual. Expected: historical mean shrunk towards the CAPM, with betas against the ${marketIndex} (shrinkage ${shrinkage}). Required: risk-free ${riskFree} plus a Sharpe ratio of ${targetSharpe} times the risk.`
            : t`Annual. Expected: historical mean shrunk towards the CAPM, with betas against the equally weighted assets (shrinkage ${shrinkage}). Required: risk-free ${riskFree} plus a Sharpe ratio of ${targetSharpe} times the risk.`
        }
        permission={[returnsPermissions.required, returnsPermissions.expected]}
        {...common}
      >
        <dl className="figures">
          {hasPermission(permissions, returnsPermissions.expected) && a.expectedReturn ? (
            <Figure
              label={t`Expected return`}
              value={pct(a.expectedReturn.portfolio)}
              testId="expected-return"
            />
          ) : null}
          {hasPermission(permissions, returnsPermissions.required) && a.requiredReturn ? (
            <Figure
              label={t`Required return`}
              value={pct(a.requiredReturn.portfolio)}
              testId="required-return"
            />
          ) : null}
        </dl>
        {a.expectedReturn ? (
          <BarChart
            bars={a.assets.map((x) => ({
              key: x.symbol,
              label: x.name,
              value: x.expectedReturn ?? 0,
            }))}
            title={t`Expected return of each asset`}
            description={t`Annual expected return of each asset.`}
            formatValue={pct}
            valueTitle={t`Expected return (annual)`}
          />
        ) : null}
      </Block>

      <Block
        id="var"
        title={t`Value at risk (VaR) and CVaR`}
        term="value-at-risk"
        method={t`Confidence ${conf}, one month. Historical: the portfolio's past monthly returns in the window; parametric: normal with the ${covariance}.`}
        permission="analysis.var"
        {...common}
      >
        {hv && pv ? (
          <>
            <dl className="figures">
              <Figure
                label={t`VaR 95 (historical)`}
                value={money(hv.varAmount)}
                testId="var-historical"
              />
              <Figure
                label={t`CVaR 95 (historical)`}
                value={money(hv.cvarAmount)}
                testId="cvar-historical"
              />
              <Figure
                label={t`VaR 95 (parametric)`}
                value={money(pv.varAmount)}
                testId="var-parametric"
              />
              <Figure label={t`CVaR 95 (parametric)`} value={money(pv.cvarAmount)} />
            </dl>
            <DistributionChart
              values={(a.distribution ?? []).map((r) => r * a.totalInvested)}
              markers={[
                { key: "var", label: t`VaR 95`, value: -hv.varAmount, tone: "danger" },
                { key: "cvar", label: t`CVaR 95`, value: -hv.cvarAmount, tone: "warning" },
              ]}
              title={t`Gains and losses over one month`}
              description={t`How often each monthly gain or loss happened in the window; the worst 5% lie left of the VaR.`}
              formatValue={money}
              xTitle={t`Gain or loss over one month (${currency}), historical`}
              yTitle={t`Number of months`}
            />
          </>
        ) : null}
      </Block>

      <Block
        id="component-risk-1"
        title={t`Component risk: marginal contribution`}
        term="marginal-risk-contribution"
        method={t`Euler allocation of the portfolio's volatility: each asset's weight times its marginal risk. The contributions add up to the portfolio's risk.`}
        permission="analysis.componentRisk1"
        {...common}
      >
        <BarChart
          bars={a.assets.map((x) => ({
            key: x.symbol,
            label: x.name,
            value: x.contribution ?? 0,
          }))}
          title={t`Contribution of each asset to the portfolio's risk`}
          description={t`Volatility over the horizon contributed by each asset.`}
          formatValue={pct}
          valueTitle={t`Contribution to volatility over one month (Euler)`}
          highlightNegative
        />
      </Block>

      <Block
        id="component-risk-2"
        title={t`Component risk: share of the risk`}
        term="component-risk"
        method={t`Each asset's share of the portfolio's risk, and of its parametric VaR 95 in money.`}
        permission="analysis.componentRisk2"
        {...common}
      >
        <BarChart
          bars={a.assets.map((x) => ({
            key: x.symbol,
            label: x.name,
            value: (x.percentage ?? 0) / 100,
          }))}
          title={t`Share of the risk of each asset`}
          description={t`Percentage of the portfolio's risk; negative shares reduce it.`}
          formatValue={pct}
          valueTitle={t`Share of the volatility over one month (Euler)`}
          highlightNegative
        />
        <DataTable
          caption={t`VaR 95 contributed by each asset`}
          captionVisible
          columns={[
            { key: "asset", header: t`Asset`, cell: (x) => x.name },
            { key: "weight", header: t`Weight`, cell: (x) => pct(x.weight) },
            {
              key: "share",
              header: t`Share of the risk`,
              cell: (x) => formatPercent((x.percentage ?? 0) / 100, locale, 1),
            },
            {
              key: "var",
              header: t`VaR contribution`,
              cell: (x) =>
                x.varContributionAmount === null ? "—" : money(x.varContributionAmount),
            },
          ]}
          rows={a.assets}
          rowKey={(x) => x.symbol}
        />
      </Block>

      <Block
        id="currency-risk"
        title={t`Currency risk`}
        term="currency-risk"
        method={t`The part of the risk that comes from EUR/USD moves on the assets quoted in the other currency.`}
        permission="analysis.currencyRisk"
        {...common}
      >
        {a.currencyRisk ? (
          <dl className="figures">
            <Figure
              label={t`Exposure to the other currency`}
              value={pct(a.currencyRisk.exposure)}
            />
            <Figure
              label={t`Share of the risk from the currency`}
              value={formatPercent(a.currencyRisk.percentage / 100, locale, 1)}
              testId="currency-share"
            />
            <Figure
              label={t`Volatility without the currency (1 month)`}
              value={pct(a.currencyRisk.volatilityWithoutCurrency)}
            />
            <Figure
              label={t`VaR 95 from the currency`}
              value={money(a.currencyRisk.varShareAmount)}
            />
          </dl>
        ) : (
          <p>{t`Every asset is quoted in the portfolio's currency: there is no currency risk.`}</p>
        )}
      </Block>

      <Block
        id="scores"
        title={t`Scores`}
        term="global-score"
        method={t`From 0 to 100; higher is better. The community score is the percentile among the saved portfolios of this product.`}
        permission={[
          "scoring.global",
          "scoring.riskReturn",
          "scoring.diversification",
          "scoring.marketRisk",
          "scoring.communityGlobal",
        ]}
        {...common}
      >
        <dl className="figures scores">
          {(
            [
              ["scoring.global", t`Global`, a.scores.global],
              ["scoring.riskReturn", t`Risk-return`, a.scores.riskReturn],
              ["scoring.diversification", t`Diversification`, a.scores.diversification],
              ["scoring.marketRisk", t`Market risk`, a.scores.marketRisk],
              ["scoring.communityGlobal", t`Community`, a.scores.communityGlobal],
            ] as const
          ).map(([perm, label, value]) => (
            <Figure
              key={perm}
              label={label}
              value={
                !hasPermission(permissions, perm)
                  ? t`Locked`
                  : value === null
                    ? t`Once saved`
                    : formatNumber(value, locale, { maximumFractionDigits: 0 })
              }
            />
          ))}
        </dl>
      </Block>

      <Block
        id="monitoring"
        title={t`Monitoring`}
        term="portfolio-monitoring"
        method={t`Valued every market day since it was saved: value, return since saving and the loss at 95% over a month.`}
        permission={[
          "monitoring.portfolioRisk",
          "monitoring.portfolioReturn",
          "monitoring.portfolioRiskReturn",
        ]}
        {...common}
      >
        {history && history.dates.length < 2 ? (
          <MonitoringEmpty history={history} locale={locale} />
        ) : history ? (
          <>
            {hasPermission(permissions, "monitoring.portfolioReturn") ? (
              <>
                {monitored && monitoredName ? (
                  <p className="figure-method" data-testid="monitoring-benchmark">
                    {monitored.chosen ? (
                      <Trans>
                        Compared with {monitoredName}, the benchmark chosen for this portfolio: its
                        return since the first valuation, in the portfolio's currency.
                      </Trans>
                    ) : (
                      <Trans>
                        Compared with {monitoredName}, the market of the portfolio's currency: its
                        return since the first valuation, in the portfolio's currency.
                      </Trans>
                    )}
                  </p>
                ) : null}
                <LineChart
                  series={[
                    { key: "return", label: t`Return since saving`, values: history.returns },
                    ...(monitored && monitoredName
                      ? [
                          {
                            key: "benchmark",
                            label: monitoredName,
                            values: monitored.returns.map((v) => v ?? Number.NaN),
                          },
                        ]
                      : []),
                  ]}
                  dates={history.dates}
                  title={t`Return since saving`}
                  description={
                    monitoredName
                      ? t`Return of the portfolio since it was saved, day by day, beside ${monitoredName}.`
                      : t`Return of the portfolio since it was saved, day by day.`
                  }
                  formatValue={pct}
                  formatDate={(d) => formatDate(d, locale)}
                  xTitle={marketDate}
                  yTitle={t`Return since saving`}
                />
              </>
            ) : null}
            {hasPermission(permissions, "monitoring.portfolioRisk") ? (
              <LineChart
                series={[
                  {
                    key: "risk",
                    label: t`VaR 95 over one month (parametric)`,
                    values: history.risks,
                  },
                ]}
                dates={history.dates}
                title={t`Risk over time: VaR 95 over one month (parametric)`}
                description={t`The portfolio's loss at 95% over a month, as a share of its value: parametric (normal), on each market day's window.`}
                formatValue={pct}
                formatDate={(d) => formatDate(d, locale)}
                xTitle={marketDate}
                yTitle={t`VaR 95, one month (% of value)`}
              />
            ) : null}
            {hasPermission(permissions, "monitoring.portfolioRiskReturn") ? (
              <LineChart
                series={[{ key: "score", label: t`Risk-return score`, values: history.scores }]}
                dates={history.dates}
                title={t`Risk-return over time`}
                description={t`The global score of the portfolio, day by day.`}
                formatValue={(v) => formatNumber(v, locale, { maximumFractionDigits: 0 })}
                formatDate={(d) => formatDate(d, locale)}
                xTitle={marketDate}
                yTitle={t`Score (0 to 100)`}
              />
            ) : null}
          </>
        ) : (
          <p>{t`Save the portfolio to follow its value, return and risk every market day.`}</p>
        )}
      </Block>
    </div>
  );
}
