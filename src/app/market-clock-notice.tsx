import { Trans, useLingui } from "@lingui/react/macro";
import type { Locale } from "../contract/common.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { MarketToday } from "../contract/market.ts";
import { formatLongDate } from "../ui/format.ts";
import { useServices } from "./services.tsx";
import { useData } from "./use-data.ts";

/**
 * Whether the market's today is a replay date of historical data: an imported dataset (the server's
 * market clock replays it, or MARKET_AS_OF fixes the day). Simulated prices say so on their own
 * figures; an empty market has no figures.
 */
export const isReplay = (m: MarketToday | null): m is MarketToday & { today: string } =>
  m !== null && m.source === "imported" && m.today !== null;

/** The market's today, from `GET /market/today` (null until it arrives, or when it fails). */
export function useMarketToday(): MarketToday | null {
  const { http } = useServices();
  return useData("market-today", () => http.call(endpoints.marketToday)).data;
}

/** The notice itself, for a market day already known. */
export function MarketClockText({ marketDate, locale }: { marketDate: string; locale: Locale }) {
  const date = formatLongDate(marketDate, locale);
  return (
    <>
      <p>
        <strong>
          <Trans>Historical data, replayed: market date {date}.</Trans>
        </strong>
      </p>
      <p>
        <Trans>
          Prices, valuations and banana portfolios are dated on this market clock; the dates of your
          account (saved on, invoices) are calendar dates.
        </Trans>
      </p>
    </>
  );
}

/**
 * One clock a person can read (PRODUCT.md, "Market clock on historical data"): on every page with
 * market figures, in replay mode, which day of the past the market stands on. Nothing otherwise,
 * and nothing while the answer is on its way or when it fails (the figures say their own dates).
 */
export function MarketClockNotice({ locale }: { locale: Locale }) {
  const { t } = useLingui();
  const market = useMarketToday();
  if (!isReplay(market)) return null;
  return (
    <aside
      className="market-clock-notice"
      aria-label={t`Market clock`}
      data-testid="market-clock-notice"
      data-market-date={market.today}
    >
      <MarketClockText marketDate={market.today} locale={locale} />
    </aside>
  );
}
