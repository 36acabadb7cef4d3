import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { OptimisePage } from "./parts.tsx";
import { AnalysisView } from "./portfolio-views.ts";
import { useOptimise } from "./use-optimise.ts";
import { LoadFailed } from "../../ui/load-failed.tsx";

/**
 * analysis/optimized-portfolio-full-analysis: every figure of the optimised portfolio, its returns
 * behind requiredReturnsOptimPortfolio and expectedReturnsOptimPortfolio.
 */
export default function OptimisedAnalysisScreen({ locale }: ScreenProps) {
  const { t } = useLingui();
  const { http } = useServices();
  const o = useOptimise("summary");
  const answer = o.snapshot?.context.optimizedPortfolio ?? null;
  const benchmark = o.snapshot?.context.portfolio.benchmark;
  const assets = (answer?.assets ?? [])
    .filter((a) => a.investedAmount >= 0.01)
    .map((a) => ({ symbol: a.symbol, investedAmount: Math.round(a.investedAmount * 100) / 100 }));
  const analysis = useData(`optimised-analysis:${JSON.stringify(assets)}`, async () =>
    answer && assets.length
      ? http.call(endpoints.analyse, {
          body: { currency: answer.currency, ...(benchmark ? { benchmark } : {}), assets },
        })
      : null,
  );
  const title = t`Full analysis of the optimised portfolio`;
  const summary = t`The optimised portfolio's risk and returns, figure by figure.`;
  if (!o.snapshot) return <Spinner label={t`Loading…`} />;
  const stale = o.snapshot.matches("stale");
  return (
    <OptimisePage title={title} summary={summary} name={o.current?.name ?? null}>
      {!answer ? (
        <p>
          <Trans>There is no optimised portfolio yet.</Trans>{" "}
          <Link to={pathFor("optimize-choose", locale)}>
            <Trans>Choose how to optimise</Trans>
          </Link>
        </p>
      ) : null}
      {stale ? (
        <p className="form-message warning" role="alert">
          <Trans>
            Your portfolio changed after this optimisation: this analysis is of an outdated result.
          </Trans>
        </p>
      ) : null}
      {analysis.loading ? <Spinner label={t`Analysing the optimised portfolio…`} /> : null}
      {analysis.error ? <LoadFailed error={analysis.error} onRetry={analysis.retry} /> : null}
      {analysis.data ? (
        <AnalysisView
          analysis={analysis.data}
          permissions={o.permissions}
          product={o.product}
          locale={locale}
          history={null}
          returnsPermissions={{
            required: "analysis.requiredReturnsOptimPortfolio",
            expected: "analysis.expectedReturnsOptimPortfolio",
          }}
        />
      ) : null}
      {answer ? (
        <p className="actions-row">
          <Link to={pathFor("optimize-summary", locale)}>
            <Trans>Back to the comparison</Trans>
          </Link>
        </p>
      ) : null}
    </OptimisePage>
  );
}
