import { Hono, type Context } from "hono";
import { Accepted } from "../../contract/accounts.ts";
import { AnalysisResponse } from "../../contract/analytics.ts";
import { CommonQuery, type Product } from "../../contract/common.ts";
import {
  allowedSections,
  BENCHMARK_SERIES_PERMISSION,
  type BenchmarkChoice,
  BenchmarkSeriesRequest,
  lockedPastPerformance,
  PastPerformance,
  PastPerformanceQuery,
} from "../../contract/past-performance.ts";
import { hasPermission, type ProductPermissions } from "../../contract/permissions.ts";
import {
  Portfolio,
  PortfolioHistory,
  PortfolioIdParam,
  PortfolioList,
  ProposeRequest,
  ProposeResponse,
  ResetPortfolioRequest,
  SavePortfolioRequest,
  UpdatePortfolioRequest,
} from "../../contract/portfolios.ts";
import { refuseTrial } from "../accounts/gates.ts";
import { clientPermissions, productOf, requirePermission } from "../accounts/permissions.ts";
import { analyse, callerOf } from "../analytics/analyse.ts";
import {
  benchmarkChoices,
  benchmarkSince,
  requireBenchmarkChoice,
} from "../analytics/benchmarks.ts";
import { pastPerformanceOf, type PastPerformanceAnswer } from "../analytics/past-performance.ts";
import { redactAnalysis } from "../analytics/redact.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { Background } from "../http/background.ts";
import { requireSession } from "../http/auth.ts";
import { idempotent } from "../http/idempotency.ts";
import { jsonBody, paramsOf, queryOf, reply } from "../http/validate.ts";
import { marketView, nextMarketDay } from "../market/market-view.ts";
import { marketToday } from "../market/repository.ts";
import { volatilityCache } from "../portfolios/assets.ts";
import { portfolioCsv, portfolioPdf } from "../portfolios/exports.ts";
import { proposePortfolio } from "../portfolios/propose.ts";
import { fullReportAllowed, portfolioReport } from "../portfolios/report.ts";
import {
  clientPortfolios,
  latestValuations,
  ownPortfolio,
  toPortfolio,
  valuationHistory,
  viewOf,
  type Holding,
  type StoredPortfolio,
} from "../portfolios/repository.ts";
import {
  deletePortfolio,
  resetHoldings,
  savePortfolio,
  setBenchmarkSeries,
  updatePortfolio,
} from "../portfolios/service.ts";
import { updatePercentiles, valuePortfolios } from "../portfolios/valuation.ts";

/**
 * The signed-in client's portfolios of the product of `stc` (docs/portfolios.md). A portfolio of
 * another client answers 404, as if it did not exist.
 */
export function portfoliosRoutes(deps: AppDeps, tasks: Background) {
  const { db } = deps.database;
  const volatilities = volatilityCache();

  const permissionsOf = (clientId: number, product: Product) =>
    clientPermissions(deps, clientId, product);
  const idOf = (c: Context) => Number(paramsOf(c, PortfolioIdParam).id);
  const own = (c: Context<AppEnv>) => ownPortfolio(db, c.get("clientId"), idOf(c));

  /** The answer for one portfolio, with its latest valuation (or other holdings, for a reset). */
  const answer = async (stored: StoredPortfolio, holdings?: readonly Holding[]) => {
    const { today } = await marketToday(db);
    const view = await viewOf(
      db,
      volatilities,
      stored.holdings.map((h) => h.symbol),
      today,
    );
    const valuation = (await latestValuations(db, [stored.row.id])).get(stored.row.id) ?? null;
    return toPortfolio(stored, view, valuation, holdings);
  };

  /** Values the portfolio on the market's today; a failure is logged, never the request's. */
  const revalue = async (id: number) => {
    try {
      await valuePortfolios(db, deps.pool, undefined, { ids: [id], logger: deps.logger });
    } catch (error) {
      deps.logger.warn("portfolio valuation failed", { portfolioId: id, error });
    }
  };

  const exportable = async (c: Context<AppEnv>) => {
    const stored = await own(c);
    const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
    if (!permissions.management.export) throw new ApiFailure(403, "EXPORT_FORBIDDEN");
    return { stored, permissions };
  };
  /**
   * The past of a portfolio's holdings on the workers: the sections the plan shows, beside
   * `series` when it is among the choices (else the default benchmark, and the answer says so).
   */
  const pastOf = async (
    c: Context<AppEnv>,
    stored: StoredPortfolio,
    permissions: ProductPermissions,
    choices: readonly BenchmarkChoice[],
    requested: string | null,
  ): Promise<PastPerformanceAnswer> => {
    const withBenchmark = hasPermission(permissions, BENCHMARK_SERIES_PERMISSION);
    // A stored benchmark the market no longer has: the default one, and the answer says so.
    const gone = requested !== null && !choices.some((x) => x.series === requested);
    const answer = await pastPerformanceOf(
      db,
      deps.pool,
      {
        currency: stored.row.currency === "USD" ? "USD" : "EUR",
        benchmark: stored.row.benchmark as 1 | 2 | 3 | 4 | 5 | 6,
        assets: stored.holdings,
        benchmarkSeries: gone ? null : requested,
        withBenchmark,
        sections: allowedSections(permissions),
      },
      callerOf(c),
    );
    return gone && withBenchmark
      ? {
          ...answer,
          unavailable: [
            ...answer.unavailable,
            { section: "benchmark", reason: "benchmark-unavailable" },
          ],
        }
      : answer;
  };
  const attachment = (id: number, ext: string) => `attachment; filename="portfolio-${id}.${ext}"`;

  return new Hono<AppEnv>()
    .use(requireSession(deps))
    .post("/propose", async (c) => {
      refuseTrial(deps, c.get("account"));
      const request = await jsonBody(c, ProposeRequest);
      const product = productOf(c);
      const permissions = await permissionsOf(c.get("clientId"), product);
      const edition = queryOf(c, CommonQuery).ctx ?? deps.config.edition;
      return reply(
        c,
        ProposeResponse,
        await proposePortfolio(db, deps.pool, request, {
          product,
          permissions,
          edition,
          caller: callerOf(c),
        }),
      );
    })
    .get("/", async (c) => {
      const product = productOf(c);
      const list = await clientPortfolios(db, c.get("clientId"), product);
      const market = await marketToday(db);
      const view = await viewOf(
        db,
        volatilities,
        list.flatMap((p) => p.holdings.map((h) => h.symbol)),
        market.today,
      );
      const valuations = await latestValuations(
        db,
        list.map((p) => p.row.id),
      );
      return reply(c, PortfolioList, {
        portfolios: list.map((p) => toPortfolio(p, view, valuations.get(p.row.id) ?? null)),
        simulated: market.source === "simulated",
      });
    })
    .post("/", idempotent(deps), async (c) => {
      refuseTrial(deps, c.get("account"));
      const request = await jsonBody(c, SavePortfolioRequest);
      const product = productOf(c);
      const clientId = c.get("clientId");
      const permissions = await permissionsOf(clientId, product);
      const id = await savePortfolio(db, clientId, product, permissions, request);
      // Acknowledged once committed: the first valuation follows the answer (its valuation is
      // null until then; the screen asks again, and a start values what a crash left unvalued).
      const saved = await answer(await ownPortfolio(db, clientId, id));
      tasks.run(() => revalue(id));
      return reply(c, Portfolio, saved, 201);
    })
    .get("/:id", async (c) => reply(c, Portfolio, await answer(await own(c))))
    .put("/:id", async (c) => {
      refuseTrial(deps, c.get("account"));
      const stored = await own(c);
      const request = await jsonBody(c, UpdatePortfolioRequest);
      const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
      await updatePortfolio(db, stored, permissions, request);
      await revalue(stored.row.id);
      return reply(c, Portfolio, await answer(await own(c)));
    })
    .post("/:id/reset", async (c) => {
      refuseTrial(deps, c.get("account"));
      const stored = await own(c);
      const request = await jsonBody(c, ResetPortfolioRequest);
      const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
      return reply(c, Portfolio, await answer(stored, resetHoldings(stored, permissions, request)));
    })
    .delete("/:id", async (c) => {
      const stored = await own(c);
      const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
      await deletePortfolio(db, stored, permissions);
      // The others' percentiles no longer count the deleted portfolio.
      const { today } = await marketToday(db);
      if (today) await updatePercentiles(db, stored.row.product, today);
      return reply(c, Accepted, { status: "accepted" });
    })
    .get("/:id/analysis", async (c) => {
      const stored = await own(c);
      const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
      const analysis = await analyse(
        db,
        deps.pool,
        {
          currency: stored.row.currency === "USD" ? "USD" : "EUR",
          benchmark: stored.row.benchmark as 1 | 2 | 3 | 4 | 5 | 6,
          assets: stored.holdings,
        },
        callerOf(c),
      );
      const latest = (await latestValuations(db, [stored.row.id])).get(stored.row.id);
      const full = {
        ...analysis,
        scores: { ...analysis.scores, communityGlobal: latest?.communityPercentile ?? null },
      };
      return reply(c, AnalysisResponse, redactAnalysis(full, permissions));
    })
    .get("/:id/history", async (c) => {
      const stored = await own(c);
      const id = stored.row.id;
      let rows = await valuationHistory(db, id);
      // The replay clock moves the market's today without an import (docs/market-data.md): a
      // portfolio not yet valued on today is valued when its history is read, as the banana
      // portfolios are (the job values everyone's after each update and at start).
      const { today } = await marketToday(db);
      const last = rows.at(-1)?.date ?? null;
      if (today && (last === null || last < today)) {
        try {
          await valuePortfolios(db, deps.pool, undefined, {
            ids: [id],
            onlyMissing: true,
            logger: deps.logger,
          });
        } catch (error) {
          deps.logger.warn("portfolio valuation failed", { portfolioId: id, error });
        }
        rows = await valuationHistory(db, id);
      }
      const dates = rows.map((r) => r.date);
      // The benchmark of the return since saving: the stored one (the market of the currency
      // when none, or when the data no longer has it), with the plan's benchmark permission.
      const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
      const bench = hasPermission(permissions, BENCHMARK_SERIES_PERMISSION)
        ? benchmarkSince(
            await marketView(db),
            stored.row.currency === "USD" ? "USD" : "EUR",
            stored.row.benchmarkSeries,
            dates,
          )
        : null;
      return reply(c, PortfolioHistory, {
        dates,
        values: rows.map((r) => r.value),
        returns: rows.map((r) => r.return),
        risks: rows.map((r) => r.risk),
        scores: rows.map((r) => r.score),
        benchmark: bench
          ? {
              series: bench.levels.series,
              name: bench.levels.name,
              chosen: bench.levels.chosen,
              returns: bench.returns.map((v) => (v === null ? null : Math.round(v * 1e6) / 1e6)),
            }
          : null,
        nextValuation: await nextMarketDay(db),
      });
    })
    .get("/:id/past-performance", async (c) => {
      const stored = await own(c);
      const query = queryOf(c, PastPerformanceQuery);
      const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
      const currency = stored.row.currency === "USD" ? "USD" : "EUR";
      const withBenchmark = hasPermission(permissions, BENCHMARK_SERIES_PERMISSION);
      const choices = withBenchmark ? benchmarkChoices(await marketView(db), currency) : [];
      // Another benchmark for this answer only: the plan's benchmark choice, among the choices.
      if (query.benchmarkSeries !== undefined) {
        requirePermission(withBenchmark);
        requireBenchmarkChoice(choices, query.benchmarkSeries, "benchmarkSeries");
      }
      const answer = await pastOf(
        c,
        stored,
        permissions,
        choices,
        query.benchmarkSeries ?? stored.row.benchmarkSeries,
      );
      return reply(c, PastPerformance, {
        ...answer,
        benchmarkChoices: choices,
        locked: lockedPastPerformance(permissions),
      });
    })
    .put("/:id/benchmark-series", async (c) => {
      const stored = await own(c);
      const request = await jsonBody(c, BenchmarkSeriesRequest);
      const permissions = await permissionsOf(c.get("clientId"), stored.row.product as Product);
      requirePermission(hasPermission(permissions, BENCHMARK_SERIES_PERMISSION));
      if (request.series !== null) {
        const currency = stored.row.currency === "USD" ? "USD" : "EUR";
        requireBenchmarkChoice(
          benchmarkChoices(await marketView(db), currency),
          request.series,
          "series",
        );
      }
      await setBenchmarkSeries(db, stored, request.series);
      return reply(c, Portfolio, await answer(await own(c)));
    })
    .get("/:id/export.csv", async (c) => {
      const { stored } = await exportable(c);
      const csv = portfolioCsv(await answer(stored), queryOf(c, CommonQuery).lang);
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": attachment(stored.row.id, "csv"),
        "Cache-Control": "no-store",
      });
    })
    .get("/:id/export.pdf", async (c) => {
      const { stored, permissions } = await exportable(c);
      const portfolio = await answer(stored);
      // PRODUCT.md, "Portfolio history and report": the multi-page report with `var` (its
      // sections as the plan's permissions allow), the one-page summary without. The analysis and
      // the past are computed on the workers, side by side.
      const full = fullReportAllowed(permissions);
      const choices =
        full && hasPermission(permissions, BENCHMARK_SERIES_PERMISSION)
          ? benchmarkChoices(await marketView(db), portfolio.currency)
          : [];
      const [analysis, past] = await Promise.all([
        analyse(
          db,
          deps.pool,
          {
            currency: portfolio.currency,
            benchmark: portfolio.benchmark,
            assets: stored.holdings,
          },
          callerOf(c),
        ),
        full ? pastOf(c, stored, permissions, choices, stored.row.benchmarkSeries) : null,
      ]);
      const market = await marketToday(db);
      const options = {
        lang: queryOf(c, CommonQuery).lang,
        edition: deps.config.edition,
        today: market.today ?? new Date().toISOString().slice(0, 10),
        simulated: market.source === "simulated",
      };
      const pdf = past
        ? portfolioReport(portfolio, analysis, past, {
            ...options,
            product: stored.row.product as Product,
            permissions,
          })
        : portfolioPdf(portfolio, analysis, options);
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": attachment(stored.row.id, "pdf"),
        "Cache-Control": "no-store",
      });
    });
}
