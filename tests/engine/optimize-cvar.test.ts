// Loss at 95%: minimum CVaR and maximum return under a CVaR cap, against the HiGHS solutions of
// the Rockafellar–Uryasev LP in tests/engine/reference/optimize.json
// (scripts/reference/optimize.py). Objective tolerance: relative 1e-6 (|f − f_ref| ≤ 1e-6 |f_ref|);
// constraints to 1e-9.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Matrix } from "../../src/engine/linalg.ts";
import {
  historicalRisk,
  maximumReturnWithCvarCap,
  minimumCvar,
} from "../../src/engine/optimize/cvar.ts";
import { createRandom } from "../../src/engine/random.ts";

interface CvarCase {
  name: string;
  scenarios: number[][];
  confidence: number;
  lower: number[] | null;
  upper: number[] | null;
  minimumCvar: number;
  capped: { cap: number; expectedReturn: number; cvar: number; var: number }[];
  infeasibleCap: number;
}
const reference = JSON.parse(
  readFileSync(new URL("./reference/optimize.json", import.meta.url), "utf8"),
) as { cvar: CvarCase[]; cvarRandom: Omit<CvarCase, "infeasibleCap">[] };

const toMatrix = (rows: number[][]): Matrix => ({
  rows: rows.length,
  cols: rows[0]!.length,
  data: Float64Array.from(rows.flat()),
});
const arr = (v: number[] | null) => (v ? Float64Array.from(v) : undefined);

/** Historical VaR/CVaR written independently: sort losses, VaR = ⌈βS⌉-th smallest. */
function independentRisk(scen: Matrix, w: Float64Array, beta: number) {
  const losses: number[] = [];
  for (let s = 0; s < scen.rows; s++) {
    let v = 0;
    for (let j = 0; j < scen.cols; j++) v -= scen.data[s * scen.cols + j]! * w[j]!;
    losses.push(v);
  }
  const sorted = [...losses].sort((a, b) => a - b);
  const k = Math.ceil(beta * losses.length - 1e-9);
  const valueAtRisk = sorted[k - 1]!;
  const tail = losses.reduce((s, l) => s + Math.max(0, l - valueAtRisk), 0);
  return { var: valueAtRisk, cvar: valueAtRisk + tail / ((1 - beta) * losses.length) };
}

function expectFeasible(w: Float64Array, lo?: Float64Array, hi?: Float64Array) {
  let sum = 0;
  for (let i = 0; i < w.length; i++) {
    expect(w[i]!).toBeGreaterThanOrEqual((lo ? lo[i]! : 0) - 1e-9);
    expect(w[i]!).toBeLessThanOrEqual((hi ? hi[i]! : 1) + 1e-9);
    sum += w[i]!;
  }
  expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-9);
}

const relClose = (actual: number, expected: number, rel = 1e-6) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));

describe("minimum CVaR95 against HiGHS", () => {
  for (const c of reference.cvar) {
    it(c.name, () => {
      const scenarios = toMatrix(c.scenarios);
      const lower = arr(c.lower);
      const upper = arr(c.upper);
      const r = minimumCvar({ scenarios, lower, upper, confidence: c.confidence });
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      const v = r.value;
      relClose(v.cvar, c.minimumCvar);
      expect(v.minimumCvar).toBeCloseTo(v.cvar, 12);
      expectFeasible(v.weights, lower, upper);
      const check = independentRisk(scenarios, v.weights, c.confidence);
      expect(v.cvar).toBeCloseTo(check.cvar, 14);
      expect(v.var).toBeCloseTo(check.var, 14);
      expect(v.var).toBeLessThanOrEqual(v.cvar);
      expect(v.certificate.primalInfeasibility).toBeLessThanOrEqual(1e-9);
      expect(v.certificate.dualInfeasibility).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(v.certificate.dualityGap)).toBeLessThanOrEqual(1e-9);
    });
  }
});

describe("maximum expected return with CVaR95 ≤ cap against HiGHS", () => {
  for (const c of reference.cvar) {
    const scenarios = toMatrix(c.scenarios);
    const lower = arr(c.lower);
    const upper = arr(c.upper);
    for (const [k, capped] of c.capped.entries()) {
      it(`${c.name}, cap ${k + 1} = ${capped.cap.toFixed(5)}`, () => {
        const r = maximumReturnWithCvarCap({ scenarios, lower, upper, maxCvar: capped.cap });
        if (!r.ok) throw new Error(JSON.stringify(r.reason));
        const v = r.value;
        relClose(v.expectedReturn, capped.expectedReturn);
        expect(v.cvar).toBeLessThanOrEqual(capped.cap + 1e-9);
        expectFeasible(v.weights, lower, upper);
        const check = independentRisk(scenarios, v.weights, 0.95);
        expect(v.cvar).toBeCloseTo(check.cvar, 14);
        expect(v.var).toBeCloseTo(check.var, 14);
        expect(v.certificate.primalInfeasibility).toBeLessThanOrEqual(1e-9);
        expect(v.certificate.dualInfeasibility).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(v.certificate.dualityGap)).toBeLessThanOrEqual(1e-9);
      });
    }
    it(`${c.name}: a cap below the minimum CVaR is refused with that minimum`, () => {
      const r = maximumReturnWithCvarCap({ scenarios, lower, upper, maxCvar: c.infeasibleCap });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.reason.code).toBe("CVAR_CAP_INFEASIBLE");
      expect(r.reason.detail.maxCvar).toBe(c.infeasibleCap);
      relClose(r.reason.detail.minimumCvar!, c.minimumCvar);
    });
  }
});

describe("small degenerate LPs against HiGHS (ties, identical and riskless assets, tails of 1)", () => {
  it(`${reference.cvarRandom.length} problems, minimum CVaR and 3 caps each`, () => {
    for (const c of reference.cvarRandom) {
      const scenarios = toMatrix(c.scenarios);
      const lower = arr(c.lower);
      const upper = arr(c.upper);
      const confidence = c.confidence;
      const min = minimumCvar({ scenarios, lower, upper, confidence });
      if (!min.ok) throw new Error(`${c.name}: ${JSON.stringify(min.reason)}`);
      expect(Math.abs(min.value.cvar - c.minimumCvar), c.name).toBeLessThanOrEqual(
        1e-6 * Math.max(Math.abs(c.minimumCvar), 1e-6),
      );
      for (const capped of c.capped) {
        const r = maximumReturnWithCvarCap({
          scenarios,
          lower,
          upper,
          confidence,
          maxCvar: capped.cap,
        });
        if (!r.ok) throw new Error(`${c.name}: ${JSON.stringify(r.reason)}`);
        expect(
          Math.abs(r.value.expectedReturn - capped.expectedReturn),
          c.name,
        ).toBeLessThanOrEqual(1e-6 * Math.max(Math.abs(capped.expectedReturn), 1e-6));
        expect(r.value.cvar, c.name).toBeLessThanOrEqual(capped.cap + 1e-9);
        expectFeasible(r.value.weights, lower, upper);
        expect(Math.abs(r.value.certificate.dualityGap)).toBeLessThanOrEqual(1e-9);
      }
    }
  });
});

describe("a larger problem (n = 120, S = 1260, no reference): certificates and consistency", () => {
  const n = 120;
  const S = 1260;
  const random = createRandom(2024);
  const beta = Array.from({ length: n }, () => 1 + 0.3 * random.normal());
  const data = new Float64Array(S * n);
  for (let s = 0; s < S; s++) {
    const market = 0.01 * random.normal();
    for (let j = 0; j < n; j++)
      data[s * n + j] = 0.0003 + beta[j]! * market + 0.015 * random.normal();
  }
  const scenarios: Matrix = { rows: S, cols: n, data };
  const min = minimumCvar({ scenarios });

  it("minimum CVaR is certified optimal", () => {
    if (!min.ok) throw new Error(JSON.stringify(min.reason));
    expect(min.value.certificate.dualInfeasibility).toBeLessThanOrEqual(1e-9);
    expect(Math.abs(min.value.certificate.dualityGap)).toBeLessThanOrEqual(1e-9);
    // No single asset and not the equal-weight portfolio does better.
    const equal = new Float64Array(n).fill(1 / n);
    expect(min.value.cvar).toBeLessThanOrEqual(historicalRisk(scenarios, equal).cvar);
  });

  it("expected return grows with the cap; at the minimum CVaR the cap still holds", () => {
    if (!min.ok) throw new Error("no minimum");
    let previous = -Infinity;
    for (const factor of [1, 1.1, 1.5, 3]) {
      const cap = min.value.cvar * factor + (factor === 1 ? 1e-12 : 0);
      const r = maximumReturnWithCvarCap({ scenarios, maxCvar: cap });
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      expect(r.value.cvar).toBeLessThanOrEqual(cap + 1e-9);
      expect(r.value.expectedReturn).toBeGreaterThanOrEqual(previous - 1e-12);
      expect(Math.abs(r.value.certificate.dualityGap)).toBeLessThanOrEqual(1e-9);
      previous = r.value.expectedReturn;
    }
  });
});

describe("historical VaR and CVaR", () => {
  it("with 20 scenarios at 95%: VaR is the second worst loss, CVaR the worst", () => {
    const returns = Array.from({ length: 20 }, (_, s) => (s - 10) / 100); // losses 0.10 … −0.09
    const scenarios: Matrix = { rows: 20, cols: 1, data: Float64Array.from(returns) };
    const risk = historicalRisk(scenarios, Float64Array.of(1));
    expect(risk.var).toBeCloseTo(0.09, 15);
    expect(risk.cvar).toBeCloseTo(0.1, 15);
  });

  it("a single asset: the LP answer is that asset with its own CVaR", () => {
    const scenarios: Matrix = {
      rows: 40,
      cols: 1,
      data: Float64Array.from({ length: 40 }, (_, s) => Math.sin(s) / 50),
    };
    const r = minimumCvar({ scenarios });
    if (!r.ok) throw new Error(r.reason.code);
    expect([...r.value.weights]).toEqual([1]);
    expect(r.value.cvar).toBeCloseTo(historicalRisk(scenarios, Float64Array.of(1)).cvar, 14);
  });

  it("identical assets and a riskless asset are handled", () => {
    const S = 100;
    const data = new Float64Array(S * 3);
    const random = createRandom(5);
    for (let s = 0; s < S; s++) {
      const r = 0.02 * random.normal();
      data[s * 3] = r;
      data[s * 3 + 1] = r;
      data[s * 3 + 2] = 0.0001;
    }
    const scenarios: Matrix = { rows: S, cols: 3, data };
    const min = minimumCvar({ scenarios });
    if (!min.ok) throw new Error(min.reason.code);
    expect(min.value.weights[2]).toBeCloseTo(1, 12);
    expect(min.value.cvar).toBeCloseTo(-0.0001, 12);
    const capped = maximumReturnWithCvarCap({ scenarios, maxCvar: 0.01 });
    if (!capped.ok) throw new Error(capped.reason.code);
    expect(capped.value.cvar).toBeLessThanOrEqual(0.01 + 1e-9);
  });
});

describe("inputs", () => {
  it("are not mutated", () => {
    const c = reference.cvar[1]!;
    const scenarios = toMatrix(c.scenarios);
    const lower = arr(c.lower)!;
    const upper = arr(c.upper)!;
    const mu = Float64Array.from({ length: scenarios.cols }, (_, j) => j / 1000);
    const copies = [
      Float64Array.from(scenarios.data),
      Float64Array.from(lower),
      Float64Array.from(upper),
      Float64Array.from(mu),
    ];
    const r = maximumReturnWithCvarCap({
      scenarios,
      lower,
      upper,
      expectedReturns: mu,
      maxCvar: c.capped[1]!.cap,
    });
    expect(r.ok).toBe(true);
    expect([scenarios.data, lower, upper, mu]).toEqual(copies);
  });
});
