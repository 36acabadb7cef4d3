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
import {
  enforceOptimisationRules,
  optimisePortfolio,
  simulatePortfolio,
  universeCandidates,
} from "../analytics/optimise.ts";
import { optimisationMaxAssets, requestLevel } from "../../contract/optimisation-rules.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { analyse, callerOf } from "../analytics/analyse.ts";
import { redactAnalysis, redactOptimisation } from "../analytics/redact.ts";
import { whatIfPortfolio } from "../analytics/whatif.ts";
import { jsonBody, reply } from "../http/validate.ts";
import { rateLimit } from "../http/rate-limits.ts";
import {
  productOf,
  requestPermissions,
  requirePermission,
  requireSessionWithPermissions,
} from "../accounts/permissions.ts";
import { whatIfKind, whatIfPermission } from "../../contract/analytics-rules.ts";

/**
 * Analytics of a portfolio given by its inputs (saved portfolios use the same calls). Every call
 * needs a session, and what a permission gates is refused for a plan without it (docs/api.md).
 */
export function analyticsRoutes(deps: AppDeps) {
  const { db } = deps.database;
  return new Hono<AppEnv>()
    .use(requireSessionWithPermissions(deps))
    .use(
      rateLimit(deps, "analytics", {
        account: { max: deps.config.analyticsPerMinute, windowSeconds: 60 },
        address: { max: 4 * deps.config.analyticsPerMinute, windowSeconds: 60 },
      }),
    )
    .post("/analyse", async (c) => {
      const request = await jsonBody(c, AnalyseRequest);
      const permissions = await requestPermissions(deps, c);
      // Monte Carlo VaR is a VaR figure.
      if (request.monteCarlo) requirePermission(permissions.analysis.var);
      const full = await analyse(db, deps.pool, request, callerOf(c));
      return reply(c, AnalysisResponse, redactAnalysis(full, permissions));
    })
    .post("/optimise", async (c) => {
      const request = await jsonBody(c, OptimiseRequest);
      const permissions = await requestPermissions(deps, c);
      await enforceOptimisationRules(db, c.get("clientId"), request, permissions);
      // o2 and o3 build with the plan's universe: the server offers its assets, the optimiser
      // keeps those that diversify the portfolio (docs/optimisation.md, §6).
      const job =
        requestLevel(request) >= 2
          ? {
              ...request,
              candidates: await universeCandidates(db, productOf(c)),
              maxAssets: optimisationMaxAssets(request, permissions),
            }
          : request;
      return reply(
        c,
        OptimiseResponse,
        redactOptimisation(await optimisePortfolio(db, deps.pool, job, callerOf(c)), permissions),
      );
    })
    .post("/simulate", async (c) =>
      reply(
        c,
        SimulateResponse,
        await simulatePortfolio(db, deps.pool, await jsonBody(c, SimulateRequest), callerOf(c)),
      ),
    )
    .post("/what-if", async (c) => {
      const request = await jsonBody(c, WhatIfRequest);
      const permissions = await requestPermissions(deps, c);
      requirePermission(permissions.whatIf[whatIfPermission[whatIfKind(request)]]);
      return reply(c, WhatIfResponse, await whatIfPortfolio(db, deps.pool, request, callerOf(c)));
    });
}
