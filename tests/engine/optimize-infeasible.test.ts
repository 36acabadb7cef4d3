// Requests that cannot be met say which constraint fails, with numbers; malformed inputs are
// INVALID_INPUT; nothing throws and no number in any answer is NaN.
import { describe, expect, it } from "vitest";
import type { Matrix } from "../../src/engine/linalg.ts";
import { minimumRiskWithCardinality } from "../../src/engine/optimize/cardinality.ts";
import { maximumReturnWithCvarCap, minimumCvar } from "../../src/engine/optimize/cvar.ts";
import { efficientFrontier, minimumRiskForReturn } from "../../src/engine/optimize/frontier.ts";
import { minimumRisk } from "../../src/engine/optimize/min-risk.ts";
import type { OptimizationResult } from "../../src/engine/optimize/result.ts";

const cov3: Matrix = {
  rows: 3,
  cols: 3,
  data: Float64Array.of(0.04, 0.006, 0.002, 0.006, 0.09, 0.01, 0.002, 0.01, 0.0225),
};
const v = (...xs: number[]) => Float64Array.from(xs);

function noNaN(value: unknown): void {
  if (typeof value === "number") expect(Number.isNaN(value)).toBe(false);
  else if (ArrayBuffer.isView(value)) for (const x of value as Float64Array) noNaN(x);
  else if (Array.isArray(value)) value.forEach(noNaN);
  else if (value && typeof value === "object") Object.values(value).forEach(noNaN);
}

function reason<T>(r: OptimizationResult<T>) {
  noNaN(r);
  if (r.ok) throw new Error("expected a failure");
  return r.reason;
}

describe("bounds", () => {
  it("minimums adding up to more than 1", () => {
    expect(reason(minimumRisk({ covariance: cov3, lower: v(0.5, 0.4, 0.3) }))).toEqual({
      code: "BOUNDS_INFEASIBLE",
      detail: { sumOfMinimums: 1.2 },
    });
  });

  it("maximums adding up to less than 1", () => {
    const r = reason(minimumRisk({ covariance: cov3, upper: v(0.3, 0.3, 0.3) }));
    expect(r.code).toBe("BOUNDS_INFEASIBLE");
    expect(r.detail.sumOfMaximums).toBeCloseTo(0.9, 15);
  });

  it("a minimum above its maximum", () => {
    expect(
      reason(minimumRisk({ covariance: cov3, lower: v(0, 0.6, 0), upper: v(1, 0.5, 1) })),
    ).toEqual({ code: "BOUNDS_INFEASIBLE", detail: { asset: 1, lower: 0.6, upper: 0.5 } });
  });

  it("bounds outside [0, 1] are malformed", () => {
    expect(reason(minimumRisk({ covariance: cov3, lower: v(-0.1, 0, 0) })).code).toBe(
      "INVALID_INPUT",
    );
  });

  it("the same for the frontier and the CVaR problems", () => {
    const scenarios: Matrix = { rows: 2, cols: 3, data: v(0.01, 0.02, -0.01, -0.02, 0.01, 0.03) };
    expect(
      reason(
        efficientFrontier({
          covariance: cov3,
          expectedReturns: v(1, 2, 3),
          upper: v(0.1, 0.1, 0.1),
        }),
      ).code,
    ).toBe("BOUNDS_INFEASIBLE");
    expect(reason(minimumCvar({ scenarios, lower: v(0.5, 0.5, 0.5) })).code).toBe(
      "BOUNDS_INFEASIBLE",
    );
  });

  it("exact budget: minimums adding up to exactly 1 give the minimums", () => {
    const r = minimumRisk({ covariance: cov3, lower: v(0.2, 0.3, 0.5) });
    expect(r.ok && [...r.value.weights]).toEqual([0.2, 0.3, 0.5]);
  });
});

describe("CVaR cap", () => {
  const scenarios: Matrix = {
    rows: 20,
    cols: 2,
    data: Float64Array.from({ length: 40 }, (_, t) => (t % 2 ? 0.02 : -0.03) * Math.cos(t)),
  };

  it("a cap below the minimum achievable CVaR reports that minimum", () => {
    const min = minimumCvar({ scenarios });
    if (!min.ok) throw new Error(min.reason.code);
    const r = reason(maximumReturnWithCvarCap({ scenarios, maxCvar: min.value.cvar / 2 }));
    expect(r.code).toBe("CVAR_CAP_INFEASIBLE");
    expect(r.detail.maxCvar).toBe(min.value.cvar / 2);
    expect(r.detail.minimumCvar).toBeCloseTo(min.value.cvar, 12);
  });

  it("a cap that is not a number", () => {
    expect(reason(maximumReturnWithCvarCap({ scenarios, maxCvar: Number.NaN })).code).toBe(
      "INVALID_INPUT",
    );
  });

  it("a confidence outside (0, 1) and non-finite scenarios", () => {
    expect(reason(minimumCvar({ scenarios, confidence: 1 })).code).toBe("INVALID_INPUT");
    const bad: Matrix = { rows: 1, cols: 2, data: v(0.01, Number.POSITIVE_INFINITY) };
    expect(reason(minimumCvar({ scenarios: bad }))).toEqual({
      code: "INVALID_INPUT",
      detail: { scenario: 0, asset: 1 },
    });
  });
});

describe("desired number of assets", () => {
  it("fewer assets than kept ones", () => {
    expect(
      reason(minimumRiskWithCardinality({ covariance: cov3, maxAssets: 1, keep: [0, 2] })),
    ).toEqual({
      code: "CARDINALITY_INFEASIBLE",
      detail: { maxAssets: 1, keptAssets: 2 },
    });
  });

  it("K assets cannot reach a budget of 1 under their maximums", () => {
    const r = reason(
      minimumRiskWithCardinality({ covariance: cov3, maxAssets: 2, upper: v(0.4, 0.4, 0.4) }),
    );
    expect(r.code).toBe("CARDINALITY_INFEASIBLE");
    expect(r.detail.maximumTotalWeight).toBeCloseTo(0.8, 15);
  });

  it("exactly K with too few assets available", () => {
    expect(
      reason(
        minimumRiskWithCardinality({
          covariance: cov3,
          maxAssets: 3,
          mode: "exactly",
          upper: v(1, 0, 1),
        }),
      ),
    ).toEqual({ code: "CARDINALITY_INFEASIBLE", detail: { maxAssets: 3, availableAssets: 2 } });
  });

  it("exactly K whose minimum holdings exceed the budget", () => {
    const r = reason(
      minimumRiskWithCardinality({
        covariance: cov3,
        maxAssets: 3,
        mode: "exactly",
        minHolding: 0.4,
      }),
    );
    expect(r.code).toBe("CARDINALITY_INFEASIBLE");
    expect(r.detail.minimumTotalWeight).toBeCloseTo(1.2, 15);
  });

  it("K that is not a positive integer", () => {
    expect(reason(minimumRiskWithCardinality({ covariance: cov3, maxAssets: 0 })).code).toBe(
      "INVALID_INPUT",
    );
    expect(reason(minimumRiskWithCardinality({ covariance: cov3, maxAssets: 1.5 })).code).toBe(
      "INVALID_INPUT",
    );
  });
});

describe("target return", () => {
  it("above the maximum the bounds allow", () => {
    expect(
      reason(
        minimumRiskForReturn({
          covariance: cov3,
          expectedReturns: v(0.01, 0.05, 0.03),
          targetReturn: 0.06,
          upper: v(1, 0.5, 1),
        }),
      ),
    ).toEqual({
      code: "TARGET_RETURN_INFEASIBLE",
      detail: { targetReturn: 0.06, minimumReturn: 0.01, maximumReturn: 0.04 },
    });
  });
});

describe("malformed covariances", () => {
  it("not square, not finite, negative variance, not symmetric", () => {
    const cases: Matrix[] = [
      { rows: 2, cols: 3, data: new Float64Array(6) },
      { rows: 2, cols: 2, data: v(0.04, Number.NaN, Number.NaN, 0.09) },
      { rows: 2, cols: 2, data: v(-0.04, 0, 0, 0.09) },
      { rows: 2, cols: 2, data: v(0.04, 0.01, 0.02, 0.09) },
      { rows: 0, cols: 0, data: new Float64Array(0) },
    ];
    for (const covariance of cases)
      expect(reason(minimumRisk({ covariance })).code).toBe("INVALID_INPUT");
  });

  it("vectors of the wrong length", () => {
    expect(reason(minimumRisk({ covariance: cov3, upper: v(1, 1) }))).toEqual({
      code: "INVALID_INPUT",
      detail: { length: 2, expected: 3 },
    });
  });
});

describe("never NaN in a success either", () => {
  it("minimum risk, frontier, CVaR and cardinality answers are finite", () => {
    noNaN(minimumRisk({ covariance: cov3 }));
    noNaN(efficientFrontier({ covariance: cov3, expectedReturns: v(0.01, 0.05, 0.03) }));
    noNaN(minimumRiskWithCardinality({ covariance: cov3, maxAssets: 2 }));
    const scenarios: Matrix = {
      rows: 3,
      cols: 3,
      data: v(0.01, 0, -0.02, 0.02, -0.01, 0, 0, 0.01, 0.01),
    };
    noNaN(maximumReturnWithCvarCap({ scenarios, maxCvar: 0.5 }));
  });
});
