import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useState } from "react";
import type { Locale } from "../../contract/common.ts";
import type { MarketOverview, MarketWidget } from "../../contract/market.ts";
import { formatClose, widgetTitles } from "./market-format.ts";
import { AssetLink, ChangeList, DataStamp, StaleNote, useInstrumentName } from "./market-parts.tsx";
import { PriceChart } from "./price-chart.tsx";

/**
 * One widget group (indices, volatility, ...): a card per instrument with its last close and
 * changes, and one price chart for the instrument chosen with "Chart".
 */
function WidgetGroup({
  widget,
  overview,
  locale,
}: {
  widget: MarketWidget;
  overview: MarketOverview;
  locale: Locale;
}) {
  const { i18n } = useLingui();
  const nameOf = useInstrumentName();
  const [chosen, setChosen] = useState(0);
  const title = i18n._(widgetTitles[widget.id]);
  const item = widget.items[chosen] ?? widget.items[0];
  const quote = item?.quote;
  const formatValue = useCallback(
    (v: number) => (quote ? formatClose(v, quote, locale) : String(v)),
    [quote, locale],
  );
  const missing = widget.missing.map((symbol) => nameOf(symbol, symbol)).join(", ");
  return (
    <section
      className="market-widget card"
      aria-labelledby={`widget-${widget.id}`}
      data-widget={widget.id}
    >
      <h2 id={`widget-${widget.id}`}>{title}</h2>
      <DataStamp today={overview.today} simulated={overview.simulated} locale={locale} />
      {widget.items.length > 0 ? (
        <ul className="quote-list">
          {widget.items.map(({ quote: q }, k) => (
            <li key={q.symbol} className="quote-card" data-symbol={q.symbol}>
              <h3 className="quote-name">
                <AssetLink symbol={q.symbol}>{nameOf(q.symbol, q.name)}</AssetLink>
              </h3>
              <p className="quote-last" data-testid="quote-last">
                {q.last === null ? "—" : formatClose(q.last, q, locale)}
              </p>
              <ChangeList changes={q.changes} unit={q.changeUnit} locale={locale} />
              <StaleNote quote={q} locale={locale} />
              {widget.items.length > 1 ? (
                <button
                  type="button"
                  className="tab"
                  aria-pressed={k === chosen}
                  onClick={() => setChosen(k)}
                >
                  <Trans>Chart</Trans>
                  <span className="visually-hidden"> {nameOf(q.symbol, q.name)}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {widget.missing.length > 0 ? (
        <p className="muted" data-testid="widget-missing" data-missing={widget.missing.join(" ")}>
          <Trans>Not in this market data: {missing}.</Trans>
        </p>
      ) : null}
      {item && quote ? (
        <PriceChart
          key={quote.symbol}
          symbol={quote.symbol}
          label={nameOf(quote.symbol, quote.name)}
          locale={locale}
          formatValue={formatValue}
          initial={{ range: "1y", series: item.series }}
        />
      ) : null}
    </section>
  );
}

export function WidgetsSection({ overview, locale }: { overview: MarketOverview; locale: Locale }) {
  return (
    <div className="market-widgets">
      {overview.widgets.map((w) => (
        <WidgetGroup key={w.id} widget={w} overview={overview} locale={locale} />
      ))}
    </div>
  );
}
