import { Hono } from "hono";
import { AnalyseRequest, AnalysisResponse } from "../../contract/analytics.ts";
import type { AppDeps, AppEnv } from "../app.ts";
import { analyse } from "../analytics/analyse.ts";
import { jsonBody, reply } from "../http/validate.ts";

/** Analytics of a portfolio given by its inputs (saved portfolios use the same calls). */
export function analyticsRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().post("/analyse", async (c) => {
    const request = await jsonBody(c, AnalyseRequest);
    return reply(c, AnalysisResponse, await analyse(deps.database.db, deps.pool, request));
  });
}
