import { useServices } from "../../app/services.tsx";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import type { PlanSelection } from "../../../machines/guards/billing-facts.ts";
import { pathFor } from "../../app/paths.ts";
import type {
  BillingCurrency,
  FailureCode,
  Period,
  SubscriptionState,
} from "../../contract/billing.ts";
import { products, type Locale, type Product } from "../../contract/common.ts";
import type { Client } from "../../contract/accounts.ts";
import { productNameOf } from "../../ui/plan-names.ts";

export const periodNames: Record<Period, MessageDescriptor> = {
  monthly: msg`Monthly`,
  annual: msg`Annual`,
};

export const stateNames: Record<SubscriptionState, MessageDescriptor> = {
  free: msg`Free`,
  trial: msg`Free trial`,
  active: msg`Active`,
  cancelled: msg`Cancelled`,
  pastDue: msg`Payment due`,
};

/** Why a payment failed, in words. */
export const failureReasons: Record<FailureCode, MessageDescriptor> = {
  card_declined: msg`The card was declined. Try another card.`,
  insufficient_funds: msg`The card has insufficient funds.`,
  authentication_failed: msg`The card's authentication step failed.`,
  abandoned: msg`The payment was left unfinished on the payment page.`,
  expired: msg`The payment page expired before the payment was made.`,
  superseded: msg`This checkout was replaced by a newer one; nothing was charged here.`,
};

/** EUR, or USD for a client in the United States. */
export const defaultCurrencyOf = (client: Client | null): BillingCurrency =>
  client?.countryId === "US" ? "USD" : "EUR";

const isProduct = (value: string | null): value is Product =>
  (products as readonly (string | null)[]).includes(value);

/** The product a query string names (`product` or `stc`), or null. */
export function productFromQuery(query: URLSearchParams): Product | null {
  const value = query.get("product") ?? query.get("stc");
  return isProduct(value) ? value : null;
}

/** The plan of subscribe/confirm's query string; values are checked by the machine. */
export function selectionFromQuery(query: URLSearchParams): PlanSelection | null {
  const product = productFromQuery(query);
  if (!product) return null;
  return {
    product,
    tier: query.get("tier") ?? "",
    period: query.get("period") ?? "",
    currency: query.get("currency") ?? "",
  };
}

export function confirmHref(selection: PlanSelection, locale: Locale): string {
  const query = new URLSearchParams({
    product: selection.product,
    tier: selection.tier,
    period: selection.period,
    currency: selection.currency,
  });
  return `${pathFor("subscribe-confirm", locale)}?${query.toString()}`;
}

export function plansHref(locale: Locale, product?: Product, tier?: string): string {
  const query = new URLSearchParams();
  if (product) query.set("product", product);
  if (tier) query.set("tier", tier);
  const search = query.toString();
  return pathFor("choose-your-plan", locale) + (search ? `?${search}` : "");
}

/** A group of toggle buttons, one pressed: period, currency or product. */
export function ToggleGroup<V extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
}) {
  return (
    <div role="group" aria-label={label} className="tabs">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          className={o.value === value ? "tab active" : "tab"}
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

export function ProductSwitch({
  value,
  onChange,
}: {
  value: Product;
  onChange: (product: Product) => void;
}) {
  const { t, i18n } = useLingui();
  const { config } = useServices();
  return (
    <ToggleGroup
      label={t`Product`}
      value={value}
      onChange={onChange}
      options={products.map((p) => ({ value: p, label: productNameOf(i18n, config.edition, p) }))}
    />
  );
}

/** After a failed payment: try again (a new attempt) or give up, as the subscription machine takes them. */
export function RetryOrCancel({
  send,
}: {
  send: (event: { type: "payment.retry" } | { type: "payment.cancel" }) => void;
}) {
  return (
    <p className="actions-row">
      <button
        type="button"
        className="button primary"
        onClick={() => send({ type: "payment.retry" })}
      >
        <Trans>Try again</Trans>
      </button>
      <button type="button" className="button" onClick={() => send({ type: "payment.cancel" })}>
        <Trans>Cancel</Trans>
      </button>
    </p>
  );
}

/** The way out once a payment or a change is settled: the billing page, with the plan now held. */
export function SeeMyPlan({ locale }: { locale: Locale }) {
  return (
    <p className="actions-row">
      <Link className="button primary" to={pathFor("account-billing", locale)}>
        <Trans>See my plan</Trans>
      </Link>
    </p>
  );
}
