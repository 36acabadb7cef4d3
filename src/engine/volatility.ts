import { BENCHMARK_WINDOW_DAYS, type Benchmark } from "./panel.ts";
import { sampleVariance, TRADING_DAYS_PER_YEAR } from "./stats.ts";

/**
 * Annualised volatility of an asset per benchmark window: the sample standard deviation of its
 * daily log returns over the last N trading days (N = 21, 63, 126, 252, 756, 1260), times √252
 * (docs/analytics.md). Null when the history is shorter than the window.
 */
export function volatilityByBenchmark(closes: Float64Array): Record<Benchmark, number | null> {
  const out = {} as Record<Benchmark, number | null>;
  for (const [key, days] of Object.entries(BENCHMARK_WINDOW_DAYS)) {
    const benchmark = Number(key) as Benchmark;
    if (closes.length < days + 1) {
      out[benchmark] = null;
      continue;
    }
    const returns = new Float64Array(days);
    const start = closes.length - days - 1;
    for (let t = 0; t < days; t++)
      returns[t] = Math.log(closes[start + t + 1]! / closes[start + t]!);
    out[benchmark] = Math.sqrt(sampleVariance(returns) * TRADING_DAYS_PER_YEAR);
  }
  return out;
}
