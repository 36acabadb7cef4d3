// The seeded factor-model generator: reproducible, and with the moments it was built with.
import { describe, expect, it } from "vitest";
import { pricesFromReturns, syntheticMarket } from "../../src/engine/synthetic.ts";
import { mean, sampleVariance } from "../../src/engine/stats.ts";
import { expectAllFinite, expectClose } from "./analytics-helpers.ts";

describe("syntheticMarket", () => {
  it("same options and seed, same numbers; another seed, other numbers", () => {
    const a = syntheticMarket({ assets: 5, days: 100, seed: 3 });
    expect(syntheticMarket({ assets: 5, days: 100, seed: 3 })).toEqual(a);
    expect(syntheticMarket({ assets: 5, days: 100, seed: 4 }).panel.data).not.toEqual(a.panel.data);
  });
  it("market volatility 16% a year and market betas within sampling error (5000 days)", () => {
    const s = syntheticMarket({ assets: 4, days: 5000, seed: 1, degreesOfFreedom: 5 });
    expectAllFinite(s);
    expectClose(Math.sqrt(sampleVariance(s.market) * 252), 0.16, 0.05);
    const mm = mean(s.market);
    const vm = sampleVariance(s.market);
    for (let i = 0; i < 4; i++) {
      const x = Float64Array.from({ length: 5000 }, (_, t) => s.panel.data[t * 4 + i]!);
      const mx = mean(x);
      let c = 0;
      for (let t = 0; t < 5000; t++) c += (x[t]! - mx) * (s.market[t]! - mm);
      expectClose(c / 4999 / vm, s.betas[i]!, 0, 0.1);
    }
  });
  it("prices from returns and parameter checks", () => {
    const s = syntheticMarket({ assets: 2, days: 3, seed: 1 });
    const p = pricesFromReturns(s.panel);
    expect(p[0]).toBe(100);
    expectClose(p[4]!, 100 * (1 + s.panel.data[0]!) * (1 + s.panel.data[2]!), 1e-14);
    expect(() => syntheticMarket({ assets: 0, days: 10 })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => syntheticMarket({ assets: 2, days: 10, degreesOfFreedom: 2 })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
  });
});
