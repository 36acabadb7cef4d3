import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { DataTable } from "../../ui/data-table.tsx";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import { useData } from "../../app/use-data.ts";
import type { BananaList, BananaPortfolio } from "../../contract/banana.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { formatMoney, formatNumber } from "../../ui/format.ts";
import { LoadFailed } from "../../ui/load-failed.tsx";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { percentOrDash, regionNames, regions } from "./banana-format.ts";
import { RankingSection } from "./ranking-table.tsx";
import { TermLinks } from "../../app/term-link.tsx";
import "./banana-account.css";

/** How a portfolio fares against its monkey, in words (not only by colour). */
function VersusMonkey({ p, locale }: { p: BananaPortfolio; locale: Locale }) {
  const f = p.figures;
  if (!f || f.return === null || f.monkeyReturn === null) return <span className="muted">—</span>;
  const diff = percentOrDash(f.return - f.monkeyReturn, locale);
  return f.return > f.monkeyReturn ? (
    <span className="versus ahead">
      <Trans>ahead by {diff}</Trans>
    </span>
  ) : f.return < f.monkeyReturn ? (
    <span className="versus behind">
      <Trans>behind by {diff}</Trans>
    </span>
  ) : (
    <span className="versus">
      <Trans>level</Trans>
    </span>
  );
}

function PortfolioTable({ list, locale }: { list: BananaList; locale: Locale }) {
  const { t, i18n } = useLingui();
  return (
    <DataTable
      caption={t`Your banana portfolios`}
      className="banana-portfolios"
      columns={[
        {
          key: "name",
          header: t`Name`,
          cell: (p) => (
            <Link to={pathFor("account-banana-portfolio", locale, { id: String(p.id) })}>
              {p.name}
            </Link>
          ),
        },
        { key: "region", header: t`Region`, cell: (p) => i18n._(regionNames[p.region]) },
        {
          key: "value",
          header: t`Value`,
          cell: (p) => formatMoney(p.figures?.value ?? p.totalInvested, p.currency, locale),
        },
        {
          key: "return",
          header: t`Return`,
          cell: (p) =>
            !p.figures || p.figures.return === null
              ? t`from tomorrow`
              : percentOrDash(p.figures.return, locale),
          className: (p) =>
            p.figures?.return !== null && (p.figures?.return ?? 0) < 0 ? "negative" : undefined,
        },
        {
          key: "monkey",
          header: t`The monkey`,
          cell: (p) =>
            !p.figures || p.figures.return === null
              ? "—"
              : percentOrDash(p.figures.monkeyReturn, locale),
        },
        {
          key: "versus",
          header: t`Against the monkey`,
          cell: (p) => <VersusMonkey p={p} locale={locale} />,
        },
        {
          key: "index",
          header: t`Index`,
          cell: (p) =>
            !p.figures || p.figures.return === null
              ? "—"
              : percentOrDash(p.figures.indexReturn, locale),
        },
        {
          key: "age",
          header: t`Age (days)`,
          cell: (p) => formatNumber(p.figures?.ageDays ?? 0, locale),
        },
        {
          key: "rank",
          header: t`Rank`,
          cell: (p) => (p.rank === null ? t`not yet` : formatNumber(p.rank, locale)),
        },
      ]}
      rows={list.portfolios}
      rowKey={(p) => String(p.id)}
      rowProps={(p) => ({ "data-portfolio": String(p.id) })}
    />
  );
}

/** My account > banana challenge: my banana portfolios, the capacity left, the community ranking. */
export default function AccountBananaScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [client] = useSession((s) => s.context.client);
  const permissions = client?.permissions.simMonk;
  const list = useData<BananaList>("banana-portfolios", () =>
    http.call(endpoints.bananaPortfolios),
  );
  const l = list.data;
  const left = l ? l.capacity.eu + l.capacity.usa : 0;
  return (
    <div className="banana-account">
      <PageHeading
        title={t`My banana challenge`}
        summary={t`Your stock portfolios against their monkeys, against the region's index and against the community.`}
      />
      {list.loading ? <Spinner label={t`Loading your banana portfolios…`} /> : null}
      {list.error ? <LoadFailed error={list.error} onRetry={list.retry} /> : null}
      {l ? (
        <>
          <section className="card" aria-labelledby="banana-capacity-title">
            <h2 id="banana-capacity-title">{t`Portfolios you can still create`}</h2>
            <ul className="banana-capacity" data-testid="banana-capacity">
              {regions.map((g) => {
                const region = i18n._(regionNames[g]);
                const n = formatNumber(l.capacity[g], locale);
                return (
                  <li key={g} data-region={g} data-capacity={l.capacity[g]}>
                    <Trans>
                      {region}: <strong>{n}</strong> more
                    </Trans>
                  </li>
                );
              })}
            </ul>
            {left > 0 ? (
              <p>
                <Link className="button" to={pathFor("banana-challenge", locale)}>
                  <Trans>Create a banana portfolio</Trans>
                </Link>
              </p>
            ) : (
              <p className="muted">
                <Trans>
                  Your plan has no room for another banana portfolio. Delete one, or choose a plan
                  with more.
                </Trans>{" "}
                <Link to={pathFor("choose-your-plan", locale)}>
                  <Trans>See the plans</Trans>
                </Link>
              </p>
            )}
          </section>
          <section className="card" aria-labelledby="banana-mine-title">
            <h2 id="banana-mine-title">{t`Your banana portfolios`}</h2>
            <TermLinks
              label={t`In the dictionary:`}
              terms={[
                ["random-portfolio", t`Random portfolio`],
                ["time-weighted-return", t`Time-weighted return`],
                ["annualised-return", t`Annualised return`],
                ["stock-market-index", t`Stock market index`],
              ]}
            />
            {l.portfolios.length === 0 ? (
              <p className="notice">
                <Trans>
                  You have no banana portfolio yet. Pick stocks of one region with 10,000 and see
                  whether you beat the monkey.
                </Trans>
              </p>
            ) : (
              <>
                <PortfolioTable list={l} locale={locale} />
                <p className="muted">
                  <Trans>
                    Returns since creation show once a portfolio is 1 day old, annualised returns
                    once it is 30 days old; a portfolio enters the ranking the day after it is
                    created. Index: the EURO STOXX 50 for Europe, the S&amp;P 500 for the USA.
                  </Trans>
                </p>
              </>
            )}
            {l.simulated ? (
              <p>
                <span className="badge">
                  <Trans>Simulated prices</Trans>
                </span>
              </p>
            ) : null}
          </section>
        </>
      ) : null}
      <RankingSection
        locale={locale}
        communityPortfolio={Boolean(permissions?.competition.communityPortfolio)}
        hasAlias={Boolean(client?.alias)}
      />
    </div>
  );
}
