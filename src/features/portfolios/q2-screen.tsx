import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState, type FormEvent } from "react";
import type { ScreenProps } from "../../app/route-table.ts";
import { MIN_DESIRED_RISK_PERCENT } from "../../contract/portfolio-rules.ts";
import { MoneyField, NumberField } from "../../ui/form.tsx";
import { formatMoney, formatNumber } from "../../ui/format.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { problemText, useWizardStep } from "./use-wizard.ts";
import { WizardNav, WizardPage } from "./wizard-parts.tsx";
import { TermLinks } from "../../app/term-link.tsx";

/** q2: the loss at 95% in a bad month the investor could bear, as an amount or a percentage. */
export default function Q2Screen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { wizard, snapshot } = useWizardStep("q2");
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const answers = snapshot?.context.answers;
  const [unit, setUnit] = useState<"amount" | "percent">("amount");
  const [typed, setTyped] = useState<number | null>(answers?.maxToLose95 ?? null);
  // A wizard that arrives after the first render (brought back after a reload) brings its answer.
  const [typedOf, setTypedOf] = useState(wizard);
  if (typedOf !== wizard) {
    setTypedOf(wizard);
    setTyped(answers?.maxToLose95 ?? null);
  }
  if (!wizard || !snapshot || !answers) return <Spinner label={t`Loading…`} />;
  const currency = answers.currency ?? "EUR";
  const amount = answers.amount ?? 0;
  const minimumPercent = MIN_DESIRED_RISK_PERCENT[currency];
  const minimumAmount = formatMoney((amount * minimumPercent) / 100, currency, locale);
  const minimumPercentText = formatNumber(minimumPercent, locale, { maximumFractionDigits: 2 });
  const invested = formatMoney(amount, currency, locale);
  const problem = snapshot.context.problem;
  const chosen = answers.maxToLose95;
  const chosenText = chosen !== null ? formatMoney(chosen, currency, locale) : "";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    wizard.send({ type: "q2.change", maxToLose95: typed, unit });
    wizard.send({ type: "step.next" });
    // The answer's problem is shown at its field, which gets the focus.
    if (wizard.getSnapshot().context.problem) inputRef.current?.focus();
  };
  return (
    <WizardPage
      title={t`How much could you bear to lose?`}
      summary={t`Question 2 of 3: your maximum loss in a bad month.`}
      step={2}
    >
      <form className="form form-wide" onSubmit={submit} noValidate>
        <TermLinks
          label={t`In the dictionary:`}
          terms={[
            ["loss-tolerance", t`Loss tolerance`],
            ["value-at-risk", t`Value at risk (VaR)`],
            ["confidence-level", t`Confidence level`],
            ["risk-horizon", t`Risk horizon`],
          ]}
        />
        <p>
          <Trans>
            Think of a bad month, the kind that comes about once every twenty months. Of the{" "}
            {invested} you invest, how much could you bear to lose in it?
          </Trans>
        </p>
        <fieldset className="choice-grid">
          <legend>{t`Answer as`}</legend>
          <label className="choice">
            <input
              type="radio"
              name="unit"
              checked={unit === "amount"}
              onChange={() => {
                setUnit("amount");
                wizard.send({
                  type: "q2.change",
                  maxToLose95: typed,
                  unit: "amount",
                });
              }}
            />
            {t`An amount (${currency})`}
          </label>
          <label className="choice">
            <input
              type="radio"
              name="unit"
              checked={unit === "percent"}
              onChange={() => {
                setUnit("percent");
                wizard.send({
                  type: "q2.change",
                  maxToLose95: typed,
                  unit: "percent",
                });
              }}
            />
            {t`A percentage of the amount`}
          </label>
        </fieldset>
        {(() => {
          const field = {
            id: inputId,
            inputRef,
            name: "maxToLose95",
            value: typed,
            locale,
            onValueChange: (v: number | null) => {
              setTyped(v);
              wizard.send({ type: "q2.change", maxToLose95: v, unit });
            },
            hint: (
              <Trans>
                Leave it empty if you prefer not to say. Portfolios can be optimised against a loss
                from {minimumAmount} ({minimumPercentText}% of the amount) up.
              </Trans>
            ),
            error: problem ? i18n._(problemText(problem)) : null,
          };
          // An amount is money (two decimals); a percentage is a plain number.
          return unit === "amount" ? (
            <MoneyField key="amount" label={t`Loss you could bear, in ${currency}`} {...field} />
          ) : (
            <NumberField key="percent" label={t`Loss you could bear, in %`} {...field} />
          );
        })()}
        {snapshot.context.maxToLoseBelowMinimum && chosen !== null ? (
          <p className="notice" role="status" data-testid="below-minimum">
            <Trans>
              {chosenText} is below the minimum desired risk of {minimumAmount}: we keep your
              answer, but no portfolio of risky assets loses that little in a bad month, so
              optimising against it will not be possible.
            </Trans>
          </p>
        ) : null}
        <WizardNav onBack={() => wizard.send({ type: "step.back" })} />
      </form>
    </WizardPage>
  );
}
