// The engine on the real dataset ($MARKET_DATA_DIR, default ../shared/market-data): alignment and
// risk figures against scripts/reference/market_data.py (numpy, same files, figures committed in
// tests/engine/reference/market-data.json), and the scenario replay against the reference moves
// table of the dataset's README (within 0.1 percentage point).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analysePortfolio } from "../../src/engine/analysis.ts";
import { dayNumber, isoDate } from "../../src/engine/dates.ts";
import {
  alignReturns,
  spliceSeries,
  valueOnOrBefore,
  type Currency,
  type FxSeries,
} from "../../src/engine/returns.ts";
import {
  factorChanges,
  yearOnYearInflation,
  type FactorSeries,
  type WhatIfFactor,
} from "../../src/engine/whatif/factors.ts";
import { factorSensitivities } from "../../src/engine/whatif/sensitivities.ts";
import {
  replayScenario,
  scenarioFactorMoves,
  scenarioFactorPanel,
  scenarioOfType,
} from "../../src/engine/whatif/scenarios.ts";
import { expectAllClose, expectClose, loadReference } from "./analytics-helpers.ts";

const DIR =
  process.env.MARKET_DATA_DIR ??
  path.join(import.meta.dirname, "..", "..", "..", "shared", "market-data");
const present = existsSync(path.join(DIR, "prices"));
if (!present)
  console.info(
    `market-data tests skipped: no dataset at ${DIR} (set MARKET_DATA_DIR to the market-data folder)`,
  );

interface Series {
  dates: Int32Array;
  values: Float64Array;
}
const cache = new Map<string, Series>();
/** A tiny reader for the dataset's two-column CSV files (header, ISO date, number). */
function read(rel: string): Series {
  const hit = cache.get(rel);
  if (hit) return hit;
  const lines = readFileSync(path.join(DIR, rel), "utf8").trim().split("\n").slice(1);
  const dates = new Int32Array(lines.length);
  const values = new Float64Array(lines.length);
  lines.forEach((line, k) => {
    const [d, v] = line.split(",");
    dates[k] = dayNumber(d!);
    values[k] = Number(v);
  });
  const s = { dates, values };
  cache.set(rel, s);
  return s;
}
const price = (symbol: string, currency: Currency) => {
  const s = read(`prices/${symbol}.csv`);
  return { dates: s.dates, prices: s.values, currency };
};
const fx = (): FxSeries => {
  const s = spliceSeries(read("fx/EURUSD_MONTHLY.csv"), read("fx/EURUSD.csv"));
  return { dates: s.dates, rates: s.values };
};

interface Tail {
  var: number;
  cvar: number;
}
interface MarketReference {
  alignment: {
    symbols: string[];
    currencies: Currency[];
    amounts: number[];
    firstDate: string;
    lastDate: string;
    observations: number;
    sumReturns: number[];
    sumSquares: number[];
    zeroReturns: number[];
    fxSum: number;
  };
  windows: Record<
    string,
    {
      observations: number;
      shrinkage: number;
      volatilityDaily: number;
      parametric: Tail;
      historical: Tail & { scaling: string; scenarios: number };
      percentage: number[];
      diversificationReduction: number;
      currency: Record<string, number>;
      expected: number[];
    }
  >;
  scenarios: {
    gspcInEur: Record<string, number>;
    proxy: {
      symbol: string;
      type: number;
      method: string;
      betas: number[];
      return: number;
      factorMoves: Record<string, number>;
      periods: number;
    }[];
  };
}

describe.skipIf(!present)(
  "real dataset: a EUR portfolio of SAN.MC, AAPL, SPY, BTC-USD, MC.PA, TLT",
  () => {
    const ref = loadReference<MarketReference>("market-data.json");
    const a = ref.alignment;
    const aligned = () =>
      alignReturns(
        a.symbols.map((s, i) => price(s, a.currencies[i]!)),
        { currency: "EUR", fx: fx() },
      );

    it("aligns six calendars (Madrid, Paris, New York, crypto 7/7) and converts USD with daily EUR/USD like numpy", () => {
      const r = aligned();
      expect(isoDate(r.dates[0]!)).toBe(a.firstDate);
      expect(isoDate(r.dates.at(-1)!)).toBe(a.lastDate);
      expect(r.panel.observations).toBe(a.observations);
      const n = r.panel.assets;
      for (let i = 0; i < n; i++) {
        let sum = 0;
        let sq = 0;
        let zeros = 0;
        for (let t = 0; t < r.panel.observations; t++) {
          const v = r.panel.data[t * n + i]!;
          sum += v;
          sq += v * v;
          if (v === 0) zeros++;
        }
        expectClose(sum, a.sumReturns[i]!, 1e-10, 1e-14, `sum ${a.symbols[i]}`);
        expectClose(sq, a.sumSquares[i]!, 1e-10, 0, `squares ${a.symbols[i]}`);
        expect(zeros, `holidays carried forward for ${a.symbols[i]}`).toBe(a.zeroReturns[i]);
      }
      expectClose(
        r.fxReturns.reduce((s, v) => s + v, 0),
        a.fxSum,
        1e-10,
        1e-14,
        "fx",
      );
      expect([...r.foreign]).toEqual([0, 1, 1, 1, 0, 1]);
    });

    for (const benchmark of [4, 5]) {
      it(`full analysis, benchmark ${benchmark}: figures match numpy to 1e-9 (1e-8 after a solve)`, () => {
        const w = ref.windows[String(benchmark)]!;
        const r = aligned();
        const result = analysePortfolio({
          panel: r.panel,
          amounts: Float64Array.from(a.amounts),
          currency: "EUR",
          benchmark,
          fx: { returns: r.fxReturns, foreign: r.foreign },
        });
        expect(result.window.observations).toBe(w.observations);
        expectClose(result.window.shrinkage!, w.shrinkage, 1e-9);
        expectClose(result.volatility.daily, w.volatilityDaily, 1e-9);
        expectClose(result.var.parametric.var, w.parametric.var, 1e-9);
        expectClose(result.var.parametric.cvar, w.parametric.cvar, 1e-9);
        expect(result.var.historical.scaling).toBe(w.historical.scaling);
        expectClose(result.var.historical.var, w.historical.var, 1e-9);
        expectClose(result.var.historical.cvar, w.historical.cvar, 1e-9);
        expectAllClose(result.componentRisk.percentage, w.percentage, 1e-9, 1e-12, "percentage");
        expectClose(result.diversification.reduction, w.diversificationReduction, 1e-8);
        const currency = result.currencyRisk as unknown as Record<string, number>;
        for (const [k, v] of Object.entries(w.currency))
          expectClose(currency[k]!, v, 1e-9, 1e-15, k);
        expectAllClose(result.expectedReturns.expected, w.expected, 1e-8, 1e-12, "expected");
      });
    }
  },
);

/** The dataset README's "Reference moves" table, in percent (returns) or points (rates, inflation). */
const README_MOVES: Record<string, readonly (number | null)[]> = {
  // type:           0 GFC   1 COVID  2 Rates  3 Dot-com
  GSPC_INDEX: [-56.8, -33.9, -25.4, -49.1],
  STOXX50E_INDEX: [-59.3, -35.7, -23.1, null],
  GDAXI_INDEX: [-53.7, -36.6, -24.0, -67.2],
  IBEX_INDEX: [-54.1, -38.2, -17.1, -56.1],
  TLT: [25.1, 14.2, -29.3, null],
  EURGOV10Y_TR: [18.3, -0.5, -20.4, 21.8],
  GOLD_USD: [24.5, -2.5, -7.2, null], // dot-com needs the monthly series (before 2000-08)
  BRENT_USD: [-42.8, -60.2, 19.4, 9.9],
  "BTC-USD": [null, -43.1, -59.7, null],
};
const README_RATES: Record<string, readonly number[]> = {
  us10y: [-1.76, -0.81, 2.27, -2.68],
  de10y: [-1.38, 0.04, 2.47, -0.92],
  tbill: [-3.73, -1.53, 3.47, -4.11],
  euribor3m: [-2.98, -0.04, 1.75, -0.35],
};
const README_INFLATION: Record<string, readonly number[]> = {
  "macro/US_CPI.csv": [-0.4, 1.5, 7.7, 2.0],
  "macro/EA_HICP.csv": [0.6, 0.7, 10.6, 2.3],
};
const PP = 0.1;

describe.skipIf(!present)(
  "real dataset: scenario replay against the README's reference moves (0.1 pp)",
  () => {
    for (const [symbol, moves] of Object.entries(README_MOVES))
      it(`a 100% ${symbol} portfolio in its own currency`, () => {
        const currency: Currency = [
          "STOXX50E_INDEX",
          "GDAXI_INDEX",
          "IBEX_INDEX",
          "EURGOV10Y_TR",
        ].includes(symbol)
          ? "EUR"
          : "USD";
        moves.forEach((move, type) => {
          if (move === null) return;
          const r = replayScenario({
            type,
            currency,
            assets: [{ prices: price(symbol, currency) }],
            amounts: Float64Array.of(1000),
          });
          expect(r.assets[0]!.method).toBe("history");
          expectClose(r.totalReturn * 100, move, 0, PP, `${symbol} type ${type}`);
          expectClose(r.totalChange, r.totalReturn * 1000, 1e-12);
        });
      });

    it("EUR/USD (monthly before 2003-12) as a USD price of one euro", () => {
      const s = fx();
      [-10.5, -0.9, -14.7, 1.7].forEach((move, type) => {
        const r = replayScenario({
          type,
          currency: "USD",
          assets: [{ prices: { dates: s.dates, prices: s.rates, currency: "USD" } }],
          amounts: Float64Array.of(1),
        });
        expectClose(r.totalReturn * 100, move, 0, PP, `EURUSD type ${type}`);
      });
    });

    it("rates: yield changes of the rates factor over each window (monthly series spliced before the daily)", () => {
      const rates: Record<string, { dates: Int32Array; values: Float64Array }> = {
        us10y: spliceSeries(read("macro/US10Y_MONTHLY.csv"), read("macro/US10Y.csv")),
        de10y: read("macro/DE10Y.csv"),
        tbill: spliceSeries(read("macro/US_TBILL_3M_MONTHLY.csv"), read("macro/US_TBILL_3M.csv")),
        euribor3m: read("macro/EURIBOR_3M.csv"),
      };
      for (const [name, moves] of Object.entries(README_RATES))
        moves.forEach((move, type) => {
          const { panel } = scenarioFactorPanel(type, [{ factor: "rates", ...rates[name]! }]);
          expectClose(
            scenarioFactorMoves(panel, type).rates!,
            move,
            0,
            0.01,
            `${name} type ${type}`,
          );
        });
    });

    it("inflation: year-on-year CPI / HICP inflation at each window's end", () => {
      for (const [file, values] of Object.entries(README_INFLATION)) {
        const s = read(file);
        const infl = yearOnYearInflation(s.dates, s.values);
        values.forEach((v, type) => {
          const end = dayNumber(scenarioOfType(type).end);
          expectClose(
            valueOnOrBefore(infl.dates, infl.values, end),
            v,
            0,
            PP,
            `${file} type ${type}`,
          );
        });
      }
    });

    it("a EUR portfolio of the S&P 500: the index move and EUR/USD, like numpy", () => {
      const ref = loadReference<MarketReference>("market-data.json");
      for (const [type, v] of Object.entries(ref.scenarios.gspcInEur)) {
        const r = replayScenario({
          type: Number(type),
          currency: "EUR",
          fx: fx(),
          assets: [{ prices: price("GSPC_INDEX", "USD") }],
          amounts: Float64Array.of(100),
        });
        expectClose(r.totalReturn, v, 1e-12, 0, `type ${type}`);
      }
    });
  },
);

describe.skipIf(!present)(
  "real dataset: factor reconstruction of assets younger than the scenario",
  () => {
    const ref = () => loadReference<MarketReference>("market-data.json").scenarios.proxy;
    const factorSeries = (): FactorSeries[] => {
      const hicp = read("macro/EA_HICP.csv");
      const infl = yearOnYearInflation(hicp.dates, hicp.values);
      return [
        { factor: "market", ...read("prices/STOXX50E_INDEX.csv") },
        { factor: "rates", ...read("macro/DE10Y.csv") },
        { factor: "commodities", ...read("prices/BRENT_USD.csv") },
        { factor: "inflation", ...infl },
      ];
    };
    for (const [k, label] of [
      [0, "ANE.MC (listed 2021) in the 2020 pandemic: proxy over the whole window"],
      [
        1,
        "MSE.PA (listed 2008-01-02) in the 2008 crisis: proxy until its first close, its prices after",
      ],
    ] as const)
      it(label, () => {
        const p = ref()[k]!;
        const aligned = alignReturns([price(p.symbol, "EUR")], { currency: "EUR" });
        const series = factorSeries();
        const sens = factorSensitivities(aligned.panel, factorChanges(series, aligned.dates));
        expect(sens.periods).toBe(p.periods);
        expectAllClose(sens.betas, p.betas, 1e-8, 1e-12, "betas");
        const { panel, missing } = scenarioFactorPanel(p.type, series);
        expect(missing).toEqual([]);
        const r = replayScenario({
          type: p.type,
          currency: "EUR",
          assets: [{ prices: price(p.symbol, "EUR") }],
          amounts: Float64Array.of(5000),
          sensitivities: sens,
          factors: panel,
        });
        expect(r.assets[0]!.method).toBe(p.method);
        for (const [f, v] of Object.entries(p.factorMoves))
          expectClose(r.factorMoves[f as WhatIfFactor]!, v, 1e-10, 1e-14, f);
        expectClose(r.totalReturn, p.return, 1e-8, 0, "return");
      });
  },
);
