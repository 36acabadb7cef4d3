import { useLingui } from "@lingui/react/macro";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { toHolding } from "../../contract/portfolios.ts";
import { LoadFailed } from "../../ui/load-failed.tsx";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { AssessmentView } from "./assessment-view.tsx";
import { useCurrentPortfolio } from "./use-current-portfolio.ts";
import { usePermissions } from "./use-wizard.ts";

/** Assess risk > assessment: the loss at 95% against what the user said they could bear. */
export default function AssessRiskScreen({ locale }: ScreenProps) {
  const { t } = useLingui();
  const { http } = useServices();
  const current = useCurrentPortfolio();
  const { product } = usePermissions();
  const analysis = useData(`assess:${JSON.stringify(current)}`, async () => {
    if (!current) return null;
    if (current.savedId !== null)
      return http.call(endpoints.portfolioAnalysis, { params: { id: current.savedId } });
    return http.call(endpoints.analyse, {
      body: {
        currency: current.currency,
        assets: current.assets.map(toHolding),
      },
    });
  });
  return (
    <div>
      <PageHeading
        title={t`Risk assessment`}
        summary={t`Your portfolio's loss at 95% against what you said you could bear.`}
      />
      {analysis.loading ? <Spinner label={t`Measuring the risk…`} /> : null}
      {analysis.error ? <LoadFailed error={analysis.error} onRetry={analysis.retry} /> : null}
      {analysis.data && current ? (
        <AssessmentView
          analysis={analysis.data}
          maxToLose95={current.maxToLose95}
          locale={locale}
          product={product}
        />
      ) : null}
    </div>
  );
}
