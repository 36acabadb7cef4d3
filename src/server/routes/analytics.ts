import { Hono } from "hono";
import {
  AnalyseRequest,
  AnalysisResponse,
  OptimiseRequest,
  OptimiseResponse,
  SimulateRequest,
  SimulateResponse,
  WhatIfRequest,
  WhatIfResponse,
} from "../../contract/analytics.ts";
import { optimisePortfolio, simulatePortfolio } from "../analytics/optimise.ts";
import type { AppDeps, AppEnv } from "../app.ts";
import { analyse } from "../analytics/analyse.ts";
import { whatIfPortfolio } from "../analytics/whatif.ts";
import { jsonBody, reply } from "../http/validate.ts";

/** Analytics of a portfolio given by its inputs (saved portfolios use the same calls). */
export function analyticsRoutes(deps: AppDeps) {
  const { db } = deps.database;
  return new Hono<AppEnv>()
    .post("/analyse", async (c) =>
      reply(c, AnalysisResponse, await analyse(db, deps.pool, await jsonBody(c, AnalyseRequest))),
    )
    .post("/optimise", async (c) =>
      reply(
        c,
        OptimiseResponse,
        await optimisePortfolio(db, deps.pool, await jsonBody(c, OptimiseRequest)),
      ),
    )
    .post("/simulate", async (c) =>
      reply(
        c,
        SimulateResponse,
        await simulatePortfolio(db, deps.pool, await jsonBody(c, SimulateRequest)),
      ),
    )
    .post("/what-if", async (c) =>
      reply(
        c,
        WhatIfResponse,
        await whatIfPortfolio(db, deps.pool, await jsonBody(c, WhatIfRequest)),
      ),
    );
}
