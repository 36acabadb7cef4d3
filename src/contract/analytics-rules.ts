/**
 * The analytics rules of the specification that both the screens and the server apply: the
 * what-if type priority (section 4) and which permission each what-if type and optimisation level
 * needs (sections 3 and 5, PRODUCT.md "What-if and optimisation screens").
 */
import type { OptimiseRequest, WhatIfRequest } from "./analytics.ts";
import type { ProductPermissions } from "./permissions.ts";

export type WhatIfKind = "backtest" | "scenario" | "custom";

/** The kind a request asks for, by the specification's priority: backtest, real scenario, custom. */
export function whatIfKind<
  R extends {
    readonly backTesting?: WhatIfRequest["backTesting"] | null;
    readonly scenarioType?: WhatIfRequest["scenarioType"] | null;
    readonly [other: string]: unknown;
  },
>(request: R): WhatIfKind {
  if (request.backTesting != null) return "backtest";
  if (request.scenarioType != null) return "scenario";
  return "custom";
}

/** The whatIf permission each kind needs. */
export const whatIfPermission = {
  custom: "marketScenarios",
  scenario: "realLifeScenarios",
  backtest: "backTesting",
} as const satisfies Record<WhatIfKind, keyof ProductPermissions["whatIf"]>;

/**
 * The optimisation level a request asks for: 3 with a desired number of assets
 * (constructionFixAssets), 2 when it adds assets from the universe (invested amount 0) or keeps
 * assets within weights (construction), else 1, the current assets (portfolio).
 */
export function optimisationLevel(
  request: Pick<OptimiseRequest, "assets" | "desiredAssetsAmount">,
): 1 | 2 | 3 {
  if (request.desiredAssetsAmount !== undefined) return 3;
  if (
    request.assets.some(
      (a) =>
        a.investedAmount === 0 || a.keep || a.minWeight !== undefined || a.maxWeight !== undefined,
    )
  )
    return 2;
  return 1;
}

/** The optimization permission each level needs. */
export const optimisationPermission = {
  1: "portfolio",
  2: "construction",
  3: "constructionFixAssets",
} as const satisfies Record<1 | 2 | 3, keyof ProductPermissions["optimization"]>;
