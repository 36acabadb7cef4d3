import { Trans, useLingui } from "@lingui/react/macro";
import { useSelector } from "@xstate/react";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useWorkspace } from "../../app/use-workspace.ts";
import { usePage } from "../../app/use-page.ts";
import { useData } from "../../app/use-data.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { Portfolio } from "../../contract/portfolios.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { FormMessage } from "../../ui/form.tsx";
import { formatDate, formatMoney, formatNumber, formatPercent } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { AnalysisView } from "./analysis-view.tsx";
import { HoldingsEditor } from "./holdings-editor.tsx";
import { LiveRisk } from "./live-risk.tsx";
import { PastPerformanceView } from "./past-performance-view.tsx";
import { assetClassNames } from "./q1-screen.tsx";
import { usePermissions } from "./use-wizard.ts";

/** My account > portfolios > a portfolio: holdings, valuation, analysis; edit, export, delete. */
export default function PortfolioScreen({ locale, params }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http, portfolios, products } = useServices();
  const { permissions } = usePermissions();
  const id = Number(params.id);
  const loaded = useData<Portfolio>(`portfolio:${id}`, () =>
    http.call(endpoints.portfolio, { params: { id } }),
  );
  const { lifecycle } = useWorkspace();
  const life = useSelector(lifecycle ?? undefined, (s) => s);
  const [confirmDelete, setConfirmDelete] = useState(false);

  // Open the loaded portfolio in the workspace (the route guards and the analyses look at it). A
  // saved portfolio is not counted against the save limit again, so its count does not matter.
  useEffect(() => {
    const p = loaded.data;
    if (!p || !portfolios) return;
    products?.set(p.product);
    portfolios.open(p, permissions, 0);
  }, [loaded.data, portfolios, products, permissions]);

  // Deleted from here, the lifecycle takes the person to my portfolios.
  usePage(lifecycle, "portfolio");

  const current = life?.context.portfolio?.id === id ? life.context.portfolio : loaded.data;
  const analysis = useData(`portfolio-analysis:${id}:${current?.version ?? 0}`, () =>
    http.call(endpoints.portfolioAnalysis, { params: { id } }),
  );
  const history = useData(`portfolio-history:${id}:${current?.version ?? 0}`, () =>
    http.call(endpoints.portfolioHistory, { params: { id } }),
  );

  if (loaded.error)
    return (
      <div>
        <PageHeading title={t`Portfolio`} />
        <p role="alert" className="form-message error">
          {i18n._(msgCodeText[loaded.error])}
        </p>
        <Link to={pathFor("account-portfolios", locale)}>
          <Trans>Back to my portfolios</Trans>
        </Link>
      </div>
    );
  if (!current) return <Spinner label={t`Loading the portfolio…`} />;

  const p = current;
  const c = life?.context.portfolio?.id === id ? life.context : null;
  const editing = Boolean(c && (life?.matches("editing") || life?.matches("updating")));
  const conflict = Boolean(c && life?.matches("conflict"));
  const problem = c?.problem ?? c?.error ?? null;
  const money = (v: number) => formatMoney(v, p.currency, locale);
  const remaining = p.remainingEditions;
  const v = p.valuation;
  const savedOn = formatDate(p.createdAt, locale);
  const valuedOn = v ? formatDate(v.date, locale) : null;
  const currencyCode = p.currency;
  const send = (event: Parameters<NonNullable<typeof lifecycle>["send"]>[0]) =>
    lifecycle?.send(event);
  const groupName = (g: Portfolio["assets"][number]) =>
    g.stockExchange ??
    (g.assetClassId && g.assetClassId in assetClassNames
      ? i18n._(assetClassNames[g.assetClassId as keyof typeof assetClassNames])
      : (g.assetClass ?? ""));

  return (
    <div>
      <PageHeading title={p.name} summary={t`One of your saved portfolios.`} />
      <dl className="figures">
        <div className="figure">
          <dt>{t`Invested`}</dt>
          <dd>{money(p.totalInvested)}</dd>
        </div>
        <div className="figure">
          <dt>{t`Value`}</dt>
          <dd data-testid="portfolio-value">{money(v?.value ?? p.totalInvested)}</dd>
        </div>
        <div className="figure">
          <dt>{t`Return since saving`}</dt>
          <dd>{v ? formatPercent(v.return, locale) : "—"}</dd>
        </div>
        <div className="figure">
          <dt>{t`Edits left`}</dt>
          <dd data-testid="remaining-editions">
            {remaining === null ? t`Unlimited` : formatNumber(remaining, locale)}
          </dd>
        </div>
      </dl>
      <p className="muted" data-testid="portfolio-dates">
        {valuedOn ? (
          <>
            <Trans>Valued at the closes of {valuedOn} (market date).</Trans>{" "}
          </>
        ) : null}
        <Trans>Saved on {savedOn} (calendar date).</Trans>
      </p>
      {problem ? <FormMessage kind="error">{i18n._(msgCodeText[problem])}</FormMessage> : null}
      {conflict ? (
        <div className="notice" role="alert">
          <p>{i18n._(msgCodeText.PORTFOLIO_CONFLICT)}</p>
          <div className="actions-row">
            <button
              type="button"
              className="button"
              onClick={() => send({ type: "conflict.reload" })}
            >
              <Trans>Reload and edit again</Trans>
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => send({ type: "conflict.discard" })}
            >
              <Trans>Discard my changes</Trans>
            </button>
          </div>
        </div>
      ) : null}

      {editing && c?.draft ? (
        <section className="card" aria-labelledby="edit-title">
          <h2 id="edit-title">{t`Edit the portfolio`}</h2>
          <HoldingsEditor
            assets={c.draft.assets}
            currency={p.currency}
            locale={locale}
            send={(event) => send(event)}
            candidates={[]}
          />
          <LiveRisk currency={p.currency} assets={c.draft.assets} locale={locale} />
          <div className="actions-row">
            <button
              type="button"
              className="button"
              disabled={life?.matches("updating")}
              onClick={() => send({ type: "edit.submit" })}
            >
              <Trans>Save the changes</Trans>
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => send({ type: "edit.reset" })}
            >
              <Trans>Reset all amounts</Trans>
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => send({ type: "edit.cancel" })}
            >
              <Trans>Cancel</Trans>
            </button>
          </div>
        </section>
      ) : (
        <section className="card" aria-labelledby="holdings-title">
          <h2 id="holdings-title">{t`Holdings`}</h2>
          <DataTable
            caption={t`Holdings`}
            className="holdings"
            testId="portfolio-holdings"
            columns={[
              {
                key: "asset",
                header: t`Asset`,
                cell: (a) => (
                  <>
                    {a.name} <span className="muted">({a.id})</span>
                    {a.stale ? (
                      <>
                        {" "}
                        <span className="badge">{t`No recent prices`}</span>
                      </>
                    ) : null}
                  </>
                ),
              },
              {
                key: "amount",
                header: t`Amount (${currencyCode})`,
                cell: (a) => money(a.investedAmount),
              },
              {
                key: "weight",
                header: t`Weight`,
                cell: (a) => formatPercent(a.percentage / 100, locale),
              },
            ]}
            groups={p.assets.map((g) => ({
              key: `${g.position}-${groupName(g)}`,
              label: groupName(g),
              rows: g.assets,
            }))}
            rowKey={(a) => a.id}
            footer={[t`Total`, money(p.totalInvested), formatPercent(1, locale)]}
          />
          <div className="actions-row">
            {permissions.management.edit && (remaining === null || remaining > 0) ? (
              <button type="button" className="button" onClick={() => send({ type: "edit.start" })}>
                <Trans>Edit</Trans>
              </button>
            ) : (
              <span className="muted">
                {permissions.management.edit
                  ? t`This portfolio has no edits left.`
                  : t`Editing is part of the paid plans.`}
              </span>
            )}
            {permissions.management.export ? (
              <>
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => send({ type: "portfolio.export", format: "csv" })}
                >
                  <Trans>Export CSV</Trans>
                </button>
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => send({ type: "portfolio.export", format: "pdf" })}
                >
                  <Trans>Export PDF report</Trans>
                </button>
              </>
            ) : null}
            <Link to={pathFor("assess-risk", locale)}>
              <Trans>Assess its risk</Trans>
            </Link>
            <Link to={pathFor("what-if-scenarios", locale)}>
              <Trans>Stress-test it (what if)</Trans>
            </Link>
            <Link
              to={pathFor("optimize-choose", locale)}
              onClick={(e) => {
                // Optimising a saved portfolio is an edition of it (the optimisation routes need
                // one under way); refused, the page stays and shows the lifecycle's problem.
                if (!portfolios?.startEdition(id)) e.preventDefault();
              }}
            >
              <Trans>Optimise it</Trans>
            </Link>
            {permissions.management.delete ? (
              confirmDelete ? (
                <span role="group" aria-label={t`Confirm deletion`}>
                  <Trans>Delete this portfolio for good?</Trans>{" "}
                  <button
                    type="button"
                    className="button danger"
                    onClick={() => send({ type: "portfolio.delete" })}
                  >
                    <Trans>Yes, delete it</Trans>
                  </button>{" "}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setConfirmDelete(false)}
                  >
                    <Trans>No, keep it</Trans>
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setConfirmDelete(true)}
                >
                  <Trans>Delete</Trans>
                </button>
              )
            ) : null}
          </div>
        </section>
      )}

      <h2>{t`Full analysis`}</h2>
      {analysis.loading ? <Spinner label={t`Analysing your portfolio…`} /> : null}
      {analysis.error ? (
        <p role="alert" className="form-message error">
          {i18n._(msgCodeText[analysis.error])}
        </p>
      ) : null}
      {analysis.data ? (
        <AnalysisView
          analysis={analysis.data}
          permissions={permissions}
          product={p.product}
          locale={locale}
          history={history.data ?? null}
        />
      ) : null}

      {/* The holdings' past asks the same workers for years of figures: it starts once the
          page's own analysis has its answer, so a busy server shows that first. */}
      {analysis.data || analysis.error ? (
        <PastPerformanceView
          portfolioId={id}
          portfolioName={p.name}
          version={p.version}
          product={p.product}
          locale={locale}
          onBenchmarkStored={(stored) => portfolios?.renew(stored, permissions)}
        />
      ) : null}
    </div>
  );
}
