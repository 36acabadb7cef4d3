// Risk analytics timings: `node scripts/bench.ts risk`. Synthetic data: 5 years (1260 days) of a
// seeded factor model for 10, 50, 200 and 500 assets.
import type { BenchCase, NumpyTask } from "../bench.ts";
import { analysePortfolio, type PortfolioAnalysis } from "../../src/engine/analysis.ts";
import { backtest } from "../../src/engine/backtest.ts";
import { estimateCovariance } from "../../src/engine/covariance.ts";
import { benchmarkWindowDays, lastObservations } from "../../src/engine/panel.ts";
import { monteCarloVar } from "../../src/engine/risk.ts";
import { simulateInvestment } from "../../src/engine/simulate.ts";
import { syntheticMarket } from "../../src/engine/synthetic.ts";
import { dayNumber, isWeekend } from "../../src/engine/dates.ts";
import { applyShocks } from "../../src/engine/whatif/shocks.ts";
import { factorSensitivities } from "../../src/engine/whatif/sensitivities.ts";
import { replayScenario, scenarioFactorPanel } from "../../src/engine/whatif/scenarios.ts";
import { type FactorSeries } from "../../src/engine/whatif/factors.ts";

const SIZES = [10, 50, 200, 500] as const;
const DAYS = 1260;
/** The targets (median, ms). */
const FULL_ANALYSIS_TARGET: Partial<Record<number, number>> = { 50: 5 };

const market = (n: number) =>
  syntheticMarket({ assets: n, days: DAYS, seed: 7, foreignShare: 0.3 });
const equalAmounts = (n: number) => new Float64Array(n).fill(10_000 / n);
/** The sizes whose full analysis is compared with numpy (`npm run bench:numpy`). */
const NUMPY_SIZES: readonly number[] = [50, 500];

/**
 * numpy's full analysis on the same market: the risk figures (Ledoit-Wolf, parametric and
 * historical VaR/CVaR, component risk, diversification), and all figures (also the Cholesky
 * factor, expected and required returns, currency risk), over the same 3-year window; and all
 * figures with Ledoit-Wolf by the engine's algebra (bench_numpy.py).
 */
function numpyFullAnalysis(n: number): readonly NumpyTask[] {
  const m = market(n);
  const arrays = {
    panel: m.panel.data,
    amounts: equalAmounts(n),
    fx: m.fxReturns,
    foreign: m.foreign,
    market: m.market,
  };
  const check = (r: unknown) => (r as PortfolioAnalysis).var.parametric.var;
  const common = { assets: n, days: DAYS, window: benchmarkWindowDays(5), arrays, check };
  return [
    { task: "full", label: `full analysis, ${n} assets (numpy: risk figures)`, ...common },
    { task: "full-all", label: `full analysis, ${n} assets (numpy: every figure)`, ...common },
    {
      task: "full-same-algebra",
      label: `full analysis, ${n} assets (numpy: every figure, engine's LW algebra)`,
      ...common,
    },
  ];
}

const perSize = SIZES.flatMap((n): BenchCase[] => [
  {
    name: `risk: full analysis, ${n} assets, 3-year window`,
    targetMs: FULL_ANALYSIS_TARGET[n],
    runs: n <= 50 ? 41 : 15,
    setup() {
      const m = market(n);
      const amounts = equalAmounts(n);
      return () =>
        analysePortfolio({
          panel: m.panel,
          amounts,
          currency: "EUR",
          fx: { returns: m.fxReturns, foreign: m.foreign },
          market: m.market,
        });
    },
    numpy: NUMPY_SIZES.includes(n) ? () => numpyFullAnalysis(n) : undefined,
  },
  {
    name: `risk: what-if (betas + shock), ${n} assets, 5 years`,
    runs: 41,
    setup() {
      const m = market(n);
      const amounts = equalAmounts(n);
      return () =>
        applyShocks(factorSensitivities(m.panel, m.factors), amounts, { dRV: -0.2, dRF: 1 });
    },
  },
  {
    name: `risk: what-if 2008 replay by factor proxy, ${n} assets`,
    runs: 41,
    setup() {
      const m = market(n);
      // Level series of the five factors on the weekdays of 2007-2009, then the scenario's panel.
      const days: number[] = [];
      for (let d = dayNumber("2007-01-01"); d <= dayNumber("2009-12-31"); d++)
        if (!isWeekend(d)) days.push(d);
      const dates = Int32Array.from(days);
      const levels = (k: number, level: boolean) => {
        const v = new Float64Array(days.length);
        v[0] = level ? 3 : 100;
        for (let t = 1; t < days.length; t++) {
          const f = m.factors.data[(t % m.factors.observations) * 5 + k]!;
          v[t] = level ? v[t - 1]! + f : v[t - 1]! * (1 + f);
        }
        return v;
      };
      const series: FactorSeries[] = (
        ["market", "rates", "crypto", "commodities", "inflation"] as const
      ).map((factor, k) => ({
        factor,
        dates,
        values: levels(k, factor === "rates" || factor === "inflation"),
      }));
      const { panel } = scenarioFactorPanel(0, series);
      const sensitivities = factorSensitivities(m.panel, m.factors);
      const young = {
        dates: Int32Array.of(dayNumber("2015-01-02"), dayNumber("2015-01-05")),
        prices: Float64Array.of(10, 11),
        currency: "EUR" as const,
      };
      const assets = Array.from({ length: n }, () => ({ prices: young }));
      const amounts = equalAmounts(n);
      return () =>
        replayScenario({
          type: 0,
          currency: "EUR",
          assets,
          amounts,
          sensitivities,
          factors: panel,
        });
    },
  },
  {
    name: `risk: backtest monthly rebalancing, ${n} assets, 5 years`,
    runs: 41,
    setup() {
      const m = market(n);
      const weights = new Float64Array(n).fill(1 / n);
      return () =>
        backtest({ panel: m.panel, weights, benchmark: m.market, rebalancing: "monthly" });
    },
  },
  {
    name: `risk: Monte Carlo VaR 10 000 paths, ${n} assets`,
    runs: n >= 200 ? 5 : 15,
    setup() {
      const m = market(n);
      const weights = new Float64Array(n).fill(1 / n);
      const cov = estimateCovariance(lastObservations(m.panel, 756));
      return () => monteCarloVar(cov.matrix, cov.cholesky, weights, { paths: 10_000, seed: 1 });
    },
  },
]);

export const cases: BenchCase[] = [
  ...perSize,
  {
    name: "risk: simulator 10 000 paths x 10 years (120 months)",
    targetMs: 250,
    setup() {
      const m = market(50);
      const daily = new Float64Array(DAYS);
      for (let t = 0; t < DAYS; t++) {
        let s = 0;
        for (let i = 0; i < 50; i++) s += m.panel.data[t * 50 + i]! / 50;
        daily[t] = s;
      }
      return () =>
        simulateInvestment(daily, {
          initialAmount: 10_000,
          monthlyContribution: 200,
          years: 10,
          paths: 10_000,
          seed: 1,
        });
    },
  },
];
