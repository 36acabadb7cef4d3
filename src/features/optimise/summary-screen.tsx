import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { formatDate, formatMoney, formatPercent } from "../../ui/format.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { FrontierChart, type FrontierHolding, type FrontierPoint } from "./frontier-chart.tsx";
import type { Locale, Product } from "../../contract/common.ts";
import { OptimisePage, Outcome, Running } from "./parts.tsx";
import { PlanLock } from "../../app/plan-lock.tsx";
import type { PermissionPath } from "../../contract/permissions.ts";
import { useOptimise } from "./use-optimise.ts";
import { TermLinks } from "../../app/term-link.tsx";
import { LockIcon } from "../../ui/lock-icon.tsx";

/**
 * The summary's efficient frontier: both axes titled with their units (volatility over one month,
 * expected return a year, in percent), the current and the optimised portfolios marked, and each
 * asset of either portfolio on its own (issue 27), labelled with its symbol.
 */
export function SummaryFrontier({
  frontier,
  current,
  optimised,
  holdings = [],
  locale,
}: {
  frontier: readonly FrontierPoint[];
  current: FrontierPoint;
  optimised: FrontierPoint;
  holdings?: readonly FrontierHolding[];
  locale: Locale;
}) {
  const { t } = useLingui();
  const pct = (v: number) => formatPercent(v, locale, 2);
  const list = holdings
    .map((h) => {
      const symbol = h.symbol;
      const volatility = pct(h.volatility);
      const expected = pct(h.expectedReturn);
      return t`${symbol}: volatility ${volatility}, expected return ${expected}`;
    })
    .join("; ");
  return (
    <FrontierChart
      title={t`Efficient frontier`}
      description={
        holdings.length > 0
          ? t`Each point of the line is the least risky mix of these assets for its expected return; the circle is your current portfolio, the diamond the optimised one, each square one asset of the portfolio on its own (${list}).`
          : t`Each point of the line is the least risky mix of these assets for its expected return; the circle is your current portfolio, the diamond the optimised one.`
      }
      frontier={frontier}
      current={current}
      optimised={optimised}
      holdings={holdings}
      formatShare={(v, digits = 1) => formatPercent(v, locale, digits)}
      labels={{
        risk: t`Volatility over 1 month (%)`,
        expectedReturn: t`Expected return a year (%)`,
        frontier: t`Efficient frontier`,
        current: t`Current portfolio`,
        optimised: t`Optimised portfolio`,
        holdings: t({
          message: "Holdings",
          context: "the assets of a portfolio, each a point on the frontier",
        }),
        holding: (h) => (h.name && h.name !== h.symbol ? `${h.name} (${h.symbol})` : h.symbol),
        point: (n) => t`Point ${n}`,
        table: t`The frontier's points as a table`,
      }}
    />
  );
}

/** optimize/summary: current and optimised side by side, the frontier, and adopting the result. */
/** A figure the plan leaves out: the lock names the plan that unlocks it. */
function Locked({
  permission,
  product,
  locale,
}: {
  permission: PermissionPath;
  product: Product;
  locale: Locale;
}) {
  return (
    <span className="plan-lock" data-locked={permission}>
      <LockIcon /> <PlanLock product={product} permission={permission} locale={locale} />
    </span>
  );
}

export default function OptimiseSummaryScreen({ locale }: ScreenProps) {
  const { t } = useLingui();
  const o = useOptimise("summary");
  if (!o.actor || !o.snapshot) return <Spinner label={t`Loading…`} />;
  const { actor, snapshot } = o;
  const c = snapshot.context;
  const answer = c.optimizedPortfolio;
  const title = t`Optimised portfolio`;
  const summary = t`Your portfolio before and after the optimisation.`;
  if (!answer)
    return (
      <OptimisePage title={title} summary={summary} name={o.current?.name ?? null}>
        {snapshot.matches("optimising") ? <Running actor={actor} /> : null}
        <p>
          <Trans>There is no optimised portfolio yet.</Trans>{" "}
          <Link to={pathFor("optimize-choose", locale)}>
            <Trans>Choose how to optimise</Trans>
          </Link>
        </p>
      </OptimisePage>
    );
  const currency = answer.currency;
  const money = (v: number) => formatMoney(v, currency, locale);
  const pct = (v: number) => formatPercent(v, locale);
  const stale = snapshot.matches("stale");
  const running = snapshot.matches("optimising");
  const adopting = snapshot.matches("adopting");
  const total = answer.assets.reduce((s, a) => s + a.investedAmount, 0);
  const names = new Map(c.portfolio.assets.map((a) => [a.symbol, a.name]));
  const nameOf = (s: string) => names.get(s) ?? o.names.get(s) ?? s;
  const from = formatDate(answer.window.from, locale);
  const to = formatDate(answer.window.to, locale);
  // The saved portfolio, also while its edition for this optimisation is under way.
  const saved = o.savedId;
  const rows = [
    {
      key: "volatility",
      label: t`Volatility (1 month)`,
      cur: pct(answer.current.volatility),
      opt: pct(answer.volatility),
    },
    {
      key: "var95",
      label: t`VaR 95% (1 month)`,
      cur: `${money(answer.current.var95Amount)} (${pct(answer.current.var95)})`,
      opt: `${money(answer.var95Amount)} (${pct(answer.var95)})`,
    },
    {
      key: "cvar95",
      label: t`CVaR 95% (1 month)`,
      cur: `${money(answer.current.cvar95Amount)} (${pct(answer.current.cvar95)})`,
      opt: `${money(answer.cvar95Amount)} (${pct(answer.cvar95)})`,
    },
    {
      key: "expected",
      label: t`Expected return (annual)`,
      cur:
        answer.current.expectedReturn === null ? (
          <Locked permission="analysis.expectedReturns" product={o.product} locale={locale} />
        ) : (
          pct(answer.current.expectedReturn)
        ),
      opt:
        answer.expectedReturn === null ? (
          <Locked
            permission="analysis.expectedReturnsOptimPortfolio"
            product={o.product}
            locale={locale}
          />
        ) : (
          pct(answer.expectedReturn)
        ),
    },
  ];
  return (
    <OptimisePage title={title} summary={summary} name={o.current?.name ?? null}>
      {stale ? (
        <div
          className="form-message warning optimise-stale"
          role="alert"
          data-testid="optimise-stale"
        >
          <p>
            <Trans>
              Your portfolio changed after this optimisation: this result is outdated and cannot be
              adopted. Optimise again to compare with the portfolio as it is now.
            </Trans>
          </p>
          <button
            type="button"
            className="button"
            onClick={() => actor.send({ type: "optimisation.run" })}
          >
            <Trans>Optimise again</Trans>
          </button>
        </div>
      ) : null}
      {running ? <Running actor={actor} /> : null}
      <Outcome snapshot={snapshot} locale={locale} total={total} />
      <p className="figure-method">
        <Trans>
          Window {from} to {to} of daily prices; horizon one month (21 trading days). Volatility
          from the shrunk covariance; VaR and CVaR 95% historical, over overlapping 21-day returns;
          expected return annual (historical mean shrunk towards the CAPM).
        </Trans>
        {answer.window.simulated ? (
          <>
            {" "}
            <Trans>Simulated prices.</Trans>
          </>
        ) : null}
      </p>

      <section className="card" aria-labelledby="optimise-figures">
        <h2 id="optimise-figures">
          <Trans>Risk and return</Trans>
        </h2>
        <TermLinks
          label={t`In the dictionary:`}
          terms={[
            ["volatility", t`Volatility`],
            ["value-at-risk", t`Value at risk (VaR)`],
            ["conditional-value-at-risk", t`CVaR`],
            ["expected-return", t`Expected return`],
            ["minimum-variance-portfolio", t`Minimum-variance portfolio`],
            ["efficient-frontier", t`Efficient frontier`],
          ]}
        />
        <DataTable
          caption={t`Risk and return`}
          className="optimise-table"
          testId="optimise-figures"
          emptyCorner
          columns={[
            { key: "figure", header: t`Figure`, cell: (r) => r.label },
            {
              key: "current",
              header: t`Current`,
              cell: (r) => r.cur,
              testId: (r) => `current-${r.key}`,
            },
            {
              key: "optimised",
              header: t`Optimised`,
              cell: (r) => r.opt,
              testId: (r) => `optimised-${r.key}`,
            },
          ]}
          rows={rows}
          rowKey={(r) => r.key}
        />
      </section>

      <section className="card" aria-labelledby="optimise-weights">
        <h2 id="optimise-weights">
          <Trans>Weights</Trans>
        </h2>
        <DataTable
          caption={t`Weights`}
          className="optimise-table"
          testId="optimise-weights-table"
          columns={[
            { key: "asset", header: t`Asset`, cell: (a) => nameOf(a.symbol) },
            { key: "current", header: t`Current`, cell: (a) => pct(a.currentWeight) },
            {
              key: "optimised",
              header: t`Optimised`,
              cell: (a) => pct(a.weight),
              testId: (a) => `weight-${a.symbol}`,
            },
            { key: "amount", header: t`Amount`, cell: (a) => money(a.investedAmount) },
          ]}
          rows={answer.assets}
          rowKey={(a) => a.symbol}
          rowProps={(a) => ({ "data-symbol": a.symbol })}
        />
      </section>

      {answer.expectedReturn === null ? (
        <section className="card" data-testid="frontier-locked">
          <h2>{t`Efficient frontier`}</h2>
          <p className="notice plan-lock">
            <LockIcon /> <Trans>The frontier is drawn in expected returns.</Trans>{" "}
            <PlanLock
              product={o.product}
              permission="analysis.expectedReturnsOptimPortfolio"
              locale={locale}
            />
          </p>
        </section>
      ) : answer.frontier.length > 0 && answer.current.expectedReturn !== null ? (
        <section className="card">
          <SummaryFrontier
            frontier={answer.frontier}
            current={{ ...answer.current, expectedReturn: answer.current.expectedReturn }}
            optimised={{ ...answer, expectedReturn: answer.expectedReturn }}
            holdings={answer.assets.flatMap((a) =>
              (a.currentWeight > 0 || a.weight > 1e-6) &&
              a.volatility !== undefined &&
              a.expectedReturn != null
                ? [
                    {
                      symbol: a.symbol,
                      name: nameOf(a.symbol),
                      volatility: a.volatility,
                      expectedReturn: a.expectedReturn,
                    },
                  ]
                : [],
            )}
            locale={locale}
          />
        </section>
      ) : null}

      {adopting ? <Running actor={actor} /> : null}
      <p className="actions-row">
        <button
          type="button"
          className="button"
          disabled={stale || running || adopting}
          onClick={() => actor.send({ type: "result.adopt" })}
        >
          {saved !== null ? (
            <Trans>Adopt: save it as an edit of this portfolio</Trans>
          ) : (
            <Trans>Adopt: use it in the portfolio you are creating</Trans>
          )}
        </button>
        <Link to={pathFor("analysis-optimized-full", locale)}>
          <Trans>Full analysis of the optimised portfolio</Trans>
        </Link>
        <button
          type="button"
          className="button secondary"
          disabled={running || adopting}
          onClick={() => actor.send({ type: "step.back" })}
        >
          <Trans>Change the options</Trans>
        </button>
        <button
          type="button"
          className="link-button"
          disabled={running || adopting}
          onClick={() => actor.send({ type: "optimisation.restart" })}
        >
          <Trans>Start again</Trans>
        </button>
      </p>
      {saved !== null ? (
        <p className="field-hint">
          <Trans>Adopting edits the saved portfolio: it uses one of its remaining edits.</Trans>
        </p>
      ) : null}
    </OptimisePage>
  );
}
