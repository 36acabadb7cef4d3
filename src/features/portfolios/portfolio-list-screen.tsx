import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { UnavailableNotice } from "../../app/unavailable-notice.tsx";
import { useData } from "../../app/use-data.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { PortfolioList } from "../../contract/portfolios.ts";
import { formatDate, formatMoney, formatNumber, formatPercent } from "../../ui/format.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { LoadFailed } from "../../ui/load-failed.tsx";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { TermLinks } from "../../app/term-link.tsx";

/** My account > portfolios: every saved portfolio of the product with its value, return, risk and score. */
export default function PortfolioListScreen({ locale }: ScreenProps) {
  const { t } = useLingui();
  const { http, product } = useServices();
  const list = useData<PortfolioList>(`portfolios:${product()}`, () =>
    http.call(endpoints.portfolios),
  );
  const limits = useData(`limits:${product()}`, () => http.call(endpoints.portfolioLimits));
  const available = limits.data?.find((l) => l.category === product())?.availablePortfolios;
  const left = typeof available === "number" ? available : null;
  return (
    <div>
      <PageHeading title={t`My portfolios`} summary={t`The portfolios you have saved.`} />
      <UnavailableNotice locale={locale} />
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["time-weighted-return", t`Time-weighted return`],
          ["value-at-risk", t`Value at risk (VaR)`],
          ["global-score", t`Global score`],
          ["community-percentile", t`Community percentile`],
        ]}
      />
      <p className="actions-row">
        <Link className="button" to={pathFor("create-q1", locale)}>
          <Trans>Create a portfolio</Trans>
        </Link>
        {left !== null ? (
          <span className="muted" data-testid="save-slots">
            <Trans>Your plan can save {left} more portfolios of this product.</Trans>
          </span>
        ) : null}
      </p>
      {list.loading ? <Spinner label={t`Loading your portfolios…`} /> : null}
      {list.error ? <LoadFailed error={list.error} onRetry={list.retry} /> : null}
      {list.data && list.data.portfolios.length === 0 ? (
        <p className="notice">
          <Trans>You have no saved portfolios yet. Answer three questions to build one.</Trans>
        </p>
      ) : null}
      {list.data && list.data.portfolios.length > 0 ? (
        <DataTable
          caption={t`Your saved portfolios`}
          className="portfolio-table"
          testId="portfolio-list"
          columns={[
            {
              key: "name",
              header: t`Name`,
              cell: (p) => (
                <Link to={pathFor("account-portfolio", locale, { id: String(p.id) })}>
                  {p.name}
                </Link>
              ),
            },
            {
              key: "value",
              header: t`Value`,
              cell: (p) => formatMoney(p.valuation?.value ?? p.totalInvested, p.currency, locale),
            },
            {
              key: "return",
              header: t`Return`,
              cell: (p) => (p.valuation ? formatPercent(p.valuation.return, locale) : "—"),
              className: (p) => (p.valuation && p.valuation.return < 0 ? "negative" : undefined),
            },
            {
              key: "risk",
              header: t`Risk (VaR 95, 1 month, parametric)`,
              cell: (p) => (p.valuation ? formatPercent(p.valuation.risk, locale) : "—"),
            },
            {
              key: "score",
              header: t`Score`,
              cell: (p) =>
                p.valuation
                  ? formatNumber(p.valuation.score, locale, { maximumFractionDigits: 0 })
                  : "—",
            },
            {
              key: "saved",
              header: t`Saved on (calendar date)`,
              cell: (p) => formatDate(p.createdAt, locale),
            },
          ]}
          rows={list.data.portfolios}
          rowKey={(p) => String(p.id)}
        />
      ) : null}
      {list.data?.simulated ? (
        <p className="muted">
          <Trans>Simulated prices</Trans>
        </p>
      ) : null}
    </div>
  );
}
