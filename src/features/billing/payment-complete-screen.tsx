import { useServices } from "../../app/services.tsx";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { Link, useLocation } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import type { Payment } from "../../contract/billing.ts";
import { tiersByProduct, type Tier } from "../../contract/permissions.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import {
  failureReasons,
  periodNames,
  plansHref,
  RetryOrCancel,
  SeeMyPlan,
} from "./billing-parts.tsx";
import { describeGain, featuresGained, homeOfFeature } from "./plan-features.ts";
import { productNameOf, tierNames } from "../../ui/plan-names.ts";
import { rememberedPreviousTier, useSubscription } from "./use-subscription.ts";
import "./billing.css";

/** The tier before the payment: remembered at checkout, else the one below (free for a purchase). */
function previousTierOf(payment: Payment, remembered: Tier | null): Tier {
  if (remembered) return remembered;
  if (payment.kind === "purchase") return "free";
  const order = tiersByProduct[payment.product] as readonly Tier[];
  return order[Math.max(0, order.indexOf(payment.tier) - 1)] ?? "free";
}

/** What the payment unlocked, each feature with a link to where it is used. */
function Unlocked({
  payment,
  previous,
  locale,
}: {
  payment: Payment;
  previous: Tier;
  locale: ScreenProps["locale"];
}) {
  const { t, i18n } = useLingui();
  const gained = featuresGained(payment.product, previous, payment.tier);
  if (gained.length === 0) return null;
  return (
    <section aria-labelledby="unlocked-title">
      <h2 id="unlocked-title">{t`Now unlocked`}</h2>
      <ul className="plan-features" data-testid="unlocked">
        {gained.map((path) => (
          <li key={path}>
            <Link to={pathFor(homeOfFeature(path), locale)}>
              {describeGain(payment.product, payment.tier, path, i18n, locale)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** payment-complete: polls the payment the provider sent the browser back with, then says how it went. */
export default function PaymentCompleteScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { config } = useServices();
  const location = useLocation();
  const paymentId = useMemo(
    () => new URLSearchParams(location.search).get("payment"),
    [location.search],
  );
  const remembered = useMemo(
    () => (paymentId ? rememberedPreviousTier(paymentId) : null),
    [paymentId],
  );
  const [snapshot, send] = useSubscription({ paymentId, previousTier: remembered });
  const { payment, error } = snapshot.context;

  // The public shell is prerendered without a query string (scripts/prerender-shell.tsx): there,
  // the first paint of a return from the provider must say that the payment is being checked.
  if (!paymentId && typeof window !== "undefined")
    return (
      <div className="billing">
        <PageHeading title={t`Payment complete`} />
        <p>
          <Trans>
            There is no payment to show here: this page shows a payment when you come back from
            paying.
          </Trans>{" "}
          <Link to={plansHref(locale)}>
            <Trans>See the plans</Trans>
          </Link>
        </p>
      </div>
    );

  const productName = payment ? productNameOf(i18n, config.edition, payment.product) : "";
  const tierName = payment ? i18n._(tierNames[payment.tier]) : "";
  const periodName = payment ? i18n._(periodNames[payment.period]).toLowerCase() : "";
  const retryOrCancel = <RetryOrCancel send={send} />;

  if (snapshot.matches("complete") && payment) {
    const invoice = payment.invoiceNumber;
    return (
      <div className="billing">
        <PageHeading
          title={t`Payment complete`}
          summary={t`Thank you: your ${productName} ${tierName} plan (${periodName}) is active.`}
        />
        {invoice ? (
          <p data-testid="invoice-number">
            <Trans>
              Your invoice is number {invoice}; you can download it from{" "}
              <Link to={pathFor("account-billing", locale)}>billing and subscription</Link>.
            </Trans>
          </p>
        ) : null}
        <Unlocked
          payment={payment}
          previous={previousTierOf(payment, remembered)}
          locale={locale}
        />
        <p className="actions-row">
          <Link className="button primary" to={pathFor("create-q1", locale)}>
            <Trans>Create a portfolio</Trans>
          </Link>
          <Link className="button" to={pathFor("account-portfolios", locale)}>
            <Trans>My portfolios</Trans>
          </Link>
        </p>
      </div>
    );
  }
  if (snapshot.matches("failed") && payment?.failureCode === "superseded")
    // Replaced by a checkout opened later (another tab): nothing to retry here.
    return (
      <div className="billing">
        <PageHeading title={t`This checkout was replaced`} />
        <p role="status" className="notice" data-testid="failure-reason">
          {i18n._(failureReasons.superseded)}
        </p>
        <SeeMyPlan locale={locale} />
      </div>
    );
  if (snapshot.matches("failed") && payment) {
    const reason = payment.failureCode
      ? i18n._(failureReasons[payment.failureCode])
      : t`The payment was cancelled.`;
    return (
      <div className="billing">
        <PageHeading title={t`The payment did not go through`} />
        <p role="alert" className="form-message error" data-testid="failure-reason">
          {reason}
        </p>
        <p>
          <Trans>Nothing was charged. You can try again with the same plan or cancel.</Trans>
        </p>
        {retryOrCancel}
      </div>
    );
  }
  if (snapshot.matches("authenticating") && payment?.redirectUrl)
    return (
      <div className="billing">
        <PageHeading title={t`Confirm the payment with your bank`} />
        <p>
          <Trans>
            Your card asks for an extra authentication step before the payment goes through.
          </Trans>
        </p>
        <p className="actions-row">
          <button
            type="button"
            className="button primary"
            onClick={() => send({ type: "payment.authenticate" })}
          >
            <Trans>Go to the authentication page</Trans>
          </button>
          <button type="button" className="button" onClick={() => send({ type: "payment.check" })}>
            <Trans>I have authenticated: check again</Trans>
          </button>
          <button type="button" className="button" onClick={() => send({ type: "payment.cancel" })}>
            <Trans>Cancel</Trans>
          </button>
        </p>
      </div>
    );
  if (snapshot.matches("timedOut"))
    return (
      <div className="billing">
        <PageHeading title={t`Your payment has no result yet`} />
        <p role="status">
          <Trans>
            The payment provider has not answered yet. Nothing is charged twice if you check again.
          </Trans>
        </p>
        <p className="actions-row">
          <button
            type="button"
            className="button primary"
            onClick={() => send({ type: "payment.check" })}
          >
            <Trans>Check again</Trans>
          </button>
          <Link to={pathFor("account-billing", locale)}>
            <Trans>Billing and subscription</Trans>
          </Link>
        </p>
      </div>
    );
  if (snapshot.matches("cancelled"))
    return (
      <div className="billing">
        <PageHeading title={t`Payment cancelled`} />
        <p role="status">
          <Trans>Nothing was charged.</Trans>
        </p>
        <p>
          <Link to={plansHref(locale, payment?.product)}>
            <Trans>Back to the plans</Trans>
          </Link>
        </p>
      </div>
    );
  if (snapshot.matches("checkoutFailed"))
    return (
      <div className="billing">
        <PageHeading title={t`The payment did not go through`} />
        <p role="alert" className="form-message error">
          {i18n._(msgCodeText[error ?? "INTERNAL_ERROR"])}
        </p>
        {retryOrCancel}
      </div>
    );
  if (snapshot.matches("redirecting") && payment?.redirectUrl)
    return (
      <div className="billing">
        <PageHeading title={t`Taking you to the payment page…`} />
        <p>
          <a href={payment.redirectUrl}>
            <Trans>Open the payment page</Trans>
          </a>
        </p>
      </div>
    );
  return (
    <div className="billing">
      <PageHeading title={t`Checking your payment…`} />
      <Spinner label={t`Waiting for the result of your payment…`} />
    </div>
  );
}
