// What-if: OLS sensitivities on exact linear data, custom shocks, and scenario replay on
// hand-made series (history, spliced, proxy).
import { describe, expect, it } from "vitest";
import { dayNumber } from "../../src/engine/dates.ts";
import type { ReturnsPanel } from "../../src/engine/panel.ts";
import { createRandom } from "../../src/engine/random.ts";
import { applyShocks } from "../../src/engine/whatif/shocks.ts";
import {
  factorChanges,
  yearOnYearInflation,
  type FactorPanel,
} from "../../src/engine/whatif/factors.ts";
import { factorSensitivities, type Sensitivities } from "../../src/engine/whatif/sensitivities.ts";
import {
  replayScenario,
  scenarioFactorPanel,
  SCENARIOS,
} from "../../src/engine/whatif/scenarios.ts";
import { expectAllClose, expectAllFinite, expectClose, snapshot } from "./analytics-helpers.ts";

function exactModel(t: number) {
  const r = createRandom(12);
  const k = 3;
  const f = new Float64Array(t * k);
  const a = new Float64Array(t * 2);
  for (let s = 0; s < t; s++) {
    const m = 0.01 * r.normal();
    const dy = 0.05 * r.normal();
    f[s * k] = m;
    f[s * k + 1] = dy;
    f[s * k + 2] = 0; // crypto: no move in the window
    a[s * 2] = 0.0002 + 1.2 * m - 0.03 * dy;
    a[s * 2 + 1] = -0.0001 + 0.4 * m + 0.01 * dy;
  }
  const factors: FactorPanel = { factors: ["market", "rates", "crypto"], observations: t, data: f };
  const panel: ReturnsPanel = { assets: 2, observations: t, data: a };
  return { factors, panel };
}

describe("factor sensitivities (OLS)", () => {
  it("recovers the coefficients of an exact daily linear model (1e-10), R^2 = 1, drops a flat factor", () => {
    const { factors, panel } = exactModel(200);
    const s = factorSensitivities(panel, factors, { periodDays: 1 });
    expect(s.factors).toEqual(["market", "rates"]);
    expect(s.excluded).toEqual(["crypto"]);
    expectAllClose(s.betas, [1.2, -0.03, 0.4, 0.01], 1e-10, 1e-12);
    expectAllClose(s.alphas, [0.0002, -0.0001], 1e-8, 1e-13);
    expectAllClose(s.rSquared, [1, 1], 1e-10);
  });
  it("weekly periods (default) are counted back from the last observation", () => {
    const { factors, panel } = exactModel(203);
    expect(factorSensitivities(panel, factors).periods).toBe(40);
  });
  it("too few periods for the factors, or mismatched panels, are refused", () => {
    const { factors, panel } = exactModel(12);
    expect(() => factorSensitivities(panel, factors)).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
    const short = { ...factors, observations: 11, data: factors.data.subarray(0, 33) };
    expect(() => factorSensitivities(panel, short)).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    const dup = { ...factors, factors: ["market", "market", "rates"] as const };
    expect(() => factorSensitivities(panel, dup)).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
  });
  it("does not mutate its inputs", () => {
    const { factors, panel } = exactModel(100);
    const before = snapshot({ factors, panel });
    factorSensitivities(panel, factors);
    expect({ factors, panel }).toEqual(before);
  });
});

const sens = (betas: number[], factors: Sensitivities["factors"]): Sensitivities => ({
  factors,
  excluded: [],
  assets: betas.length / factors.length,
  betas: Float64Array.from(betas),
  alphas: new Float64Array(betas.length / factors.length),
  rSquared: new Float64Array(betas.length / factors.length),
  periods: 100,
  periodDays: 5,
});

describe("custom shocks", () => {
  const s = sens([1.2, -0.05, 0.5, 0.02, 2.5, 0], ["market", "rates"]);
  const amounts = Float64Array.of(5000, 3000, 2000);
  it("dr_i = sum_k beta_ik shock_k, change = amount dr, floored at -100%", () => {
    const r = applyShocks(s, amounts, { dRV: -0.5, dRF: 1, dCrypto: null });
    expectAllClose(r.assetReturns, [-0.65, -0.23, -1], 1e-14);
    expectAllClose(r.assetChanges, [-3250, -690, -2000], 1e-14);
    expectClose(r.totalChange, -5940, 1e-14);
    expectClose(r.totalReturn, -0.594, 1e-14);
    expect(r.ignored).toEqual([]);
  });
  it("a shock to a factor without a beta moves nothing and is reported", () => {
    const r = applyShocks(s, amounts, { dCrypto: -0.5 });
    expect([...r.assetReturns]).toEqual([0, 0, 0]);
    expect(r.ignored).toEqual(["crypto"]);
  });
  it("needs at least one shock; NaN shocks and wrong sizes are refused", () => {
    expect(() => applyShocks(s, amounts, {})).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => applyShocks(s, amounts, { dRV: null, inflation: null })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => applyShocks(s, amounts, { dRV: NaN })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
    expect(() => applyShocks(s, Float64Array.of(1), { dRV: 0.1 })).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });
});

describe("real scenarios", () => {
  // Pandemic 2020 (type 1): 2020-02-19 .. 2020-03-23.
  const d = (iso: string) => dayNumber(iso);
  const market = {
    factor: "market" as const,
    dates: Int32Array.from(
      ["2020-01-02", "2020-02-19", "2020-02-20", "2020-03-02", "2020-03-23", "2020-04-01"].map(d),
    ),
    values: Float64Array.of(100, 100, 90, 80, 60, 70),
  };
  const rates = {
    factor: "rates" as const,
    dates: Int32Array.from(["2020-01-02", "2020-02-19", "2020-03-02", "2020-03-23"].map(d)),
    values: Float64Array.of(1.8, 1.5, 1.1, 0.7),
  };
  const price = (rows: [string, number][]) => ({
    dates: Int32Array.from(rows.map(([x]) => d(x))),
    prices: Float64Array.from(rows.map(([, p]) => p)),
    currency: "EUR" as const,
  });
  const old = price([
    ["2019-01-02", 50],
    ["2020-02-18", 40],
    ["2020-03-20", 30],
    ["2020-06-01", 35],
  ]);
  const young = price([
    ["2020-03-02", 20],
    ["2020-03-23", 25],
    ["2020-05-01", 26],
  ]);
  const newborn = price([
    ["2021-01-04", 10],
    ["2021-01-05", 11],
  ]);
  const { panel, missing } = scenarioFactorPanel(1, [
    market,
    rates,
    { factor: "crypto", dates: Int32Array.of(d("2021-01-01")), values: Float64Array.of(1) },
  ]);
  const betas = sens([1, 0, 0.5, 0.1, 2, -0.1], ["market", "rates"]);

  it("builds the factor panel over the window and lists factors without data", () => {
    expect(missing).toEqual(["crypto"]);
    expect(panel.factors).toEqual(["market", "rates"]);
    expect(panel.observations).toBe(3); // 02-19 -> 02-20 -> 03-02 -> 03-23
    expectAllClose(panel.data, [-0.1, 0, -1 / 9, -0.4, -0.25, -0.4], 1e-14, 1e-15);
  });
  it("history, spliced and proxy assets; factor moves over the window", () => {
    const amounts = Float64Array.of(1000, 1000, 1000);
    const r = replayScenario({
      type: 1,
      currency: "EUR",
      assets: [{ prices: old }, { prices: young }, { prices: newborn }],
      amounts,
      sensitivities: betas,
      factors: panel,
    });
    expect(r.assets.map((a) => a.method)).toEqual(["history", "spliced", "proxy"]);
    expectClose(r.assets[0]!.return, 30 / 40 - 1, 1e-14);
    // Young: proxy 02-19..03-02 with beta 0.5 on the market and 0.1 on rates, then 20 -> 25.
    const g1 = (1 + 0.5 * -0.1 + 0.1 * 0) * (1 + 0.5 * (-1 / 9) + 0.1 * -0.4);
    expectClose(r.assets[1]!.return, g1 * 1.25 - 1, 1e-14);
    // Newborn: beta 2 on the market: 1 + 2 * (-0.25) = 0.5 on the last day, no floor needed.
    const g2 = (1 + 2 * -0.1) * (1 + 2 * (-1 / 9) - 0.1 * -0.4) * (1 + 2 * -0.25 - 0.1 * -0.4);
    expectClose(r.assets[2]!.return, g2 - 1, 1e-14);
    expectClose(r.factorMoves.market!, -0.4, 1e-14);
    expectClose(r.factorMoves.rates!, -0.8, 1e-14);
    expectClose(
      r.totalChange,
      1000 * (r.assets[0]!.return + r.assets[1]!.return + r.assets[2]!.return),
      1e-14,
    );
    expectAllFinite(r);
  });
  it("an asset without history and without sensitivities is refused; unknown types too", () => {
    expect(() =>
      replayScenario({
        type: 1,
        currency: "EUR",
        assets: [{ prices: newborn }],
        amounts: Float64Array.of(1),
      }),
    ).toThrow(expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }));
    expect(() =>
      replayScenario({
        type: 4,
        currency: "EUR",
        assets: [{ prices: old }],
        amounts: Float64Array.of(1),
      }),
    ).toThrow(expect.objectContaining({ code: "INVALID_PARAMETER" }));
    expect(() =>
      replayScenario({
        type: 1,
        currency: "USD",
        assets: [{ prices: old }],
        amounts: Float64Array.of(1),
      }),
    ).toThrow(expect.objectContaining({ code: "NO_DATA" }));
  });
  it("the four scenarios are the README's windows", () => {
    expect(SCENARIOS.map((s) => [s.type, s.start, s.end])).toEqual([
      [0, "2007-10-09", "2009-03-09"],
      [1, "2020-02-19", "2020-03-23"],
      [2, "2022-01-03", "2022-10-12"],
      [3, "2000-03-24", "2002-10-09"],
    ]);
  });
});

describe("factor series", () => {
  it("yearOnYearInflation: 100 (I_t / I_{t-12} - 1) for months with a value a year before", () => {
    const dates = Int32Array.from(
      Array.from({ length: 14 }, (_, k) => Date.UTC(2020, k, 1) / 86_400_000),
    );
    const index = Float64Array.from(Array.from({ length: 14 }, (_, k) => 100 * 1.002 ** k));
    const y = yearOnYearInflation(dates, index);
    expect(y.values.length).toBe(2);
    expectClose(y.values[0]!, 100 * (1.002 ** 12 - 1), 1e-12);
  });
  it("factorChanges: returns for return factors, point changes for level factors, carried forward", () => {
    const f = factorChanges(
      [
        { factor: "market", dates: Int32Array.of(0, 2), values: Float64Array.of(100, 110) },
        { factor: "rates", dates: Int32Array.of(0, 1), values: Float64Array.of(2, 2.5) },
      ],
      Int32Array.of(0, 1, 2),
    );
    expectAllClose(f.data, [0, 0.5, 0.1, 0], 1e-14, 1e-15);
    expect(() =>
      factorChanges(
        [{ factor: "market", dates: Int32Array.of(5), values: Float64Array.of(1) }],
        Int32Array.of(0, 6),
      ),
    ).toThrow(expect.objectContaining({ code: "NO_DATA" }));
  });
});
