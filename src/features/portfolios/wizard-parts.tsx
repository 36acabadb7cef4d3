import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { PageHeading } from "../../ui/page-heading.tsx";

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
    </div>
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
