import { Trans, useLingui } from "@lingui/react/macro";
import { useSelector } from "@xstate/react";
import { useId, useState, type ReactNode } from "react";
import { PageHeading } from "../../ui/page-heading.tsx";
import { useWizardActor } from "./use-wizard.ts";

/** The steps of the wizard, the current one marked for assistive technology. */
export function WizardSteps({ current }: { current: 1 | 2 | 3 | 4 }) {
  const { t } = useLingui();
  const steps = [t`What and how much`, t`Your loss limit`, t`Your priority`, t`Summary`];
  return (
    <ol className="wizard-steps" aria-label={t`Steps`}>
      {steps.map((label, i) => (
        <li key={label} aria-current={i + 1 === current ? "step" : undefined}>
          {i + 1}. {label}
        </li>
      ))}
    </ol>
  );
}

export function WizardPage({
  title,
  summary,
  step,
  children,
}: {
  title: string;
  summary: string;
  step: 1 | 2 | 3 | 4;
  children: ReactNode;
}) {
  return (
    <div className="wizard">
      <PageHeading title={title} summary={summary} />
      <WizardSteps current={step} />
      {children}
      <DiscardCreation />
    </div>
  );
}

/**
 * Discarding the portfolio being created, asked once more: the wizard's `cancel` ends the creation
 * (its kept draft is dropped, nothing is saved) and takes the person to my portfolios. Offered
 * while the creation is under way (not once it is composed and being saved).
 */
export function DiscardCreation() {
  const { t } = useLingui();
  const wizard = useWizardActor();
  const active = useSelector(wizard ?? undefined, (s) => s?.status === "active");
  const [asking, setAsking] = useState(false);
  const questionId = useId();
  if (!wizard || !active) return null;
  return asking ? (
    <div className="notice" role="group" aria-labelledby={questionId}>
      <p id={questionId}>
        <Trans>Discard this portfolio? Your answers are deleted and nothing is saved.</Trans>
      </p>
      <p className="actions-row">
        <button
          type="button"
          className="button"
          onClick={() => wizard.send({ type: "creation.cancel" })}
        >
          <Trans>Yes, discard it</Trans>
        </button>
        <button type="button" className="button secondary" onClick={() => setAsking(false)}>
          <Trans>Keep creating it</Trans>
        </button>
      </p>
    </div>
  ) : (
    <p className="actions-row">
      <button type="button" className="link-button" onClick={() => setAsking(true)}>
        {t`Discard this portfolio`}
      </button>
    </p>
  );
}

export function WizardNav({
  onBack,
  nextLabel,
  busy,
}: {
  onBack?: () => void;
  nextLabel?: string;
  busy?: boolean;
}) {
  return (
    <div className="actions-row">
      {onBack ? (
        <button type="button" className="button secondary" onClick={onBack}>
          <Trans>Back</Trans>
        </button>
      ) : null}
      <button type="submit" className="button primary" disabled={busy}>
        {nextLabel ?? <Trans>Next</Trans>}
      </button>
    </div>
  );
}
