import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import type { Locale } from "../../contract/common.ts";
import type { MarketMovers, Mover, MoverPeriod } from "../../contract/market.ts";
import { formatNumber } from "../../ui/format.ts";
import { AssetLink, Change, DataStamp } from "./market-parts.tsx";
import { TermLinks } from "../../app/term-link.tsx";

function MoverList({
  title,
  movers,
  locale,
  kind,
}: {
  title: string;
  movers: readonly Mover[];
  locale: Locale;
  kind: "gainers" | "losers";
}) {
  return (
    <div className="mover-list" data-testid={kind}>
      <h3>{title}</h3>
      {movers.length === 0 ? (
        <p className="muted">
          {kind === "gainers" ? <Trans>No stock rose.</Trans> : <Trans>No stock fell.</Trans>}
        </p>
      ) : (
        <ol>
          {movers.map((m) => (
            <li key={m.symbol} data-symbol={m.symbol}>
              <span className="mover-name">
                <AssetLink symbol={m.symbol}>{m.name}</AssetLink>
              </span>
              <span className="mover-last">
                {formatNumber(m.last, locale, {
                  style: "currency",
                  currency: m.currency,
                  minimumFractionDigits: 2,
                  maximumFractionDigits: 2,
                })}
              </span>
              <Change value={m.change} unit="relative" locale={locale} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** Top gainers and losers of one exchange at a time, over the day, the month or the year to date. */
export function MoversSection({ movers, locale }: { movers: MarketMovers; locale: Locale }) {
  const { t } = useLingui();
  const selectId = useId();
  const [exchange, setExchange] = useState(movers.exchanges[0]?.exchange ?? "");
  const [period, setPeriod] = useState<MoverPeriod>("day");
  const lists = movers.exchanges.find((e) => e.exchange === exchange) ?? movers.exchanges[0];
  const periods: { id: MoverPeriod; label: string }[] = [
    { id: "day", label: t`Day` },
    { id: "month", label: t`Month` },
    { id: "ytd", label: t`Year to date` },
  ];
  return (
    <section className="card market-movers" aria-labelledby="market-movers" data-period={period}>
      <h2 id="market-movers">
        <Trans>Top gainers and losers</Trans>
      </h2>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["simple-return", t`Return`],
          ["stock-market-index", t`Stock market index`],
          ["closing-price", t`Closing price`],
        ]}
      />
      <DataStamp today={movers.today} simulated={movers.simulated} locale={locale} />
      {lists ? (
        <>
          <div className="movers-controls">
            <div className="field">
              <label htmlFor={selectId}>
                <Trans>Exchange</Trans>
              </label>
              <select
                id={selectId}
                value={lists.exchange}
                onChange={(e) => setExchange(e.target.value)}
              >
                {movers.exchanges.map((e) => (
                  <option key={e.exchange} value={e.exchange}>
                    {e.exchange}
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
          <div className="mover-lists" data-exchange={lists.exchange}>
            <MoverList
              title={t`Gainers`}
              movers={lists[period].gainers}
              locale={locale}
              kind="gainers"
            />
            <MoverList
              title={t`Losers`}
              movers={lists[period].losers}
              locale={locale}
              kind="losers"
            />
          </div>
        </>
      ) : (
        <p>
          <Trans>There are no stocks with recent prices.</Trans>
        </p>
      )}
    </section>
  );
}
