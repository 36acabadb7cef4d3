import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { billingOf, currentPlanOf } from "../../../machines/guards/billing-facts.ts";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import { useData } from "../../app/use-data.ts";
import {
  paidTiersOf,
  TRIAL_DAYS,
  type BillingCurrency,
  type Period,
  type PlanCatalog,
} from "../../contract/billing.ts";
import type { Product } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { permissionsFor, tiersByProduct, type Tier } from "../../contract/permissions.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { formatCents, formatLongDate } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import {
  confirmHref,
  defaultCurrencyOf,
  periodNames,
  productFromQuery,
  ProductSwitch,
  ToggleGroup,
} from "./billing-parts.tsx";
import { describeValue, differingFeatures, featureLabels, featureValue } from "./plan-features.ts";
import { productNameOf, tierNames } from "../../ui/plan-names.ts";
import { useSubscription } from "./use-subscription.ts";
import "./billing.css";
import { LoadFailed } from "../../ui/load-failed.tsx";

/** The plans of each product: what each tier unlocks, prices per period and currency, the trial. */
export default function ChoosePlanScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http, product: currentProduct, config } = useServices();
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const [client] = useSession((s) => s.context.client);
  const [product, setProduct] = useState<Product>(productFromQuery(query) ?? currentProduct());
  const [period, setPeriod] = useState<Period>(
    query.get("period") === "monthly" ? "monthly" : "annual",
  );
  const [currency, setCurrency] = useState<BillingCurrency>(
    query.get("currency") === "USD" || query.get("currency") === "EUR"
      ? (query.get("currency") as BillingCurrency)
      : defaultCurrencyOf(client),
  );
  const highlighted = query.get("tier");
  const catalog = useData<PlanCatalog>(`plans:${currency}`, () =>
    http.call(endpoints.plans, { query: { currency } }),
  );
  const [snapshot, send] = useSubscription();
  const { overview, error, done } = snapshot.context;
  const signedIn = client !== null;
  const billing = billingOf(overview, product);
  const current = currentPlanOf(overview, product);
  const tiers = tiersByProduct[product] as readonly Tier[];
  const features = differingFeatures(product);
  const productName = productNameOf(i18n, config.edition, product);
  const busy = snapshot.matches("startingTrial");
  const trialOffered =
    signedIn && config.edition === "ht" && billing?.state === "free" && billing.trialAvailable;
  const advancedName = i18n._(tierNames.advanced);
  const trialDays = TRIAL_DAYS;
  const trialEnds = billing?.next ? formatLongDate(billing.next.date, locale) : null;

  const offer = (tier: Tier) =>
    catalog.data?.plans.find(
      (p) => p.product === product && p.tier === tier && p.period === period,
    );

  return (
    <div className="billing">
      <PageHeading
        title={t`Choose your plan`}
        summary={t`Compare the plans and the features each one unlocks. Prices include VAT.`}
      />
      <div className="billing-switches">
        <ProductSwitch value={product} onChange={setProduct} />
        <ToggleGroup
          label={t`Billing period`}
          value={period}
          onChange={setPeriod}
          options={[
            { value: "monthly", label: i18n._(periodNames.monthly) },
            { value: "annual", label: i18n._(periodNames.annual) },
          ]}
        />
        <ToggleGroup
          label={t`Currency`}
          value={currency}
          onChange={setCurrency}
          options={[
            { value: "EUR", label: t`EUR (€)` },
            { value: "USD", label: t`USD ($)` },
          ]}
        />
      </div>

      {!signedIn ? (
        <p className="notice">
          <Link
            to={`${pathFor("auth-SignIn", locale)}?returnTo=${encodeURIComponent(location.pathname + location.search)}`}
          >
            <Trans>Sign in to choose a plan</Trans>
          </Link>{" "}
          <Trans>or</Trans>{" "}
          <Link to={pathFor("auth-signUp", locale)}>
            <Trans>create your account</Trans>
          </Link>
          .
        </p>
      ) : null}
      {snapshot.matches("loading") ? <Spinner label={t`Loading your plan…`} /> : null}
      {error ? (
        <p role="alert" className="form-message error">
          {i18n._(msgCodeText[error])}
        </p>
      ) : null}
      {done === "trialStarted" ? (
        <p role="status" className="form-message success">
          <Trans>
            Your {trialDays}-day free trial of {productName} {advancedName} has started.
          </Trans>
        </p>
      ) : null}
      {billing?.state === "trial" && trialEnds ? (
        <p className="notice">
          <Trans>
            You are on a free trial until {trialEnds}. Choose a plan to keep its features.
          </Trans>
        </p>
      ) : null}

      <section aria-labelledby="plans-title">
        <h2 id="plans-title">{t`Plans of ${productName}`}</h2>
        {catalog.loading ? <Spinner label={t`Loading the plans…`} /> : null}
        {catalog.error ? <LoadFailed error={catalog.error} onRetry={catalog.retry} /> : null}
        <ul className="plan-grid">
          {tiers.map((tier) => {
            const tierName = i18n._(tierNames[tier]);
            const plan = tier === "free" ? null : offer(tier);
            // The tier held is marked whatever the period shown; its other period is a change.
            const isCurrent =
              signedIn && current.tier === tier && (tier !== "free" || billing?.state !== "trial");
            const isHeld = isCurrent && tier !== "free";
            const samePlan = isHeld && current.period === period;
            const choice = { product, tier, period, currency };
            const price = plan ? formatCents(plan.priceCents, currency, locale) : "";
            const saving = plan ? formatCents(plan.savingCents, currency, locale) : "";
            const periodName = i18n._(periodNames[period]);
            const gains = features.filter((path) => {
              const value = featureValue(permissionsFor(product, tier), path);
              return typeof value === "boolean" ? value : true;
            });
            return (
              <li
                key={tier}
                className={[
                  "card plan-card",
                  highlighted === tier ? "highlighted" : "",
                  isCurrent ? "current" : "",
                ].join(" ")}
                aria-labelledby={`plan-${tier}`}
              >
                <h3 id={`plan-${tier}`}>
                  {tierName} {isCurrent ? <span className="badge">{t`Your plan`}</span> : null}
                </h3>
                {tier === "free" ? (
                  <p className="plan-price">{formatCents(0, currency, locale)}</p>
                ) : plan ? (
                  <>
                    <p className="plan-price">
                      {period === "monthly" ? (
                        <Trans>{price} a month</Trans>
                      ) : (
                        <Trans>{price} a year</Trans>
                      )}
                    </p>
                    {period === "annual" && plan.savingCents > 0 ? (
                      <p className="plan-saving">
                        <Trans>You save {saving} against twelve monthly payments.</Trans>
                      </p>
                    ) : null}
                  </>
                ) : null}
                {tier === "free" || samePlan ? null : signedIn ? (
                  <Link className="button primary" to={confirmHref(choice, locale)}>
                    {isHeld ? (
                      <Trans>
                        Change to {tierName} ({periodName})
                      </Trans>
                    ) : (
                      <Trans>Choose {tierName}</Trans>
                    )}
                  </Link>
                ) : (
                  <Link
                    className="button"
                    to={`${pathFor("auth-SignIn", locale)}?returnTo=${encodeURIComponent(confirmHref(choice, locale))}`}
                  >
                    <Trans>Sign in to choose {tierName}</Trans>
                  </Link>
                )}
                {tier === "advanced" && trialOffered ? (
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    onClick={() => send({ type: "trial.start", product })}
                  >
                    <Trans>Try it free for {trialDays} days</Trans>
                  </button>
                ) : null}
                <ul className="plan-features">
                  {gains.map((path) => (
                    <li key={path}>
                      {i18n._(featureLabels[path])}
                      {typeof featureValue(permissionsFor(product, tier), path) === "boolean"
                        ? null
                        : `: ${describeValue(featureValue(permissionsFor(product, tier), path), i18n, locale)}`}
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="compare-title">
        <h2 id="compare-title">{t`Compare the plans of ${productName}`}</h2>
        <DataTable
          caption={t`What each plan of ${productName} includes`}
          className="plan-table"
          rows={features}
          rowKey={(path) => path}
          columns={[
            { key: "feature", header: t`Feature`, cell: (path) => i18n._(featureLabels[path]) },
            ...tiers.map((tier) => ({
              key: tier,
              header: i18n._(tierNames[tier]),
              cell: (path: (typeof features)[number]) => {
                const value = featureValue(permissionsFor(product, tier), path);
                return typeof value === "boolean" ? (
                  <>
                    <span aria-hidden="true">{value ? "✓" : "—"}</span>
                    <span className="visually-hidden">{describeValue(value, i18n, locale)}</span>
                  </>
                ) : (
                  describeValue(value, i18n, locale)
                );
              },
            })),
          ]}
        />
        {paidTiersOf(product).length < 2 ? (
          <p className="muted">
            <Trans>{productName} has one paid plan.</Trans>
          </p>
        ) : null}
      </section>
    </div>
  );
}
