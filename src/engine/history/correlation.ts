/**
 * How the holdings move together: the sample (Pearson) correlation matrix of their daily returns,
 * each asset's average correlation to the others, and an order that puts related assets side by
 * side (average-linkage clustering on 1 - correlation). Formulas: docs/analytics.md, "Portfolio
 * history".
 */
import { sampleCovariance } from "../covariance.ts";
import { validatePanel, type ReturnsPanel } from "../panel.ts";
import { averageLinkage, type Dendrogram } from "./clustering.ts";

export interface Correlations {
  readonly assets: number;
  /** n x n row-major, in the panel's order: 1 on the diagonal, in [-1, 1] elsewhere. */
  readonly matrix: Float64Array;
  /** Mean of each asset's correlations to the n - 1 others (0 for a single asset). */
  readonly average: Float64Array;
  /**
   * 1 for an asset whose return was the same every day of the window (a correlation is not
   * defined for it): its correlation to every other asset is reported as 0.
   */
  readonly constant: Uint8Array;
  /** Average-linkage clustering on the distance 1 - correlation; `order` is the display order. */
  readonly dendrogram: Dendrogram;
}

/** Correlations of the panel's assets over all its observations (at least 2). */
export function correlations(panel: ReturnsPanel): Correlations {
  validatePanel(panel, 2, "correlations");
  const { assets: n, observations: t, data } = panel;
  const constant = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let lo = data[i]!;
    let hi = lo;
    for (let s = 1; s < t; s++) {
      const v = data[s * n + i]!;
      if (v < lo) lo = v;
      else if (v > hi) hi = v;
    }
    constant[i] = lo === hi ? 1 : 0;
  }
  const cov = sampleCovariance(panel).data;
  const sd = new Float64Array(n);
  for (let i = 0; i < n; i++) sd[i] = constant[i] ? 0 : Math.sqrt(cov[i * n + i]!);
  const matrix = new Float64Array(n * n);
  const distance = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    matrix[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const c =
        constant[i] || constant[j]
          ? 0
          : Math.max(-1, Math.min(1, cov[i * n + j]! / sd[i]! / sd[j]!));
      matrix[i * n + j] = c;
      matrix[j * n + i] = c;
      distance[i * n + j] = 1 - c;
      distance[j * n + i] = 1 - c;
    }
  }
  const average = new Float64Array(n);
  if (n > 1)
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) if (j !== i) s += matrix[i * n + j]!;
      average[i] = s / (n - 1);
    }
  return { assets: n, matrix, average, constant, dendrogram: averageLinkage(distance, n) };
}
