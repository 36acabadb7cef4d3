import { describe, expect, it } from "vitest";
import {
  OTHER_KEY,
  TAU,
  arcPath,
  defaultBinCount,
  donutArcs,
  extent,
  finite,
  gaugeDomain,
  groupSlices,
  histogram,
  indexTicks,
  anchoredLabelStride,
  labelStride,
  linearScale,
  niceTicks,
  segments,
  tableRowIndices,
  tickStep,
  truncate,
  widen,
} from "../../../src/ui/charts/scale.ts";

describe("niceTicks", () => {
  it.each([
    [0, 100, 5, [0, 20, 40, 60, 80, 100]],
    [0, 1, 5, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [-0.05, 0.12, 5, [-0.05, 0, 0.05, 0.1, 0.15]],
    [-0.05, 0.12, 8, [-0.06, -0.04, -0.02, 0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12]],
    [-0.3, 0.1, 4, [-0.3, -0.2, -0.1, 0, 0.1]],
    [3, 97, 5, [0, 20, 40, 60, 80, 100]],
    [1234, 98765, 5, [0, 20000, 40000, 60000, 80000, 100000]],
    [0.1, 0.3, 2, [0.1, 0.2, 0.3]],
    [-250, -10, 5, [-250, -200, -150, -100, -50, 0]],
  ])("covers [%s, %s] in about %s steps", (min, max, count, ticks) => {
    const nice = niceTicks(min, max, count);
    expect(nice.ticks).toEqual(ticks);
    expect(nice.min).toBe(ticks[0]);
    expect(nice.max).toBe(ticks[ticks.length - 1]);
    expect(nice.min).toBeLessThanOrEqual(min);
    expect(nice.max).toBeGreaterThanOrEqual(max);
  });

  it("has no floating-point noise or negative zero", () => {
    const { ticks } = niceTicks(0, 0.7, 7);
    expect(ticks).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
    expect(Object.is(niceTicks(-1, 1).ticks[2], 0)).toBe(true);
  });

  it("widens a one-point range and swaps reversed bounds", () => {
    expect(niceTicks(5, 5).ticks).toEqual([4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6]);
    expect(niceTicks(0, 0).ticks).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(niceTicks(100, 0).ticks).toEqual(niceTicks(0, 100).ticks);
  });

  it("gives no ticks for non-finite bounds", () => {
    expect(niceTicks(Number.NaN, 1).ticks).toEqual([]);
    expect(niceTicks(0, Infinity).ticks).toEqual([]);
  });

  it("steps by 1, 2 or 5 times a power of ten", () => {
    expect(tickStep(100, 5)).toBe(20);
    expect(tickStep(100, 10)).toBe(10);
    expect(tickStep(0.17, 5)).toBe(0.05);
    expect(tickStep(7, 5)).toBe(1);
    expect(tickStep(3, 1)).toBe(2);
    expect(tickStep(4, 1)).toBe(5);
    expect(tickStep(8, 1)).toBe(10);
  });
});

describe("scales and extents", () => {
  it("maps linearly, including inverted ranges", () => {
    const y = linearScale([0, 10], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(10)).toBe(0);
    expect(y(2.5)).toBe(150);
    expect(linearScale([3, 3], [0, 100])(3)).toBe(50);
  });

  it("filters NaN and infinities", () => {
    expect(finite([1, Number.NaN, -2, Infinity, -Infinity, 0])).toEqual([1, -2, 0]);
    expect(extent([Number.NaN, 3, -1, Infinity])).toEqual([-1, 3]);
    expect(extent([Number.NaN])).toBeNull();
    expect(extent([])).toBeNull();
  });

  it("widens empty domains", () => {
    expect(widen(0, 0)).toEqual([-1, 1]);
    expect(widen(10, 10)).toEqual([9, 11]);
    expect(widen(2, 1)).toEqual([1, 2]);
  });
});

describe("histogram", () => {
  const values = Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 0.1 + (i % 7) / 100);

  it("has counts adding up to the number of finite values", () => {
    for (const bins of [1, 5, 11, 37]) {
      const h = histogram(values, bins);
      expect(h).toHaveLength(bins);
      expect(h.reduce((s, b) => s + b.count, 0)).toBe(1000);
    }
    expect(histogram([...values, Number.NaN, Infinity], 10).reduce((s, b) => s + b.count, 0)).toBe(
      1000,
    );
  });

  it("uses equal-width contiguous bins from min to max, the last one closed", () => {
    const h = histogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5);
    expect(h.map((b) => [b.x0, b.x1, b.count])).toEqual([
      [0, 2, 2],
      [2, 4, 2],
      [4, 6, 2],
      [6, 8, 2],
      [8, 10, 3],
    ]);
  });

  it("clamps values outside a given domain into the end bins", () => {
    const h = histogram([-5, 0.5, 1.5, 99], 2, [0, 2]);
    expect(h.map((b) => b.count)).toEqual([2, 2]);
  });

  it("defaults to Sturges' rule", () => {
    expect(defaultBinCount(0)).toBe(1);
    expect(defaultBinCount(1)).toBe(1);
    expect(defaultBinCount(100)).toBe(8);
    expect(defaultBinCount(1000)).toBe(11);
    expect(histogram(values)).toHaveLength(11);
  });

  it("handles one value, all-equal values and no values", () => {
    expect(histogram([0.02])).toEqual([{ x0: 0.02, x1: 0.02, count: 1 }]);
    expect(histogram([3, 3, 3, 3], 10)).toEqual([{ x0: 3, x1: 3, count: 4 }]);
    expect(histogram([])).toEqual([]);
    expect(histogram([Number.NaN])).toEqual([]);
  });

  it("bins negative values", () => {
    const h = histogram([-0.1, -0.05, 0, 0.05], 2);
    expect(h.map((b) => b.count)).toEqual([2, 2]);
    expect(h[0]?.x0).toBe(-0.1);
    expect(h[0]?.x1).toBeCloseTo(-0.025, 12);
    expect(h[1]?.x0).toBe(h[0]?.x1);
    expect(h[1]?.x1).toBe(0.05);
  });
});

describe("donut arcs", () => {
  it("cover exactly 2π in proportion to the values", () => {
    const arcs = donutArcs([1, 2, 3, 4]);
    expect(arcs[0]).toEqual({ startAngle: 0, endAngle: TAU * 0.1 });
    expect(arcs[3]?.endAngle).toBe(TAU);
    const total = arcs.reduce((s, a) => s + (a.endAngle - a.startAngle), 0);
    expect(total).toBeCloseTo(TAU, 12);
    for (let i = 1; i < arcs.length; i++) expect(arcs[i]?.startAngle).toBe(arcs[i - 1]?.endAngle);
  });

  it("give empty arcs to values that are not positive", () => {
    const arcs = donutArcs([2, Number.NaN, -1, 0, 2]);
    expect(arcs.map((a) => a.endAngle - a.startAngle)).toEqual([Math.PI, 0, 0, 0, Math.PI]);
    expect(donutArcs([0, 0]).every((a) => a.endAngle === 0)).toBe(true);
  });

  it("draws sectors, rings and full circles", () => {
    expect(arcPath(100, 100, 50, 0, 0, Math.PI / 2)).toBe("M100 50A50 50 0 0 1 150 100L100 100Z");
    expect(arcPath(100, 100, 50, 30, 0, Math.PI / 2)).toBe(
      "M100 50A50 50 0 0 1 150 100L130 100A30 30 0 0 0 100 70Z",
    );
    // More than half a turn takes the large arc.
    expect(arcPath(0, 0, 10, 0, 0, (3 * Math.PI) / 2)).toBe("M0 -10A10 10 0 1 1 -10 0L0 0Z");
    // A full turn is two half arcs (a single arc cannot end where it starts).
    expect(arcPath(0, 0, 10, 0, 0, TAU)).toBe("M0 -10A10 10 0 1 1 0 10A10 10 0 1 1 0 -10Z");
    expect(arcPath(0, 0, 10, 5, 0, TAU)).toBe(
      "M0 -10A10 10 0 1 1 0 10A10 10 0 1 1 0 -10ZM0 -5A5 5 0 1 0 0 5A5 5 0 1 0 0 -5Z",
    );
    expect(arcPath(0, 0, 10, 5, 1, 1)).toBe("");
  });
});

describe("groupSlices", () => {
  const slice = (n: number, value: number) => ({ key: `k${n}`, label: `L${n}`, value });

  it("sorts largest first and computes shares, leaving out non-positive values", () => {
    const g = groupSlices(
      [slice(1, 1), slice(2, 3), slice(3, Number.NaN), slice(4, -2), slice(5, 0)],
      "Other",
    );
    expect(g.map((s) => [s.key, s.share])).toEqual([
      ["k2", 0.75],
      ["k1", 0.25],
    ]);
  });

  it("merges the smallest slices past the tenth into one 'other' slice", () => {
    const slices = Array.from({ length: 14 }, (_, i) => slice(i, 14 - i));
    const g = groupSlices(slices, "Other");
    expect(g).toHaveLength(10);
    const other = g[9];
    expect(other).toMatchObject({
      key: OTHER_KEY,
      label: "Other",
      isOther: true,
      value: 1 + 2 + 3 + 4 + 5,
    });
    expect(g.reduce((s, x) => s + x.value, 0)).toBe(105);
    expect(g.reduce((s, x) => s + x.share, 0)).toBeCloseTo(1, 12);
    expect(groupSlices(slices.slice(0, 10), "Other").some((s) => s.isOther)).toBe(false);
  });
});

describe("axis helpers", () => {
  it("spreads date ticks over the series, first and last included", () => {
    expect(indexTicks(0)).toEqual([]);
    expect(indexTicks(1)).toEqual([0]);
    expect(indexTicks(3, 5)).toEqual([0, 1, 2]);
    expect(indexTicks(101, 5)).toEqual([0, 25, 50, 75, 100]);
    expect(indexTicks(250, 6)).toEqual([0, 50, 100, 149, 199, 249]);
  });

  it("thins labels that would overlap", () => {
    expect(labelStride([40, 40, 40, 40, 40], 400)).toBe(1);
    expect(labelStride([90, 90, 90, 90, 90], 300)).toBe(2);
    expect(labelStride([50], 10)).toBe(1);
  });

  it("thins labels by where they are drawn: the first starts at its tick, the last ends at it", () => {
    // Four 50 px dates over 230 px (a phone): even slots of 77 px looked wide enough, but the
    // first label reaches 50 px right of its tick and the second 25 px left of its own.
    expect(anchoredLabelStride([0, 77, 153, 230], [50, 50, 50, 50])).toBe(2);
    // Room enough for every label.
    expect(anchoredLabelStride([0, 100, 200, 300], [50, 50, 50, 50])).toBe(1);
    // The last label ends at its tick: it must clear the one before it.
    expect(anchoredLabelStride([0, 90, 110], [20, 20, 20])).toBe(2);
    // Nothing fits beside the first: the first alone.
    expect(anchoredLabelStride([0, 10, 20], [100, 100, 100])).toBe(3);
    expect(anchoredLabelStride([5], [100])).toBe(1);
  });

  it("splits series at missing values", () => {
    expect(segments([1, 2, Number.NaN, 4, Number.NaN, Number.NaN, 7, 8])).toEqual([
      [
        [0, 1],
        [1, 2],
      ],
      [[3, 4]],
      [
        [6, 7],
        [7, 8],
      ],
    ]);
    expect(segments([Number.NaN])).toEqual([]);
  });

  it("truncates long labels", () => {
    expect(truncate("Short", 10)).toBe("Short");
    expect(truncate("A very long asset name", 10)).toBe("A very lo…");
  });
});

describe("gaugeDomain", () => {
  it("runs from zero to a nice number past both amounts, or to max", () => {
    expect(gaugeDomain(800, 1000)).toEqual([0, 1200]);
    // 1500 × 1.15 = 1725, rounded up to a step of 500.
    expect(gaugeDomain(1500, 1000)).toEqual([0, 2000]);
    expect(gaugeDomain(800, 1000, 5000)).toEqual([0, 5000]);
    expect(gaugeDomain(0, 0)).toEqual([0, 1]);
    expect(gaugeDomain(-100, 50)[0]).toBe(-100);
  });
});

describe("tableRowIndices", () => {
  const days = (from: string, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const d = new Date(`${from}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + i);
      return d.toISOString().slice(0, 10);
    });

  it("lists every point of a short series", () => {
    expect(tableRowIndices(days("2026-01-01", 5))).toEqual([0, 1, 2, 3, 4]);
    expect(tableRowIndices([])).toEqual([]);
  });

  it("lists the first point and each month's last of a long one", () => {
    const dates = days("2026-01-15", 200); // to 2026-08-02
    const rows = tableRowIndices(dates, 20).map((i) => dates[i]);
    expect(rows).toEqual([
      "2026-01-15",
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
      "2026-05-31",
      "2026-06-30",
      "2026-07-31",
      "2026-08-02",
    ]);
  });

  it("thins the month ends of ten years to the limit, keeping the last point", () => {
    const dates = days("2016-01-01", 3653);
    const rows = tableRowIndices(dates);
    expect(rows.length).toBeLessThanOrEqual(130);
    expect(rows[0]).toBe(0);
    expect(rows.at(-1)).toBe(dates.length - 1);
    // 120 month ends (2016-2025) thinned to every other month: 60, plus the first day.
    expect(tableRowIndices(dates, 100)).toHaveLength(61);
  });
});
