// Scalar statistics: normal quantile properties and quantile edge cases (values against scipy
// and numpy are in risk-reference.test.ts).
import { describe, expect, it } from "vitest";
import {
  normalQuantile,
  quantilesBySelection,
  quantileSorted,
  sampleVariance,
  mean,
} from "../../src/engine/stats.ts";
import { createRandom } from "../../src/engine/random.ts";
import { expectClose } from "./analytics-helpers.ts";

describe("normal quantile", () => {
  it("is antisymmetric and increasing; refuses p outside (0, 1)", () => {
    for (const p of [1e-5, 1e-3, 0.01, 0.2, 0.4999])
      expectClose(normalQuantile(p), -normalQuantile(1 - p), 1e-9, 1e-15);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(1e-300)).toBeLessThan(normalQuantile(1e-20));
    expect(normalQuantile(1e-20)).toBeLessThan(-9);
    expect(() => normalQuantile(0)).toThrow(expect.objectContaining({ code: "INVALID_PARAMETER" }));
    expect(() => normalQuantile(NaN)).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
  });
});

describe("type-7 quantiles", () => {
  it("one value, both ends, interpolation", () => {
    expect(quantileSorted(Float64Array.of(3), 0.3)).toBe(3);
    expect(quantileSorted(Float64Array.of(1, 2, 3, 4), 0)).toBe(1);
    expect(quantileSorted(Float64Array.of(1, 2, 3, 4), 1)).toBe(4);
    expect(quantileSorted(Float64Array.of(1, 2, 3, 4), 0.5)).toBe(2.5);
    expect(() => quantileSorted(new Float64Array(0), 0.5)).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
  });
  it("selection equals sorting on random data with ties, without touching the input", () => {
    const r = createRandom(6);
    const x = Float64Array.from({ length: 1001 }, () => Math.round(r.normal() * 20) / 4 + 0);
    const copy = x.slice();
    const ps = [0, 0.05, 0.25, 0.5, 0.75, 0.95, 1];
    const sorted = x.slice().sort();
    const sel = quantilesBySelection(x, ps);
    ps.forEach((p, k) => expect(sel[k]).toBe(quantileSorted(sorted, p)));
    expect(x).toEqual(copy);
    expect(() => quantilesBySelection(x, [0.5, 0.2])).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
  });
  it("moments", () => {
    expect(mean([1, 2, 3])).toBe(2);
    expect(sampleVariance([1, 2, 3])).toBe(1);
    expect(() => sampleVariance([1])).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
  });
});
