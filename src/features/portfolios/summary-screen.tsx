import { Trans, useLingui } from "@lingui/react/macro";
import { useSelector } from "@xstate/react";
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import { savedCountOf, type LifecycleActor } from "../../app/portfolio-workspace.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useWorkspace } from "../../app/use-workspace.ts";
import { useData } from "../../app/use-data.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { Ordering } from "../../contract/portfolio-rules.ts";
import type { ProposeResponse } from "../../contract/portfolios.ts";
import { FormMessage } from "../../ui/form.tsx";
import { formatMoney } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { unlockingTier } from "../../contract/permissions.ts";
import { marketIndexName } from "./figure-notes.ts";
import { HoldingsEditor } from "./holdings-editor.tsx";
import { LiveRisk } from "./live-risk.tsx";
import { problemText, usePermissions, useWizardStep } from "./use-wizard.ts";
import { WizardPage } from "./wizard-parts.tsx";

/** What the proposal was weighted for: the objective the q3 answer names (docs/portfolios.md). */
const methodText: Record<ProposeResponse["method"], React.ReactNode> = {
  equal: <Trans>Equal amounts in each asset.</Trans>,
  balanced: (
    <Trans>
      Balanced: weighted by the optimiser for the lowest risk, spread so that no asset holds more
      than one and a half equal shares and no sector more than 40% (when what you chose offers
      enough sectors).
    </Trans>
  ),
  "lowest-beta": (
    <Trans>
      Lowest market risk: weighted by the optimiser for the lowest beta to the market, no asset
      above one and a half equal shares.
    </Trans>
  ),
  "highest-return": (
    <Trans>
      Highest expected return: weighted by the optimiser for the highest expected return, no asset
      above one and a half equal shares.
    </Trans>
  ),
  "best-risk-return": (
    <Trans>
      Best risk-return: weighted by the optimiser for the highest expected return per unit of risk
      (volatility), no asset above one and a half equal shares.
    </Trans>
  ),
  "minimum-risk": <Trans>Weighted by the optimiser for the lowest risk.</Trans>,
  lazy: <Trans>The weights of the lazy portfolio you chose.</Trans>,
};

/** The q3 answers that rank the assets by their betas or expected returns. */
const rankedByMarket: ReadonlySet<Ordering> = new Set<Ordering>([
  "marketRisk",
  "expectedReturn",
  "riskReturn",
]);

/**
 * The proposal's header: the objective its q3 answer named (or why the lowest risk replaced it),
 * whether the loss at 95% stays within q2's limit, the amount, and, for an answer ranked by betas
 * or expected returns, the market they were measured against (the full analysis's).
 */
export function ProposalHeader({
  proposal,
  ordering,
  total,
}: {
  proposal: ProposeResponse;
  ordering: Ordering;
  total: string;
}) {
  return (
    <p className="figure-method">
      <span data-testid="proposal-method">{methodText[proposal.method]}</span>{" "}
      <Trans>Built for {total} from your answers.</Trans>
      {proposal.method === "minimum-risk" &&
      ordering !== "minimization" &&
      proposal.withinMaxToLose !== false ? (
        <>
          {" "}
          <Trans>
            Weighted for your priority, these assets would lose more at 95% than you can bear: the
            optimiser chose the lowest risk instead.
          </Trans>
        </>
      ) : null}
      {proposal.withinMaxToLose === true ? (
        <>
          {" "}
          <Trans>The loss at 95% stays within what you said you could bear.</Trans>
        </>
      ) : null}
      {proposal.withinMaxToLose === false ? (
        <>
          {" "}
          <strong>
            <Trans>
              No mix of these assets keeps the loss at 95% within what you can bear: this is the
              least risky one.
            </Trans>
          </strong>
        </>
      ) : null}
      {rankedByMarket.has(ordering) && proposal.market !== undefined ? (
        <>
          {" "}
          <MarketProxy market={proposal.market} />
        </>
      ) : null}
      {proposal.simulated ? (
        <>
          {" "}
          <span className="badge">
            <Trans>Simulated prices</Trans>
          </span>
        </>
      ) : null}
    </p>
  );
}

/** The index the proposal's betas and expected returns were measured against. */
function MarketProxy({ market }: { market: string | null }) {
  const { i18n } = useLingui();
  if (market === null)
    return (
      <span data-testid="proposal-market">
        <Trans>
          Betas and expected returns measured against the equally weighted average of the assets on
          offer: the market has no index for this currency.
        </Trans>
      </span>
    );
  const index = marketIndexName(market, i18n);
  return (
    <span data-testid="proposal-market">
      <Trans>
        Betas and expected returns measured against the {index}, as in the full analysis.
      </Trans>
    </span>
  );
}

/** Why the proposal holds fewer assets than q3 asked for (the reason comes with the proposal). */
function FewerAssets({ proposal }: { proposal: ProposeResponse }) {
  const requested = proposal.requestedAssets;
  const reason = proposal.fewerAssetsReason;
  if (!reason || requested === undefined) return null;
  const held = proposal.assets.length;
  return (
    <p className="notice" role="status" data-testid="fewer-assets">
      {reason === "universe" ? (
        <Trans>
          You asked for {requested} assets, but what you chose to invest in offers only {held} with
          enough price history: the proposal holds those {held}.
        </Trans>
      ) : reason === "plan" ? (
        <Trans>
          You asked for {requested} assets, but your plan allows {held}: the proposal holds {held}.
        </Trans>
      ) : (
        <Trans>
          You asked for {requested} assets, but holding each of them at the minimum weight would
          take the loss at 95% beyond what you said you could bear: the proposal holds {held}.
        </Trans>
      )}
    </p>
  );
}

function useLifecycle(): LifecycleActor | null {
  return useWorkspace().lifecycle;
}

/** Summary: the proposed portfolio, amounts the user can change with their effect on risk, then save. */
export default function SummaryScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http, portfolios } = useServices();
  const { product, permissions } = usePermissions();
  const { wizard, snapshot } = useWizardStep("summary");
  const lifecycle = useLifecycle();
  const life = useSelector(lifecycle ?? undefined, (s) => s);
  const nameId = useId();
  const [name, setName] = useState("");
  const [nameMissing, setNameMissing] = useState(false);
  const universe = useData(`universe:${product}`, () =>
    http.call(endpoints.marketAssets, { query: { product } }),
  );
  if (!wizard || !snapshot) return <Spinner label={t`Loading…`} />;
  const c = snapshot.context;
  const currency = c.answers.currency ?? "EUR";
  const assets = c.assets;
  const proposal = c.proposal;
  // Null while the universe loads (the add row is drawn disabled); none if it cannot be had.
  const candidates = universe.loading
    ? null
    : (universe.data?.assets ?? [])
        .filter((a) => !a.stale)
        .filter((a) => {
          const group = product === "simIndices" ? a.assetClass : a.exchange;
          return c.answers.universe.length === 0 || (group && c.answers.universe.includes(group));
        })
        .map((a) => ({ id: a.symbol, name: a.name }));
  const problem = c.problem;
  const lifeProblem = life?.context.problem ?? life?.context.error ?? null;
  const saved = life?.matches("saved") ? life.context.portfolio : null;
  const saving = life?.matches("saving") ?? false;
  const canSave = permissions.construction.save;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setNameMissing(true);
      return;
    }
    setNameMissing(false);
    if (lifecycle && life?.matches("unsaved")) {
      lifecycle.send({ type: "portfolio.save", name: name.trim() });
      return;
    }
    wizard.send({ type: "portfolio.save" });
    if (wizard.getSnapshot().status !== "done" || !portfolios) return;
    const savedCount = await savedCountOf(http, product, permissions).catch(() => 0);
    portfolios
      .adoptComposed(permissions, savedCount)
      ?.send({ type: "portfolio.save", name: name.trim() });
  };

  if (saved) {
    const savedName = saved.name;
    return (
      <WizardPage
        title={t`Your proposed portfolio`}
        summary={t`Adjust the amounts, then save your portfolio.`}
        step={4}
      >
        <FormMessage kind="success">
          <Trans>Your portfolio “{savedName}” is saved.</Trans>
        </FormMessage>
        <p className="actions-row">
          <Link
            className="button"
            to={pathFor("account-portfolio", locale, { id: String(saved.id) })}
          >
            <Trans>Open the portfolio</Trans>
          </Link>
          <Link className="button secondary" to={pathFor("account-portfolios", locale)}>
            <Trans>My portfolios</Trans>
          </Link>
          <Link className="button secondary" to={pathFor("assess-risk", locale)}>
            <Trans>Assess its risk</Trans>
          </Link>
        </p>
      </WizardPage>
    );
  }

  const total = formatMoney(c.answers.amount ?? 0, currency, locale);
  return (
    <WizardPage
      title={t`Your proposed portfolio`}
      summary={t`Adjust the amounts, then save your portfolio.`}
      step={4}
    >
      {proposal ? (
        <ProposalHeader proposal={proposal} ordering={c.answers.ordering} total={total} />
      ) : null}
      {proposal ? <FewerAssets proposal={proposal} /> : null}
      {problem ? <FormMessage kind="error">{i18n._(problemText(problem))}</FormMessage> : null}
      <HoldingsEditor
        assets={assets}
        currency={currency}
        locale={locale}
        send={(event) => wizard.send(event)}
        candidates={candidates}
        readOnly={snapshot.status !== "active"}
      />
      <LiveRisk currency={currency} assets={assets} locale={locale} />
      <p className="actions-row">
        <Link to={pathFor("analysis-full", locale)}>
          <Trans>See the full analysis</Trans>
        </Link>
        <Link to={pathFor("assess-risk", locale)}>
          <Trans>Assess its risk</Trans>
        </Link>
        <Link to={pathFor("what-if-scenarios", locale)}>
          <Trans>Stress-test it (what if)</Trans>
        </Link>
        <Link to={pathFor("optimize-choose", locale)}>
          <Trans>Optimise it</Trans>
        </Link>
      </p>
      {canSave ? (
        <form className="form" onSubmit={save} noValidate>
          {lifeProblem ? (
            <FormMessage kind="error">{i18n._(msgCodeText[lifeProblem])}</FormMessage>
          ) : null}
          <div className={nameMissing ? "field has-error" : "field"}>
            <label htmlFor={nameId}>{t`Name of the portfolio`}</label>
            <input
              id={nameId}
              name="name"
              maxLength={80}
              value={name}
              aria-invalid={nameMissing || undefined}
              aria-describedby={nameMissing ? `${nameId}-error` : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            {nameMissing ? (
              <div id={`${nameId}-error`} className="field-error">
                {t`Give your portfolio a name.`}
              </div>
            ) : null}
          </div>
          <div className="actions-row">
            {snapshot.status === "active" ? (
              <button
                type="button"
                className="button secondary"
                onClick={() => wizard.send({ type: "step.back" })}
              >
                <Trans>Back</Trans>
              </button>
            ) : null}
            <button type="submit" className="button primary" disabled={saving}>
              <Trans>Save the portfolio</Trans>
            </button>
          </div>
        </form>
      ) : (
        <p className="notice">
          <Trans>Saving portfolios is part of the paid plans.</Trans>{" "}
          <Link
            to={`${pathFor("choose-your-plan", locale)}?${new URLSearchParams({
              product,
              tier: unlockingTier(product, "construction.save") ?? "standard",
            })}`}
          >
            <Trans>See the plans</Trans>
          </Link>
        </p>
      )}
    </WizardPage>
  );
}
