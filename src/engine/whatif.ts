/**
 * What-if: factor sensitivities by OLS, custom shocks (dRV, dRF, dCrypto, dMMPP, inflation) and
 * the replay of real scenarios (types 0-3). Formulas: docs/analytics.md, "What-if".
 *
 * Units: return factors (market, crypto, commodities) move in fractions (-0.2 = -20%); level
 * factors (rates: a 10-year yield; inflation: year-on-year CPI inflation) move in percentage
 * points (+1 = one point up).
 */
import { dayNumber, indexOnOrBefore, isWeekend, monthKey } from "./dates.ts";
import { EngineError } from "./errors.ts";
import { cholesky, choleskySolve } from "./linalg.ts";
import { validatePanel, weightsFromAmounts, type ReturnsPanel } from "./panel.ts";
import { convertPrice, type Currency, type FxSeries, type PriceSeries } from "./returns.ts";

export const WHATIF_FACTORS = ["market", "rates", "crypto", "commodities", "inflation"] as const;
export type WhatIfFactor = (typeof WHATIF_FACTORS)[number];
export const FACTOR_KIND: Record<WhatIfFactor, "return" | "level"> = {
  market: "return",
  rates: "level",
  crypto: "return",
  commodities: "return",
  inflation: "level",
};
/** The shock of the specification that moves each factor. */
export const SHOCK_OF_FACTOR = {
  market: "dRV",
  rates: "dRF",
  crypto: "dCrypto",
  commodities: "dMMPP",
  inflation: "inflation",
} as const satisfies Record<WhatIfFactor, string>;

/** Daily factor changes on the calendar of an asset panel (row-major observations x factors). */
export interface FactorPanel {
  readonly factors: readonly WhatIfFactor[];
  readonly observations: number;
  readonly data: Float64Array;
  /** observations + 1 calendar days, when the panel was built from dated series. */
  readonly dates?: Int32Array;
}

/** A factor's level series: an index or price (return factors), a rate in percent (level factors). */
export interface FactorSeries {
  readonly factor: WhatIfFactor;
  readonly dates: Int32Array;
  readonly values: Float64Array;
}

function checkFactorPanel(f: FactorPanel, observations: number): void {
  const k = f.factors.length;
  if (new Set(f.factors).size !== k || f.factors.some((x) => !WHATIF_FACTORS.includes(x)))
    throw new EngineError(
      "INVALID_PARAMETER",
      `factors must be distinct names of ${WHATIF_FACTORS.join(", ")}`,
    );
  if (f.observations !== observations || f.data.length !== k * observations)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `factor panel ${f.observations}x${k} for ${observations} observations`,
    );
  for (let j = 0; j < f.data.length; j++)
    if (!Number.isFinite(f.data[j]!))
      throw new EngineError(
        "INVALID_INPUT",
        `factor ${f.factors[j % k]}: value ${f.data[j]} at ${Math.floor(j / k)}`,
      );
}

/**
 * Daily changes of factor series on a calendar: each series' value on or before each day (carried
 * forward), then the change from one day to the next (a simple return for return factors, a
 * difference in points for level factors).
 */
export function factorChanges(series: readonly FactorSeries[], dates: Int32Array): FactorPanel {
  const k = series.length;
  const t = dates.length - 1;
  if (t < 1) throw new EngineError("NOT_ENOUGH_HISTORY", "factorChanges: fewer than two days");
  const data = new Float64Array(t * k);
  series.forEach((s, j) => {
    if (s.dates.length !== s.values.length || s.dates.length === 0)
      throw new EngineError("INVALID_INPUT", `factor ${s.factor}: empty or mismatched series`);
    let idx = indexOnOrBefore(s.dates, dates[0]!);
    if (idx < 0)
      throw new EngineError("NO_DATA", `factor ${s.factor}: no value on or before the first day`);
    let prev = s.values[idx]!;
    const isReturn = FACTOR_KIND[s.factor] === "return";
    for (let d = 1; d <= t; d++) {
      while (idx + 1 < s.dates.length && s.dates[idx + 1]! <= dates[d]!) idx++;
      const v = s.values[idx]!;
      data[(d - 1) * k + j] = isReturn ? v / prev - 1 : v - prev;
      prev = v;
    }
  });
  const panel = { factors: series.map((s) => s.factor), observations: t, data, dates };
  checkFactorPanel(panel, t);
  return panel;
}

/** Year-on-year inflation in percent from a monthly price index dated on the 1st of each month. */
export function yearOnYearInflation(
  dates: Int32Array,
  index: Float64Array,
): { dates: Int32Array; values: Float64Array } {
  const byMonth = new Map<number, number>();
  for (let t = 0; t < dates.length; t++) byMonth.set(monthKey(dates[t]!), index[t]!);
  const outDates: number[] = [];
  const values: number[] = [];
  for (let t = 0; t < dates.length; t++) {
    const before = byMonth.get(monthKey(dates[t]!) - 12);
    if (before === undefined) continue;
    outDates.push(dates[t]!);
    values.push(100 * (index[t]! / before - 1));
  }
  return { dates: Int32Array.from(outDates), values: Float64Array.from(values) };
}

export interface Sensitivities {
  /** Factors with a beta (those with variance in the window). */
  readonly factors: readonly WhatIfFactor[];
  /** Factors of the panel left out: no variance over the window's periods. */
  readonly excluded: readonly WhatIfFactor[];
  readonly assets: number;
  /** Row-major assets x factors. */
  readonly betas: Float64Array;
  /** Intercept per period. */
  readonly alphas: Float64Array;
  readonly rSquared: Float64Array;
  readonly periods: number;
  readonly periodDays: number;
}

/** Period returns of the assets and period changes of the factors (see factorSensitivities). */
export interface PeriodChanges {
  readonly periods: number;
  readonly periodDays: number;
  /** Row-major periods x assets: each asset's return compounded over the period. */
  readonly y: Float64Array;
  /** Row-major periods x factors: compounded for return factors, summed for level factors. */
  readonly x: Float64Array;
}

/**
 * Blocks of `periodDays` observations counted back from the last (the oldest observations that
 * do not fill a block are left out): the assets' returns compound within a block, the factors'
 * changes compound (return factors) or add up (level factors).
 */
export function periodChanges(
  panel: ReturnsPanel,
  factors: FactorPanel,
  periodDays = 5,
): PeriodChanges {
  validatePanel(panel, 2, "periodChanges");
  checkFactorPanel(factors, panel.observations);
  if (!(Number.isInteger(periodDays) && periodDays >= 1))
    throw new EngineError(
      "INVALID_PARAMETER",
      `periodDays must be a positive integer, got ${periodDays}`,
    );
  const { assets: n, observations: t, data } = panel;
  const k0 = factors.factors.length;
  const p = Math.floor(t / periodDays);
  const skip = t - p * periodDays;
  const y = new Float64Array(p * n);
  const x = new Float64Array(p * k0);
  for (let q = 0; q < p; q++) {
    const yRow = q * n;
    for (let i = 0; i < n; i++) y[yRow + i] = 1;
    for (let j = 0; j < k0; j++)
      x[q * k0 + j] = FACTOR_KIND[factors.factors[j]!] === "return" ? 1 : 0;
    for (let d = 0; d < periodDays; d++) {
      const s = skip + q * periodDays + d;
      for (let i = 0; i < n; i++) y[yRow + i] = y[yRow + i]! * (1 + data[s * n + i]!);
      for (let j = 0; j < k0; j++) {
        const f = factors.data[s * k0 + j]!;
        x[q * k0 + j] =
          FACTOR_KIND[factors.factors[j]!] === "return"
            ? x[q * k0 + j]! * (1 + f)
            : x[q * k0 + j]! + f;
      }
    }
    for (let i = 0; i < n; i++) y[yRow + i] = y[yRow + i]! - 1;
    for (let j = 0; j < k0; j++)
      if (FACTOR_KIND[factors.factors[j]!] === "return") x[q * k0 + j] = x[q * k0 + j]! - 1;
  }
  return { periods: p, periodDays, y, x };
}

/**
 * The factors (indices into the panel's factors) with variance over the periods, and the means of
 * every factor: a factor whose period changes do not move (relative to their size) is left out.
 */
export function factorsWithVariance(
  x: Float64Array,
  periods: number,
  k0: number,
): { keep: number[]; means: Float64Array } {
  const p = periods;
  const xm = new Float64Array(k0);
  for (let q = 0; q < p; q++) for (let j = 0; j < k0; j++) xm[j] = xm[j]! + x[q * k0 + j]! / p;
  const keep: number[] = [];
  for (let j = 0; j < k0; j++) {
    let v = 0;
    let scale = 0;
    for (let q = 0; q < p; q++) {
      v += (x[q * k0 + j]! - xm[j]!) ** 2;
      scale = Math.max(scale, Math.abs(x[q * k0 + j]!));
    }
    if (v > 1e-24 * Math.max(1, scale * scale) * p) keep.push(j);
  }
  return { keep, means: xm };
}

/**
 * OLS of each asset's period returns on the factors' period changes with an intercept:
 * r_i = a_i + sum_k b_ik f_k + e_i. Periods are blocks of `periodDays` observations counted back
 * from the last (default 5: weekly, which limits the bias of non-synchronous closes and gives the
 * monthly inflation factor some periods with a change); returns compound within a period, level
 * changes add up. Solved by the normal equations on centred data (Cholesky).
 */
export function factorSensitivities(
  panel: ReturnsPanel,
  factors: FactorPanel,
  options: { periodDays?: number } = {},
): Sensitivities {
  const periodDays = options.periodDays ?? 5;
  const { y, x, periods: p } = periodChanges(panel, factors, periodDays);
  const n = panel.assets;
  const k0 = factors.factors.length;
  // Centre; drop factors without variance.
  const { keep, means: xm } = factorsWithVariance(x, p, k0);
  const ym = new Float64Array(n);
  for (let q = 0; q < p; q++) for (let i = 0; i < n; i++) ym[i] = ym[i]! + y[q * n + i]! / p;
  const k = keep.length;
  if (p < k + 2)
    throw new EngineError(
      "NOT_ENOUGH_HISTORY",
      `factorSensitivities: ${p} periods of ${periodDays} days for ${k} factors and an intercept`,
    );
  const xc = new Float64Array(p * k);
  for (let q = 0; q < p; q++)
    for (let a = 0; a < k; a++) xc[q * k + a] = x[q * k0 + keep[a]!]! - xm[keep[a]!]!;
  const xtx = new Float64Array(k * k);
  for (let q = 0; q < p; q++)
    for (let a = 0; a < k; a++)
      for (let b = 0; b < k; b++)
        xtx[a * k + b] = xtx[a * k + b]! + xc[q * k + a]! * xc[q * k + b]!;
  let factor = k > 0 ? cholesky({ rows: k, cols: k, data: xtx }) : null;
  if (k > 0 && !factor) {
    // Collinear factors: a ridge of 1e-10 of the mean diagonal.
    let md = 0;
    for (let a = 0; a < k; a++) md += xtx[a * k + a]! / k;
    const r = xtx.slice();
    for (let a = 0; a < k; a++) r[a * k + a] = r[a * k + a]! + 1e-10 * md;
    factor = cholesky({ rows: k, cols: k, data: r });
    if (!factor)
      throw new EngineError("INVALID_INPUT", "factorSensitivities: singular factor matrix");
  }
  const betas = new Float64Array(n * k);
  const alphas = new Float64Array(n);
  const rSquared = new Float64Array(n);
  const xty = new Float64Array(k);
  const b = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    xty.fill(0);
    for (let q = 0; q < p; q++) {
      const yc = y[q * n + i]! - ym[i]!;
      for (let a = 0; a < k; a++) xty[a] = xty[a]! + xc[q * k + a]! * yc;
    }
    if (factor) choleskySolve(factor, xty, b);
    let alpha = ym[i]!;
    for (let a = 0; a < k; a++) {
      betas[i * k + a] = b[a]!;
      alpha -= b[a]! * xm[keep[a]!]!;
    }
    alphas[i] = alpha;
    let sst = 0;
    let ssr = 0;
    for (let q = 0; q < p; q++) {
      const yc = y[q * n + i]! - ym[i]!;
      let fit = 0;
      for (let a = 0; a < k; a++) fit += b[a]! * xc[q * k + a]!;
      sst += yc * yc;
      ssr += (yc - fit) ** 2;
    }
    rSquared[i] = sst > 0 ? Math.max(0, 1 - ssr / sst) : 0;
  }
  return {
    factors: keep.map((j) => factors.factors[j]!),
    excluded: factors.factors.filter((_, j) => !keep.includes(j)),
    assets: n,
    betas,
    alphas,
    rSquared,
    periods: p,
    periodDays,
  };
}

/** The shocks of a custom what-if; at least one must be given. */
export interface Shocks {
  /** Stock market return (fraction). */
  readonly dRV?: number | null;
  /** Change of the 10-year yield, percentage points. */
  readonly dRF?: number | null;
  /** Bitcoin return (fraction). */
  readonly dCrypto?: number | null;
  /** Commodities return (fraction). */
  readonly dMMPP?: number | null;
  /** Change of year-on-year inflation, percentage points. */
  readonly inflation?: number | null;
}

export interface ShockResult {
  /** Return of each asset (fraction, not below -1). */
  readonly assetReturns: Float64Array;
  /** Gain (+) or loss (-) of each asset in the portfolio currency. */
  readonly assetChanges: Float64Array;
  readonly totalChange: number;
  readonly totalReturn: number;
  /** Shocks given for factors without a beta (no data or no variance): they move nothing. */
  readonly ignored: readonly WhatIfFactor[];
}

/**
 * A custom shock: dr_i = sum_k beta_ik shock_k (factors not shocked stay at 0; the intercept is
 * left out, as a shock is instantaneous), floored at -100% (a long position cannot lose more than
 * its value); change_i = amount_i dr_i.
 */
export function applyShocks(
  sensitivities: Sensitivities,
  amounts: Float64Array,
  shocks: Shocks,
): ShockResult {
  const n = sensitivities.assets;
  if (amounts.length !== n)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `applyShocks: ${amounts.length} amounts for ${n} assets`,
    );
  const { total } = weightsFromAmounts(amounts);
  let given = 0;
  for (const f of WHATIF_FACTORS) {
    const v = shocks[SHOCK_OF_FACTOR[f]];
    if (v === undefined || v === null) continue;
    if (!Number.isFinite(v))
      throw new EngineError("INVALID_PARAMETER", `shock ${SHOCK_OF_FACTOR[f]} is ${v}`);
    given++;
  }
  if (given === 0)
    throw new EngineError("INVALID_PARAMETER", "a custom what-if needs at least one shock");
  const k = sensitivities.factors.length;
  const shockOf = sensitivities.factors.map((f) => shocks[SHOCK_OF_FACTOR[f]] ?? 0);
  const ignored = WHATIF_FACTORS.filter(
    (f) =>
      shocks[SHOCK_OF_FACTOR[f]] != null &&
      shocks[SHOCK_OF_FACTOR[f]] !== 0 &&
      !sensitivities.factors.includes(f),
  );
  const assetReturns = new Float64Array(n);
  const assetChanges = new Float64Array(n);
  let totalChange = 0;
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let a = 0; a < k; a++) r += sensitivities.betas[i * k + a]! * shockOf[a]!;
    r = Math.max(-1, r);
    assetReturns[i] = r;
    assetChanges[i] = amounts[i]! * r;
    totalChange += assetChanges[i]!;
  }
  return { assetReturns, assetChanges, totalChange, totalReturn: totalChange / total, ignored };
}

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
