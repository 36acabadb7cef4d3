import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { UnavailableNotice } from "../../app/unavailable-notice.tsx";
import { useData } from "../../app/use-data.ts";
import type { Product } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { DEFAULT_BOUNDS } from "../../contract/portfolio-rules.ts";
import { LAZY_PORTFOLIOS, type LazyPortfolioId } from "../../contract/portfolios.ts";
import { FieldError, FormMessage, MoneyField } from "../../ui/form.tsx";
import { formatMoney } from "../../ui/format.ts";
import { Spinner } from "../../ui/spinner.tsx";
import type { WizardProblem } from "../../../machines/portfolio-wizard.machine.ts";
import { problemText, usePermissions, useRestoringWizard, useWizardStep } from "./use-wizard.ts";
import { WizardNav, WizardPage } from "./wizard-parts.tsx";

export const assetClassNames = {
  equity: msg`Equity`,
  fixed_income: msg`Fixed income`,
  commodities: msg`Commodities`,
  crypto: msg`Crypto`,
  money_market: msg`Money market`,
  real_estate: msg`Real estate`,
} as const;

const lazyNames = {
  "balanced-60-40": msg`Balanced 60/40: world stocks and 7-10 year Treasuries`,
  "all-weather": msg`All weather: stocks, long and medium bonds, gold and commodities`,
  permanent: msg`Permanent portfolio: stocks, long bonds, gold and cash in equal parts`,
} as const;

/** q1: what to invest in (stocks by exchange or funds by asset class), the currency and the amount. */
export default function Q1Screen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http, portfolios, products, config } = useServices();
  const { product, permissions } = usePermissions();
  const { wizard, snapshot } = useWizardStep("q1");
  const amountId = useId();
  const currencyErrorId = useId();
  const lazyErrorId = useId();
  const amountRef = useRef<HTMLInputElement>(null);
  const currencyRef = useRef<HTMLInputElement>(null);
  const lazyRef = useRef<HTMLInputElement>(null);

  const restoring = useRestoringWizard();
  // A new wizard when there is none for this product, or the last one is over (not while the one
  // kept in this tab is being brought back after a reload).
  useEffect(() => {
    if (!portfolios || restoring) return;
    const s = wizard?.getSnapshot();
    if (!wizard || s?.status !== "active" || s.context.product !== product)
      portfolios.startWizard({ product, permissions });
  }, [wizard, portfolios, product, permissions, restoring]);

  const universe = useData(`universe:${product}`, () =>
    http.call(endpoints.marketAssets, { query: { product } }),
  );
  const answers = snapshot?.context.answers;
  const [amount, setAmount] = useState<number | null>(answers?.amount ?? null);
  // A wizard that arrives after the first render (brought back after a reload) brings its amount.
  const [amountOf, setAmountOf] = useState(wizard);
  if (amountOf !== wizard) {
    setAmountOf(wizard);
    setAmount(answers?.amount ?? null);
  }
  if (!wizard || !snapshot || !answers) return <Spinner label={t`Loading…`} />;

  const groupOf = (a: { exchange: string | null; assetClass: string | null }) =>
    (product === "simIndices" ? a.assetClass : a.exchange) ?? "";
  const groups = [...new Set((universe.data?.assets ?? []).filter((a) => !a.stale).map(groupOf))]
    .filter(Boolean)
    .sort();
  const groupLabel = (g: string) =>
    product === "simIndices" && g in assetClassNames
      ? i18n._(assetClassNames[g as keyof typeof assetClassNames])
      : g;
  const lazyOffered =
    config.edition === "tt" && permissions.construction.lazyPortfolios && product === "simIndices";
  // Each problem of an answer is shown at its field; a failed proposal is the form's.
  const problem = snapshot.context.problem;
  const fieldOf = (p: WizardProblem | null) =>
    p === "TOTAL_TOO_LOW" || p === "TOTAL_TOO_HIGH"
      ? "amount"
      : p === "CURRENCY_UNDEFINED"
        ? "currency"
        : p === "LAZY_NOT_ALLOWED" && lazyOffered
          ? "lazy"
          : null;
  const problemField = fieldOf(problem);
  const fieldProblem = (field: string) =>
    problem && problemField === field ? i18n._(problemText(problem)) : null;
  const formProblem = (problemField ? null : problem) ?? snapshot.context.error;
  const maxText = formatMoney(DEFAULT_BOUNDS.max, answers.currency ?? "EUR", locale);

  // The effect above starts a new wizard with the new product's permissions.
  const setProduct = (p: Product) => products?.set(p);
  const toggleGroup = (g: string, on: boolean) =>
    wizard.send({
      type: "q1.change",
      answers: {
        universe: on ? [...answers.universe, g] : answers.universe.filter((x) => x !== g),
      },
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    wizard.send({ type: "q1.change", answers: { amount } });
    wizard.send({ type: "step.next" });
    // The first field with a problem gets the focus (its message is read with it).
    const field = fieldOf(wizard.getSnapshot().context.problem);
    const ref = field === "amount" ? amountRef : field === "currency" ? currencyRef : lazyRef;
    if (field) ref.current?.focus();
  };

  return (
    <WizardPage
      title={t`What do you want to invest in?`}
      summary={t`Question 1 of 3: the universe, the currency and the amount.`}
      step={1}
    >
      <UnavailableNotice locale={locale} />
      <form className="form form-wide" onSubmit={submit} noValidate>
        {formProblem ? (
          <FormMessage kind="error">{i18n._(problemText(formProblem))}</FormMessage>
        ) : null}
        <fieldset className="choice-grid">
          <legend>{t`What to invest in`}</legend>
          {(
            [
              ["simAssets", t`Stocks, chosen by stock exchange`],
              ["simIndices", t`Index funds, chosen by asset class`],
            ] as const
          ).map(([p, label]) => (
            <label key={p} className="choice">
              <input
                type="radio"
                name="product"
                checked={product === p}
                onChange={() => setProduct(p)}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <fieldset className="choice-grid">
          <legend>
            {product === "simIndices"
              ? t`Asset classes (none chosen: all of them)`
              : t`Stock exchanges (none chosen: all of them)`}
          </legend>
          {universe.loading ? <Spinner label={t`Loading the market…`} /> : null}
          {groups.map((g) => (
            <label key={g} className="choice">
              <input
                type="checkbox"
                checked={answers.universe.includes(g)}
                onChange={(e) => toggleGroup(g, e.target.checked)}
              />
              {groupLabel(g)}
            </label>
          ))}
        </fieldset>
        <fieldset
          className={fieldProblem("currency") ? "choice-grid has-error" : "choice-grid"}
          aria-describedby={fieldProblem("currency") ? currencyErrorId : undefined}
        >
          <legend>{t`Currency of the portfolio`}</legend>
          {(["EUR", "USD"] as const).map((c, i) => (
            <label key={c} className="choice">
              <input
                ref={i === 0 ? currencyRef : undefined}
                type="radio"
                name="currency"
                checked={answers.currency === c}
                onChange={() => wizard.send({ type: "q1.change", answers: { currency: c } })}
              />
              {c === "EUR" ? t`Euro (EUR)` : t`US dollar (USD)`}
            </label>
          ))}
          {fieldProblem("currency") ? (
            <FieldError id={currencyErrorId}>{fieldProblem("currency")}</FieldError>
          ) : null}
        </fieldset>
        <MoneyField
          id={amountId}
          inputRef={amountRef}
          label={t`Amount to invest`}
          name="amount"
          value={amount}
          locale={locale}
          onValueChange={setAmount}
          hint={<Trans>Above zero and up to {maxText}.</Trans>}
          error={fieldProblem("amount")}
        />
        {lazyOffered ? (
          <fieldset
            className={fieldProblem("lazy") ? "choice-grid has-error" : "choice-grid"}
            aria-describedby={fieldProblem("lazy") ? lazyErrorId : undefined}
          >
            <legend>{t`Or start from a lazy portfolio`}</legend>
            <label className="choice">
              <input
                ref={lazyRef}
                type="radio"
                name="lazy"
                checked={answers.lazyPortfolio === null}
                onChange={() =>
                  wizard.send({ type: "q1.change", answers: { lazyPortfolio: null } })
                }
              />
              {t`No, answer the three questions`}
            </label>
            {(Object.keys(LAZY_PORTFOLIOS) as LazyPortfolioId[]).map((id) => (
              <label key={id} className="choice">
                <input
                  type="radio"
                  name="lazy"
                  checked={answers.lazyPortfolio === id}
                  onChange={() =>
                    wizard.send({ type: "q1.change", answers: { lazyPortfolio: id } })
                  }
                />
                {i18n._(lazyNames[id])}
              </label>
            ))}
            {fieldProblem("lazy") ? (
              <FieldError id={lazyErrorId}>{fieldProblem("lazy")}</FieldError>
            ) : null}
          </fieldset>
        ) : null}
        <WizardNav busy={snapshot.matches("proposing")} />
      </form>
    </WizardPage>
  );
}
