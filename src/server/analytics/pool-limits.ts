import { API_TIMEOUT_MS } from "../../contract/common.ts";

/** Defaults of the limits (docs/operations.md, "Analytics load"). */
export const POOL_DEFAULTS = {
  maxQueued: 256,
  /**
   * The app gives up on a call after 30 s (API_TIMEOUT_MS): a job must start early enough to be
   * computed and answered before; a heavy one takes a few seconds.
   */
  maxWaitMs: (API_TIMEOUT_MS * 2) / 3,
  perAccount: 4,
  /** What a job takes before one of its kind has been measured. */
  expectedMs: { light: 300, heavy: 4_000 },
} as const;
