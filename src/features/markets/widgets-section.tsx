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
  return (
    <section
      className="market-widget card"
      aria-labelledby={`widget-${widget.id}`}
      data-widget={widget.id}
      data-missing={widget.missing.length > 0 ? widget.missing.join(" ") : undefined}
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

/**
 * The widgets with an instrument in the price data (docs/decisions.md, "What the data lacks is
 * not news"): a slot the data cannot fill is left out, a widget with none is not drawn, and one
 * neutral footnote says what is shown, never a list of what is not.
 */
export function WidgetsSection({ overview, locale }: { overview: MarketOverview; locale: Locale }) {
  const shown = overview.widgets.filter((w) => w.items.length > 0);
  const partial = overview.widgets.some((w) => w.missing.length > 0);
  return (
    <>
      <div className="market-widgets">
        {shown.map((w) => (
          <WidgetGroup key={w.id} widget={w} overview={overview} locale={locale} />
        ))}
      </div>
      {partial ? (
        <p className="muted" data-testid="widgets-coverage">
          <Trans>Shown: the instruments in our price data.</Trans>
        </p>
      ) : null}
    </>
  );
}
