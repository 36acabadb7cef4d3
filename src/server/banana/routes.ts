/**
 * The banana challenge API (docs/banana.md, docs/api.md): the region's stocks, the client's banana
 * portfolios (create, read, edit inside the window, history), and the community ranking. Every
 * call needs a session; the permissions are simMonk's.
 */
import { sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  BANANA_MAX_ASSETS,
  BANANA_MAX_INVESTMENT,
  BANANA_MIN_INVESTMENT,
  BananaHistory,
  BananaList,
  BananaPortfolio,
  BananaRanking,
  BananaUniverse,
  CreateBananaRequest,
  RankingQuery,
  REGION_CURRENCY,
  RegionQuery,
  UpdateBananaRequest,
} from "../../contract/banana.ts";
import { PortfolioIdParam } from "../../contract/portfolios.ts";
import { clientPermissions, requirePermission } from "../accounts/permissions.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { resultRows } from "../db/database.ts";
import { requireSession } from "../http/auth.ts";
import { idempotent } from "../http/idempotency.ts";
import { jsonBody, paramsOf, queryOf, reply } from "../http/validate.ts";
import { marketView } from "../market/market-view.ts";
import { savedCount } from "../portfolios/repository.ts";
import { offeredStocks } from "./market.ts";
import { ranking } from "./ranking.ts";
import {
  anyBanana,
  bananaHistory,
  clientBananas,
  latestBananaValuations,
  ownBanana,
  sharesOf,
  storedOf,
  toBanana,
} from "./repository.ts";
import { createBanana, editBanana } from "./service.ts";
import { valueBananas } from "./valuation.ts";

export function bananaRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const now = () => deps.clock?.() ?? new Date();
  const permissionsOf = (clientId: number) => clientPermissions(deps, clientId, "simMonk");
  const idOf = (c: Context) => Number(paramsOf(c, PortfolioIdParam).id);

  /** Values the portfolio on the market's today; a failure is logged, never the request's. */
  const revalue = async (id: number) => {
    try {
      await valueBananas(db, undefined, { ids: [id], logger: deps.logger });
    } catch (error) {
      deps.logger.warn("banana valuation failed", { portfolioId: id, error });
    }
  };

  /**
   * The market's today moves with the replay clock without an import: the client's portfolios not
   * yet valued on today are valued when read (the job values everyone's after each update).
   */
  const catchUp = async (clientId: number) => {
    const { today } = await marketView(db);
    if (!today) return;
    const ids = resultRows(
      await db.execute(sql`
        select b.portfolio_id from banana_portfolios b join portfolios p on p.id = b.portfolio_id
        where p.client_id = ${clientId} and (b.latest_date is null or b.latest_date < ${today}::date)`),
    ).map((r) => Number(r.portfolio_id));
    if (ids.length) await valueBananas(db, undefined, { ids, logger: deps.logger });
  };

  const answer = async (id: number, clientId: number | null) => {
    const row = clientId === null ? await anyBanana(db, id) : await ownBanana(db, clientId, id);
    const view = await marketView(db);
    const holdings = (await sharesOf(db, [id])).get(id) ?? [];
    const valuation = (await latestBananaValuations(db, [id])).get(id);
    return toBanana(db, view.snapshot, row, holdings, valuation, now());
  };

  return new Hono<AppEnv>()
    .use(requireSession(deps))
    .get("/universe", async (c) => {
      const { region } = queryOf(c, RegionQuery);
      const view = await marketView(db);
      return reply(c, BananaUniverse, {
        region,
        currency: REGION_CURRENCY[region],
        date: view.today ?? "",
        simulated: view.source === "simulated",
        minInvestment: BANANA_MIN_INVESTMENT,
        maxInvestment: BANANA_MAX_INVESTMENT,
        maxAssets: BANANA_MAX_ASSETS,
        stocks: offeredStocks(view, region).map((o) => ({
          symbol: o.meta.symbol,
          name: o.meta.name,
          exchange: o.meta.exchange ?? "",
          sector: o.meta.sector,
          close: o.close,
        })),
      });
    })
    .get("/portfolios", async (c) => {
      const clientId = c.get("clientId");
      await catchUp(clientId);
      const rows = await clientBananas(db, clientId);
      const view = await marketView(db);
      const ids = rows.map((r) => r.id);
      const [holdings, valuations, permissions, eu, usa] = await Promise.all([
        sharesOf(db, ids),
        latestBananaValuations(db, ids),
        permissionsOf(clientId),
        savedCount(db, clientId, "simMonk", "eu"),
        savedCount(db, clientId, "simMonk", "usa"),
      ]);
      const limits = permissions.construction.saveLimitPerRegion;
      const portfolios = [];
      for (const r of rows)
        portfolios.push(
          await toBanana(
            db,
            view.snapshot,
            r,
            holdings.get(r.id) ?? [],
            valuations.get(r.id),
            now(),
          ),
        );
      return reply(c, BananaList, {
        portfolios,
        capacity: { eu: Math.max(0, limits.eu - eu), usa: Math.max(0, limits.usa - usa) },
        simulated: view.source === "simulated",
      });
    })
    .post("/portfolios", idempotent(deps), async (c) => {
      const request = await jsonBody(c, CreateBananaRequest);
      const clientId = c.get("clientId");
      const id = await createBanana(
        {
          db,
          view: await marketView(db),
          clientId,
          permissions: await permissionsOf(clientId),
          now: now(),
        },
        request,
      );
      await revalue(id);
      return reply(c, BananaPortfolio, await answer(id, clientId), 201);
    })
    .get("/portfolios/:id", async (c) => {
      await catchUp(c.get("clientId"));
      return reply(c, BananaPortfolio, await answer(idOf(c), c.get("clientId")));
    })
    .put("/portfolios/:id", async (c) => {
      const clientId = c.get("clientId");
      const row = await ownBanana(db, clientId, idOf(c));
      const request = await jsonBody(c, UpdateBananaRequest);
      const holdings = (await sharesOf(db, [row.id])).get(row.id) ?? [];
      await editBanana(
        {
          db,
          view: await marketView(db),
          permissions: await permissionsOf(clientId),
          now: now(),
        },
        storedOf(row, holdings),
        request,
      );
      await revalue(row.id);
      return reply(c, BananaPortfolio, await answer(row.id, clientId));
    })
    .get("/portfolios/:id/history", async (c) => {
      const row = await ownBanana(db, c.get("clientId"), idOf(c));
      const rows = await bananaHistory(db, row.id);
      return reply(c, BananaHistory, {
        dates: rows.map((r) => r.date),
        returns: rows.map((r) => r.return),
        monkeyReturns: rows.map((r) => r.monkeyReturn),
        indexReturns: rows.map((r) => r.indexReturn),
        percentiles: rows.map((r) => r.percentile),
      });
    })
    .get("/ranking", async (c) => {
      const query = queryOf(c, RankingQuery);
      const clientId = c.get("clientId");
      const { competition } = await permissionsOf(clientId);
      requirePermission(competition.communityRanking);
      return reply(
        c,
        BananaRanking,
        await ranking(db, query.region, Number(query.page ?? "1"), clientId, {
          communityPortfolio: competition.communityPortfolio,
        }),
      );
    })
    .get("/community/:id", async (c) => {
      // Another member's banana portfolio (communityPortfolio): holdings and figures, no owner.
      requirePermission((await permissionsOf(c.get("clientId"))).competition.communityPortfolio);
      return reply(c, BananaPortfolio, await answer(idOf(c), null));
    });
}
