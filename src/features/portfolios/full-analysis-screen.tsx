import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { toHolding } from "../../contract/portfolios.ts";
import { LoadFailed } from "../../ui/load-failed.tsx";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { usePermissions } from "./use-wizard.ts";
import { AnalysisView } from "./analysis-view.tsx";
import { useCurrentPortfolio } from "./use-current-portfolio.ts";

/** Analysis > full analysis of the portfolio being created or edited (or the saved one). */
export default function FullAnalysisScreen({ locale }: ScreenProps) {
  const { t } = useLingui();
  const { http } = useServices();
  const { product, permissions } = usePermissions();
  const current = useCurrentPortfolio();
  const key = JSON.stringify(current);
  const analysis = useData(`analysis:${key}`, async () => {
    if (!current) return null;
    if (current.savedId !== null)
      return http.call(endpoints.portfolioAnalysis, { params: { id: current.savedId } });
    return http.call(endpoints.analyse, {
      body: {
        currency: current.currency,
        ...(current.benchmark ? { benchmark: current.benchmark } : {}),
        assets: current.assets.map(toHolding),
      },
    });
  });
  const history = useData(`history:${current?.savedId ?? "none"}`, async () =>
    current?.savedId != null
      ? http.call(endpoints.portfolioHistory, { params: { id: current.savedId } })
      : null,
  );
  return (
    <div>
      <PageHeading
        title={t`Full analysis`}
        summary={t`Breakdown, diversification, returns, VaR and risk contributions.`}
      />
      {current?.name ? <p className="lead">{current.name}</p> : null}
      {analysis.loading ? <Spinner label={t`Analysing your portfolio…`} /> : null}
      {analysis.error ? <LoadFailed error={analysis.error} onRetry={analysis.retry} /> : null}
      {analysis.data ? (
        <AnalysisView
          analysis={analysis.data}
          permissions={permissions}
          product={product}
          locale={locale}
          history={history.data ?? null}
        />
      ) : null}
      <p className="actions-row">
        <Link to={pathFor("assess-risk", locale)}>
          <Trans>Assess the risk against what you can bear</Trans>
        </Link>
      </p>
    </div>
  );
}
