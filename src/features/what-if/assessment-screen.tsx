import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { isStale } from "../../../machines/what-if.machine.ts";
import { useMarketToday } from "../../app/market-clock-notice.tsx";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { WhatIfResultView } from "./result-view.tsx";
import { useWhatIf } from "./use-what-if.ts";
import { RunProgress, WhatIfProblemNote } from "./what-if-parts.tsx";
import { kindNames } from "./what-if-texts.ts";
import "./what-if.css";

/** What-if assessment: the last run's effect on each asset and on the whole portfolio. */
export default function WhatIfAssessmentScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { snapshot, send, current } = useWhatIf("assessment");
  const c = snapshot.context;
  const state = snapshot.value as string;
  const running = state === "running";
  const stale = isStale(c);
  const kindName = c.result ? i18n._(kindNames[c.result.kind]) : "";
  const scenarios = pathFor("what-if-scenarios", locale);
  const marketToday = useMarketToday()?.today ?? null;
  return (
    <div className="what-if">
      <PageHeading
        title={t`What-if assessment`}
        summary={t`The effect of the scenario on each asset and on the whole portfolio.`}
      />
      {running ? (
        <RunProgress
          count={c.portfolio?.assets.length ?? 0}
          locale={locale}
          onCancel={() => send({ type: "whatIf.cancel" })}
        />
      ) : null}
      <WhatIfProblemNote
        context={c}
        state={state}
        locale={locale}
        onRetry={() => send({ type: "whatIf.retry" })}
      />
      {c.result ? (
        <>
          {stale ? (
            <div
              className="form-message error what-if-stale"
              role="alert"
              data-testid="what-if-stale"
            >
              <p>
                <Trans>
                  Your portfolio has changed since this run: these figures are for the portfolio as
                  it was then.
                </Trans>
              </p>
              {current && !running ? (
                <button
                  type="button"
                  className="button primary"
                  onClick={() => send({ type: "whatIf.run" })}
                >
                  <Trans>Run it again on the portfolio as it is now</Trans>
                </button>
              ) : null}
            </div>
          ) : null}
          <p className="what-if-ran" data-testid="what-if-ran" data-kind={c.result.kind}>
            <Trans>Run: {kindName}.</Trans>{" "}
            <Link to={scenarios}>
              <Trans>Change the what-if</Trans>
            </Link>
          </p>
          <div className={stale ? "what-if-result stale" : "what-if-result"}>
            <WhatIfResultView result={c.result} locale={locale} marketToday={marketToday} />
          </div>
        </>
      ) : running ? null : (
        <p>
          <Trans>Nothing has been run yet.</Trans>{" "}
          <Link to={scenarios}>
            <Trans>Choose a what-if</Trans>
          </Link>
        </p>
      )}
    </div>
  );
}
