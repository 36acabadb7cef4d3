import {
  BACKTEST_WINDOWS,
  type WhatIfFactor,
  type WhatIfRequest,
  type WhatIfResponse,
} from "../../contract/analytics.ts";
import { whatIfKind } from "../../contract/analytics-rules.ts";
import { isoDate } from "../../engine/dates.ts";
import type { Sensitivities } from "../../engine/whatif/sensitivities.ts";
import type { Db } from "../db/database.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { MarketView } from "../market/market-view.ts";
import { HEAVY_ASSETS, onWorkers, prepareAt, type Runner } from "./analyse.ts";
import { benchmarkChoices, benchmarkLevels, benchmarkReturnsOn } from "./benchmarks.ts";
import { extendFxAt, factorsAt } from "./factors.ts";
import type { AnalyticsPool, Caller } from "./pool.ts";
import { SENSITIVITY_DAYS, type SensitivityFit, type WhatIfOutput } from "./engine-tasks.ts";

export { whatIfKind };

/** Enough weekly periods for five factors and an intercept. */
const MIN_SENSITIVITY_DAYS = 60;

function betasOf(s: Sensitivities, i: number): Record<string, number> {
  const k = s.factors.length;
  return Object.fromEntries(s.factors.map((f, a) => [f, s.betas[i * k + a]!]));
}

function fitFigures(fit: SensitivityFit) {
  return {
    periods: fit.sensitivities.periods,
    from: isoDate(fit.from),
    to: isoDate(fit.to),
    factors: [...fit.sensitivities.factors],
    excluded: [...fit.sensitivities.excluded],
  };
}

/** A what-if of a portfolio given by its inputs: custom shocks, a real scenario or a backtest. */
export function whatIfPortfolio(
  db: Db,
  pool: AnalyticsPool,
  request: WhatIfRequest,
  caller?: Caller,
): Promise<WhatIfResponse> {
  const kind = whatIfKind(request);
  if (kind === "custom" && !Object.values(request.shocks ?? {}).some((v) => v != null))
    throw new ApiFailure(400, "WHATIF_NEEDS_SHOCK", [
      { path: "shocks", message: "a custom what-if needs at least one non-null shock" },
    ]);
  return onWorkers(db, pool, "whatIfRequest", request, {
    heavy: request.assets.length > HEAVY_ASSETS,
    ...(caller ? { caller } : {}),
  });
}

export async function whatIfAt(
  view: MarketView,
  run: Runner,
  request: WhatIfRequest,
): Promise<WhatIfResponse> {
  const kind = whatIfKind(request);
  const backtestDays = request.backTesting ? BACKTEST_WINDOWS[request.backTesting] : 0;
  const p = prepareAt(
    view,
    request,
    kind === "backtest"
      ? { days: backtestDays }
      : kind === "scenario"
        ? { days: SENSITIVITY_DAYS, minDays: 1, from: "1900-01-01" }
        : { days: SENSITIVITY_DAYS, minDays: MIN_SENSITIVITY_DAYS },
  );
  const factors = factorsAt(view, request.currency);
  const fx = kind === "scenario" ? extendFxAt(view, p.fx) : p.fx;
  const chosen = kind === "backtest" ? chosenBenchmarkAt(view, request, p, backtestDays) : null;
  const out = await run<WhatIfOutput>("whatIf", {
    kind,
    currency: request.currency,
    panel: p.aligned.panel,
    dates: p.aligned.dates,
    amounts: p.amounts,
    factors: factors.series,
    ...(request.shocks ? { shocks: request.shocks } : {}),
    ...(request.scenarioType != null ? { scenarioType: request.scenarioType } : {}),
    ...(kind === "scenario" ? { prices: p.assets.map((a) => a.series) } : {}),
    ...(fx ? { fx } : {}),
    ...(kind === "backtest"
      ? {
          backtest: {
            days: backtestDays,
            rebalancing: request.rebalancing ?? "none",
            ...(chosen ? { benchmark: chosen.returns } : {}),
          },
        }
      : {}),
  });
  const total = p.amounts.reduce((s, a) => s + a, 0);
  const sources = factors.sources;
  const asset = (i: number) => ({
    symbol: p.assets[i]!.symbol,
    name: p.assets[i]!.name,
    investedAmount: p.amounts[i]!,
  });
  if (out.kind === "custom")
    return {
      kind: "custom",
      currency: request.currency,
      totalInvested: total,
      totalChange: out.result.totalChange,
      totalReturn: out.result.totalReturn,
      assets: p.assets.map((_, i) => ({
        ...asset(i),
        return: out.result.assetReturns[i]!,
        change: out.result.assetChanges[i]!,
        betas: betasOf(out.fit.sensitivities, i),
        method: null,
      })),
      shocks: request.shocks ?? {},
      ignored: [...out.result.ignored],
      sensitivities: fitFigures(out.fit),
      sources,
      simulated: p.simulated,
    };
  if (out.kind === "scenario") {
    const sc = out.result.scenario;
    return {
      kind: "scenario",
      currency: request.currency,
      scenario: { type: sc.type, id: sc.id, start: sc.start, end: sc.end },
      totalInvested: total,
      totalChange: out.result.totalChange,
      totalReturn: out.result.totalReturn,
      assets: out.result.assets.map((r, i) => ({
        ...asset(i),
        return: r.return,
        change: r.change,
        betas: out.fit ? betasOf(out.fit.sensitivities, i) : {},
        method: r.method,
      })),
      factorMoves: { ...out.result.factorMoves },
      missingFactors: [...out.result.missingFactors] as WhatIfFactor[],
      path: {
        dates: Array.from(out.result.path.dates, isoDate),
        values: Array.from(out.result.path.values),
      },
      sensitivities: out.fit ? fitFigures(out.fit) : null,
      sources,
      simulated: p.simulated,
    };
  }
  const r = out.result;
  const market = sources.find((s) => s.factor === "market");
  return {
    kind: "backtest",
    currency: request.currency,
    backTesting: request.backTesting!,
    rebalancing: r.rebalancing,
    rebalances: r.rebalances,
    from: isoDate(out.dates[0]!),
    to: isoDate(out.dates[out.dates.length - 1]!),
    totalInvested: total,
    dates: Array.from(out.dates, isoDate),
    values: Array.from(r.values),
    performance: r.performance,
    benchmark:
      r.benchmark && (chosen || market)
        ? {
            ...(chosen
              ? { series: chosen.series, name: chosen.name, chosen: true }
              : { series: market!.series, chosen: false }),
            values: Array.from(r.benchmark.values),
            performance: r.benchmark.performance,
            excessReturn: r.benchmark.excessReturn,
            trackingError: r.benchmark.trackingError,
          }
        : null,
    limitedBy: p.limitedBy,
    simulated: p.simulated,
  };
}

/**
 * The backtest's comparison when the person chose one (`benchmarkSeries`, issue 27): its daily
 * returns over the window in the portfolio's currency, when it is among the benchmark choices and
 * has a level on the window's first day. Null otherwise: the backtest keeps the market of the
 * currency (the `market` factor), as without a choice.
 */
function chosenBenchmarkAt(
  view: MarketView,
  request: WhatIfRequest,
  p: ReturnType<typeof prepareAt>,
  days: number,
): { series: string; name: string; returns: Float64Array } | null {
  const series = request.benchmarkSeries ?? null;
  if (series === null) return null;
  if (!benchmarkChoices(view, request.currency).some((c) => c.series === series)) return null;
  const levels = benchmarkLevels(view, request.currency, series);
  if (!levels) return null;
  const all = p.aligned.dates;
  const dates = all.subarray(all.length - Math.min(days, p.aligned.panel.observations) - 1);
  const bench = benchmarkReturnsOn(levels, request.currency, p.fx, dates);
  if (!bench || bench.start !== 0) return null;
  return { series, name: levels.name, returns: bench.returns };
}
