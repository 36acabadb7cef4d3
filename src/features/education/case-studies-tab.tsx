import { Trans, useLingui } from "@lingui/react/macro";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { CaseStudy, ContentLevel } from "../../contract/education.ts";
import { LineChart } from "../../ui/charts/index.ts";
import { TableScroll } from "../../ui/data-table.tsx";
import { formatDate, formatNumber, formatPercent } from "../../ui/format.ts";
import { LoadState } from "./load-state.tsx";
import { RichText, TermLink } from "../../app/term-link.tsx";

export function CaseStudiesTab({
  locale,
  level,
  section,
  onOpen,
  onBack,
}: {
  locale: Locale;
  level: ContentLevel;
  section: string | null;
  onOpen: (section: string) => void;
  onBack: () => void;
}) {
  const { t } = useLingui();
  const { http } = useServices();
  const data = useData(`case-studies:${locale}`, () => http.call(endpoints.caseStudies));
  if (!data.data) return <LoadState data={data} label={t`Loading the case studies`} />;
  const studies = data.data.caseStudies;
  if (section) {
    const study = studies.find((s) => s.id === section || s.slug === section);
    return study ? (
      <CaseStudyView study={study} level={level} locale={locale} onBack={onBack} />
    ) : (
      <div>
        <p role="alert">
          <Trans>There is no such case study.</Trans>
        </p>
        <button type="button" className="button" onClick={onBack}>
          <Trans>All case studies</Trans>
        </button>
      </div>
    );
  }
  return (
    <ul className="education-cards">
      {studies.map((s) => (
        <li key={s.id} className="card">
          <h3>
            <button type="button" className="link-button" onClick={() => onOpen(s.slug)}>
              {s.title}
            </button>
          </h3>
          <p>{s.summary}</p>
        </li>
      ))}
    </ul>
  );
}

/** Where the figures come from: the episode's own dates, or other dates of the data there is. */
function DataNote({ study, locale }: { study: CaseStudy; locale: Locale }) {
  const d = study.data;
  if (!d.from || !d.to)
    return (
      <p className="notice">
        <Trans>The market data has no prices for this episode yet, so there are no figures.</Trans>
      </p>
    );
  const from = formatDate(d.from, locale);
  const to = formatDate(d.to, locale);
  const episodeFrom = formatDate(study.period.from, locale);
  const episodeTo = formatDate(study.period.to, locale);
  return (
    <p className={d.episode ? "muted" : "notice"} data-testid="case-study-data">
      {d.episode ? (
        d.source === "simulated" ? (
          <Trans>
            Figures computed now by the engine on simulated prices, from {from} to {to}.
          </Trans>
        ) : (
          <Trans>
            Figures computed now by the engine on the market data, from {from} to {to}.
          </Trans>
        )
      ) : d.source === "simulated" ? (
        <Trans>
          The data here does not reach back to the episode ({episodeFrom} to {episodeTo}): the
          figures are computed now by the engine on simulated prices over as many trading days, from{" "}
          {from} to {to}, and are not the episode's.
        </Trans>
      ) : (
        <Trans>
          The market data does not cover the episode ({episodeFrom} to {episodeTo}): the figures are
          computed now by the engine over as many trading days, from {from} to {to}.
        </Trans>
      )}
    </p>
  );
}

function CaseStudyView({
  study,
  level,
  locale,
  onBack,
}: {
  study: CaseStudy;
  level: ContentLevel;
  locale: Locale;
  onBack: () => void;
}) {
  const { t } = useLingui();
  const text = study[level];
  const pct = (x: number) => formatPercent(x, locale, 1);
  const first = study.portfolios[0];
  const dates = first?.path.map((p) => p.date) ?? [];
  const series = study.portfolios.map((p) => {
    const values: number[] = [];
    let k = 0;
    for (const date of dates) {
      while (k + 1 < p.path.length && p.path[k + 1]!.date <= date) k++;
      values.push(p.path[k]!.date <= date ? p.path[k]!.value : Number.NaN);
    }
    return { key: p.key, label: p.label, values };
  });
  return (
    <article className="case-study" aria-labelledby={`case-${study.id}`}>
      <button type="button" className="link-button" onClick={onBack}>
        <Trans>← All case studies</Trans>
      </button>
      <h3 id={`case-${study.id}`}>{study.title}</h3>
      <p className="lead">{study.summary}</p>
      <h4>
        <Trans>What happened</Trans>
      </h4>
      <p>
        <RichText text={text.happened} />
      </p>
      <h4>
        <Trans>The figures</Trans>
      </h4>
      <DataNote study={study} locale={locale} />
      {study.portfolios.length ? (
        <>
          <TableScroll label={t`Figures of each portfolio`}>
            <table className="data-table case-figures">
              <caption className="visually-hidden">
                <Trans>Figures of each portfolio</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Portfolio</Trans>
                  </th>
                  <th scope="col">
                    <TermLink term="total-return">
                      <Trans>Total return</Trans>
                    </TermLink>
                  </th>
                  <th scope="col">
                    <TermLink term="annualised-return">
                      <Trans>Annualised return</Trans>
                    </TermLink>
                  </th>
                  <th scope="col">
                    <TermLink term="volatility">
                      <Trans>Volatility</Trans>
                    </TermLink>
                  </th>
                  <th scope="col">
                    <TermLink term="maximum-drawdown">
                      <Trans>Maximum drawdown</Trans>
                    </TermLink>
                  </th>
                  <th scope="col">
                    <TermLink term="sharpe-ratio">
                      <Trans>Sharpe ratio</Trans>
                    </TermLink>
                  </th>
                </tr>
              </thead>
              <tbody>
                {study.portfolios.map((p) => (
                  <tr key={p.key} data-portfolio={p.key}>
                    <th scope="row">
                      {p.label}
                      <span className="muted holdings">
                        {p.holdings
                          .map((h) => `${h.symbol} ${formatPercent(h.weight, locale, 0)}`)
                          .join(" · ")}
                      </span>
                    </th>
                    <td data-figure="totalReturn">{pct(p.performance.totalReturn)}</td>
                    <td data-figure="annualizedReturn">{pct(p.performance.annualizedReturn)}</td>
                    <td data-figure="volatility">{pct(p.performance.volatility)}</td>
                    <td data-figure="maxDrawdown">{pct(-p.performance.maxDrawdown)}</td>
                    <td data-figure="sharpe">
                      {formatNumber(p.performance.sharpe, locale, {
                        minimumFractionDigits: 2,
                        maximumFractionDigits: 2,
                      })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <LineChart
            title={t`Value of 100 invested at the start`}
            description={t`One line per portfolio, from the first to the last day of the figures.`}
            series={series}
            dates={dates}
            formatValue={(v) => formatNumber(v, locale, { maximumFractionDigits: 1 })}
            formatDate={(d) => formatDate(d, locale)}
            dateLabel={t`Date`}
            xTitle={t`Market date`}
            yTitle={t`Value of 100 invested`}
          />
        </>
      ) : null}
      <h4>
        <Trans>What the investor could learn</Trans>
      </h4>
      <p>
        <RichText text={text.lesson} />
      </p>
    </article>
  );
}
