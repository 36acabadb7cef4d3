import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { AnalysisResponse } from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { formatDate } from "../../ui/format.ts";
import { mainSeriesName } from "../../ui/series-names.ts";

/**
 * A market proxy as the answers name it ("STOXX50E_INDEX+GDAXI_INDEX": the DAX before 2007 is its
 * chain), by its index's name (docs/analytics.md, "The market proxy"); a series without a name
 * reads "market index", never as its code.
 */
export function marketIndexName(proxy: string, i18n: I18n): string {
  return mainSeriesName(i18n, proxy, msg`market index`);
}

/** The look-back windows of PRODUCT.md ("Benchmark and risk conventions"). */
export const benchmarkLabels = {
  1: msg`1 month`,
  2: msg`3 months`,
  3: msg`6 months`,
  4: msg`1 year`,
  5: msg`3 years`,
  6: msg`5 years`,
} as const;

export const covarianceLabels: Record<string, ReturnType<typeof msg>> = {
  "ledoit-wolf": msg`Ledoit-Wolf shrinkage covariance`,
  sample: msg`sample covariance`,
  ewma: msg`EWMA covariance`,
};

/** "3-year window, 11/20/23 to 11/20/26 (756 days); horizon 1 month (21 trading days)". */
export function windowNote(a: AnalysisResponse, i18n: I18n, locale: Locale): string {
  const w = a.window;
  const label = i18n._(benchmarkLabels[w.benchmark as keyof typeof benchmarkLabels]);
  const from = formatDate(w.from, locale);
  const to = formatDate(w.to, locale);
  const days = w.observations;
  const horizon = w.horizonDays;
  return i18n._(
    msg`Window: ${label} of daily prices, ${from} to ${to} (${days} days). Horizon: ${horizon} trading days.`,
  );
}
