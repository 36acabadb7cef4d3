/**
 * The specification's rules that gate an optimisation (§5 "Risk" and "Optimize", §9 constants),
 * as a pure check the server and the UI machine both call before optimising. It returns every
 * violated rule with a code and its numbers; it never throws.
 *
 * Readings (docs/optimisation.md, "Rules"):
 *  - `optimizationLevel` is the optimisation state's `level`: 1 optimise the portfolio, 2 build a
 *    portfolio, 3 build with kept assets and a desired number of assets (the three optimisation
 *    permissions portfolio, construction, constructionFixAssets).
 *  - "a level of 30" is the client's `level`, which must be at least
 *    OPTIMIZATION_LEVEL_THRESHOLD (30).
 *  - "the maximum loss at 95% must reach total invested × 1.1% (EUR) / 1.74% (USD)": the amount
 *    maxToLose95 must be at least that minimum, compared to the cent.
 */

import type { OptimiseRequest } from "./analytics.ts";
import { optimisationLevel } from "./analytics-rules.ts";
import type { ProductPermissions } from "./permissions.ts";
import { maxAssetsOfLevel } from "./portfolio-rules.ts";

export const OPTIMIZATION_LEVEL_THRESHOLD = 30;

/** Minimum desired risk: the smallest maxToLose95 as a fraction of the amount invested. */
export const MIN_DESIRED_RISK = { EUR: 0.011, USD: 0.0174 } as const;

export type OptimizationCurrency = keyof typeof MIN_DESIRED_RISK;

export type OptimizationRuleCode =
  | "MAX_LOSS_BELOW_MINIMUM_RISK"
  | "MAX_LOSS_REQUIRED"
  | "CLIENT_LEVEL_BELOW_THRESHOLD"
  | "ASSET_COUNT_ABOVE_LIMIT"
  | "DESIRED_AMOUNT_REQUIRED"
  | "DESIRED_AMOUNT_ABOVE_LIMIT"
  | "UNKNOWN_OPTIMIZATION_LEVEL"
  | "INVALID_TOTAL_INVESTED";

export interface OptimizationRuleViolation {
  readonly code: OptimizationRuleCode;
  readonly detail: Readonly<Record<string, number>>;
}

export interface OptimizationRequestCheck {
  /** The optimisation state's level: 1, 2 or 3. */
  readonly optimizationLevel: number;
  /** The client's level (default 1 at sign-up). */
  readonly clientLevel: number;
  readonly currency: OptimizationCurrency;
  /** Total invested in the portfolio, in its currency. */
  readonly totalInvested: number;
  /** The user's maximum loss at 95% as an amount in the portfolio currency (null: not given). */
  readonly maxToLose95: number | null;
  /** Number of assets in the portfolio. */
  readonly assetCount: number;
  /** The client's maximum number of assets (permission maxAssets / maxAssetsLevel). */
  readonly maxAssets: number;
  /**
   * Where maxAssets comes from: the plan's maxAssets, or the portfolio's own maxAssetsLevel (the
   * "how many assets" answer of q3) when that is lower. Limit messages name it (detail
   * `fromPortfolio`: 1 for the portfolio, 0 for the plan).
   */
  readonly maxAssetsSource?: "plan" | "portfolio";
  /** desiredAssetsAmount of the optimisation state (null: not given). */
  readonly desiredAssetsAmount: number | null;
}

/** The smallest maxToLose95 (an amount) the rules accept for this total. */
export function minimumMaxToLose95(currency: OptimizationCurrency, totalInvested: number): number {
  return totalInvested * MIN_DESIRED_RISK[currency];
}

/** maxToLose95 as a fraction of the amount invested: the CVaR cap handed to the optimiser. */
export function maxToLose95Fraction(maxToLose95: number, totalInvested: number): number {
  return maxToLose95 / totalInvested;
}

const HALF_CENT = 0.005;

export function validateOptimizationRequest(
  input: OptimizationRequestCheck,
): OptimizationRuleViolation[] {
  const violations: OptimizationRuleViolation[] = [];
  const add = (code: OptimizationRuleCode, detail: Record<string, number> = {}) =>
    violations.push({ code, detail });
  const level = input.optimizationLevel;
  if (level !== 1 && level !== 2 && level !== 3)
    add("UNKNOWN_OPTIMIZATION_LEVEL", { optimizationLevel: level });

  // Risk: the maximum loss at 95% must reach the minimum desired risk.
  const total = input.totalInvested;
  if (!(Number.isFinite(total) && total > 0))
    add("INVALID_TOTAL_INVESTED", { totalInvested: total });
  else if (input.maxToLose95 === null || !Number.isFinite(input.maxToLose95))
    add("MAX_LOSS_REQUIRED");
  else {
    const minimum = minimumMaxToLose95(input.currency, total);
    if (input.maxToLose95 < minimum - HALF_CENT)
      add("MAX_LOSS_BELOW_MINIMUM_RISK", {
        maxToLose95: input.maxToLose95,
        minimumMaxToLose95: minimum,
        minimumFraction: MIN_DESIRED_RISK[input.currency],
      });
  }

  // Optimize: every level needs the client's level and the asset limit ("level 1 or 2" and
  // "level 3"); level 3 also a desired number of assets within the limit.
  if (!(input.clientLevel >= OPTIMIZATION_LEVEL_THRESHOLD))
    add("CLIENT_LEVEL_BELOW_THRESHOLD", {
      clientLevel: input.clientLevel,
      threshold: OPTIMIZATION_LEVEL_THRESHOLD,
    });
  if ((level === 1 || level === 2 || level === 3) && !(input.assetCount <= input.maxAssets))
    add("ASSET_COUNT_ABOVE_LIMIT", {
      assetCount: input.assetCount,
      maxAssets: input.maxAssets,
      fromPortfolio: fromPortfolio(input),
    });
  if (level === 3) {
    const desired = input.desiredAssetsAmount;
    if (desired === null || !Number.isInteger(desired) || desired < 1)
      add("DESIRED_AMOUNT_REQUIRED", desired === null ? {} : { desiredAssetsAmount: desired });
    else if (desired > input.maxAssets)
      add("DESIRED_AMOUNT_ABOVE_LIMIT", {
        desiredAssetsAmount: desired,
        maxAssets: input.maxAssets,
        fromPortfolio: fromPortfolio(input),
      });
  }
  return violations;
}

const fromPortfolio = (input: OptimizationRequestCheck) =>
  input.maxAssetsSource === "portfolio" ? 1 : 0;

/** The level a request is checked at: the one chosen, or higher when its options need more. */
export function requestLevel(request: OptimiseRequest): 1 | 2 | 3 {
  return Math.max(request.level ?? 1, optimisationLevel(request)) as 1 | 2 | 3;
}

/**
 * The rules for an optimise request, as the server enforces them and the optimise machine's
 * guards check them: the client's level, the asset count within the plan's maximum (every asset
 * of the request, candidates of the universe included, so that the answer can be adopted), a
 * desired number of assets at level 3, and a maximum loss at 95% reaching the minimum desired risk.
 */
export function optimisationViolations(
  request: OptimiseRequest,
  permissions: ProductPermissions,
  clientLevel: number,
): OptimizationRuleViolation[] {
  return validateOptimizationRequest({
    optimizationLevel: requestLevel(request),
    clientLevel,
    currency: request.currency,
    totalInvested: request.assets.reduce((s, a) => s + a.investedAmount, 0),
    maxToLose95: request.maxToLose95 ?? null,
    assetCount: request.assets.length,
    maxAssets: optimisationMaxAssets(request, permissions),
    maxAssetsSource: optimisationMaxAssetsSource(request, permissions),
    desiredAssetsAmount: request.desiredAssetsAmount ?? null,
  });
}

/**
 * Where the most assets an optimisation may consider comes from: the portfolio's maxAssetsLevel
 * (q3's answer) when its count is below the plan's maxAssets, else the plan.
 */
export function optimisationMaxAssetsSource(
  request: Pick<OptimiseRequest, "maxAssetsLevel">,
  permissions: ProductPermissions,
): "plan" | "portfolio" {
  return request.maxAssetsLevel != null &&
    maxAssetsOfLevel(request.maxAssetsLevel) < permissions.construction.maxAssets
    ? "portfolio"
    : "plan";
}

/** The most assets an optimisation may consider: the plan's, and the portfolio's level's when given. */
export function optimisationMaxAssets(
  request: Pick<OptimiseRequest, "maxAssetsLevel">,
  permissions: ProductPermissions,
): number {
  const plan = permissions.construction.maxAssets;
  return request.maxAssetsLevel == null
    ? plan
    : Math.min(plan, maxAssetsOfLevel(request.maxAssetsLevel));
}
