// The value path of a real scenario, on hand-made series (the fixture of whatif.test.ts): each
// asset measured day by day as its final return is (history, spliced, proxy), values by hand.
import { describe, expect, it } from "vitest";
import { dayNumber, isoDate } from "../../src/engine/dates.ts";
import { replayScenario, scenarioFactorPanel } from "../../src/engine/whatif/scenarios.ts";
import { type Sensitivities } from "../../src/engine/whatif/sensitivities.ts";
import { expectAllClose, expectClose } from "./analytics-helpers.ts";

const d = (iso: string) => dayNumber(iso);
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
const price = (rows: [string, number][]) => ({
  dates: Int32Array.from(rows.map(([x]) => d(x))),
  prices: Float64Array.from(rows.map(([, p]) => p)),
  currency: "EUR" as const,
});

// Pandemic 2020 (type 1): 2020-02-19 .. 2020-03-23.
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
const { panel } = scenarioFactorPanel(1, [market, rates]);
const betas = sens([1, 0, 0.5, 0.1, 2, -0.1], ["market", "rates"]);

describe("scenario value path", () => {
  const r = replayScenario({
    type: 1,
    currency: "EUR",
    assets: [{ prices: old }, { prices: young }, { prices: newborn }],
    amounts: Float64Array.of(1000, 1000, 1000),
    sensitivities: betas,
    factors: panel,
  });

  it("runs on the scenario's calendar: start, factor and price days inside, end", () => {
    expect(Array.from(r.path.dates, isoDate)).toEqual([
      "2020-02-19",
      "2020-02-20",
      "2020-03-02",
      "2020-03-20",
      "2020-03-23",
    ]);
  });

  it("values each asset on each day as its final return (by hand, 1e-12)", () => {
    // Old: its own closes over 40 (02-18): 40, 40, 40, 30, 30.
    const oldPath = [1, 1, 1, 0.75, 0.75];
    // Young: proxy (beta 0.5 market, 0.1 rates) until its first close on 03-02, then 20 -> 25.
    const y1 = 1 + 0.5 * -0.1 + 0.1 * 0;
    const y2 = y1 * (1 + 0.5 * (-1 / 9) + 0.1 * -0.4);
    const youngPath = [1, y1, y2, y2, y2 * 1.25];
    // Newborn: proxy (beta 2 market, -0.1 rates) over the whole window; 03-20 has no factor step.
    const n1 = 1 + 2 * -0.1;
    const n2 = n1 * (1 + 2 * (-1 / 9) - 0.1 * -0.4);
    const n3 = n2 * (1 + 2 * -0.25 - 0.1 * -0.4);
    const newbornPath = [1, n1, n2, n2, n3];
    const expected = oldPath.map((_, j) => 1000 * (oldPath[j]! + youngPath[j]! + newbornPath[j]!));
    expectAllClose(r.path.values, expected, 1e-12, 1e-12);
  });

  it("starts at the total invested and ends at the total plus the change", () => {
    expectClose(r.path.values[0]!, 3000, 1e-12);
    expectClose(r.path.values[r.path.values.length - 1]!, 3000 + r.totalChange, 1e-9);
  });

  it("a portfolio of one old asset follows its price", () => {
    const one = replayScenario({
      type: 1,
      currency: "EUR",
      assets: [{ prices: old }],
      amounts: Float64Array.of(500),
    });
    expect(Array.from(one.path.dates, isoDate)).toEqual(["2020-02-19", "2020-03-20", "2020-03-23"]);
    expectAllClose(one.path.values, [500, 375, 375], 1e-12, 1e-12);
  });
});
