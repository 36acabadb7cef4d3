import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import type { Locale } from "../../contract/common.ts";
import type { MarketSectors, SectorRow } from "../../contract/market.ts";
import { formatNumber } from "../../ui/format.ts";
import { BarChart } from "../../ui/charts/index.ts";
import { DataStamp } from "./market-parts.tsx";
import { regionNames, sectorNames } from "./market-format.ts";
import { TermLinks } from "../../app/term-link.tsx";

type SectorPeriod = "day" | "month" | "ytd" | "year";

/** Sector performance as bars (equal-weighted mean change of the sector's stocks), by region. */
export function SectorsSection({ sectors, locale }: { sectors: MarketSectors; locale: Locale }) {
  const { t, i18n } = useLingui();
  const selectId = useId();
  const [region, setRegion] = useState("all");
  const [period, setPeriod] = useState<SectorPeriod>("day");
  const rows: readonly SectorRow[] =
    sectors.regions.find((r) => r.region === region)?.sectors ?? [];
  const periods: { id: SectorPeriod; label: string }[] = [
    { id: "day", label: t`Day` },
    { id: "month", label: t`Month` },
    { id: "ytd", label: t`Year to date` },
    { id: "year", label: t`Year` },
  ];
  const periodName = periods.find((p) => p.id === period)!.label;
  const regionName = (r: string) => (regionNames[r] ? i18n._(regionNames[r]) : r);
  const sectorName = (s: string) => (sectorNames[s] ? i18n._(sectorNames[s]) : s);
  const bars = rows
    .filter((r) => r[period] !== null)
    .map((r) => ({ key: r.sector, label: sectorName(r.sector), value: r[period]! }))
    .sort((a, b) => b.value - a.value);
  const place = regionName(region);
  return (
    <section className="card market-sectors" aria-labelledby="market-sectors" data-period={period}>
      <h2 id="market-sectors">
        <Trans>Sector performance</Trans>
      </h2>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["sector", t`Sector`],
          ["equal-weight-portfolio", t`Equal weight`],
        ]}
      />
      <DataStamp today={sectors.today} simulated={sectors.simulated} locale={locale} />
      <p className="muted">
        <Trans>
          The average change of the stocks of each sector, each stock counting the same.
        </Trans>
      </p>
      <div className="movers-controls">
        <div className="field">
          <label htmlFor={selectId}>
            <Trans>Region</Trans>
          </label>
          <select id={selectId} value={region} onChange={(e) => setRegion(e.target.value)}>
            {sectors.regions.map((r) => (
              <option key={r.region} value={r.region}>
                {regionName(r.region)}
              </option>
            ))}
          </select>
        </div>
        <div className="tabs" role="group" aria-label={t`Period`}>
          {periods.map((p) => (
            <button
              key={p.id}
              type="button"
              className={p.id === period ? "tab active" : "tab"}
              aria-pressed={p.id === period}
              data-period={p.id}
              onClick={() => setPeriod(p.id)}
            >
              {p.label}
            </button>
          ))}
        </div>
      </div>
      <BarChart
        title={t`Sectors, ${place}: ${periodName}`}
        description={t`Average change of each sector's stocks, highest first.`}
        bars={bars}
        highlightNegative
        formatValue={(v) =>
          formatNumber(v, locale, {
            style: "percent",
            signDisplay: "exceptZero",
            minimumFractionDigits: 2,
            maximumFractionDigits: 2,
          })
        }
        columnLabels={{ label: t`Sector`, value: t`Change` }}
        valueTitle={t`Average change of the sector's stocks (${periodName})`}
        emptyLabel={t`No figures for this period.`}
      />
    </section>
  );
}
