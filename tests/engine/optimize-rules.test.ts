// The specification's optimisation rules (§5 Risk and Optimize, §9 constants) as a validation that
// returns every violated rule with its code and numbers.
import { describe, expect, it } from "vitest";
import {
  MIN_DESIRED_RISK,
  OPTIMIZATION_LEVEL_THRESHOLD,
  maxToLose95Fraction,
  minimumMaxToLose95,
  validateOptimizationRequest,
  type OptimizationRequestCheck,
} from "../../src/engine/optimize/rules.ts";

const valid: OptimizationRequestCheck = {
  optimizationLevel: 1,
  clientLevel: 30,
  currency: "EUR",
  totalInvested: 10_000,
  maxToLose95: 500,
  assetCount: 5,
  maxAssets: 10,
  desiredAssetsAmount: null,
};
const codes = (input: Partial<OptimizationRequestCheck>) =>
  validateOptimizationRequest({ ...valid, ...input }).map((v) => v.code);

describe("constants", () => {
  it("are those of the specification", () => {
    expect(OPTIMIZATION_LEVEL_THRESHOLD).toBe(30);
    expect(MIN_DESIRED_RISK).toEqual({ EUR: 0.011, USD: 0.0174 });
  });
});

describe("minimum desired risk", () => {
  it("EUR: the maximum loss must reach 1.1% of the amount invested", () => {
    expect(minimumMaxToLose95("EUR", 10_000)).toBeCloseTo(110, 12);
    expect(codes({ maxToLose95: 110 })).toEqual([]);
    expect(validateOptimizationRequest({ ...valid, maxToLose95: 109.99 })).toEqual([
      {
        code: "MAX_LOSS_BELOW_MINIMUM_RISK",
        detail: {
          maxToLose95: 109.99,
          minimumMaxToLose95: expect.closeTo(110, 9),
          minimumFraction: 0.011,
        },
      },
    ]);
  });

  it("USD: 1.74%", () => {
    expect(codes({ currency: "USD", maxToLose95: 174 })).toEqual([]);
    expect(codes({ currency: "USD", maxToLose95: 173.9 })).toEqual(["MAX_LOSS_BELOW_MINIMUM_RISK"]);
  });

  it("is compared to the cent", () => {
    // 1.1% of 1234.56 is 13.58016: 13.58 (what a user types) reaches it, 13.57 does not.
    expect(codes({ totalInvested: 1234.56, maxToLose95: 13.58 })).toEqual([]);
    expect(codes({ totalInvested: 1234.56, maxToLose95: 13.57 })).toEqual([
      "MAX_LOSS_BELOW_MINIMUM_RISK",
    ]);
  });

  it("a missing maximum loss or total blocks optimisation", () => {
    expect(codes({ maxToLose95: null })).toEqual(["MAX_LOSS_REQUIRED"]);
    expect(codes({ totalInvested: 0 })).toEqual(["INVALID_TOTAL_INVESTED"]);
  });

  it("converts the amount into the CVaR cap", () => {
    expect(maxToLose95Fraction(500, 10_000)).toBe(0.05);
  });
});

describe("optimise levels", () => {
  it("levels 1 and 2: asset count within the limit and the client's level at least 30", () => {
    for (const optimizationLevel of [1, 2]) {
      expect(codes({ optimizationLevel })).toEqual([]);
      expect(codes({ optimizationLevel, assetCount: 11 })).toEqual(["ASSET_COUNT_ABOVE_LIMIT"]);
      expect(codes({ optimizationLevel, clientLevel: 29 })).toEqual([
        "CLIENT_LEVEL_BELOW_THRESHOLD",
      ]);
    }
  });

  it("level 3: also a desired number of assets, within the limit", () => {
    expect(codes({ optimizationLevel: 3 })).toEqual(["DESIRED_AMOUNT_REQUIRED"]);
    expect(codes({ optimizationLevel: 3, desiredAssetsAmount: 0 })).toEqual([
      "DESIRED_AMOUNT_REQUIRED",
    ]);
    expect(codes({ optimizationLevel: 3, desiredAssetsAmount: 8 })).toEqual([]);
    expect(codes({ optimizationLevel: 3, desiredAssetsAmount: 12 })).toEqual([
      "DESIRED_AMOUNT_ABOVE_LIMIT",
    ]);
  });

  it("an unknown level", () => {
    expect(codes({ optimizationLevel: 4 })).toEqual(["UNKNOWN_OPTIMIZATION_LEVEL"]);
  });

  it("lists every violation at once, with its numbers", () => {
    const violations = validateOptimizationRequest({
      ...valid,
      optimizationLevel: 3,
      clientLevel: 1,
      maxToLose95: 10,
      assetCount: 12,
    });
    expect(violations.map((v) => v.code)).toEqual([
      "MAX_LOSS_BELOW_MINIMUM_RISK",
      "CLIENT_LEVEL_BELOW_THRESHOLD",
      "ASSET_COUNT_ABOVE_LIMIT",
      "DESIRED_AMOUNT_REQUIRED",
    ]);
    expect(violations[1]!.detail).toEqual({ clientLevel: 1, threshold: 30 });
    expect(violations[2]!.detail).toEqual({ assetCount: 12, maxAssets: 10, fromPortfolio: 0 });
  });
});
