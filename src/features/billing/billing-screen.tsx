import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import {
  canCancel,
  canReactivate,
  canStartTrial,
  hasScheduledChange,
} from "../../../machines/guards/billing-facts.ts";
import {
  emptyInvoiceInfo,
  invoiceInfoReady,
  invoiceInfoUpdateOf,
} from "../../../machines/subscription.machine.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useFormSubmit } from "../../app/use-form-submit.ts";
import type { InvoiceInfo } from "../../contract/accounts.ts";
import type { Invoice, InvoiceInfoUpdate, ProductBilling } from "../../contract/billing.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { formatCents, formatLongDate } from "../../ui/format.ts";
import { FormMessage } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { saveFile } from "../../ui/save-file.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { periodNames, plansHref, stateNames } from "./billing-parts.tsx";
import { InvoiceInfoFields } from "./invoice-info-fields.tsx";
import { productNameOf, tierNames } from "../../ui/plan-names.ts";
import { useSubscription } from "./use-subscription.ts";
import "./billing.css";

type Send = ReturnType<typeof useSubscription>[1];

/** One product's plan: its state, the next thing that happens and when, and what can be done. */
function ProductPlan({
  billing,
  locale,
  send,
  busy,
  trial,
  confirmingCancel,
}: {
  billing: ProductBilling;
  locale: Locale;
  send: Send;
  busy: boolean;
  trial: boolean;
  /** The second question of a cancellation of this product is being asked. */
  confirmingCancel: boolean;
}) {
  const { i18n } = useLingui();
  const { config } = useServices();
  const product = billing.product;
  const productName = productNameOf(i18n, config.edition, product);
  const tierName = i18n._(tierNames[billing.subscription.tier]);
  const periodName = billing.period ? i18n._(periodNames[billing.period]).toLowerCase() : null;
  const next = billing.next;
  const date = next ? formatLongDate(next.date, locale) : "";
  const money = (cents: number) =>
    billing.currency ? formatCents(cents, billing.currency, locale) : "";
  const amount = next?.amountCents != null ? money(next.amountCents) : "";
  // The account balance is used before the card (the server says how much of this charge).
  const fromBalanceCents = next?.balanceUsedCents ?? 0;
  const fromBalance = money(fromBalanceCents);
  const cardCents = Math.max(0, (next?.amountCents ?? 0) - fromBalanceCents);
  const onCard = money(cardCents);
  const change = billing.scheduledChange;
  const changeTier = change ? i18n._(tierNames[change.tier]) : "";
  const changePeriod = change ? i18n._(periodNames[change.period]).toLowerCase() : "";
  const changeAt = change ? formatLongDate(change.effectiveAt, locale) : "";
  const failures = billing.renewalFailures;
  return (
    <li className="card" aria-labelledby={`billing-${product}`} data-product={product}>
      <h3 id={`billing-${product}`}>{productName}</h3>
      <p>
        {billing.state === "free" ? (
          // "Free" is both the tier and the state: said once.
          <strong>{i18n._(tierNames.free)}</strong>
        ) : (
          <>
            <strong>{tierName}</strong>
            {periodName ? ` · ${periodName}` : null} ·{" "}
            <span className="badge">{i18n._(stateNames[billing.state])}</span>
          </>
        )}
      </p>
      {next ? (
        <p data-testid={`next-${product}`}>
          {next.event === "renewal" && fromBalanceCents === 0 ? (
            <Trans>
              Renews on {date} for {amount}.
            </Trans>
          ) : next.event === "renewal" && cardCents === 0 ? (
            <Trans>
              Renews on {date} for {amount}, paid from your account balance: nothing is charged to
              your card.
            </Trans>
          ) : next.event === "renewal" ? (
            <Trans>
              Renews on {date} for {amount}: {fromBalance} from your account balance and {onCard} on
              your card.
            </Trans>
          ) : next.event === "retry" ? (
            <Trans>
              The renewal payment failed ({failures} tries so far); we will try again on {date}.
            </Trans>
          ) : next.event === "change" ? (
            <Trans>Changes on {date}.</Trans>
          ) : (
            <Trans>Ends on {date}.</Trans>
          )}
        </p>
      ) : null}
      {change ? (
        <p>
          <Trans>
            Scheduled: the {changeTier} plan ({changePeriod}) from {changeAt}.
          </Trans>
        </p>
      ) : null}
      {confirmingCancel ? (
        <div className="notice" role="alertdialog" aria-labelledby={`cancel-${product}`}>
          <p id={`cancel-${product}`} data-testid={`cancel-question-${product}`}>
            <Trans>
              Cancel your {productName} plan? You keep the plan until {date}; nothing more is
              charged after that, and you can reactivate it until then.
            </Trans>
          </p>
          <p className="actions-row">
            <button
              type="button"
              className="button"
              onClick={() => send({ type: "cancel.confirm" })}
            >
              <Trans>Yes, cancel at the end of the period</Trans>
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => send({ type: "cancel.keep" })}
            >
              <Trans>Keep my plan</Trans>
            </button>
          </p>
        </div>
      ) : null}
      <p className="actions-row">
        <Link className="button" to={plansHref(locale, product)}>
          {billing.state === "free" || billing.state === "trial" ? (
            <Trans>Choose a plan</Trans>
          ) : (
            <Trans>Change plan</Trans>
          )}
        </Link>
        {canCancel(billing) ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => send({ type: "subscription.cancel", product })}
          >
            <Trans>Cancel the plan</Trans>
          </button>
        ) : null}
        {canReactivate(billing) ? (
          <button
            type="button"
            className="button primary"
            disabled={busy}
            onClick={() => send({ type: "subscription.reactivate", product })}
          >
            <Trans>Reactivate</Trans>
          </button>
        ) : null}
        {hasScheduledChange(billing) ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => send({ type: "change.undo", product })}
          >
            <Trans>Undo the scheduled change</Trans>
          </button>
        ) : null}
        {trial ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => send({ type: "trial.start", product })}
          >
            <Trans>Start the free trial</Trans>
          </button>
        ) : null}
      </p>
      {canCancel(billing) ? (
        <p className="muted">
          <Trans>
            A cancelled plan stays until the end of its period; you can reactivate it until then.
          </Trans>
        </p>
      ) : null}
    </li>
  );
}

/** The invoices, newest first, each with its PDF; a list of cards that fits a phone. */
function Invoices({ invoices, locale }: { invoices: readonly Invoice[]; locale: Locale }) {
  const { t, i18n } = useLingui();
  const { http, config } = useServices();
  const [failed, setFailed] = useState<string | null>(null);
  const download = async (number: string) => {
    setFailed(null);
    try {
      const blob = await orFailure(() => http.download(`/billing/invoices/${number}/pdf`));
      saveFile(blob, `invoice-${number}.pdf`);
    } catch {
      setFailed(number);
    }
  };
  if (invoices.length === 0)
    return (
      <p className="muted">
        <Trans>No invoices yet.</Trans>
      </p>
    );
  return (
    <>
      {failed ? (
        <p role="alert" className="form-message error">
          {t`The invoice ${failed} could not be downloaded. Try again.`}
        </p>
      ) : null}
      <ul className="invoice-list" aria-label={t`Invoices`}>
        {invoices.map((invoice) => {
          const number = invoice.number;
          const vat = formatCents(invoice.vatCents, invoice.currency, locale);
          // What was bought (the credit of an upgrade is for the plan left behind, not a purchase).
          const planLines = invoice.lines.filter((l) => l.kind === "plan");
          const lines = (planLines.length > 0 ? planLines : invoice.lines)
            .map(
              (l) =>
                `${productNameOf(i18n, config.edition, l.product)} ${i18n._(tierNames[l.tier])} (${i18n._(periodNames[l.period]).toLowerCase()})`,
            )
            .filter((v, i, all) => all.indexOf(v) === i)
            .join(", ");
          return (
            <li key={number} className="card">
              <span>
                <strong>{number}</strong> · {formatLongDate(invoice.issuedAt, locale)}
                <br />
                <span className="muted">{lines}</span>
              </span>
              <span>
                <strong>{formatCents(invoice.totalCents, invoice.currency, locale)}</strong>{" "}
                <span className="muted">
                  <Trans>(VAT {vat})</Trans>
                </span>
              </span>
              <button
                type="button"
                className="button"
                onClick={() => void download(number)}
                aria-label={t`Download invoice ${number} (PDF)`}
              >
                <Trans>PDF</Trans>
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The invoice details form of the account page: saved with PUT /client/invoice-info. */
function InvoiceInfoForm({ initial, locale }: { initial: InvoiceInfo; locale: Locale }) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [draft, setDraft] = useState<InvoiceInfo>(initial);
  const [tried, setTried] = useState(false);
  const save = useFormSubmit((body: InvoiceInfoUpdate) =>
    orFailure(() => http.call(endpoints.updateInvoiceInfo, { body })),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (invoiceInfoReady(draft)) save.submit(invoiceInfoUpdateOf(draft));
  };
  return (
    <form
      className="form form-wide"
      onSubmit={submit}
      noValidate
      aria-labelledby="invoice-info-title"
    >
      <h2 id="invoice-info-title">{t`Invoice details`}</h2>
      {save.error ? (
        <FormMessage kind="error">{i18n._(msgCodeText[save.error])}</FormMessage>
      ) : null}
      {save.succeeded ? (
        <FormMessage kind="success">{t`Your invoice details are saved.`}</FormMessage>
      ) : null}
      <InvoiceInfoFields
        legendHidden
        value={draft}
        onChange={(change) => {
          setDraft({ ...draft, ...change });
          save.edit();
        }}
        locale={locale}
        showErrors={tried && !invoiceInfoReady(draft)}
      />
      <button type="submit" className="button primary" disabled={save.submitting}>
        <Trans>Save the invoice details</Trans>
      </button>
    </form>
  );
}

/** My account > billing and subscription: plans per product, invoice details and invoices. */
export default function BillingScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { config } = useServices();
  const [snapshot, send] = useSubscription();
  const { overview, invoiceInfo, error, done, kind } = snapshot.context;
  const busy = !snapshot.matches("ready");
  const doneTexts = {
    cancelled: t`Your plan is cancelled. It stays until the end of its period.`,
    reactivated: t`Your plan is active again and will renew.`,
    changeUndone: t`The scheduled change is undone.`,
    trialStarted: t`Your free trial has started.`,
  };
  const announce = done ? doneTexts[done] : null;

  return (
    <div className="billing">
      <PageHeading
        title={t`Billing and subscription`}
        summary={t`Your plan, your invoices and your billing details.`}
      />
      {snapshot.matches("loading") ? <Spinner label={t`Loading your plans…`} /> : null}
      {snapshot.matches("unavailable") ? (
        <p role="alert" className="form-message error">
          {i18n._(msgCodeText[error ?? "INTERNAL_ERROR"])}{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => send({ type: "billing.retry" })}
          >
            <Trans>Try again</Trans>
          </button>
        </p>
      ) : null}
      {overview ? (
        <>
          {error ? (
            <p role="alert" className="form-message error">
              {i18n._(msgCodeText[error])}
            </p>
          ) : null}
          {announce ? (
            <p role="status" className="form-message success">
              {announce}
            </p>
          ) : null}
          <section aria-labelledby="plans-title">
            <h2 id="plans-title">{t`Your plans`}</h2>
            <ul className="billing-products">
              {overview.products.map((billing) => (
                <ProductPlan
                  key={billing.product}
                  billing={billing}
                  locale={locale}
                  send={send}
                  busy={busy}
                  trial={canStartTrial(config.edition, kind, billing)}
                  confirmingCancel={
                    snapshot.matches("confirmingCancel") &&
                    snapshot.context.cancelling === billing.product
                  }
                />
              ))}
            </ul>
          </section>
          {overview.balances.length > 0 ? (
            <section aria-labelledby="balance-title" className="card" data-testid="balance">
              <h2 id="balance-title">{t`Account balance`}</h2>
              {overview.balances.map((b) => {
                const amount = formatCents(b.cents, b.currency, locale);
                return (
                  <p key={b.currency}>
                    <Trans>
                      {amount} on your account: it is used before your card on your next charges.
                    </Trans>
                  </p>
                );
              })}
            </section>
          ) : null}
          <InvoiceInfoForm initial={invoiceInfo ?? emptyInvoiceInfo} locale={locale} />
          <section aria-labelledby="invoices-title">
            <h2 id="invoices-title">{t`Invoices`}</h2>
            <Invoices invoices={overview.invoices} locale={locale} />
          </section>
        </>
      ) : null}
    </div>
  );
}
