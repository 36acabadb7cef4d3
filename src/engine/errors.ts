/**
 * The one error the engine throws. `code` is stable (the server maps it to a msgCode); `message`
 * is for logs and says which input was wrong.
 */
export type EngineErrorCode =
  /** No asset in the panel, weights or amounts. */
  | "NO_ASSETS"
  /** Fewer observations than the figure needs (window longer than the history, < 2 returns, …). */
  | "NOT_ENOUGH_HISTORY"
  /** A NaN or infinite value, a negative amount, an empty series. */
  | "INVALID_INPUT"
  /** Sizes of panel, weights, factors or metadata do not agree. */
  | "DIMENSION_MISMATCH"
  /** Weights do not sum to 1, or amounts sum to zero. */
  | "INVALID_WEIGHTS"
  /** An option out of range (confidence, horizon, lambda, paths, scenario type, …). */
  | "INVALID_PARAMETER"
  /** A series has no value on or before a date the figure needs. */
  | "NO_DATA";

export class EngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string) {
    super(message);
    this.name = "EngineError";
    this.code = code;
  }
}
