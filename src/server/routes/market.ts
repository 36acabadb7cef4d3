import { Hono } from "hono";
import {
  AssetDetail,
  AssetDetailQuery,
  AssetList,
  AssetQuery,
  MarketToday,
  SymbolParam,
} from "../../contract/market.ts";
import { volatilityByBenchmark } from "../../engine/volatility.ts";
import type { AppDeps, AppEnv } from "../app.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { paramsOf, queryOf, reply } from "../http/validate.ts";
import {
  assetSummary,
  lastCloses,
  listAssets,
  marketToday,
  priceHistory,
} from "../market/repository.ts";

/** Market data for everybody: today, the universes, an asset with its history and volatilities. */
export function marketRoutes(deps: AppDeps) {
  const { db } = deps.database;
  return new Hono<AppEnv>()
    .get("/today", async (c) => reply(c, MarketToday, await marketToday(db)))
    .get("/assets", async (c) => {
      const query = queryOf(c, AssetQuery);
      const [list, today] = await Promise.all([listAssets(db, query), marketToday(db)]);
      return reply(c, AssetList, { assets: list, simulated: today.source === "simulated" });
    })
    .get("/assets/:symbol", async (c) => {
      const { symbol } = paramsOf(c, SymbolParam);
      const { range } = queryOf(c, AssetDetailQuery);
      const asset = await assetSummary(db, symbol);
      if (!asset || !asset.lastDate) throw new ApiFailure(404, "NOT_FOUND");
      const [history, closes, today] = await Promise.all([
        priceHistory(db, symbol, range ?? "1y", asset.lastDate),
        lastCloses(db, symbol, 1261),
        marketToday(db),
      ]);
      const volatilities =
        asset.kind === "rate"
          ? { 1: null, 2: null, 3: null, 4: null, 5: null, 6: null }
          : volatilityByBenchmark(closes);
      return reply(c, AssetDetail, {
        asset,
        history,
        volatilities,
        simulated: today.source === "simulated",
      });
    });
}
