import { sql } from "drizzle-orm";
import { dayNumber } from "../../engine/dates.ts";
import { chainIndex, spliceSeries, type Currency, type FxSeries } from "../../engine/returns.ts";
import { yearOnYearInflation, type FactorSeries, type WhatIfFactor } from "../../engine/whatif.ts";
import { pgArray, resultRows, type Db } from "../db/database.ts";

interface Levels {
  dates: Int32Array;
  values: Float64Array;
}

/**
 * The series each what-if factor is measured with, by portfolio currency (docs/analytics.md,
 * "What-if"): the first candidate with data wins; a "+" joins an older series before a newer one
 * (indices chained at the join, rates spliced).
 */
interface FactorSource {
  readonly series: string;
  readonly older?: string;
}

export const FACTOR_SOURCES: Record<Currency, Record<WhatIfFactor, readonly FactorSource[]>> = {
  USD: {
    market: [{ series: "GSPC_INDEX" }],
    rates: [{ series: "US10Y", older: "US10Y_MONTHLY" }],
    crypto: [{ series: "BTC-USD" }],
    commodities: [{ series: "BRENT_USD" }, { series: "DBC" }],
    inflation: [{ series: "US_CPI" }],
  },
  EUR: {
    market: [{ series: "STOXX50E_INDEX", older: "GDAXI_INDEX" }],
    rates: [{ series: "DE10Y" }],
    crypto: [{ series: "BTC-USD" }],
    commodities: [{ series: "BRENT_USD" }, { series: "DBC" }],
    inflation: [{ series: "EA_HICP" }],
  },
};

/** Which factors read macro series (rates, inflation) rather than prices. */
const FROM_MACRO: Record<WhatIfFactor, boolean> = {
  market: false,
  rates: true,
  crypto: false,
  commodities: false,
  inflation: true,
};

function toLevels(rows: Record<string, unknown>[], value: string): Map<string, Levels> {
  const grouped = new Map<string, { dates: number[]; values: number[] }>();
  for (const r of rows) {
    const name = r.name as string;
    let g = grouped.get(name);
    if (!g) grouped.set(name, (g = { dates: [], values: [] }));
    g.dates.push(dayNumber(r.date as string));
    g.values.push(Number(r[value]));
  }
  return new Map(
    [...grouped].map(([k, g]) => [
      k,
      { dates: Int32Array.from(g.dates), values: Float64Array.from(g.values) },
    ]),
  );
}

export interface LoadedFactors {
  readonly series: FactorSeries[];
  /** The series behind each factor, as the response names them ("STOXX50E_INDEX+GDAXI_INDEX"). */
  readonly sources: { factor: WhatIfFactor; series: string }[];
}

/** The what-if factor series of a portfolio currency, whole history, in two queries. */
export async function loadFactors(db: Db, currency: Currency): Promise<LoadedFactors> {
  const plan = FACTOR_SOURCES[currency];
  const priceNames: string[] = [];
  const macroNames: string[] = [];
  for (const [factor, candidates] of Object.entries(plan) as [
    WhatIfFactor,
    readonly FactorSource[],
  ][])
    for (const c of candidates)
      (FROM_MACRO[factor] ? macroNames : priceNames).push(c.series, ...(c.older ? [c.older] : []));
  const [priceRows, macroRows] = await Promise.all([
    db.execute(
      sql`select symbol as name, date::text as date, close from prices where symbol = any(${pgArray(priceNames)}::text[]) order by symbol, date`,
    ),
    db.execute(
      sql`select series as name, date::text as date, value from macro_values where series = any(${pgArray(macroNames)}::text[]) order by series, date`,
    ),
  ]);
  const levels = new Map([
    ...toLevels(resultRows(priceRows), "close"),
    ...toLevels(resultRows(macroRows), "value"),
  ]);
  const series: FactorSeries[] = [];
  const sources: LoadedFactors["sources"] = [];
  for (const [factor, candidates] of Object.entries(plan) as [
    WhatIfFactor,
    readonly FactorSource[],
  ][]) {
    for (const c of candidates) {
      const newer = levels.get(c.series);
      if (!newer || newer.dates.length < 2) continue;
      const older = c.older ? levels.get(c.older) : undefined;
      let joined: Levels = newer;
      if (older && older.dates.length > 0 && older.dates[0]! < newer.dates[0]!)
        joined = FROM_MACRO[factor] ? spliceSeries(older, newer) : chainIndex(older, newer);
      const values =
        factor === "inflation" ? yearOnYearInflation(joined.dates, joined.values) : joined;
      if (values.dates.length < 2) continue;
      series.push({ factor, dates: values.dates, values: values.values });
      sources.push({
        factor,
        series: joined === newer ? c.series : `${c.series}+${c.older}`,
      });
      break;
    }
  }
  return { series, sources };
}

/** EUR/USD for dates before the daily series: the monthly rates (fx/EURUSD_MONTHLY) spliced in. */
export async function extendFx(db: Db, daily: FxSeries | null): Promise<FxSeries | null> {
  const monthly = toLevels(
    resultRows(
      await db.execute(
        sql`select series as name, date::text as date, value from macro_values where series = 'EURUSD_MONTHLY' order by date`,
      ),
    ),
    "value",
  ).get("EURUSD_MONTHLY");
  if (!monthly) return daily;
  if (!daily) return { dates: monthly.dates, rates: monthly.values };
  const s = spliceSeries(monthly, { dates: daily.dates, values: daily.rates });
  return { dates: s.dates, rates: s.values };
}
