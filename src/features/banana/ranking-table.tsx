import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import type { BananaRanking, MonkeyRegion } from "../../contract/banana.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { formatDate, formatNumber } from "../../ui/format.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { PlanLock } from "../../app/plan-lock.tsx";
import { percentOrDash, regionNames, regions, signedPercent } from "./banana-format.ts";
import { LockIcon } from "../../ui/lock-icon.tsx";
import { LoadFailed } from "../../ui/load-failed.tsx";

/** Where a ranking row's portfolio opens: the user's own page, or the community view. */
export function rankingRowLink(
  row: BananaRanking["rows"][number],
  locale: Locale,
  communityPortfolio: boolean,
): string | null {
  if (row.portfolioId === null) return null;
  const path = pathFor("account-banana-portfolio", locale, { id: String(row.portfolioId) });
  if (row.own) return path;
  return communityPortfolio ? `${path}?community=1` : null;
}

/** One page of a region's ranking; the user's own rows highlighted and marked "you". */
export function RankingTable({
  ranking,
  locale,
  communityPortfolio,
}: {
  ranking: BananaRanking;
  locale: Locale;
  communityPortfolio: boolean;
}) {
  const { t, i18n } = useLingui();
  const region = i18n._(regionNames[ranking.region]);
  const caption = t`Community ranking, ${region}`;
  return (
    <DataTable
      caption={caption}
      className="banana-ranking"
      columns={[
        { key: "rank", header: t`Rank`, cell: (row) => formatNumber(row.rank, locale) },
        {
          key: "member",
          header: t`Member`,
          cell: (row) => (
            <>
              {row.alias ?? <span className="muted">{t`anonymous`}</span>}
              {row.own ? (
                <>
                  {" "}
                  <span className="badge own-badge">{t`you`}</span>
                </>
              ) : null}
            </>
          ),
        },
        {
          key: "portfolio",
          header: t`Portfolio`,
          cell: (row) => {
            const link = rankingRowLink(row, locale, communityPortfolio);
            return link ? <Link to={link}>{row.name}</Link> : row.name;
          },
        },
        {
          key: "return",
          header: t`Return`,
          cell: (row) => signedPercent(row.return, locale),
          className: (row) => (row.return < 0 ? "negative" : undefined),
        },
        {
          key: "annualised",
          header: t`Annualised`,
          cell: (row) => percentOrDash(row.annualisedReturn, locale),
        },
        { key: "age", header: t`Age (days)`, cell: (row) => formatNumber(row.ageDays, locale) },
      ]}
      rows={ranking.rows}
      rowKey={(row) => String(row.rank)}
      rowProps={(row) => ({
        className: row.own ? "own-row" : undefined,
        "data-own": row.own ? "true" : undefined,
        "aria-current": row.own ? "true" : undefined,
      })}
    />
  );
}

/**
 * The community ranking of each region (communityRanking): a switch between the regions, 20 rows
 * a page, the user's own positions; a plan without it sees which plan unlocks it.
 */
export function RankingSection({
  locale,
  communityPortfolio,
  hasAlias,
}: {
  locale: Locale;
  communityPortfolio: boolean;
  hasAlias: boolean;
}) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const [region, setRegion] = useState<MonkeyRegion>("eu");
  const [page, setPage] = useState(1);
  const ranking = useData<BananaRanking>(`banana-ranking:${region}:${page}`, () =>
    http.call(endpoints.bananaRanking, { query: { region, page: String(page) } }),
  );
  const r = ranking.data;
  const pages = r ? Math.max(1, Math.ceil(r.total / r.pageSize)) : 1;
  const pageText = formatNumber(page, locale);
  const pagesText = formatNumber(pages, locale);
  const total = r ? formatNumber(r.total, locale) : "";
  const date = r?.date ? formatDate(r.date, locale) : null;
  const ownRanks = r?.ownRanks ?? [];
  const profile = pathFor("account-profile", locale);
  return (
    <section className="card banana-ranking-section" aria-labelledby="banana-ranking-title">
      <h2 id="banana-ranking-title">{t`Community ranking`}</h2>
      <p className="muted">
        <Trans>
          Every banana portfolio at least 1 day old, by its return since it was created, highest
          first. Members appear under the alias they choose, never their email.
        </Trans>{" "}
        {hasAlias ? null : (
          <Trans>
            You appear as anonymous: <Link to={profile}>choose an alias in your profile</Link>.
          </Trans>
        )}
      </p>
      <div className="tabs" role="group" aria-label={t`Region of the ranking`}>
        {regions.map((g) => (
          <button
            key={g}
            type="button"
            className={g === region ? "tab active" : "tab"}
            aria-pressed={g === region}
            data-region={g}
            onClick={() => {
              setRegion(g);
              setPage(1);
            }}
          >
            {i18n._(regionNames[g])}
          </button>
        ))}
      </div>
      {ranking.loading ? <Spinner label={t`Loading the ranking…`} /> : null}
      {ranking.error === "PLAN_FEATURE_LOCKED" ? (
        <p className="notice plan-lock" data-testid="ranking-lock">
          <LockIcon /> <Trans>The community ranking is locked.</Trans>{" "}
          <PlanLock product="simMonk" permission="competition.communityRanking" locale={locale} />
        </p>
      ) : ranking.error ? (
        <LoadFailed error={ranking.error} onRetry={ranking.retry} />
      ) : null}
      {r ? (
        <>
          <p data-testid="ranking-summary">
            {r.total === 0 ? (
              <Trans>
                No portfolio of this region is ranked yet: portfolios join the day after they are
                created.
              </Trans>
            ) : date ? (
              <Trans>
                {total} portfolios ranked on {date} (market date).
              </Trans>
            ) : (
              <Trans>{total} portfolios ranked.</Trans>
            )}{" "}
            {ownRanks.length > 0 ? (
              <span data-testid="own-ranks">
                <Trans>Your positions:</Trans>{" "}
                {ownRanks.map((o, k) => {
                  const rank = formatNumber(o.rank, locale);
                  const target = Math.ceil(o.rank / r.pageSize);
                  return (
                    <span key={o.portfolioId}>
                      {k > 0 ? ", " : null}
                      {target === page ? (
                        rank
                      ) : (
                        <button
                          type="button"
                          className="link-button"
                          aria-label={t`Go to position ${rank}`}
                          onClick={() => setPage(target)}
                        >
                          {rank}
                        </button>
                      )}
                    </span>
                  );
                })}
              </span>
            ) : null}
          </p>
          {r.rows.length > 0 ? (
            <RankingTable ranking={r} locale={locale} communityPortfolio={communityPortfolio} />
          ) : null}
          {pages > 1 ? (
            <nav className="actions-row pager" aria-label={t`Pages of the ranking`}>
              <button
                type="button"
                className="button secondary"
                disabled={page <= 1}
                onClick={() => setPage((p) => Math.max(1, p - 1))}
              >
                <Trans>Previous page</Trans>
              </button>
              <span aria-live="polite">
                <Trans>
                  Page {pageText} of {pagesText}
                </Trans>
              </span>
              <button
                type="button"
                className="button secondary"
                disabled={page >= pages}
                onClick={() => setPage((p) => Math.min(pages, p + 1))}
              >
                <Trans>Next page</Trans>
              </button>
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
