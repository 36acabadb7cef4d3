/**
 * The past of a saved portfolio's holdings (issue 27; docs/portfolios.md, "Past performance"), on
 * the analytics workers: the holdings' longest common history, the benchmark on its calendar, the
 * what-if factors, the engine's figures (src/engine/history) and the answer's shape.
 */
import type { Holding } from "../../contract/analytics.ts";
import { roundToCent } from "../../contract/money.ts";
import type { PastPerformance, PastPerformanceSection } from "../../contract/past-performance.ts";
import { isoDate } from "../../engine/dates.ts";
import type {
  PastPerformance as EngineResult,
  HistorySection,
  PathFrom,
  SeriesDrawdowns,
} from "../../engine/history/past-performance.ts";
import { benchmarkWindowDays } from "../../engine/panel.ts";
import { TRADING_DAYS_PER_YEAR } from "../../engine/stats.ts";
import type { Db } from "../db/database.ts";
import type { MarketView } from "../market/market-view.ts";
import { HEAVY_ASSETS, onWorkers, prepareAt, type Runner } from "./analyse.ts";
import { benchmarkLevels, benchmarkReturnsOn } from "./benchmarks.ts";
import { factorsAt } from "./factors.ts";
import type { AnalyticsPool, Caller } from "./pool.ts";

export interface PastPerformanceRequest {
  readonly currency: "EUR" | "USD";
  /** The analysis window (the portfolio's benchmark 1..6). */
  readonly benchmark: 1 | 2 | 3 | 4 | 5 | 6;
  readonly assets: readonly Holding[];
  /** Compare with this series (one of the choices), or null: the market of the currency. */
  readonly benchmarkSeries: string | null;
  /** Whether the plan shows a benchmark at all. */
  readonly withBenchmark: boolean;
  /** The sections the plan shows: only these are computed. */
  readonly sections: readonly PastPerformanceSection[];
}

/** The answer before the route adds what the request thread knows (choices, locks). */
export type PastPerformanceAnswer = Omit<PastPerformance, "locked" | "benchmarkChoices">;

/** Chart series are rounded (as the analysis's distribution): amounts to the cent, fractions to 1e-6. */
const fraction = (x: number): number => Math.round(x * 1e6) / 1e6;

export function pastPerformanceOf(
  db: Db,
  pool: AnalyticsPool,
  request: PastPerformanceRequest,
  caller?: Caller,
): Promise<PastPerformanceAnswer> {
  return onWorkers(db, pool, "pastPerformanceRequest", request, {
    heavy: request.assets.length > HEAVY_ASSETS,
    ...(caller ? { caller } : {}),
  });
}

/** On a market view, with the engine run by `run` (inside a worker: directly). */
export async function pastPerformanceAt(
  view: MarketView,
  run: Runner,
  request: PastPerformanceRequest,
): Promise<PastPerformanceAnswer> {
  const windowDays = benchmarkWindowDays(request.benchmark);
  const p = prepareAt(view, request, { days: windowDays, minDays: 2, from: "1900-01-01" });
  const { dates, panel } = p.aligned;
  const t = panel.observations;
  const day = (k: number) => isoDate(dates[k]!);
  const unavailable: PastPerformance["unavailable"][number][] = [];

  const levels = request.withBenchmark
    ? benchmarkLevels(view, request.currency, request.benchmarkSeries)
    : null;
  const bench = levels ? benchmarkReturnsOn(levels, request.currency, p.fx, dates) : null;
  if (request.withBenchmark && !bench)
    unavailable.push({ section: "benchmark", reason: "no-benchmark-data" });
  // Every section of the contract is one the engine computes (checked when compiling).
  const sections: readonly HistorySection[] = request.sections;
  const factors = sections.includes("regression") ? factorsAt(view, request.currency) : null;

  const out = await run<EngineResult>("pastPerformance", {
    panel,
    dates,
    amounts: p.amounts,
    windowDays: p.days,
    ...(bench ? { benchmark: bench } : {}),
    sections,
    ...(factors ? { factors: factors.series } : {}),
  });

  const to = day(t);
  const whole = { from: day(0), to, observations: t, dataDate: to };
  const isoDates = sections.some((s) => s !== "correlation" && s !== "regression")
    ? Array.from(dates, isoDate)
    : [];
  /** A path on the calendar from value index `from`, the benchmark's entries null before its own start. */
  const path = (portfolio: PathFrom, benchmark: PathFrom | null) => ({
    from: day(portfolio.start),
    to,
    observations: t - portfolio.start,
    start: portfolio.start,
    portfolio: Array.from(portfolio.values, roundToCent),
    benchmark: benchmark
      ? Array.from({ length: t - portfolio.start + 1 }, (_, k) => {
          const j = portfolio.start + k - benchmark.start;
          return j < 0 ? null : roundToCent(benchmark.values[j]!);
        })
      : null,
  });
  const drawdowns = (d: SeriesDrawdowns) => ({
    underwater: Array.from({ length: t + 1 }, (_, k) =>
      k < d.start ? null : fraction(d.underwater[k - d.start]!),
    ),
    maxDrawdown: d.maxDrawdown,
    worst: d.worst.map((f) => ({
      depth: f.depth,
      start: day(f.peak),
      trough: day(f.trough),
      recovery: f.recovery === null ? null : day(f.recovery),
      length: f.length,
      toTrough: f.toTrough,
      toRecovery: f.toRecovery,
    })),
  });

  let rolling: PastPerformance["rolling"] = null;
  if (out.rolling) {
    const r = out.rolling;
    const w = r.portfolio.window;
    const n = r.portfolio.returns.length;
    if (n === 0) unavailable.push({ section: "rolling", reason: "not-enough-history" });
    const later = (values: Float64Array, start: number) =>
      Array.from({ length: n }, (_, k) => (k < start ? null : fraction(values[k - start]!)));
    rolling = {
      method: "rolling-window",
      ...whole,
      windowDays: w,
      start: w,
      portfolioReturn: Array.from(r.portfolio.returns, fraction),
      portfolioVolatility: Array.from(r.portfolio.volatility, fraction),
      benchmarkReturn: r.benchmark ? later(r.benchmark.returns, r.benchmark.start) : null,
      benchmarkVolatility: r.benchmark ? later(r.benchmark.volatility, r.benchmark.start) : null,
    };
  }

  let correlation: PastPerformance["correlation"] = null;
  if (out.correlation) {
    const c = out.correlation;
    const n = c.assets;
    const order = Array.from(c.dendrogram.order);
    correlation = {
      method: "pearson-average-linkage",
      from: day(c.from),
      to: day(c.to),
      observations: c.to - c.from,
      dataDate: to,
      assets: order.map((i) => ({
        symbol: p.assets[i]!.symbol,
        name: p.assets[i]!.name,
        averageCorrelation: n > 1 ? c.average[i]! : null,
        constant: c.constant[i] === 1,
      })),
      matrix: order.map((i) => order.map((j) => c.matrix[i * n + j]!)),
      order,
      merges: Array.from({ length: n - 1 }, (_, k) => ({
        left: c.dendrogram.merges[k * 4]!,
        right: c.dendrogram.merges[k * 4 + 1]!,
        distance: c.dendrogram.merges[k * 4 + 2]!,
        size: c.dendrogram.merges[k * 4 + 3]!,
      })),
    };
  } else if (sections.includes("correlation"))
    unavailable.push({ section: "correlation", reason: "not-enough-history" });

  let regression: PastPerformance["regression"] = null;
  if (out.regression && !out.regression.ok)
    unavailable.push({ section: "regression", reason: out.regression.reason });
  if (out.regression?.ok) {
    const { fit, excluded, from } = out.regression;
    const perYear = TRADING_DAYS_PER_YEAR / fit.periodDays;
    const coefficient = (estimate: number, standardError: number) => ({
      estimate,
      standardError,
      tStatistic: standardError > 0 ? estimate / standardError : null,
    });
    const source = new Map(factors!.sources.map((s) => [s.factor, s.series]));
    regression = {
      method: "ols-weekly",
      from: day(from),
      to,
      observations: t - from,
      dataDate: to,
      periodDays: fit.periodDays,
      periods: fit.periods,
      degreesOfFreedom: fit.degreesOfFreedom,
      alpha: coefficient(fit.alpha, fit.alphaStandardError),
      alphaAnnualised: coefficient(fit.alpha * perYear, fit.alphaStandardError * perYear),
      factors: fit.factors.map((factor, a) => ({
        factor,
        series: source.get(factor) ?? factor,
        beta: coefficient(fit.betas[a]!, fit.standardErrors[a]!),
      })),
      rSquared: fit.rSquared,
      adjustedRSquared: fit.adjustedRSquared,
      residualStandardError: fit.residualStandardError,
      excluded: [...excluded],
    };
  }

  const firstDays = p.assets.map((a) => a.series.dates[0]!);
  const latest = Math.max(...firstDays);
  const limitedBy = p.assets.filter((_, i) => firstDays[i] === latest).map((a) => a.symbol);
  if (p.fx && p.aligned.foreign.some((f) => f === 1) && p.fx.dates[0]! > latest)
    limitedBy.push("EURUSD");

  return {
    currency: request.currency,
    totalInvested: out.totalInvested,
    today: view.today!,
    simulated: p.simulated,
    holdings: p.assets.map((a, i) => ({
      symbol: a.symbol,
      name: a.name,
      investedAmount: p.amounts[i]!,
      weight: out.weights[i]!,
      firstDate: isoDate(a.series.dates[0]!),
    })),
    history: { from: day(0), to, observations: t, limitedBy },
    dates: isoDates,
    window: {
      benchmark: request.benchmark,
      from: day(t - p.days),
      to,
      observations: p.days,
    },
    benchmark:
      levels && bench
        ? {
            series: levels.series,
            name: levels.name,
            kind: levels.kind,
            assetClass: levels.assetClass,
            currency: levels.currency,
            chosen: levels.chosen,
            from: day(bench.start),
          }
        : null,
    growth: out.growth
      ? {
          method: "current-weights-daily",
          ...whole,
          full: path({ start: 0, values: out.growth.portfolio }, out.growth.benchmark),
          window: path(out.growth.window.portfolio, out.growth.window.benchmark),
        }
      : null,
    calendarYears: out.calendarYears
      ? {
          method: "calendar-year-compounded",
          ...whole,
          years: out.calendarYears.map((y) => ({
            year: y.year,
            from: day(y.first),
            to: day(y.last + 1),
            observations: y.last - y.first + 1,
            partial: y.partial,
            portfolio: y.portfolio,
            benchmark: y.benchmark,
            difference: y.difference,
          })),
        }
      : null,
    rolling,
    drawdowns: out.drawdowns
      ? {
          method: "peak-to-recovery",
          ...whole,
          portfolio: drawdowns(out.drawdowns.portfolio),
          benchmark: out.drawdowns.benchmark ? drawdowns(out.drawdowns.benchmark) : null,
        }
      : null,
    correlation,
    regression,
    unavailable,
  };
}
