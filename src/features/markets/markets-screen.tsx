import { Trans, useLingui } from "@lingui/react/macro";
import { useSearchParams } from "react-router-dom";
import type { ScreenProps } from "../../app/route-table.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { AssetView } from "./asset-view.tsx";
import { LoadState, useMarketLoad } from "./market-parts.tsx";
import { MoversSection } from "./movers-section.tsx";
import { SectorsSection } from "./sectors-section.tsx";
import { WidgetsSection } from "./widgets-section.tsx";
import "./markets.css";

/** The overview: one API call per block (widgets, movers, sectors), each cached by the market day. */
function Overview({ locale }: { locale: ScreenProps["locale"] }) {
  const { t } = useLingui();
  const overview = useMarketLoad((http) => http.call(endpoints.marketOverview), "overview");
  const movers = useMarketLoad((http) => http.call(endpoints.marketMovers), "movers");
  const sectors = useMarketLoad((http) => http.call(endpoints.marketSectors), "sectors");
  const loading = t`Loading prices…`;
  return (
    <>
      {overview.data ? (
        <WidgetsSection overview={overview.data} locale={locale} />
      ) : (
        <LoadState failed={overview.failed} retry={overview.retry} loadingLabel={loading} />
      )}
      <div className="market-stocks">
        {movers.data ? (
          <MoversSection movers={movers.data} locale={locale} />
        ) : (
          <LoadState failed={movers.failed} retry={movers.retry} loadingLabel={loading} />
        )}
        {sectors.data ? (
          <SectorsSection sectors={sectors.data} locale={locale} />
        ) : (
          <LoadState failed={sectors.failed} retry={sectors.retry} loadingLabel={loading} />
        )}
      </div>
    </>
  );
}

/** Markets (public): indices, volatility, currencies, commodities, crypto, yields, movers, sectors. */
export default function MarketsScreen({ locale }: ScreenProps) {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const asset = params.get("asset");
  return (
    <div className="markets">
      <PageHeading
        title={t`Markets`}
        summary={
          <Trans>
            Indices, volatility, currencies, commodities, crypto and bond yields; the day&apos;s
            movers and how each sector did. Open any of them for its own chart.
          </Trans>
        }
      />
      {asset ? (
        <AssetView key={asset} symbol={asset} locale={locale} />
      ) : (
        <Overview locale={locale} />
      )}
    </div>
  );
}
