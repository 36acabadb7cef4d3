// The holdings' past (src/engine/history, issue 27): `node scripts/bench.ts history`. A 30-asset
// portfolio over 10 years (2,520 weekday returns of the seeded factor model, 30% foreign assets)
// against its market index: the target (growth, calendar years, rolling 12-month figures,
// drawdowns and the correlation matrix with its clustering, ≤ 50 ms), then every section with the
// factor regression, and the same over 30 years. `npm run bench:numpy -- history` times the numpy
// and SciPy reference (scripts/reference/history.py's functions) on the same inputs.
import type { BenchCase, NumpyTask } from "../bench.ts";
import { isWeekend, dayNumber } from "../../src/engine/dates.ts";
import {
  pastPerformance,
  type HistorySection,
  type PastPerformance,
} from "../../src/engine/history/past-performance.ts";
import { syntheticMarket } from "../../src/engine/synthetic.ts";
import { WHATIF_FACTORS, type FactorSeries } from "../../src/engine/whatif/factors.ts";

const ASSETS = 30;
const TARGET: readonly HistorySection[] = [
  "growth",
  "calendarYears",
  "rolling",
  "drawdowns",
  "correlation",
];

/** `count` weekdays from 2014-01-02 (or earlier, for longer histories). */
function weekdays(from: string, count: number): Int32Array {
  const out = new Int32Array(count);
  let k = 0;
  for (let d = dayNumber(from); k < count; d++) if (!isWeekend(d)) out[k++] = d;
  return out;
}

function inputs(years: number) {
  const days = 252 * years;
  const m = syntheticMarket({ assets: ASSETS, days, seed: 7, foreignShare: 0.3 });
  const dates = weekdays(years > 10 ? "1994-01-03" : "2014-01-02", days + 1);
  const amounts = Float64Array.from({ length: ASSETS }, (_, i) => 1000 + 100 * (i % 7));
  // The factors as the server passes them: level series on the same days.
  const factors: FactorSeries[] = WHATIF_FACTORS.map((factor, k) => {
    const level = factor === "rates" || factor === "inflation";
    const values = new Float64Array(days + 1);
    values[0] = level ? 3 : 100;
    for (let t = 0; t < days; t++) {
      const f = m.factors.data[t * 5 + k]!;
      values[t + 1] = level ? values[t]! + f : values[t]! * (1 + f);
    }
    return { factor, dates, values };
  });
  return { m, dates, amounts, factors, days };
}

function historyCase(
  name: string,
  years: number,
  sections: readonly HistorySection[],
  options: { targetMs?: number; numpy?: boolean } = {},
): BenchCase {
  let prepared: ReturnType<typeof inputs> | undefined;
  const once = () => (prepared ??= inputs(years));
  return {
    name,
    runs: 21,
    ...(options.targetMs ? { targetMs: options.targetMs } : {}),
    setup() {
      const { m, dates, amounts, factors } = once();
      return () =>
        pastPerformance({
          panel: m.panel,
          dates,
          amounts,
          windowDays: 756,
          benchmark: { start: 0, returns: m.market },
          sections,
          factors,
        });
    },
    ...(options.numpy
      ? {
          numpy: (): readonly NumpyTask[] => {
            const { m, dates, amounts, days } = once();
            return [
              {
                task: "history",
                label: `history without regression, ${ASSETS} assets, ${years} years`,
                assets: ASSETS,
                days,
                window: 756,
                arrays: {
                  panel: m.panel.data,
                  amounts,
                  dates: Float64Array.from(dates),
                  benchmark: m.market,
                },
                check: (r) => (r as PastPerformance).drawdowns!.portfolio.maxDrawdown,
              },
            ];
          },
        }
      : {}),
  };
}

export const cases: BenchCase[] = [
  historyCase(
    `history: growth, years, rolling, drawdowns, correlation, ${ASSETS} assets, 10 years`,
    10,
    TARGET,
    { targetMs: 50, numpy: true },
  ),
  historyCase(`history: every section (+ factor regression), ${ASSETS} assets, 10 years`, 10, [
    ...TARGET,
    "regression",
  ]),
  historyCase(`history: every section (+ factor regression), ${ASSETS} assets, 30 years`, 30, [
    ...TARGET,
    "regression",
  ]),
];
