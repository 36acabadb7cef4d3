import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, type FormEvent } from "react";
import type { ScreenProps } from "../../app/route-table.ts";
import {
  offeredAssetLevels,
  ORDERINGS,
  orderingAllowed,
  permissionMaxAssets,
  type Ordering,
} from "../../contract/portfolio-rules.ts";
import { FormMessage } from "../../ui/form.tsx";
import { Spinner } from "../../ui/spinner.tsx";
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
export default function Q3Screen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { product, permissions } = usePermissions();
  const { wizard, snapshot } = useWizardStep("q3", locale);
  const levelId = useId();
  if (!wizard || !snapshot) return <Spinner label={t`Loading…`} />;
  const answers = snapshot.context.answers;
  const proposing = snapshot.matches("proposing");
  const problem = snapshot.context.problem ?? snapshot.context.error;
  const levels = offeredAssetLevels(permissions);
  const cap = permissionMaxAssets(product, permissions);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    wizard.send({ type: "next" });
  };
  return (
    <WizardPage
      title={t`What matters most to you?`}
      summary={t`Question 3 of 3: your priority and the number of assets.`}
      step={3}
    >
      <form className="form form-wide" onSubmit={submit} noValidate aria-busy={proposing}>
        {problem ? <FormMessage kind="error">{i18n._(problemText(problem))}</FormMessage> : null}
        <fieldset className="choice-grid">
          <legend>{t`Your priority`}</legend>
          {ORDERINGS.map((o) => {
            const allowed = orderingAllowed(o, permissions);
            return (
              <label key={o} className={allowed ? "choice" : "choice disabled"}>
                <input
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
        </fieldset>
        <div className="field">
          <label htmlFor={levelId}>{t`Number of assets`}</label>
          <select
            id={levelId}
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
          </select>
          <div className="field-hint">
            <Trans>Your plan allows up to {cap} assets per portfolio.</Trans>
          </div>
        </div>
        {proposing ? <Spinner label={t`Building your portfolio…`} /> : null}
        <WizardNav
          onBack={() => wizard.send({ type: "back" })}
          nextLabel={t`Build my portfolio`}
          busy={proposing}
        />
      </form>
    </WizardPage>
  );
}
