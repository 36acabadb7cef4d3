import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import type { AnalysisResponse } from "../../contract/analytics.ts";
import type { Locale, Product } from "../../contract/common.ts";
import { GaugeChart } from "../../ui/charts/index.ts";
import { PlanLock } from "../../app/plan-lock.tsx";
import { formatMoney, formatPercent } from "../../ui/format.ts";
import { windowNote } from "./figure-notes.ts";
import { TermLinks } from "../../app/term-link.tsx";
import { LockIcon } from "../../ui/lock-icon.tsx";
import { MoneyInput } from "../../ui/number-input.tsx";

export interface AssessmentViewProps {
  readonly analysis: AnalysisResponse;
  /** What the user said in q2 they could bear to lose in a bad month (null: not said). */
  readonly maxToLose95: number | null;
  readonly locale: Locale;
  /** The product whose plans unlock a locked figure. */
  readonly product?: Product;
}

/**
 * Assess risk > assessment: the portfolio's loss at 95% over a month (historical VaR) against what
 * the user said they could bear, in words and in a picture. Without an answer the user can give one
 * here (it stays on this screen).
 */
export function AssessmentView({
  analysis: a,
  maxToLose95,
  locale,
  product = "simAssets",
}: AssessmentViewProps) {
  const { t, i18n } = useLingui();
  const [bearable, setBearable] = useState<number | null>(maxToLose95);
  const [typed, setTyped] = useState<number | null>(maxToLose95);
  const inputId = useId();
  const money = (v: number) => formatMoney(v, a.currency, locale);
  if (!a.var)
    return (
      <section className="card locked" aria-labelledby="assessment-locked">
        <h2 id="assessment-locked">
          <LockIcon /> <Trans>Your portfolio's loss at 95%</Trans>
        </h2>
        <p>
          <Trans>
            The assessment compares your portfolio's loss at 95% in a month (its value at risk) with
            what you can bear.
          </Trans>{" "}
          <PlanLock product={product} permission="analysis.var" locale={locale} />
        </p>
      </section>
    );
  const loss = a.var.historical.varAmount;
  const lossText = money(loss);
  const lossShare = formatPercent(a.var.historical.var, locale);
  const total = money(a.totalInvested);
  const within = bearable !== null ? loss <= bearable : null;
  const bearableText = bearable !== null ? money(bearable) : "";
  const gap = bearable !== null ? money(Math.abs(bearable - loss)) : "";
  return (
    <div className="assessment">
      <section className="card" aria-labelledby="assessment-verdict">
        <h2 id="assessment-verdict">
          {within === null ? (
            <Trans>Your portfolio's loss at 95%</Trans>
          ) : within ? (
            <Trans>Within what you can bear</Trans>
          ) : (
            <Trans>More than you can bear</Trans>
          )}
        </h2>
        <p className="lead" data-testid="assessment-words">
          <Trans>
            In one month out of twenty, your portfolio of {total} could lose {lossText} ({lossShare}
            ) or more.
          </Trans>{" "}
          {within === true ? (
            <Trans>
              You said you could bear losing {bearableText}: this risk is {gap} below your limit.
            </Trans>
          ) : null}
          {within === false ? (
            <Trans>
              You said you could bear losing {bearableText}: this risk is {gap} above your limit.
              Consider lowering the amount in the riskiest assets or optimising the portfolio.
            </Trans>
          ) : null}
        </p>
        {bearable !== null ? (
          <GaugeChart
            value={loss}
            limit={bearable}
            valueLabel={t`Loss at 95% in a month`}
            limitLabel={t`What you can bear`}
            title={t`Your portfolio's risk against your limit`}
            description={t`The bar is the loss at 95% over one month; the mark is the loss you said you could bear.`}
            formatValue={money}
          />
        ) : null}
        <p className="figure-method">
          {t`Historical VaR 95 over one month.`} {windowNote(a, i18n, locale)}
        </p>
        <TermLinks
          label={t`In the dictionary:`}
          terms={[
            ["value-at-risk", t`Value at risk (VaR)`],
            ["historical-simulation", t`Historical simulation`],
            ["loss-tolerance", t`Loss tolerance`],
            ["risk-profile", t`Risk profile`],
          ]}
        />
      </section>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setBearable(typed !== null && typed > 0 ? typed : null);
        }}
      >
        <div className="field">
          <label htmlFor={inputId}>{t`The most you could bear to lose in a bad month`}</label>
          <MoneyInput id={inputId} value={typed} locale={locale} onValueChange={setTyped} />
        </div>
        <button className="button" type="submit">
          <Trans>Compare</Trans>
        </button>
      </form>
    </div>
  );
}
