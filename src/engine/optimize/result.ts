/**
 * Typed outcomes of the optimiser. Optimisers never throw on a request that cannot be met: they
 * say which constraint fails and with which numbers, so the server and the UI can explain it.
 */

export type OptimizationFailureCode =
  /** Inputs of the wrong shape or not finite (detail names the offending index). */
  | "INVALID_INPUT"
  /** Per-asset bounds cannot add up to 1 (sum of minimums above 1 or sum of maximums below 1). */
  | "BOUNDS_INFEASIBLE"
  /** The CVaR cap is below the smallest CVaR any admissible portfolio reaches. */
  | "CVAR_CAP_INFEASIBLE"
  /** No choice of at most/exactly K assets satisfies the bounds and the kept assets. */
  | "CARDINALITY_INFEASIBLE"
  /** A target return outside the range the bounds allow. */
  | "TARGET_RETURN_INFEASIBLE"
  /** The solver stopped (iteration limit) before its optimality test passed. */
  | "NOT_CONVERGED";

export interface OptimizationFailure {
  readonly code: OptimizationFailureCode;
  /** Finite numbers that explain the failure (e.g. sumOfMinimums, minimumCvar, maxCvar). */
  readonly detail: Readonly<Record<string, number>>;
}

export type OptimizationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: OptimizationFailure };

export const succeed = <T>(value: T): OptimizationResult<T> => ({ ok: true, value });

/** An explanation; detail keeps finite numbers only (a NaN or infinite input is named, not echoed). */
export const failure = (
  code: OptimizationFailureCode,
  detail: Record<string, number> = {},
): OptimizationFailure => ({
  code,
  detail: Object.fromEntries(Object.entries(detail).filter(([, v]) => Number.isFinite(v))),
});

export const fail = <T>(
  code: OptimizationFailureCode,
  detail: Record<string, number> = {},
): OptimizationResult<T> => ({ ok: false, reason: failure(code, detail) });
