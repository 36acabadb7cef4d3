import { Hono } from "hono";
import {
  AssetDetailQuery,
  AssetList,
  AssetQuery,
  AssetView,
  MarketMovers,
  MarketOverview,
  MarketSectors,
  MarketToday,
  SymbolParam,
  type AssetSummary,
  type HistoryRange,
} from "../../contract/market.ts";
import { isoDate } from "../../engine/dates.ts";
import { volatilityByBenchmark } from "../../engine/volatility.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { paramsOf, queryOf, reply } from "../http/validate.ts";
import { marketView } from "../market/market-view.ts";
import { assetSummary, listAssets, marketToday } from "../market/repository.ts";
import {
  instrumentOf,
  marketMovers,
  marketOverview,
  marketSectors,
  monthsBefore,
  quoteOf,
  seriesFrom,
} from "../market/widgets.ts";
import { cachedAnswer, sendCached } from "../market/widgets-cache.ts";

const rangeMonths: Record<HistoryRange, number | null> = {
  "1m": 1,
  "3m": 3,
  "6m": 6,
  "1y": 12,
  "3y": 36,
  "5y": 60,
  max: null,
};

/** Closes the volatility windows need: the longest (1,260 returns) plus one. */
const VOLATILITY_CLOSES = 1261;

/**
 * Market data for everybody: today, the universes, an asset with its history and volatilities,
 * and the markets page's widgets, movers and sectors (cached per data version and market day,
 * with ETag and Cache-Control).
 */
export function marketRoutes(deps: AppDeps) {
  const { db } = deps.database;
  return new Hono<AppEnv>()
    .get("/today", async (c) => reply(c, MarketToday, await marketToday(db)))
    .get("/assets", async (c) => {
      const query = queryOf(c, AssetQuery);
      const [list, today] = await Promise.all([listAssets(db, query), marketToday(db)]);
      return reply(c, AssetList, { assets: list, simulated: today.source === "simulated" });
    })
    .get("/overview", async (c) => {
      const view = await marketView(db);
      return sendCached(
        c,
        cachedAnswer(view, "overview", MarketOverview, () => marketOverview(view)),
      );
    })
    .get("/movers", async (c) => {
      const view = await marketView(db);
      return sendCached(
        c,
        cachedAnswer(view, "movers", MarketMovers, () => marketMovers(view)),
      );
    })
    .get("/sectors", async (c) => {
      const view = await marketView(db);
      return sendCached(
        c,
        cachedAnswer(view, "sectors", MarketSectors, () => marketSectors(view)),
      );
    })
    .get("/assets/:symbol", async (c) => {
      const { symbol } = paramsOf(c, SymbolParam);
      const range = queryOf(c, AssetDetailQuery).range ?? "1y";
      const view = await marketView(db);
      const instrument = instrumentOf(view, symbol);
      if (!instrument) throw new ApiFailure(404, "NOT_FOUND");
      const summary = instrument.macro ? null : await assetSummary(db, symbol);
      return sendCached(
        c,
        cachedAnswer(view, `asset\u0000${symbol}\u0000${range}`, AssetView, () => {
          const quote = quoteOf(view, instrument);
          const { days, values, meta } = instrument;
          const lastDay = days[days.length - 1]!;
          const months = rangeMonths[range];
          const asset: AssetSummary = summary ?? {
            ...meta,
            universe: "market",
            firstDate: isoDate(days[0]!),
            lastDate: quote.lastDate,
            stale: quote.stale,
          };
          return {
            asset,
            history: seriesFrom(
              instrument,
              months === null ? Number.NEGATIVE_INFINITY : monthsBefore(lastDay, months),
            ),
            volatilities:
              meta.kind === "rate"
                ? { 1: null, 2: null, 3: null, 4: null, 5: null, 6: null }
                : volatilityByBenchmark(
                    values.slice(Math.max(0, values.length - VOLATILITY_CLOSES)),
                  ),
            simulated: view.source === "simulated",
            today: view.today,
            source: view.source,
            quote,
          };
        }),
      );
    });
}
