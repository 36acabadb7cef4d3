import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type ReactNode } from "react";
import type { OptimiseActor } from "./optimise-store.ts";
import type { SnapshotFrom } from "xstate";
import type { Locale } from "../../contract/common.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
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
  const { t } = useLingui();
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="card optimise-running" role="status" aria-live="polite">
      <span className="spinner-dot" aria-hidden="true" />
      <p>
        <Trans>
          Optimising on the server: estimating the risk of every asset and solving for the best mix…{" "}
          {seconds} s
        </Trans>
      </p>
      <progress aria-label={t`Optimisation in progress`} />
      <button
        type="button"
        className="button secondary"
        onClick={() => actor.send({ type: "cancel" })}
      >
        <Trans>Cancel</Trans>
      </button>
    </div>
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
