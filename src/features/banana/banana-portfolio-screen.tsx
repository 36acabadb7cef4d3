import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import { useData } from "../../app/use-data.ts";
import {
  BANANA_ANNUALISED_AFTER_DAYS,
  type BananaHistory,
  type BananaHolding,
  type BananaPortfolio,
} from "../../contract/banana.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { formatDate, formatMoney, formatNumber } from "../../ui/format.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { PlanLock } from "../../app/plan-lock.tsx";
import { MonkeyDistributionChart, ValuePathChart } from "./banana-charts.tsx";
import { percentileText, percentOrDash, regionIndexNames, regionNames } from "./banana-format.ts";
import { BananaEditSection } from "./banana-edit-section.tsx";
import { TermLinks } from "../../app/term-link.tsx";
import "./banana-account.css";
import { LockIcon } from "../../ui/lock-icon.tsx";
import { LoadFailed } from "../../ui/load-failed.tsx";

function Figure({
  label,
  children,
  pending,
  testId,
}: {
  label: string;
  children: ReactNode;
  pending?: boolean;
  testId?: string;
}) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd className={pending ? "pending" : undefined} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function HoldingsTable({
  holdings,
  total,
  currency,
  caption,
  locale,
}: {
  holdings: readonly BananaHolding[];
  total: number;
  currency: BananaPortfolio["currency"];
  caption: string;
  locale: Locale;
}) {
  const { t } = useLingui();
  const money = (v: number) => formatMoney(v, currency, locale);
  return (
    <DataTable
      caption={caption}
      className="holdings"
      rows={holdings}
      rowKey={(h) => h.symbol}
      columns={[
        {
          key: "stock",
          header: t`Stock`,
          cell: (h) => (
            <>
              {h.name}{" "}
              <span className="muted holding-id">
                {h.symbol}
                {h.exchange ? ` · ${h.exchange}` : ""}
              </span>
            </>
          ),
        },
        { key: "shares", header: t`Shares`, cell: (h) => formatNumber(h.shares, locale) },
        { key: "price", header: t`Price bought`, cell: (h) => money(h.price) },
        { key: "invested", header: t`Invested`, cell: (h) => money(h.investedAmount) },
      ]}
      footer={[t`Total`, null, null, money(total)]}
    />
  );
}

/** The figures of section 6: returns from the first day on, annualised from day 30. */
function Figures({ p, locale }: { p: BananaPortfolio; locale: Locale }) {
  const { t, i18n } = useLingui();
  const f = p.figures;
  const money = (v: number) => formatMoney(v, p.currency, locale);
  const young = !f || f.return === null;
  const tomorrow = t`shown from tomorrow`;
  const daysToAnnual = formatNumber(
    Math.max(1, BANANA_ANNUALISED_AFTER_DAYS - (f?.ageDays ?? 0)),
    locale,
  );
  const indexName = i18n._(regionIndexNames[p.region]);
  const age = formatNumber(f?.ageDays ?? 0, locale);
  return (
    <dl className="figures banana-figures">
      <Figure label={t`Value`} testId="banana-value">
        {money(f?.value ?? p.totalInvested)}
      </Figure>
      <Figure label={t`Invested`}>{money(p.totalInvested)}</Figure>
      <Figure label={t`Return since creation`} pending={young} testId="banana-return">
        {young ? tomorrow : percentOrDash(f.return, locale)}
      </Figure>
      <Figure label={t`Annualised return`} pending={f?.annualisedReturn == null}>
        {f?.annualisedReturn != null
          ? percentOrDash(f.annualisedReturn, locale)
          : t`shown in ${daysToAnnual} days`}
      </Figure>
      <Figure label={t`The monkey's return`} pending={young} testId="banana-monkey-return">
        {young ? tomorrow : percentOrDash(f.monkeyReturn, locale)}
      </Figure>
      <Figure label={t`${indexName} return`} pending={young}>
        {young ? tomorrow : percentOrDash(f.indexReturn, locale)}
      </Figure>
      <Figure label={t`Rank in the region`} pending={p.rank === null} testId="banana-rank">
        {p.rank === null ? tomorrow : formatNumber(p.rank, locale)}
      </Figure>
      <Figure label={t`Age`}>{t`${age} days`}</Figure>
    </dl>
  );
}

/** Where the portfolio stands among the 10,000 monkeys (from its first day on). */
function Monkeys({ p, locale }: { p: BananaPortfolio; locale: Locale }) {
  const { t } = useLingui();
  const f = p.figures;
  const d = f?.distribution ?? null;
  const count = formatNumber(d?.count ?? 10_000, locale);
  const beaten = d ? percentileText(d.percentile, locale) : "";
  return (
    <section className="card" aria-labelledby="banana-monkeys-title">
      <h2 id="banana-monkeys-title">{t`Against ${count} monkeys`}</h2>
      <p className="muted">
        <Trans>
          On the creation day the server drew {count} random portfolios with the same number of
          stocks, from the same region and day, in whole shares with the same budget. How many of
          them your portfolio beats says how much your choice did better than chance (random
          portfolios as a benchmark, P. Burns, 2006).
        </Trans>
      </p>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["random-portfolio", t`Random portfolio`],
          ["percentile", t`Percentile`],
          ["time-weighted-return", t`Time-weighted return`],
          ["annualised-return", t`Annualised return`],
        ]}
      />
      {d && f && f.return !== null ? (
        <>
          <p className="banana-beat" data-testid="banana-percentile">
            <Trans>
              You beat {beaten} of {count} monkeys.
            </Trans>
          </p>
          <MonkeyDistributionChart
            distribution={d}
            portfolioReturn={f.return}
            monkeyReturn={f.monkeyReturn}
            locale={locale}
          />
        </>
      ) : (
        <p className="notice" data-testid="banana-percentile-pending">
          <Trans>
            Where you stand among the monkeys is shown from tomorrow, once the portfolio has a
            day&apos;s return.
          </Trans>
        </p>
      )}
    </section>
  );
}

function ValuePath({
  p,
  history,
  locale,
}: {
  p: BananaPortfolio;
  history: BananaHistory | null;
  locale: Locale;
}) {
  const { t, i18n } = useLingui();
  const indexName = i18n._(regionIndexNames[p.region]);
  const young = !p.figures || p.figures.return === null;
  return (
    <section className="card" aria-labelledby="banana-path-title">
      <h2 id="banana-path-title">{t`Your portfolio, your monkey and the ${indexName}`}</h2>
      {young ? (
        <p className="notice" data-testid="banana-path-pending">
          <Trans>The returns day by day are shown from tomorrow.</Trans>
        </p>
      ) : history ? (
        <ValuePathChart history={history} indexName={indexName} locale={locale} />
      ) : (
        <Spinner label={t`Loading the returns…`} />
      )}
    </section>
  );
}

/**
 * My account > banana portfolios > a portfolio: holdings, the monkey's, the figures, the value
 * path, the percentile among the monkeys, and editing inside the window. With `?community=1` the
 * same page shows another member's portfolio (communityPortfolio), read only.
 */
export default function BananaPortfolioScreen({ locale, params }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [search] = useSearchParams();
  const community = search.get("community") === "1";
  const id = Number(params.id);
  const [client] = useSession((s) => s.context.client);
  const canEdit = Boolean(client?.permissions.simMonk.management.edit);
  const loaded = useData<BananaPortfolio>(`banana-portfolio:${community ? "c" : "o"}:${id}`, () =>
    community
      ? http.call(endpoints.bananaCommunityPortfolio, { params: { id } })
      : http.call(endpoints.bananaPortfolio, { params: { id } }),
  );
  // While the portfolio is read again (after an edit), the page keeps showing the last answer.
  const [last, setLast] = useState<BananaPortfolio | null>(null);
  if (loaded.data && loaded.data !== last) setLast(loaded.data);
  const p = loaded.data ?? (last?.id === id ? last : null);
  const history = useData<BananaHistory | null>(
    `banana-history:${community ? "c" : "o"}:${id}:${p?.version ?? 0}`,
    () =>
      community ? Promise.resolve(null) : http.call(endpoints.bananaHistory, { params: { id } }),
  );
  const back = pathFor("account-banana-challenge", locale);

  if (loaded.error)
    return (
      <div className="banana-portfolio">
        <PageHeading title={community ? t`A community portfolio` : t`Banana portfolio`} />
        {loaded.error === "PLAN_FEATURE_LOCKED" ? (
          <p className="notice plan-lock" data-testid="community-lock">
            <LockIcon /> <Trans>Other members&apos; portfolios are locked.</Trans>{" "}
            <PlanLock
              product="simMonk"
              permission="competition.communityPortfolio"
              locale={locale}
            />
          </p>
        ) : (
          <LoadFailed error={loaded.error} onRetry={loaded.retry} />
        )}
        <Link to={back}>
          <Trans>Back to my banana challenge</Trans>
        </Link>
      </div>
    );
  if (!p) return <Spinner label={t`Loading the portfolio…`} />;

  const region = i18n._(regionNames[p.region]);
  const created = formatDate(p.createdOn, locale);
  const priced = p.figures ? formatDate(p.figures.date, locale) : null;
  return (
    <div className="banana-portfolio">
      <PageHeading
        title={p.name}
        summary={
          community
            ? t`A member's banana portfolio, ${region}, created on ${created} (market date).`
            : t`Your banana portfolio, ${region}, created on ${created} (market date).`
        }
      />
      <p className="actions-row">
        <Link to={back}>
          <Trans>Back to my banana challenge</Trans>
        </Link>
        {priced ? (
          <span className="muted">
            <Trans>Valued at the closes of {priced} (market date).</Trans>
          </span>
        ) : null}
      </p>
      <Figures p={p} locale={locale} />
      {community ? null : (
        <BananaEditSection
          portfolio={p}
          locale={locale}
          canEdit={canEdit}
          onSaved={() => loaded.refresh()}
        />
      )}
      <div className="banana-two">
        <section className="card" aria-labelledby="banana-holdings-title">
          <h2 id="banana-holdings-title">{community ? t`Holdings` : t`Your holdings`}</h2>
          <HoldingsTable
            holdings={p.holdings}
            total={p.totalInvested}
            currency={p.currency}
            caption={community ? t`Holdings` : t`Your holdings`}
            locale={locale}
          />
        </section>
        <section className="card" aria-labelledby="banana-monkey-title">
          <h2 id="banana-monkey-title">{t`The monkey's holdings`}</h2>
          <p className="muted">
            <Trans>
              A random portfolio of the same size, from the same region and day, drawn once when you
              saved yours.
            </Trans>
          </p>
          <HoldingsTable
            holdings={p.monkey.holdings}
            total={p.monkey.totalInvested}
            currency={p.currency}
            caption={t`The monkey's holdings`}
            locale={locale}
          />
        </section>
      </div>
      <Monkeys p={p} locale={locale} />
      {community ? null : <ValuePath p={p} history={history.data ?? null} locale={locale} />}
    </div>
  );
}
