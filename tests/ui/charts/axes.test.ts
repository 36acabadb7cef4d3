// Issue 24, charts people can read: the choice of a log or a linear value axis, the ticks of each,
// as many horizontal ticks as fit without their labels overlapping, and no "-0" on any axis.
import { describe, expect, it } from "vitest";
import { yearTicks } from "../../../src/features/simulator/fan-chart.tsx";
import {
  fitHorizontalTicks,
  labelsFit,
  logScale,
  logTicks,
  noNegativeZero,
  textWidth,
  valueAxis,
  wantsLogScale,
} from "../../../src/ui/charts/scale.ts";

const percent = (locale: string, digits: number) => (v: number) =>
  new Intl.NumberFormat(locale, {
    style: "percent",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(v);

const compactMoney = (locale: string, currency: string) => (v: number) =>
  new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    notation: "compact",
    maximumFractionDigits: 1,
  }).format(v);

const measure = (text: string) => textWidth(text, 12);

describe("log or linear", () => {
  it("takes a log scale when the positive values span more than two orders of magnitude", () => {
    expect(wantsLogScale([25_000, 69_683_632, 349_402_723])).toBe(true);
    expect(wantsLogScale([1, 101])).toBe(true);
    // Exactly a hundred times, or less: linear.
    expect(wantsLogScale([1, 100])).toBe(false);
    expect(wantsLogScale([25_000, 150_000, 210_000])).toBe(false);
    // Zeros are drawn on the floor of a log scale; a negative value rules it out.
    expect(wantsLogScale([0, 10, 5_000])).toBe(true);
    expect(wantsLogScale([-1, 10, 5_000])).toBe(false);
    expect(wantsLogScale([NaN, 3])).toBe(false);
    expect(wantsLogScale([])).toBe(false);
  });

  it("a simulation to $350M gets a log axis whose ticks are powers of ten; a small one linear", () => {
    const wide = valueAxis([0, 25_000, 73_000, 69_683_632, 349_402_723], [230, 10], {
      spacing: 34,
      zero: true,
    });
    expect(wide.kind).toBe("log");
    expect(wide.ticks).toEqual([10_000, 100_000, 1e6, 1e7, 1e8, 1e9]);
    expect(wide.scale(wide.min)).toBe(230);
    expect(wide.scale(wide.max)).toBe(10);
    // The median at 70M sits well above the floor, not flattened on it.
    expect(wide.scale(69_683_632)).toBeLessThan(80);
    expect(wide.scale(0)).toBe(230);
    const narrow = valueAxis([25_000, 150_000, 210_000], [230, 10], { spacing: 34, zero: true });
    expect(narrow.kind).toBe("linear");
    expect(narrow.ticks[0]).toBe(0);
    expect(narrow.ticks.at(-1)).toBeGreaterThanOrEqual(210_000);
  });

  it("never asks for log on negative values, nor when told not to", () => {
    expect(valueAxis([-0.2, 0.5], [200, 0], { spacing: 34 }).kind).toBe("linear");
    expect(valueAxis([1, 1e6], [200, 0], { spacing: 34, log: false }).kind).toBe("linear");
  });
});

describe("log ticks", () => {
  it("are 1, 2 and 5 times the powers of ten when they fit, the domain on the ticks around", () => {
    expect(logTicks(130, 4_000, 10)).toEqual({
      min: 100,
      max: 5_000,
      ticks: [100, 200, 500, 1_000, 2_000, 5_000],
    });
    expect(logTicks(0.003, 0.4, 10).ticks).toEqual([0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5]);
  });

  it("are the powers of ten, or every other one, when fewer fit", () => {
    expect(logTicks(130, 4_000, 4).ticks).toEqual([100, 1_000, 10_000]);
    expect(logTicks(13_784, 349_402_723, 6).ticks).toEqual([1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
    expect(logTicks(13_784, 349_402_723, 4).ticks).toEqual([1e4, 1e6, 1e8, 1e10]);
    expect(logTicks(13_784, 349_402_723, 3).ticks.length).toBeLessThanOrEqual(3);
  });

  it("map evenly per decade, and put nothing below the floor", () => {
    const y = logScale([1, 1_000], [300, 0]);
    expect(y(1)).toBe(300);
    expect(y(10)).toBeCloseTo(200, 9);
    expect(y(100)).toBeCloseTo(100, 9);
    expect(y(0.5)).toBe(300);
    expect(y(0)).toBe(300);
  });

  it("read in the locale's compact currency", () => {
    const en = logTicks(13_784, 349_402_723, 6).ticks.map(compactMoney("en-US", "USD"));
    expect(en).toEqual(["$10K", "$100K", "$1M", "$10M", "$100M", "$1B"]);
    const es = [1.2e6, 5e7].map(compactMoney("es-ES", "EUR"));
    expect(es).toEqual(["1,2\u00a0M\u00a0€", "50\u00a0M\u00a0€"]);
  });
});

describe("horizontal ticks that fit their width", () => {
  // The volatilities of the frontier in the issue: 4 % to 16 %.
  const fmt = (v: number, step: number) => percent("en-US", step >= 0.01 ? 0 : 1)(v);

  it.each([160, 240, 358, 600])("labels never overlap in %i px", (length) => {
    const ticks = fitHorizontalTicks(0.041, 0.158, length, fmt, measure);
    expect(ticks.ticks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ticks.labels).size).toBe(ticks.labels.length);
    const at = (v: number) => ((v - ticks.min) / (ticks.max - ticks.min)) * length;
    expect(
      labelsFit(
        ticks.ticks.map((t, i) => ({ at: at(t), width: measure(ticks.labels[i] ?? "") })),
        -Infinity,
        Infinity,
        4,
      ),
    ).toBe(true);
  });

  it("gives more ticks to a wider axis", () => {
    const narrow = fitHorizontalTicks(0.041, 0.158, 160, fmt, measure);
    const wide = fitHorizontalTicks(0.041, 0.158, 600, fmt, measure);
    expect(wide.ticks.length).toBeGreaterThan(narrow.ticks.length);
  });

  it("tells the old overlapping labels apart from ones that fit", () => {
    // "10.0%12.0%14.0%16.0": five labels 24 px apart, each about 30 px wide.
    const old = [0.1, 0.12, 0.14, 0.16].map((v, i) => ({
      at: 100 + 24 * i,
      width: measure(percent("en-US", 1)(v)),
    }));
    expect(labelsFit(old, 0, 400)).toBe(false);
    expect(labelsFit([{ at: 10, width: 30 }], 0, 400)).toBe(false);
    expect(labelsFit([{ at: 20, width: 30 }], 0, 400)).toBe(true);
  });

  it("year ticks of the fan chart thin out on a phone", () => {
    const label = (y: number) => `${y} y`;
    expect(yearTicks(20, 600, label, measure)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    expect(yearTicks(20, 250, label, measure)).toEqual([0, 5, 10, 15, 20]);
    const es = (y: number) => `${y} años`;
    expect(yearTicks(40, 250, es, measure)).toEqual([0, 10, 20, 30, 40]);
  });
});

describe("no negative zero", () => {
  it("prints 0, never -0, on any axis", () => {
    expect(Object.is(noNegativeZero(-0), 0)).toBe(true);
    expect(noNegativeZero(-1e-17)).toBe(0);
    expect(noNegativeZero(-0.5)).toBe(-0.5);
    const axis = valueAxis([-0.3, -0.1 + 0.1 - 1e-17, 0.2], [200, 0], { spacing: 34 });
    const labels = axis.ticks.map(percent("es-ES", 0));
    expect(labels).toContain("0\u00a0%");
    expect(labels.some((l) => l.startsWith("-0") || l.startsWith("−0"))).toBe(false);
    const x = fitHorizontalTicks(-0.02, 0.03, 300, (v) => percent("en-US", 1)(v), measure);
    expect(x.labels).toContain("0.0%");
    expect(x.labels.some((l) => l === "-0.0%")).toBe(false);
  });

  it("asks for fewer ticks until their labels differ", () => {
    const axis = valueAxis([0.0801, 0.0804], [200, 0], {
      spacing: 20,
      label: percent("en-US", 2),
    });
    const labels = axis.ticks.map(percent("en-US", 2));
    expect(new Set(labels).size).toBe(labels.length);
  });
});
