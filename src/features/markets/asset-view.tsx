import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { AssetView as AssetViewAnswer } from "../../contract/market.ts";
import { DataTable } from "../../ui/data-table.tsx";
import { formatPercent } from "../../ui/format.ts";
import { formatClose, kindNames, rangeLong } from "./market-format.ts";
import {
  ChangeList,
  DataStamp,
  LoadState,
  StaleNote,
  useInstrumentName,
  useMarketLoad,
} from "./market-parts.tsx";
import { PriceChart } from "./price-chart.tsx";

const windows = [
  [1, "1m"],
  [2, "3m"],
  [3, "6m"],
  [4, "1y"],
  [5, "3y"],
  [6, "5y"],
] as const;

function AssetDetails({ view, locale }: { view: AssetViewAnswer; locale: Locale }) {
  const { t, i18n } = useLingui();
  const { asset, quote } = view;
  const heading = useRef<HTMLHeadingElement>(null);
  const name = useInstrumentName()(asset.symbol, asset.name);
  useEffect(() => heading.current?.focus(), [asset.symbol]);
  const formatValue = useCallback((v: number) => formatClose(v, quote, locale), [quote, locale]);
  const kind = kindNames[asset.kind] ? i18n._(kindNames[asset.kind]!) : asset.kind;
  return (
    <article className="asset-view card" aria-labelledby="asset-name" data-symbol={asset.symbol}>
      <h2 id="asset-name" tabIndex={-1} ref={heading}>
        {name} <span className="muted asset-symbol">{asset.symbol}</span>
      </h2>
      <DataStamp today={view.today} simulated={view.simulated} locale={locale} />
      <StaleNote quote={quote} locale={locale} />
      <dl className="asset-facts">
        <div>
          <dt>
            <Trans>Type</Trans>
          </dt>
          <dd>{kind}</dd>
        </div>
        <div>
          <dt>
            <Trans>Currency</Trans>
          </dt>
          <dd data-testid="asset-currency">{asset.currency}</dd>
        </div>
        <div>
          <dt>
            <Trans>Exchange</Trans>
          </dt>
          <dd data-testid="asset-exchange">{asset.exchange ?? t`Not listed on an exchange`}</dd>
        </div>
        <div>
          <dt>
            <Trans>Last close</Trans>
          </dt>
          <dd data-testid="quote-last">
            {quote.last === null ? "—" : formatClose(quote.last, quote, locale)}
          </dd>
        </div>
      </dl>
      <ChangeList
        changes={quote.changes}
        unit={quote.changeUnit}
        locale={locale}
        periods={["day", "month", "ytd", "year"]}
      />
      <PriceChart
        symbol={asset.symbol}
        label={name}
        locale={locale}
        formatValue={formatValue}
        initial={{ range: "1y", series: view.history }}
      />
      <DataTable
        caption={t`Volatility (annualised, daily log returns)`}
        captionVisible
        className="volatility-table"
        rows={windows}
        rowKey={([key]) => String(key)}
        rowProps={([key]) => ({ "data-window": String(key) })}
        columns={[
          { key: "window", header: t`Window`, cell: ([, range]) => i18n._(rangeLong[range]) },
          {
            key: "volatility",
            header: t`Volatility`,
            cell: ([key]) => {
              const v = view.volatilities[key];
              return v === null ? t`Not enough prices` : formatPercent(v, locale, 1);
            },
          },
        ]}
      />
    </article>
  );
}

/** The asset view (`?asset=SYMBOL` on the markets page): chart, changes, volatilities, facts. */
export function AssetView({ symbol, locale }: { symbol: string; locale: Locale }) {
  const { t } = useLingui();
  const { data, failed, retry } = useMarketLoad(
    (http) => http.call(endpoints.marketAsset, { params: { symbol }, query: { range: "1y" } }),
    symbol,
  );
  return (
    <>
      <p>
        <Link to={{ search: "" }} data-testid="back-to-markets">
          <Trans>← All markets</Trans>
        </Link>
      </p>
      {data ? (
        <AssetDetails view={data} locale={locale} />
      ) : (
        <LoadState failed={failed} retry={retry} loadingLabel={t`Loading the asset…`} />
      )}
    </>
  );
}
