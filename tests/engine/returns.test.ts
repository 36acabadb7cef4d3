// Alignment of price series with different calendars and currencies (the holiday rule of
// returns.ts), day numbers, and panel helpers.
import { describe, expect, it } from "vitest";
import { dayNumber, indexOnOrBefore, isoDate, weekday } from "../../src/engine/dates.ts";
import {
  benchmarkWindow,
  BENCHMARK_WINDOW_DAYS,
  weightsFromAmounts,
} from "../../src/engine/panel.ts";
import {
  alignReturns,
  convertPrice,
  spliceSeries,
  chainIndex,
  type PriceSeries,
} from "../../src/engine/returns.ts";
import { expectAllClose, snapshot } from "./analytics-helpers.ts";

const series = (rows: [string, number][], currency: "EUR" | "USD"): PriceSeries => ({
  dates: Int32Array.from(rows.map(([d]) => dayNumber(d))),
  prices: Float64Array.from(rows.map(([, p]) => p)),
  currency,
});

describe("day numbers", () => {
  it("round-trip ISO dates, weekdays and searches", () => {
    expect(dayNumber("1970-01-01")).toBe(0);
    expect(isoDate(dayNumber("2024-02-29"))).toBe("2024-02-29");
    expect(weekday(dayNumber("2024-05-17"))).toBe(5); // a Friday
    expect(() => dayNumber("2024-02-30")).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    expect(() => dayNumber("17/05/2024")).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    const d = Int32Array.of(10, 20, 30);
    expect([5, 10, 25, 30, 99].map((x) => indexOnOrBefore(d, x))).toEqual([-1, 0, 1, 2, 2]);
  });
});

describe("alignReturns: union calendar, carry forward, first common date, EUR/USD", () => {
  // Madrid closed on Wed 2024-05-01 (a holiday); New York closed on Mon 2024-05-27; crypto 7/7.
  const madrid = series(
    [
      ["2024-04-29", 10],
      ["2024-04-30", 11],
      ["2024-05-02", 12.1],
      ["2024-05-24", 12.1],
      ["2024-05-27", 13.31],
      ["2024-05-28", 13.31],
    ],
    "EUR",
  );
  const newYork = series(
    [
      ["2024-04-30", 100],
      ["2024-05-01", 110],
      ["2024-05-02", 121],
      ["2024-05-24", 121],
      ["2024-05-28", 133.1],
    ],
    "USD",
  );
  const crypto = series(
    [
      ["2024-04-28", 1],
      ["2024-04-29", 1],
      ["2024-04-30", 1],
      ["2024-05-01", 1],
      ["2024-05-02", 2],
      ["2024-05-25", 2],
      ["2024-05-26", 4],
      ["2024-05-27", 4],
      ["2024-05-28", 4],
    ],
    "USD",
  );
  const fx = {
    dates: Int32Array.from(["2024-04-01", "2024-05-01", "2024-05-27"].map(dayNumber)),
    rates: Float64Array.of(1, 1.1, 1.21),
  };

  it("starts on the first common date and keeps a day when any market traded (weekends out)", () => {
    const r = alignReturns([madrid, newYork], { currency: "USD", fx });
    expect([...r.dates].map(isoDate)).toEqual([
      "2024-04-30",
      "2024-05-01",
      "2024-05-02",
      "2024-05-24",
      "2024-05-27",
      "2024-05-28",
    ]);
    expect(r.panel.observations).toBe(5);
    expect([...r.foreign]).toEqual([1, 0]);
  });
  it("a closed market's price carries forward: return 0 on the holiday, the move on the next day", () => {
    const r = alignReturns([madrid, newYork], { currency: "EUR", fx });
    const n = 2;
    const col = (i: number) =>
      Array.from({ length: r.panel.observations }, (_, t) => r.panel.data[t * n + i]!);
    // Madrid in EUR: 11 -> 11 (holiday) -> 12.1 -> 12.1 -> 13.31 -> 13.31
    expectAllClose(col(0), [0, 0.1, 0, 0.1, 0], 1e-14, 1e-15);
    // New York in EUR (price / EURUSD on or before): 100/1=100, 110/1.1=100, 121/1.1=110, 110, 121/1.21=100 (NY closed, fx moved), 133.1/1.21=110
    expectAllClose(col(1), [0, 0.1, 0, -1 / 11, 0.1], 1e-14, 1e-15);
    // USD measured in EUR: 1 -> 1/1.1 on 05-01 -> ... -> 1/1.21 on 05-27.
    expectAllClose(r.fxReturns, [1 / 1.1 - 1, 0, 0, 1 / 1.1 - 1, 0], 1e-14, 1e-15);
  });
  it("crypto weekend moves land on Monday; EUR assets are converted to USD by multiplying", () => {
    const r = alignReturns([crypto, madrid], { currency: "USD", fx });
    expect(isoDate(r.dates[0]!)).toBe("2024-04-29");
    const n = 2;
    const col = (i: number) =>
      Array.from({ length: r.panel.observations }, (_, t) => r.panel.data[t * n + i]!);
    // crypto: 04-29 1, 04-30 1, 05-01 1, 05-02 2, 05-24 2 (carried), 05-27 4 (Sunday's move), 05-28 4
    expectAllClose(col(0), [0, 0, 1, 0, 1, 0], 1e-14, 1e-15);
    // Madrid in USD: 10*1, 11*1, 11*1.1, 12.1*1.1, 12.1*1.1, 13.31*1.21, 13.31*1.21
    expectAllClose(col(1), [0.1, 0.1, 0.1, 0, 0.21, 0], 1e-13, 1e-15);
  });
  it("options from/to cut the window; the inputs are not mutated", () => {
    const before = snapshot({ madrid, newYork, fx });
    const r = alignReturns([madrid, newYork], {
      currency: "EUR",
      fx,
      from: dayNumber("2024-05-02"),
      to: dayNumber("2024-05-27"),
    });
    expect([...r.dates].map(isoDate)).toEqual(["2024-05-02", "2024-05-24", "2024-05-27"]);
    expect({ madrid, newYork, fx }).toEqual(before);
  });
  it("errors: no series, no fx for a foreign asset, no common range, bad prices", () => {
    expect(() => alignReturns([], { currency: "EUR" })).toThrow(
      expect.objectContaining({ code: "NO_ASSETS" }),
    );
    expect(() => alignReturns([newYork], { currency: "EUR" })).toThrow(
      expect.objectContaining({ code: "NO_DATA" }),
    );
    const late = series(
      [
        ["2025-01-02", 1],
        ["2025-01-03", 1],
      ],
      "EUR",
    );
    expect(() => alignReturns([madrid, late], { currency: "EUR" })).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
    const bad = series(
      [
        ["2024-01-02", 1],
        ["2024-01-03", NaN],
      ],
      "EUR",
    );
    expect(() => alignReturns([bad], { currency: "EUR" })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    const unsorted = series(
      [
        ["2024-01-03", 1],
        ["2024-01-02", 1],
      ],
      "EUR",
    );
    expect(() => alignReturns([unsorted], { currency: "EUR" })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
  });
});

describe("helpers", () => {
  it("convertPrice: USD -> EUR divides by EUR/USD, EUR -> USD multiplies", () => {
    expect(convertPrice(110, "USD", "EUR", 1.1)).toBeCloseTo(100, 12);
    expect(convertPrice(100, "EUR", "USD", 1.1)).toBeCloseTo(110, 12);
    expect(convertPrice(5, "EUR", "EUR", 1.1)).toBe(5);
  });
  it("spliceSeries keeps the older rows before the newer series starts", () => {
    const s = spliceSeries(
      { dates: Int32Array.of(1, 2, 3, 4), values: Float64Array.of(1, 2, 3, 4) },
      { dates: Int32Array.of(3, 5), values: Float64Array.of(30, 50) },
    );
    expect([...s.dates]).toEqual([1, 2, 3, 5]);
    expect([...s.values]).toEqual([1, 2, 30, 50]);
  });
  it("chainIndex rescales the older index to meet the newer, keeping both sets of returns", () => {
    // Older: 100, 110, 121 (+10% a day); newer starts on day 3 at 50, then 55.
    const s = chainIndex(
      { dates: Int32Array.of(1, 2, 3, 4), values: Float64Array.of(100, 110, 121, 133.1) },
      { dates: Int32Array.of(3, 5), values: Float64Array.of(50, 55) },
    );
    expect([...s.dates]).toEqual([1, 2, 3, 5]);
    expect(s.values[1]! / s.values[0]! - 1).toBeCloseTo(0.1, 14);
    expect(s.values[2]! / s.values[1]! - 1).toBeCloseTo(0.1, 14);
    expect(s.values[3]! / s.values[2]! - 1).toBeCloseTo(0.1, 14);
    expect(s.values[2]).toBe(50);
    // An older index that starts after the newer one cannot be chained: the newer alone.
    const alone = chainIndex(
      { dates: Int32Array.of(7, 8), values: Float64Array.of(1, 2) },
      { dates: Int32Array.of(3, 5), values: Float64Array.of(50, 55) },
    );
    expect([...alone.values]).toEqual([50, 55]);
  });
  it("benchmark windows 1..6 are 21, 63, 126, 252, 756, 1260 trading days", () => {
    expect(Object.values(BENCHMARK_WINDOW_DAYS)).toEqual([21, 63, 126, 252, 756, 1260]);
    const p = { assets: 1, observations: 100, data: new Float64Array(100) };
    expect(benchmarkWindow(p, 2).observations).toBe(63);
    expect(() => benchmarkWindow(p, 4)).toThrow(
      expect.objectContaining({ code: "NOT_ENOUGH_HISTORY" }),
    );
    expect(() => benchmarkWindow(p, 7)).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER" }),
    );
  });
  it("weightsFromAmounts: negative or zero totals are refused", () => {
    expect([...weightsFromAmounts(Float64Array.of(1, 3)).weights]).toEqual([0.25, 0.75]);
    expect(() => weightsFromAmounts(Float64Array.of(0, 0))).toThrow(
      expect.objectContaining({ code: "INVALID_WEIGHTS" }),
    );
    expect(() => weightsFromAmounts(Float64Array.of(-1, 3))).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT" }),
    );
    expect(() => weightsFromAmounts(new Float64Array(0))).toThrow(
      expect.objectContaining({ code: "NO_ASSETS" }),
    );
  });
});
