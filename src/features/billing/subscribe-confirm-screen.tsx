import { useServices } from "../../app/services.tsx";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo, type FormEvent } from "react";
import { Link, useLocation } from "react-router-dom";
import { emptyInvoiceInfo } from "../../../machines/subscription.machine.ts";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { VAT_RATE, type Quote } from "../../contract/billing.ts";
import type { Locale } from "../../contract/common.ts";
import { formatCents, formatDateTime, formatLongDate, formatPercent } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { LoadFailed } from "../../ui/load-failed.tsx";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import {
  periodNames,
  plansHref,
  RetryOrCancel,
  SeeMyPlan,
  selectionFromQuery,
} from "./billing-parts.tsx";
import { InvoiceInfoFields } from "./invoice-info-fields.tsx";
import { productNameOf, tierNames } from "../../ui/plan-names.ts";
import { useSubscription } from "./use-subscription.ts";
import "./billing.css";

/** What an upgrade charges now (prorated, with the credit and the VAT share) and from the next renewal. */
function UpgradeQuote({ quote, locale }: { quote: Quote; locale: Locale }) {
  const { t, i18n } = useLingui();
  const money = (cents: number) => formatCents(cents, quote.currency, locale);
  const from = formatLongDate(quote.periodStart, locale);
  const to = formatLongDate(quote.periodEnd, locale);
  const vat = formatPercent(VAT_RATE, locale, 0);
  const next = money(quote.nextChargeCents);
  const nextDate = formatLongDate(quote.nextChargeDate, locale);
  const periodName = i18n._(periodNames[quote.period]).toLowerCase();
  const heldUntil = formatDateTime(quote.validUntil, locale);
  const thenAt = quote.then ? formatLongDate(quote.then.at, locale) : "";
  const thenTier = quote.then ? i18n._(tierNames[quote.then.tier]) : "";
  const thenPeriod = quote.then ? i18n._(periodNames[quote.then.period]).toLowerCase() : "";
  return (
    <section aria-labelledby="quote-title" className="card quote-card">
      <h2 id="quote-title">{t`What you pay`}</h2>
      <dl className="quote-lines">
        <dt>{t`New plan, ${from} to ${to}`}</dt>
        <dd>{money(quote.newPlanCents)}</dd>
        {quote.creditCents > 0 ? (
          <>
            <dt>{t`Credit for the unused time of your current plan`}</dt>
            <dd>−{money(quote.creditCents)}</dd>
          </>
        ) : null}
        {quote.balanceUsedCents > 0 ? (
          <>
            <dt>{t`Paid from your account balance`}</dt>
            <dd data-testid="balance-used">−{money(quote.balanceUsedCents)}</dd>
          </>
        ) : null}
        {quote.balanceAddedCents > 0 ? (
          <>
            <dt>{t`Carried to your account balance, for your next charges`}</dt>
            <dd data-testid="balance-added">{money(quote.balanceAddedCents)}</dd>
          </>
        ) : null}
        <dt className="total">{t`Charged now`}</dt>
        <dd className="total" data-testid="charge-now">
          {money(quote.chargeNowCents)}
        </dd>
        <dt className="muted">{t`of which VAT (${vat})`}</dt>
        <dd className="muted">{money(quote.vatNowCents)}</dd>
      </dl>
      {quote.then ? (
        <p data-testid="then-change">
          <Trans>
            The {thenTier} plan applies now on your current period; on {thenAt} your plan moves to{" "}
            {thenPeriod}.
          </Trans>
        </p>
      ) : null}
      <p data-testid="next-charge">
        <Trans>
          From the next renewal: {next} ({periodName}), charged on {nextDate}.
        </Trans>
      </p>
      <p className="muted" data-testid="quote-held">
        <Trans>This price is held until {heldUntil}; after that it is worked out again.</Trans>
      </p>
    </section>
  );
}

/** A downgrade: nothing now; the new plan from the period end; saved portfolios over its limit. */
function DowngradeQuote({ quote, locale }: { quote: Quote; locale: Locale }) {
  const { t, i18n } = useLingui();
  const at = formatLongDate(quote.periodStart, locale);
  const next = formatCents(quote.nextChargeCents, quote.currency, locale);
  const tierName = i18n._(tierNames[quote.tier]);
  const periodName = i18n._(periodNames[quote.period]).toLowerCase();
  const over = quote.overLimit;
  const saved = over?.savedPortfolios ?? 0;
  const limit = over?.saveLimit ?? 0;
  return (
    <section aria-labelledby="quote-title" className="card quote-card">
      <h2 id="quote-title">{t`What happens`}</h2>
      <p>
        <Trans>
          Nothing is charged now. Your current plan stays until {at}; then the {tierName} plan (
          {periodName}) starts and {next} is charged on that day.
        </Trans>
      </p>
      {over ? (
        <p className="notice" role="note" data-testid="over-limit">
          <Trans>
            You have {saved} saved portfolios and the {tierName} plan allows {limit}. Nothing is
            deleted: they stay readable and exportable, but you cannot save new portfolios or edit
            them until you have {limit} or fewer.
          </Trans>
        </p>
      ) : null}
    </section>
  );
}

/** subscribe/confirm: the plan asked for, the change it is, the quote, the invoice info, confirm. */
export default function SubscribeConfirmScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { config } = useServices();
  const location = useLocation();
  const selection = useMemo(
    () => selectionFromQuery(new URLSearchParams(location.search)),
    [location.search],
  );
  const [snapshot, send] = useSubscription({ selection });
  const { quote, invoiceInfo, error, payment, choice } = snapshot.context;
  const product = selection?.product;
  const back = (
    <p className="actions-row">
      <Link className="button" to={plansHref(locale, product)}>
        <Trans>Back to the plans</Trans>
      </Link>
    </p>
  );

  const productName = choice ? productNameOf(i18n, config.edition, choice.product) : "";
  const tierName = choice ? i18n._(tierNames[choice.tier]) : "";
  const periodName = choice ? i18n._(periodNames[choice.period]).toLowerCase() : "";
  const currency = choice?.currency ?? "";
  const heading = choice ? (
    <PageHeading
      title={t`Confirm your subscription`}
      summary={t`${productName} ${tierName}, ${periodName}, in ${currency}.`}
    />
  ) : (
    <PageHeading title={t`Confirm your subscription`} />
  );

  if (!selection || snapshot.matches("invalid"))
    return (
      <div className="billing">
        {heading}
        <p role="alert" className="form-message error">
          {i18n._(msgCodeText.PLAN_INVALID)}
        </p>
        {back}
      </div>
    );
  if (snapshot.matches("current")) {
    // What the person already has (a confirm screen left open while paying in another tab).
    const held = snapshot.context.overview?.products.find((p) => p.product === product);
    const heldTier = held ? i18n._(tierNames[held.subscription.tier]) : "";
    const heldPeriod = held?.period ? i18n._(periodNames[held.period]).toLowerCase() : "";
    const heldUntil = held?.next ? formatLongDate(held.next.date, locale) : "";
    return (
      <div className="billing">
        {heading}
        <p className="notice" data-testid="current-plan">
          {held && held.period && held.next ? (
            <Trans>
              You already have the {productName} {heldTier} plan ({heldPeriod}), until {heldUntil}.
              Nothing more is charged here.
            </Trans>
          ) : (
            i18n._(msgCodeText.PLAN_CURRENT)
          )}
        </p>
        <p className="actions-row">
          <Link className="button" to={pathFor("account-billing", locale)}>
            <Trans>See my plan</Trans>
          </Link>
          <Link className="button" to={plansHref(locale, product)}>
            <Trans>Back to the plans</Trans>
          </Link>
        </p>
      </div>
    );
  }
  if (snapshot.matches("unavailable"))
    return (
      <div className="billing">
        {heading}
        <LoadFailed
          error={error ?? "INTERNAL_ERROR"}
          onRetry={() => send({ type: "billing.retry" })}
        />
        {back}
      </div>
    );
  if (snapshot.matches("scheduled"))
    return (
      <div className="billing">
        {heading}
        <p role="status" className="form-message success">
          <Trans>Your change is scheduled for the end of your current period.</Trans>
        </p>
        <SeeMyPlan locale={locale} />
      </div>
    );
  if (snapshot.matches("cancelled"))
    return (
      <div className="billing">
        {heading}
        <p role="status" className="notice">
          <Trans>Nothing was charged.</Trans>
        </p>
        {back}
      </div>
    );
  if (!quote)
    return (
      <div className="billing">
        {heading}
        <Spinner label={t`Preparing your quote…`} />
      </div>
    );

  const downgrade = quote.change === "downgrade";
  const busy =
    snapshot.matches("savingInvoiceInfo") ||
    snapshot.matches("checkingOut") ||
    snapshot.matches("scheduling") ||
    snapshot.matches("redirecting");
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    send({ type: "plan.confirm" });
  };
  const chargeNow = formatCents(quote.chargeNowCents, quote.currency, locale);
  return (
    <div className="billing">
      {heading}
      <p className="lead" data-testid="change-kind">
        {downgrade ? (
          <Trans>This is a downgrade: it takes effect at the end of your current period.</Trans>
        ) : quote.creditCents > 0 ? (
          <Trans>
            This is an upgrade: it applies at once, prorated for the rest of your period.
          </Trans>
        ) : (
          <Trans>This plan starts today, when you pay.</Trans>
        )}
      </p>
      {downgrade ? (
        <DowngradeQuote quote={quote} locale={locale} />
      ) : (
        <UpgradeQuote quote={quote} locale={locale} />
      )}
      <form className="form form-wide" onSubmit={confirm} noValidate aria-label={t`Confirm`}>
        {error ? (
          <div className="form-message error" role="alert">
            {i18n._(msgCodeText[error])}
          </div>
        ) : null}
        {!downgrade ? (
          <InvoiceInfoFields
            value={invoiceInfo ?? emptyInvoiceInfo}
            onChange={(info) => send({ type: "invoiceInfo.change", info })}
            locale={locale}
            showErrors={error === "INVOICE_INFO_REQUIRED"}
          />
        ) : null}
        {snapshot.matches("checkoutFailed") ? (
          <RetryOrCancel send={send} />
        ) : (
          <p className="actions-row">
            <button type="submit" className="button primary" disabled={busy}>
              {downgrade ? (
                <Trans>Schedule the change</Trans>
              ) : quote.chargeNowCents === 0 ? (
                <Trans>Confirm: nothing to pay now</Trans>
              ) : (
                <Trans>Pay {chargeNow} and continue</Trans>
              )}
            </button>
            <Link to={plansHref(locale, product)}>
              <Trans>Back to the plans</Trans>
            </Link>
          </p>
        )}
        {!downgrade ? (
          <p className="muted">
            <Trans>
              You will go to our payment provider's page to pay, then come back here. The same
              confirmation is never charged twice.
            </Trans>
          </p>
        ) : null}
      </form>
      {snapshot.matches("redirecting") && payment?.redirectUrl ? (
        <p role="status">
          <Trans>Taking you to the payment page…</Trans>{" "}
          <a href={payment.redirectUrl}>
            <Trans>Open the payment page</Trans>
          </a>
        </p>
      ) : null}
    </div>
  );
}
