/**
 * The portfolio rules of the specification (sections 4, 5, 6 and 9), as pure functions shared by
 * the machines' guards (the browser) and the server, which enforces the same rules again.
 */
import type { Product } from "./common.ts";
import type { ProductPermissions } from "./permissions.ts";

/** Section 9: default investment bounds and asset counts. */
export const MAX_INVESTMENT_DEFAULT = 5_000_000;
export const MIN_INVESTMENT_DEFAULT = 0;
export const MIN_ASSETS = 1;
export const MONKEY_MAX_ASSETS = 50;
export const DEFAULT_CURRENCY = "EUR";
export const DEFAULT_BENCHMARK = 5;
/** Minimum desired risk: the loss at 95% must reach this percentage of the amount invested. */
export const MIN_DESIRED_RISK_PERCENT = { EUR: 1.1, USD: 1.74 } as const;

/** Section 9: the asset count a maxAssetsLevel allows (1 -> 5, 2 -> 10, 3 -> 30, 4 -> 50, 5 -> 31, other 25). */
export function maxAssetsOfLevel(level: number | null | undefined): number {
  switch (level) {
    case 1:
      return 5;
    case 2:
      return 10;
    case 3:
      return 30;
    case 4:
      return 50;
    case 5:
      return 31;
    default:
      return 25;
  }
}

/** The levels q3 offers, by asset count, that the permission's maxAssets allows. */
export function offeredAssetLevels(
  permissions: ProductPermissions,
): { level: number; assets: number }[] {
  return [1, 2, 3, 5, 4]
    .map((level) => ({ level, assets: maxAssetsOfLevel(level) }))
    .filter((l) => l.assets <= Math.max(permissions.construction.maxAssets, maxAssetsOfLevel(1)));
}

/** The most assets a portfolio of this product and level may hold: 50 for simMonk, else by level. */
export function maxAssetsFor(product: Product, maxAssetsLevel: number | null | undefined): number {
  return product === "simMonk" ? MONKEY_MAX_ASSETS : maxAssetsOfLevel(maxAssetsLevel);
}

export interface InvestmentBounds {
  readonly min: number;
  readonly max: number;
}
export const DEFAULT_BOUNDS: InvestmentBounds = {
  min: MIN_INVESTMENT_DEFAULT,
  max: MAX_INVESTMENT_DEFAULT,
};

/** Why a set of amounts cannot make a portfolio; null when it can. */
export type CompositionProblem =
  "CURRENCY_UNDEFINED" | "TOO_FEW_ASSETS" | "TOO_MANY_ASSETS" | "TOTAL_TOO_LOW" | "TOTAL_TOO_HIGH";

export interface Composition {
  readonly product: Product;
  readonly currency: string | null | undefined;
  readonly maxAssetsLevel: number | null | undefined;
  /** Amounts per asset; zero or less means the asset is removed (section 4). */
  readonly amounts: readonly number[];
}

/** Assets kept: an amount of zero or less removes the asset (section 4). */
export function keptAmounts(amounts: readonly number[]): number[] {
  return amounts.filter((a) => a > 0);
}

export function totalOf(amounts: readonly number[]): number {
  return keptAmounts(amounts).reduce((s, a) => s + a, 0);
}

/**
 * Section 5: a portfolio can be created when its asset count is within min and max for its type
 * (and within the permission's maxAssets), and its total is above the minimum and not above the
 * maximum investment. A portfolio without a currency is refused first ("Portfolio Currency is
 * undefined", section 8).
 */
export function compositionProblem(
  c: Composition,
  permissions: ProductPermissions,
  bounds: InvestmentBounds = DEFAULT_BOUNDS,
): CompositionProblem | null {
  if (c.currency !== "EUR" && c.currency !== "USD") return "CURRENCY_UNDEFINED";
  const kept = keptAmounts(c.amounts);
  if (kept.length < MIN_ASSETS) return "TOO_FEW_ASSETS";
  const max = Math.min(
    maxAssetsFor(c.product, c.maxAssetsLevel),
    permissionMaxAssets(c.product, permissions),
  );
  if (kept.length > max) return "TOO_MANY_ASSETS";
  const total = totalOf(c.amounts);
  if (!(total > bounds.min)) return "TOTAL_TOO_LOW";
  if (total > bounds.max) return "TOTAL_TOO_HIGH";
  return null;
}

/** The permission's maxAssets (the banana challenge always allows 50). */
export function permissionMaxAssets(product: Product, permissions: ProductPermissions): number {
  return product === "simMonk" ? MONKEY_MAX_ASSETS : permissions.construction.maxAssets;
}

/** Section 5, lazy portfolios of the second edition: the total must not exceed the max investment. */
export function lazyTotalAllowed(
  total: number,
  bounds: InvestmentBounds = DEFAULT_BOUNDS,
): boolean {
  return total > 0 && total <= bounds.max;
}

/**
 * The specification's error text for a portfolio without a currency (section 8); the machines and
 * the server raise it as an Error, the screens show it translated.
 */
export const CURRENCY_UNDEFINED_MESSAGE = "Portfolio Currency is undefined";

export function requireCurrency(currency: string | null | undefined): "EUR" | "USD" {
  if (currency !== "EUR" && currency !== "USD") throw new Error(CURRENCY_UNDEFINED_MESSAGE);
  return currency;
}

/** Why a save is refused; null when allowed (section 6). */
export type SaveProblem = "SAVE_FORBIDDEN" | "ALREADY_SAVED" | "SAVE_LIMIT_REACHED";

export interface SaveFacts {
  readonly product: Product;
  readonly saved: boolean;
  /** Portfolios of this product already saved (for simMonk: in the portfolio's region). */
  readonly savedCount: number;
  readonly monkeyRegion?: "eu" | "usa" | null;
}

/** Saving needs the save permission, an unsaved portfolio and being under the limit (per region for simMonk). */
export function saveProblem(f: SaveFacts, permissions: ProductPermissions): SaveProblem | null {
  if (!permissions.construction.save) return "SAVE_FORBIDDEN";
  if (f.saved) return "ALREADY_SAVED";
  const limit =
    f.product === "simMonk"
      ? f.monkeyRegion
        ? permissions.construction.saveLimitPerRegion[f.monkeyRegion]
        : 0
      : permissions.construction.saveLimit;
  if (f.savedCount >= limit) return "SAVE_LIMIT_REACHED";
  return null;
}

/**
 * remainingEditions of a newly saved portfolio: the tier's editLimit, or null (unlimited) when the
 * tier may edit with a limit of 0; 0 when it may not edit (docs/decisions.md).
 */
export function initialRemainingEditions(permissions: ProductPermissions): number | null {
  const m = permissions.management;
  if (!m.edit) return 0;
  return m.editLimit > 0 ? m.editLimit : null;
}

/** Why an edit is refused; null when allowed (sections 4 and 5). */
export type EditProblem = "EDIT_FORBIDDEN" | "NO_EDITIONS_LEFT" | CompositionProblem;

/** Editing: the edit permission, remainingEditions null or above 0, and a valid composition. */
export function editProblem(
  remainingEditions: number | null,
  c: Composition,
  permissions: ProductPermissions,
  bounds: InvestmentBounds = DEFAULT_BOUNDS,
): EditProblem | null {
  if (!permissions.management.edit) return "EDIT_FORBIDDEN";
  if (remainingEditions !== null && remainingEditions <= 0) return "NO_EDITIONS_LEFT";
  return compositionProblem(c, permissions, bounds);
}

/** Section 5: the loss at 95% a user accepts must reach the minimum desired risk of the currency. */
export function meetsMinimumDesiredRisk(
  maxToLose95: number,
  totalInvested: number,
  currency: "EUR" | "USD",
): boolean {
  return maxToLose95 >= (totalInvested * MIN_DESIRED_RISK_PERCENT[currency]) / 100;
}

/** The orderings q3 offers, each behind its permission ("balanced" is always offered). */
export const ORDERINGS = [
  "balanced",
  "marketRisk",
  "expectedReturn",
  "riskReturn",
  "minimization",
] as const;
export type Ordering = (typeof ORDERINGS)[number];

export function orderingAllowed(o: Ordering, permissions: ProductPermissions): boolean {
  const c = permissions.construction;
  switch (o) {
    case "balanced":
      return true;
    case "marketRisk":
      return c.orderByMarketRisk;
    case "expectedReturn":
      return c.orderByExpectedReturn;
    case "riskReturn":
      return c.orderByRiskReturn;
    case "minimization":
      return c.minimization;
  }
}
