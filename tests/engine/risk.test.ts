// Risk figures against closed forms and textbook identities (Jorion, "Value at Risk", 3rd ed.;
// Tasche 2000 on Euler allocation), and their behaviour on degenerate inputs.
import { describe, expect, it } from "vitest";
import { EngineError } from "../../src/engine/errors.ts";
import { cholesky, type Matrix } from "../../src/engine/linalg.ts";
import type { ReturnsPanel } from "../../src/engine/panel.ts";
import {
  componentRisk,
  currencyRisk,
  diversification,
  historicalVar,
  monteCarloVar,
  parametricVar,
  portfolioVolatility,
  tailFigures,
} from "../../src/engine/risk.ts";
import { createRandom } from "../../src/engine/random.ts";
import { expectAllFinite, expectClose, snapshot } from "./analytics-helpers.ts";

const m = (rows: number[][]): Matrix => ({
  rows: rows.length,
  cols: rows.length,
  data: Float64Array.from(rows.flat()),
});
const cov2 = (s1: number, s2: number, rho: number) =>
  m([
    [s1 * s1, rho * s1 * s2],
    [rho * s1 * s2, s2 * s2],
  ]);
const Z95 = 1.6448536269514722; // scipy.stats.norm.ppf(0.95)
const PHI_Z95 = 0.10313564037537128; // scipy.stats.norm.pdf(Z95)

function randomPanel(n: number, t: number, seed: number, scale = 0.01): ReturnsPanel {
  const r = createRandom(seed);
  const data = new Float64Array(n * t);
  for (let k = 0; k < data.length; k++) data[k] = scale * r.normal();
  return { assets: n, observations: t, data };
}

describe("portfolio volatility and parametric VaR: closed forms (tolerance 1e-14 relative)", () => {
  it("two assets: sigma_p^2 = w1^2 s1^2 + w2^2 s2^2 + 2 w1 w2 rho s1 s2", () => {
    const w = Float64Array.of(0.6, 0.4);
    for (const rho of [-1, -0.3, 0, 0.5, 1]) {
      const expected = Math.sqrt(
        0.36 * 0.02 ** 2 + 0.16 * 0.01 ** 2 + 2 * 0.24 * rho * 0.02 * 0.01,
      );
      expectClose(
        portfolioVolatility(cov2(0.02, 0.01, rho), w),
        expected,
        1e-14,
        1e-18,
        `rho ${rho}`,
      );
    }
  });
  it("normal VaR = z sigma sqrt(h), CVaR = sigma sqrt(h) phi(z) / (1 - c) (Jorion ch. 5)", () => {
    const v = parametricVar(m([[0.02 ** 2]]), Float64Array.of(1));
    expectClose(v.var, Z95 * 0.02 * Math.sqrt(21), 1e-14);
    expectClose(v.cvar, (0.02 * Math.sqrt(21) * PHI_Z95) / 0.05, 1e-14);
    // With the sample mean: VaR = z sigma sqrt(h) - h mu.
    const s = parametricVar(
      m([[0.02 ** 2]]),
      Float64Array.of(1),
      { mean: "sample", horizonDays: 10, confidence: 0.99 },
      Float64Array.of(0.001),
    );
    expectClose(s.var, 2.3263478740408408 * 0.02 * Math.sqrt(10) - 0.01, 1e-14);
  });
});

describe("Euler allocation (Tasche 2000): contributions add up to the total", () => {
  const cov = m([
    [0.0004, 0.0001, -0.00005],
    [0.0001, 0.0002, 0.00003],
    [-0.00005, 0.00003, 0.0009],
  ]);
  const w = Float64Array.of(0.5, 0.3, 0.2);
  it("sum of contributions = volatility, percentages sum to 100, VaR contributions sum to the VaR (1e-14)", () => {
    const c = componentRisk(cov, w);
    expectClose(
      c.contribution.reduce((a, b) => a + b),
      c.volatility,
      1e-14,
    );
    expectClose(
      c.percentage.reduce((a, b) => a + b),
      100,
      1e-14,
    );
    expectClose(
      c.varContribution.reduce((a, b) => a + b),
      parametricVar(cov, w).var,
      1e-14,
    );
  });
  it("the marginal contribution is the derivative of the volatility (central difference, 1e-7)", () => {
    const c = componentRisk(cov, w, { horizonDays: 1 });
    for (let i = 0; i < 3; i++) {
      const up = w.slice();
      const down = w.slice();
      const eps = 1e-6;
      up[i] = up[i]! + eps;
      down[i] = down[i]! - eps;
      const f = (x: Float64Array) =>
        Math.sqrt(
          x.reduce(
            (s, xi, a) => s + xi * x.reduce((t, xj, b) => t + cov.data[a * 3 + b]! * xj, 0),
            0,
          ),
        );
      expectClose(c.marginal[i]!, (f(up) - f(down)) / (2 * eps), 1e-7);
    }
  });
  it("a riskless portfolio: every contribution and percentage is 0, not NaN", () => {
    const c = componentRisk(
      m([
        [0, 0],
        [0, 0],
      ]),
      Float64Array.of(0.5, 0.5),
    );
    expectAllFinite(c);
    expect([...c.percentage]).toEqual([0, 0]);
  });
});

describe("diversification", () => {
  it("perfectly correlated assets: no reduction; two uncorrelated equal assets: 1 - 1/sqrt(2)", () => {
    const w = Float64Array.of(0.5, 0.5);
    const one = diversification(cov2(0.02, 0.02, 1), w);
    expectClose(one.reduction, 0, 0, 1e-12);
    expectClose(one.ratio, 1, 1e-12);
    const zero = diversification(cov2(0.02, 0.02, 0), w);
    expectClose(zero.reduction, 1 - 1 / Math.SQRT2, 1e-14);
    expectClose(zero.ratio, Math.SQRT2, 1e-14);
    expectClose(zero.standAloneSum, 0.02 * Math.sqrt(21), 1e-14);
  });
  it("a riskless portfolio: reduction 0 and ratio 1", () => {
    const d = diversification(m([[0]]), Float64Array.of(1));
    expect(d.reduction).toBe(0);
    expect(d.ratio).toBe(1);
  });
});

describe("historical VaR", () => {
  it("type-7 quantile by hand: 20 daily returns, h = 1", () => {
    const x = Float64Array.from([
      -0.05, -0.03, -0.02, -0.01, 0, 0.01, 0.02, 0.03, 0.01, 0, -0.005, 0.004, 0.006, 0.002, -0.001,
      0.003, 0.007, 0.008, 0.009, 0.011,
    ]);
    const v = historicalVar({ assets: 1, observations: 20, data: x }, Float64Array.of(1), {
      horizonDays: 1,
    });
    // sorted: -0.05, -0.03, ...; h = 19 * 0.05 = 0.95 -> -0.05 + 0.95 * 0.02 = -0.031
    expectClose(v.var, 0.031, 1e-12);
    expectClose(v.cvar, 0.05, 1e-12);
    expect(v.scenarios).toBe(20);
    expect(v.scaling).toBe("overlapping");
  });
  it("constant daily return r over a year: every 21-day window returns (1 + r)^21 - 1", () => {
    const data = new Float64Array(300).fill(-0.001);
    const v = historicalVar({ assets: 1, observations: 300, data }, Float64Array.of(1));
    expect(v.scaling).toBe("overlapping");
    expect(v.scenarios).toBe(280);
    expectClose(v.var, 1 - 0.999 ** 21, 1e-12);
    expectClose(v.cvar, 1 - 0.999 ** 21, 1e-12);
  });
  it("buy and hold inside a window: two assets, one doubles, one halves", () => {
    // Asset 0 +100% on day 0, asset 1 -50% on day 0; 50/50 held 1 day: 0.5 * 2 + 0.5 * 0.5 - 1 = 0.25.
    const t = tailFigures(Float64Array.of(0.25), 0.95);
    expect(t.var).toBe(-0.25);
  });
});

describe("Monte Carlo VaR", () => {
  it("one asset: the lognormal quantile 1 - exp(-s^2/2 - z s) within 4 standard errors (10 000 paths)", () => {
    const sigma = 0.015;
    const s = sigma * Math.sqrt(21);
    const cov = m([[sigma * sigma]]);
    const v = monteCarloVar(cov, cholesky(cov)!, Float64Array.of(1), { paths: 10_000, seed: 3 });
    const expected = 1 - Math.exp(-(s * s) / 2 - Z95 * s);
    // Standard error of the 5% quantile: sqrt(p (1 - p) / n) / density, in units of s.
    const se = (Math.sqrt((0.05 * 0.95) / 10_000) / PHI_Z95) * s;
    expectClose(v.var, expected, 0, 4 * se);
    expect(v.cvar).toBeGreaterThan(v.var);
  });
  it("is reproducible from its seed and changes with it", () => {
    const cov = cov2(0.02, 0.01, 0.3);
    const l = cholesky(cov)!;
    const w = Float64Array.of(0.7, 0.3);
    expect(monteCarloVar(cov, l, w, { paths: 500, seed: 9 })).toEqual(
      monteCarloVar(cov, l, w, { paths: 500, seed: 9 }),
    );
    expect(monteCarloVar(cov, l, w, { paths: 500, seed: 9 }).var).not.toBe(
      monteCarloVar(cov, l, w, { paths: 500, seed: 10 }).var,
    );
  });
});

describe("currency risk", () => {
  it("no foreign asset: zero exposure and contribution, the hedged volatility is the volatility", () => {
    const p = randomPanel(2, 100, 4);
    const fx = randomPanel(1, 100, 5, 0.005).data;
    const c = currencyRisk(p, Float64Array.of(0.5, 0.5), fx, Uint8Array.of(0, 0));
    expect(c.exposure).toBe(0);
    expect(c.contribution).toBe(0);
    expectClose(c.volatilityWithoutCurrency, c.volatility, 1e-14);
  });
  it("a portfolio that is only the currency: the currency is 100% of the risk", () => {
    const fx = randomPanel(1, 100, 5, 0.005).data;
    const c = currencyRisk(
      { assets: 1, observations: 100, data: fx },
      Float64Array.of(1),
      fx,
      Uint8Array.of(1),
    );
    expectClose(c.percentage, 100, 1e-12);
    expectClose(c.volatilityWithoutCurrency, 0, 0, 1e-15);
  });
});

describe("degenerate inputs give EngineError codes, never NaN", () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(EngineError);
      return (e as EngineError).code;
    }
    return "no error";
  };
  const cov = cov2(0.02, 0.01, 0.2);
  it("weights", () => {
    expect(code(() => portfolioVolatility(cov, Float64Array.of(0.5, 0.6)))).toBe("INVALID_WEIGHTS");
    expect(code(() => portfolioVolatility(cov, Float64Array.of(1)))).toBe("DIMENSION_MISMATCH");
    expect(code(() => portfolioVolatility(cov, Float64Array.of(NaN, 1)))).toBe("INVALID_INPUT");
    expect(code(() => portfolioVolatility(m([]), new Float64Array(0)))).toBe("NO_ASSETS");
  });
  it("options", () => {
    expect(code(() => parametricVar(cov, Float64Array.of(0.5, 0.5), { confidence: 1 }))).toBe(
      "INVALID_PARAMETER",
    );
    expect(code(() => parametricVar(cov, Float64Array.of(0.5, 0.5), { horizonDays: 0 }))).toBe(
      "INVALID_PARAMETER",
    );
    expect(code(() => parametricVar(cov, Float64Array.of(0.5, 0.5), { mean: "sample" }))).toBe(
      "DIMENSION_MISMATCH",
    );
    expect(
      code(() => monteCarloVar(cov, cholesky(cov)!, Float64Array.of(0.5, 0.5), { paths: 1 })),
    ).toBe("INVALID_PARAMETER");
  });
  it("history", () => {
    const w = Float64Array.of(1);
    expect(
      code(() => historicalVar({ assets: 1, observations: 1, data: Float64Array.of(0.01) }, w)),
    ).toBe("NOT_ENOUGH_HISTORY");
    expect(
      code(() =>
        historicalVar({ assets: 1, observations: 2, data: Float64Array.of(0.01, NaN) }, w),
      ),
    ).toBe("INVALID_INPUT");
    expect(
      code(() => historicalVar({ assets: 1, observations: 2, data: Float64Array.of(0.01, -1) }, w)),
    ).toBe("INVALID_INPUT");
    expect(
      code(() => historicalVar({ assets: 0, observations: 2, data: new Float64Array(0) }, w)),
    ).toBe("NO_ASSETS");
    expect(
      code(() => historicalVar({ assets: 1, observations: 3, data: Float64Array.of(0.01) }, w)),
    ).toBe("DIMENSION_MISMATCH");
  });
  it("inputs are not mutated", () => {
    const p = randomPanel(3, 300, 8);
    const w = Float64Array.of(0.2, 0.3, 0.5);
    const before = snapshot({ p, w });
    historicalVar(p, w);
    currencyRisk(p, w, randomPanel(1, 300, 2).data, Uint8Array.of(1, 0, 1));
    expect({ p, w }).toEqual(before);
  });
});
