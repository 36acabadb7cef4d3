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
import { LoadFailed } from "../../ui/load-failed.tsx";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { TermLinks } from "../../ui/term-link.tsx";

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
        <div
          className="table-scroll"
          role="region"
          aria-label={t`Your saved portfolios`}
          tabIndex={0}
        >
          <table className="data-table portfolio-table">
            <caption className="visually-hidden">{t`Your saved portfolios`}</caption>
            <thead>
              <tr>
                <th scope="col">{t`Name`}</th>
                <th scope="col">{t`Value`}</th>
                <th scope="col">{t`Return`}</th>
                <th scope="col">{t`Risk (VaR 95, 1 month, parametric)`}</th>
                <th scope="col">{t`Score`}</th>
                <th scope="col">{t`Saved on (calendar date)`}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.portfolios.map((p) => {
                const v = p.valuation;
                return (
                  <tr key={p.id}>
                    <th scope="row">
                      <Link to={pathFor("account-portfolio", locale, { id: String(p.id) })}>
                        {p.name}
                      </Link>
                    </th>
                    <td>{formatMoney(v?.value ?? p.totalInvested, p.currency, locale)}</td>
                    <td className={v && v.return < 0 ? "negative" : undefined}>
                      {v ? formatPercent(v.return, locale) : "—"}
                    </td>
                    <td>{v ? formatPercent(v.risk, locale) : "—"}</td>
                    <td>{v ? formatNumber(v.score, locale, { maximumFractionDigits: 0 }) : "—"}</td>
                    <td>{formatDate(p.createdAt, locale)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.data?.simulated ? (
        <p className="muted">
          <Trans>Simulated prices</Trans>
        </p>
      ) : null}
    </div>
  );
}
