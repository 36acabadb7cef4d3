import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import type { OptimiseActor } from "./optimise-store.ts";
import type { SnapshotFrom } from "xstate";
import type { Locale } from "../../contract/common.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { ProgressPanel } from "../../ui/progress-panel.tsx";
import { infeasibleText, violationText } from "./texts.ts";
import "./optimise.css";

export type OptimiseSnapshot = SnapshotFrom<OptimiseActor>;

/** The page of every optimisation step: heading, the portfolio's name, then the step. */
export function OptimisePage({
  title,
  summary,
  name,
  children,
}: {
  title: string;
  summary: string;
  name: string | null;
  children: ReactNode;
}) {
  return (
    <div className="optimise">
      <PageHeading title={title} summary={summary} />
      {name ? <p className="optimise-portfolio">{name}</p> : null}
      {children}
    </div>
  );
}

/** A running optimisation: what runs, for how long, and a way to stop it. */
export function Running({ actor }: { actor: OptimiseActor }) {
  const { t, i18n } = useLingui();
  return (
    <ProgressPanel
      label={t`Optimisation in progress`}
      locale={i18n.locale as Locale}
      onCancel={() => actor.send({ type: "optimisation.cancel" })}
    >
      <Trans>
        Optimising on the server: estimating the risk of every asset and solving for the best mix…
      </Trans>
    </ProgressPanel>
  );
}

/** Why the last attempt did not optimise: blocked rules, an unmet constraint or a failed call. */
export function Outcome({
  snapshot,
  locale,
  total,
  shownAtFields = [],
}: {
  snapshot: OptimiseSnapshot;
  locale: Locale;
  total: number;
  /** Rules whose reason the screen shows at their field instead (the maximum loss's). */
  shownAtFields?: readonly string[];
}) {
  const { i18n } = useLingui();
  const c = snapshot.context;
  const currency = c.portfolio.currency;
  const violations = c.violations.filter((v) => !shownAtFields.includes(v.code));
  if (!violations.length && !c.infeasible && !c.error) return null;
  return (
    <div className="form-message error optimise-outcome" role="alert">
      {violations.length ? (
        <>
          <p>
            <Trans>Optimisation is blocked:</Trans>
          </p>
          <ul data-testid="optimise-violations">
            {violations.map((v) => (
              <li key={v.code} data-code={v.code}>
                {violationText(v, i18n, locale, currency)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {c.infeasible ? (
        <p data-testid="optimise-infeasible" data-code={c.infeasible.code}>
          {infeasibleText(c.infeasible, i18n, locale, currency, total)}
        </p>
      ) : null}
      {c.error ? <p>{i18n._(msgCodeText[c.error])}</p> : null}
    </div>
  );
}
