/**
 * The what-if's market factors (market, rates, crypto, commodities, inflation): their kinds, the
 * shock that moves each, and their daily changes on an asset panel's calendar. Formulas:
 * docs/analytics.md, "What-if".
 *
 * Units: return factors (market, crypto, commodities) move in fractions (-0.2 = -20%); level
 * factors (rates: a 10-year yield; inflation: year-on-year CPI inflation) move in percentage
 * points (+1 = one point up).
 */
import { indexOnOrBefore, monthKey } from "../dates.ts";
import { EngineError } from "../errors.ts";

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

export function checkFactorPanel(f: FactorPanel, observations: number): void {
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
