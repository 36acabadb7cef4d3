/** The replay of real scenarios (types 0-3) on today's holdings (docs/analytics.md, "What-if"). */
import { dayNumber, indexOnOrBefore, isWeekend } from "../dates.ts";
import { EngineError } from "../errors.ts";
import { weightsFromAmounts } from "../panel.ts";
import { convertPrice, type Currency, type FxSeries, type PriceSeries } from "../returns.ts";
import {
  checkFactorPanel,
  FACTOR_KIND,
  factorChanges,
  type FactorPanel,
  type FactorSeries,
  type WhatIfFactor,
} from "./factors.ts";
import type { Sensitivities } from "./sensitivities.ts";

export interface Scenario {
  readonly type: 0 | 1 | 2 | 3;
  readonly id: string;
  /** Peak and trough (dataset README, "What-if factors and scenarios"). */
  readonly start: string;
  readonly end: string;
}

export const SCENARIOS: readonly Scenario[] = [
  { type: 0, id: "crisis-2008", start: "2007-10-09", end: "2009-03-09" },
  { type: 1, id: "pandemic-2020", start: "2020-02-19", end: "2020-03-23" },
  { type: 2, id: "rate-shock-2022", start: "2022-01-03", end: "2022-10-12" },
  { type: 3, id: "dot-com-2000", start: "2000-03-24", end: "2002-10-09" },
];

export function scenarioOfType(type: number): Scenario {
  const s = SCENARIOS.find((x) => x.type === type);
  if (!s)
    throw new EngineError("INVALID_PARAMETER", `scenario type must be 0, 1, 2 or 3, got ${type}`);
  return s;
}

/**
 * Daily factor changes over a scenario: calendar = the scenario's start plus every weekday on
 * which a factor series has a value inside the window. Series without a value on or before the
 * start (bitcoin before 2012) are left out and listed in `missing`.
 */
export function scenarioFactorPanel(
  type: number,
  series: readonly FactorSeries[],
): { panel: FactorPanel; missing: WhatIfFactor[] } {
  const sc = scenarioOfType(type);
  const start = dayNumber(sc.start);
  const end = dayNumber(sc.end);
  const usable = series.filter((s) => indexOnOrBefore(s.dates, start) >= 0);
  const missing = series.filter((s) => !usable.includes(s)).map((s) => s.factor);
  const days = new Set<number>([start]);
  for (const s of usable)
    for (let t = indexOnOrBefore(s.dates, start) + 1; t < s.dates.length && s.dates[t]! <= end; t++)
      if (!isWeekend(s.dates[t]!)) days.add(s.dates[t]!);
  days.add(end);
  const dates = Int32Array.from([...days].sort((a, b) => a - b));
  if (usable.length === 0)
    return {
      panel: { factors: [], observations: dates.length - 1, data: new Float64Array(0), dates },
      missing,
    };
  return { panel: factorChanges(usable, dates), missing };
}

/**
 * Move of each factor of a dated factor panel over a scenario's window: compounded for return
 * factors (fraction), summed for level factors (points).
 */
export function scenarioFactorMoves(
  panel: FactorPanel,
  type: number,
): Partial<Record<WhatIfFactor, number>> {
  const sc = scenarioOfType(type);
  const start = dayNumber(sc.start);
  const end = dayNumber(sc.end);
  const dates = panel.dates;
  if (!dates || dates.length !== panel.observations + 1)
    throw new EngineError("INVALID_INPUT", "scenarioFactorMoves: the factor panel needs its dates");
  const k = panel.factors.length;
  const moves: Partial<Record<WhatIfFactor, number>> = {};
  panel.factors.forEach((f, j) => {
    const isReturn = FACTOR_KIND[f] === "return";
    let m = isReturn ? 1 : 0;
    for (let t = 0; t < panel.observations; t++) {
      if (dates[t]! < start || dates[t + 1]! > end) continue;
      const v = panel.data[t * k + j]!;
      m = isReturn ? m * (1 + v) : m + v;
    }
    moves[f] = isReturn ? m - 1 : m;
  });
  return moves;
}

export interface ScenarioAsset {
  /** Local-currency prices (their currency is converted with `fx`). */
  readonly prices: PriceSeries;
}

export interface ScenarioInput {
  readonly type: number;
  readonly currency: Currency;
  readonly assets: readonly ScenarioAsset[];
  readonly amounts: Float64Array;
  /** EUR/USD (daily, with the monthly series before 2003-12 merged in by the caller). */
  readonly fx?: FxSeries;
  /** Sensitivities of the assets (needed for those without the whole window of history). */
  readonly sensitivities?: Sensitivities;
  /** Daily factor changes over the scenario (scenarioFactorPanel). */
  readonly factors?: FactorPanel;
}

export interface ScenarioAssetResult {
  readonly return: number;
  readonly change: number;
  /**
   * "history": the asset's own prices cover the window; "spliced": factor reconstruction until its
   * first price, its own prices after; "proxy": factor reconstruction over the whole window.
   */
  readonly method: "history" | "spliced" | "proxy";
}

export interface ScenarioResult {
  readonly scenario: Scenario;
  readonly assets: ScenarioAssetResult[];
  readonly totalChange: number;
  readonly totalReturn: number;
  /** Move of each factor of the factor panel over the window (fraction or points). */
  readonly factorMoves: Partial<Record<WhatIfFactor, number>>;
  /** Factors with a beta but no data in the scenario: they contribute 0 to proxies. */
  readonly missingFactors: WhatIfFactor[];
  /**
   * The portfolio's value over the scenario (start = the total invested), on the scenario's
   * calendar: its start and end and every weekday inside on which a factor or an asset has a
   * value. Each day's value is each asset's return from the start to that day, measured as the
   * final one (the same method), so the last value is total + totalChange.
   */
  readonly path: { readonly dates: Int32Array; readonly values: Float64Array };
}

/** Level of a price on `day` in the portfolio currency (carry forward). */
function priceOn(
  s: PriceSeries,
  day: number,
  currency: Currency,
  fx: FxSeries | undefined,
): number | null {
  const k = indexOnOrBefore(s.dates, day);
  if (k < 0) return null;
  if (s.currency === currency) return s.prices[k]!;
  if (!fx)
    throw new EngineError("NO_DATA", "scenario: an asset needs EUR/USD and no fx series was given");
  const f = indexOnOrBefore(fx.dates, day);
  if (f < 0) throw new EngineError("NO_DATA", "scenario: no EUR/USD rate on or before the window");
  return convertPrice(s.prices[k]!, s.currency, currency, fx.rates[f]!);
}

/**
 * Replays a real scenario on the portfolio: each asset's return from the last close on or before
 * the start to the last close on or before the end, in the portfolio currency. An asset younger
 * than the window is reconstructed from its betas, day by day on the factor changes:
 * prod_t max(0, 1 + sum_k beta_k f_k,t) - 1 (no intercept), until its first close (then its own
 * prices) or over the whole window.
 */
export function replayScenario(input: ScenarioInput): ScenarioResult {
  const scenario = scenarioOfType(input.type);
  const start = dayNumber(scenario.start);
  const end = dayNumber(scenario.end);
  const n = input.assets.length;
  if (n === 0) throw new EngineError("NO_ASSETS", "replayScenario: no assets");
  if (input.amounts.length !== n)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `replayScenario: ${input.amounts.length} amounts for ${n} assets`,
    );
  const { total } = weightsFromAmounts(input.amounts);
  const sens = input.sensitivities;
  if (sens && sens.assets !== n)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      "replayScenario: sensitivities of another number of assets",
    );
  const fp = input.factors;
  if (fp) {
    if (!fp.dates || fp.dates.length !== fp.observations + 1)
      throw new EngineError("INVALID_INPUT", "replayScenario: the factor panel needs its dates");
    checkFactorPanel(fp, fp.observations);
  }
  const kf = fp ? fp.factors.length : 0;
  const factorMoves = fp ? scenarioFactorMoves(fp, input.type) : {};
  const missingFactors = sens ? sens.factors.filter((f) => !fp || !fp.factors.includes(f)) : [];
  // Column of each sensitivity factor in the factor panel (-1: missing).
  const column = sens ? sens.factors.map((f) => (fp ? fp.factors.indexOf(f) : -1)) : [];

  /** Growth of the factor proxy of asset i over the steps ending on or before each panel day. */
  const proxyGrowth = (i: number): Float64Array => {
    const k = sens!.factors.length;
    const growth = new Float64Array(fp!.observations + 1).fill(1);
    for (let t = 0; t < fp!.observations; t++) {
      let g = growth[t]!;
      if (fp!.dates![t]! >= start && fp!.dates![t + 1]! <= end) {
        let r = 0;
        for (let a = 0; a < k; a++)
          if (column[a]! >= 0) r += sens!.betas[i * k + a]! * fp!.data[t * kf + column[a]!]!;
        g *= Math.max(0, 1 + r);
      }
      growth[t + 1] = g;
    }
    return growth;
  };
  const proxyOn = (growth: Float64Array, day: number): number => {
    const j = indexOnOrBefore(fp!.dates!, day);
    return j < 0 ? 0 : growth[j]! - 1;
  };

  const proxy = (i: number, until: number): number => {
    if (!sens || !fp)
      throw new EngineError(
        "NOT_ENOUGH_HISTORY",
        `replayScenario: asset ${i} has no prices over the scenario and no sensitivities or factors were given`,
      );
    const k = sens.factors.length;
    let g = 1;
    for (let t = 0; t < fp.observations; t++) {
      if (fp.dates![t]! < start || fp.dates![t + 1]! > until) continue;
      let r = 0;
      for (let a = 0; a < k; a++)
        if (column[a]! >= 0) r += sens.betas[i * k + a]! * fp.data[t * kf + column[a]!]!;
      g *= Math.max(0, 1 + r);
    }
    return g - 1;
  };

  // The calendar of the path: start, end, and the weekdays inside with a factor or asset value.
  const days = new Set<number>([start, end]);
  if (fp) for (const d of fp.dates!) if (d > start && d < end) days.add(d);
  for (const a of input.assets)
    for (let t = indexOnOrBefore(a.prices.dates, start) + 1; t < a.prices.dates.length; t++) {
      const d = a.prices.dates[t]!;
      if (d >= end) break;
      if (d > start && !isWeekend(d)) days.add(d);
    }
  const pathDates = Int32Array.from([...days].sort((x, y) => x - y));
  const pathValues = new Float64Array(pathDates.length);

  const assets: ScenarioAssetResult[] = [];
  let totalChange = 0;
  input.assets.forEach((a, i) => {
    const s = a.prices;
    if (s.dates.length === 0 || s.dates.length !== s.prices.length)
      throw new EngineError(
        "INVALID_INPUT",
        `replayScenario: asset ${i} has an empty price series`,
      );
    const last = s.dates[s.dates.length - 1]!;
    const first = s.dates[0]!;
    let r: number;
    let method: ScenarioAssetResult["method"];
    const pStart = priceOn(s, start, input.currency, input.fx);
    if (pStart !== null && last >= end) {
      r = priceOn(s, end, input.currency, input.fx)! / pStart - 1;
      method = "history";
    } else if (pStart === null && first <= end && last >= end) {
      const g = 1 + proxy(i, first);
      r =
        g *
          (priceOn(s, end, input.currency, input.fx)! /
            priceOn(s, first, input.currency, input.fx)!) -
        1;
      method = "spliced";
    } else {
      r = proxy(i, end);
      method = "proxy";
    }
    const change = input.amounts[i]! * r;
    totalChange += change;
    assets.push({ return: r, change, method });
    // The same return from the start to each day of the path.
    const growth = method === "history" ? null : proxyGrowth(i);
    const pFirst = method === "spliced" ? priceOn(s, first, input.currency, input.fx)! : 0;
    pathDates.forEach((day, j) => {
      let rd: number;
      if (method === "history") rd = priceOn(s, day, input.currency, input.fx)! / pStart! - 1;
      else if (method === "spliced" && day >= first)
        rd =
          (1 + proxyOn(growth!, first)) * (priceOn(s, day, input.currency, input.fx)! / pFirst) - 1;
      else rd = proxyOn(growth!, day);
      pathValues[j] = pathValues[j]! + input.amounts[i]! * (1 + rd);
    });
  });
  return {
    scenario,
    assets,
    totalChange,
    totalReturn: totalChange / total,
    factorMoves,
    missingFactors,
    path: { dates: pathDates, values: pathValues },
  };
}
