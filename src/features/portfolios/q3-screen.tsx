import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, type FormEvent } from "react";
import {
  maxAssetsOfLevel,
  offeredAssetLevels,
  ORDERINGS,
  orderingAllowed,
  permissionMaxAssets,
  type Ordering,
} from "../../contract/portfolio-rules.ts";
import { Field, FieldError, FormMessage } from "../../ui/form.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import type { WizardProblem } from "../../../machines/portfolio-wizard.machine.ts";
import { problemText, usePermissions, useWizardStep } from "./use-wizard.ts";
import { WizardNav, WizardPage } from "./wizard-parts.tsx";

const orderingText: Record<
  Ordering,
  { title: ReturnType<typeof msg>; detail: ReturnType<typeof msg> }
> = {
  balanced: {
    title: msg`Balanced`,
    detail: msg`The least volatile assets, spread across exchanges or asset classes.`,
  },
  marketRisk: {
    title: msg`Lowest market risk`,
    detail: msg`The assets that move least with the market (lowest beta).`,
  },
  expectedReturn: {
    title: msg`Highest expected return`,
    detail: msg`The assets with the highest expected return.`,
  },
  riskReturn: {
    title: msg`Best risk-return`,
    detail: msg`The highest expected return for each unit of risk.`,
  },
  minimization: {
    title: msg`Minimum risk`,
    detail: msg`The mix of assets with the lowest possible risk, found by the optimiser.`,
  },
};

/** q3: what matters most (each ordering behind its permission) and how many assets. */
export default function Q3Screen() {
  const { t, i18n } = useLingui();
  const { product, permissions } = usePermissions();
  const { wizard, snapshot } = useWizardStep("q3");
  const levelId = useId();
  const orderingErrorId = useId();
  const orderingRef = useRef<HTMLInputElement>(null);
  const levelRef = useRef<HTMLSelectElement>(null);
  if (!wizard || !snapshot) return <Spinner label={t`Loading…`} />;
  const answers = snapshot.context.answers;
  const proposing = snapshot.matches("proposing");
  const levels = offeredAssetLevels(permissions);
  const cap = permissionMaxAssets(product, permissions);
  const unofferedCount = levels.some((l) => l.level === answers.maxAssetsLevel)
    ? null
    : maxAssetsOfLevel(answers.maxAssetsLevel);
  // Each problem of an answer is shown at its field; a failed proposal is the form's.
  const fieldOf = (p: WizardProblem | null) =>
    p === "ORDERING_NOT_ALLOWED" ? "ordering" : p === "ASSET_LEVEL_NOT_OFFERED" ? "level" : null;
  const problem = snapshot.context.problem;
  const problemField = fieldOf(problem);
  const fieldProblem = (field: "ordering" | "level") =>
    problem && problemField === field ? i18n._(problemText(problem)) : null;
  const formProblem = (problemField ? null : problem) ?? snapshot.context.error;
  const orderingProblem = fieldProblem("ordering");
  // The first choice the plan allows takes the focus when the priority has a problem.
  const firstAllowed = ORDERINGS.find((o) => orderingAllowed(o, permissions));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    wizard.send({ type: "step.next" });
    // The field with the problem gets the focus (its message is read with it).
    const field = fieldOf(wizard.getSnapshot().context.problem);
    if (field === "ordering") orderingRef.current?.focus();
    else if (field === "level") levelRef.current?.focus();
  };
  return (
    <WizardPage
      title={t`What matters most to you?`}
      summary={t`Question 3 of 3: your priority and the number of assets.`}
      step={3}
    >
      <form className="form form-wide" onSubmit={submit} noValidate aria-busy={proposing}>
        {formProblem ? (
          <FormMessage kind="error">{i18n._(problemText(formProblem))}</FormMessage>
        ) : null}
        <fieldset
          className={orderingProblem ? "choice-grid has-error" : "choice-grid"}
          aria-describedby={orderingProblem ? orderingErrorId : undefined}
        >
          <legend>{t`Your priority`}</legend>
          {ORDERINGS.map((o) => {
            const allowed = orderingAllowed(o, permissions);
            return (
              <label key={o} className={allowed ? "choice" : "choice disabled"}>
                <input
                  ref={o === firstAllowed ? orderingRef : undefined}
                  type="radio"
                  name="ordering"
                  disabled={!allowed}
                  checked={answers.ordering === o}
                  onChange={() => wizard.send({ type: "q3.change", answers: { ordering: o } })}
                />
                <span>
                  <strong>{i18n._(orderingText[o].title)}</strong>
                  <br />
                  <span className="muted">{i18n._(orderingText[o].detail)}</span>
                  {!allowed ? (
                    <>
                      <br />
                      <em>{t`Not included in your plan.`}</em>
                    </>
                  ) : null}
                </span>
              </label>
            );
          })}
          {orderingProblem ? <FieldError id={orderingErrorId}>{orderingProblem}</FieldError> : null}
        </fieldset>
        <Field
          id={levelId}
          label={t`Number of assets`}
          hint={<Trans>Your plan allows up to {cap} assets per portfolio.</Trans>}
          error={fieldProblem("level")}
        >
          {(control) => (
            <select
              {...control}
              ref={levelRef}
              name="maxAssetsLevel"
              value={answers.maxAssetsLevel}
              onChange={(e) =>
                wizard.send({
                  type: "q3.change",
                  answers: { maxAssetsLevel: Number(e.target.value) },
                })
              }
            >
              {levels.map((l) => {
                const count = Math.min(l.assets, cap);
                return (
                  <option key={l.level} value={l.level}>
                    {t`Up to ${count} assets`}
                  </option>
                );
              })}
              {unofferedCount !== null ? (
                // The answer kept from before (a draft, another plan) is shown as it is, not as
                // the first choice the browser would show in its place.
                <option value={answers.maxAssetsLevel} disabled>
                  {t`Up to ${unofferedCount} assets (not in your plan)`}
                </option>
              ) : null}
            </select>
          )}
        </Field>
        {proposing ? <Spinner label={t`Building your portfolio…`} /> : null}
        <WizardNav
          onBack={() => wizard.send({ type: "step.back" })}
          nextLabel={t`Build my portfolio`}
          busy={proposing}
        />
      </form>
    </WizardPage>
  );
}
