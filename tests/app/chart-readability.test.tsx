// @vitest-environment jsdom
// Issue 24, charts people can read: the optimisation summary's efficient frontier and the
// simulator's fan chart, rendered in the box of a phone (310 px: a 390 px screen less the page's
// and the card's padding) and of a desktop, in English and Spanish. Each is laid out in the pixels
// of its box (text keeps its 12 px, never under 11 px), titles both axes with units, has distinct
// tick labels that stay inside the chart and do not overlap, and gives its figures in a table; the
// fan chart of a plan whose 95th percentile reaches $350M draws its values on a log scale.
import { I18nProvider } from "@lingui/react";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoSimulation } from "../../machines/investment-simulator.machine.ts";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { SimulateResponse } from "../../src/contract/analytics.ts";
import type { Locale } from "../../src/contract/common.ts";
import { SummaryFrontier } from "../../src/features/optimise/summary-screen.tsx";
import { SimulationResult } from "../../src/features/simulator/simulator-result.tsx";
import { textWidth } from "../../src/ui/charts/scale.ts";
import { testServices } from "../support/render-app.tsx";

/** The width every chart box reports, as a ResizeObserver in a browser would. */
let boxWidth = 310;

beforeEach(() => {
  globalThis.ResizeObserver = class {
    readonly callback: ResizeObserverCallback;
    constructor(callback: ResizeObserverCallback) {
      this.callback = callback;
    }
    observe(target: Element) {
      this.callback(
        [{ target, contentRect: { width: boxWidth } } as unknown as ResizeObserverEntry],
        this as unknown as ResizeObserver,
      );
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

afterEach(() => {
  cleanup();
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
});

const TICK_FONT = 12;

/** The SVG's width in its own units. */
const viewWidth = (svg: Element) => Number((svg.getAttribute("viewBox") ?? "").split(" ")[2]);

/** Tick labels of an axis: vertical ones end left of the plot, horizontal ones hang below it. */
function tickLabels(svg: Element, axis: "x" | "y") {
  const labels = Array.from(svg.querySelectorAll("text.chart-tick-label")).map((t) => ({
    text: t.textContent ?? "",
    x: Number(t.getAttribute("x")),
    y: Number(t.getAttribute("y")),
    anchor: t.getAttribute("text-anchor") ?? "start",
    width: textWidth(t.textContent ?? "", TICK_FONT),
  }));
  const lowest = Math.max(...labels.map((l) => l.y));
  return labels.filter((l) => (axis === "x" ? l.y === lowest : l.y !== lowest));
}

const span = (l: { x: number; width: number; anchor: string }) => {
  const start =
    l.anchor === "end" ? l.x - l.width : l.anchor === "middle" ? l.x - l.width / 2 : l.x;
  return [start, start + l.width] as const;
};

/** Readable: 1 unit a pixel, distinct labels inside the chart, none overlapping its neighbour. */
function expectReadable(svg: Element) {
  // Text keeps its CSS size: the SVG is drawn at the box's width, not scaled into it.
  expect(viewWidth(svg)).toBe(boxWidth);
  expect((TICK_FONT * boxWidth) / viewWidth(svg)).toBeGreaterThanOrEqual(11);
  const xs = tickLabels(svg, "x");
  const ys = tickLabels(svg, "y");
  expect(xs.length).toBeGreaterThanOrEqual(2);
  expect(ys.length).toBeGreaterThanOrEqual(3);
  for (const labels of [xs, ys])
    expect(new Set(labels.map((l) => l.text)).size).toBe(labels.length);
  const spans = xs.map(span).sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < spans.length; k++)
    expect(spans[k]![0]).toBeGreaterThanOrEqual(spans[k - 1]![1] + 4);
  for (const [from, to] of [...spans, ...ys.map(span)]) {
    expect(from).toBeGreaterThanOrEqual(0);
    expect(to).toBeLessThanOrEqual(viewWidth(svg));
  }
  // Value labels are far enough apart vertically not to touch.
  const heights = ys.map((l) => l.y).sort((a, b) => a - b);
  for (let k = 1; k < heights.length; k++)
    expect(heights[k]! - heights[k - 1]!).toBeGreaterThanOrEqual(TICK_FONT + 4);
  return { xs, ys };
}

const axisTitles = (svg: Element) =>
  Object.fromEntries(
    Array.from(svg.querySelectorAll("text.chart-axis-title")).map((t) => [
      t.getAttribute("data-axis"),
      t.textContent,
    ]),
  );

async function within18n(locale: Locale, node: React.ReactNode) {
  await activateLocale(locale);
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    result = render(
      <I18nProvider i18n={i18n}>
        <ServicesProvider services={testServices("ht")}>
          <MemoryRouter>{node}</MemoryRouter>
        </ServicesProvider>
      </I18nProvider>,
    );
  });
  return result!;
}

// The frontier of the screenshot: volatilities 4-16 %, returns 9-30 %.
const frontier = Array.from({ length: 12 }, (_, k) => ({
  volatility: 0.042 + (0.116 * k) / 11,
  expectedReturn: 0.09 + 0.21 * Math.sqrt(k / 11),
}));
const current = { volatility: 0.0653, expectedReturn: 0.2266 };
const optimised = { volatility: 0.0727, expectedReturn: 0.2471 };

describe("the efficient frontier", () => {
  it.each([
    ["en", 310],
    ["en", 640],
    ["es", 310],
    ["es", 640],
  ] as const)(
    "%s, %i px: titled axes, readable ticks, the figures in a table",
    async (locale, w) => {
      boxWidth = w;
      await within18n(
        locale,
        <SummaryFrontier
          frontier={frontier}
          current={current}
          optimised={optimised}
          locale={locale}
        />,
      );
      const svg = screen.getByRole("img");
      expect(axisTitles(svg)).toEqual(
        locale === "en"
          ? { x: "Volatility over 1 month (%)", y: "Expected return a year (%)" }
          : { x: "Volatilidad a 1 mes (%)", y: "Rentabilidad esperada al año (%)" },
      );
      const { xs, ys } = expectReadable(svg);
      const pattern = locale === "en" ? /^\d+(\.\d+)?%$/ : /^\d+(,\d+)?\u00a0%$/;
      expect([...xs, ...ys].every((l) => pattern.test(l.text))).toBe(true);
      // The table holds every point's figures.
      const table = screen.getByTestId("frontier-table");
      expect(within(table).getAllByRole("row")).toHaveLength(1 + frontier.length + 2);
      expect(table.textContent).toContain(locale === "en" ? "22.66%" : "22,66\u00a0%");
    },
  );
});

/** The plan of the screenshot: $25,000, $200 a month, 20 years, a median of $69.7M. */
function hugeSimulation(): SimulateResponse {
  const months = 240;
  const grow = (start: number, end: number) =>
    Array.from({ length: months + 1 }, (_, k) => start * (end / start) ** (k / months));
  const ends: Record<number, number> = {
    5: 13_784_374.98,
    25: 35_000_000,
    50: 69_683_632.87,
    75: 130_000_000,
    95: 349_402_723.83,
  };
  return {
    ...demoSimulation,
    currency: "USD",
    months,
    invested: Array.from({ length: months + 1 }, (_, k) => 25_000 + 200 * k),
    percentiles: [5, 25, 50, 75, 95].map((percentile) => ({
      percentile,
      values: grow(25_000, ends[percentile]!),
    })),
    historical: {
      months: 177,
      values: grow(25_000, 1_981_730.36).slice(0, 178),
      from: "2009-08-24",
      to: "2024-05-31",
    },
    goal: { amount: 150_000, probability: 1 },
  };
}

async function showFan(locale: Locale) {
  await within18n(
    locale,
    <SimulationResult result={hugeSimulation()} stale={false} locale={locale} />,
  );
  return document.querySelector(".chart-fan svg")!;
}

describe("the simulator's fan chart to $350M", () => {
  it.each([310, 640])("en, %i px: a log scale in compact dollars, titled axes", async (w) => {
    boxWidth = w;
    const svg = await showFan("en");
    expect(svg.getAttribute("data-scale")).toBe("log");
    expect(axisTitles(svg)).toEqual({
      x: "Years from today",
      y: "Value of the plan (USD, log scale)",
    });
    const { ys, xs } = expectReadable(svg);
    expect(ys.map((l) => l.text)).toEqual(expect.arrayContaining(["$100K", "$1M", "$100M"]));
    expect(xs[0]?.text).toBe("0 y");
    // The median is drawn well above the floor of the plot (it lay flat on it).
    const median = svg.querySelector("path.fan-median")!.getAttribute("d")!;
    const lastY = Number(median.trim().split(" ").at(-1));
    const floor = Math.max(
      ...Array.from(svg.querySelectorAll("line.chart-axis")).map((l) =>
        Number(l.getAttribute("y1")),
      ),
    );
    expect(floor - lastY).toBeGreaterThan(100);
    // The figures year by year, for a screen reader and anyone, in a table.
    const table = screen.getByRole("table");
    expect(within(table).getAllByRole("row")).toHaveLength(1 + 21);
    expect(table.textContent).toContain("$69,683,632.87");
  });

  it("es, 310 px: the same in Spanish", async () => {
    boxWidth = 310;
    const svg = await showFan("es");
    expect(svg.getAttribute("data-scale")).toBe("log");
    expect(axisTitles(svg)).toEqual({
      x: "Años desde hoy",
      y: "Valor del plan (USD, escala logarítmica)",
    });
    const { ys } = expectReadable(svg);
    expect(ys.map((l) => l.text)).toEqual(
      expect.arrayContaining(["1\u00a0M\u00a0US$", "100\u00a0M\u00a0US$"]),
    );
  });

  it("a plan that stays within two orders of magnitude keeps a linear scale from zero", async () => {
    boxWidth = 640;
    await within18n("en", <SimulationResult result={demoSimulation} stale={false} locale="en" />);
    const svg = document.querySelector(".chart-fan svg")!;
    expect(svg.getAttribute("data-scale")).toBe("linear");
    expect(axisTitles(svg).y).toBe("Value of the plan (EUR)");
    const { ys } = expectReadable(svg);
    expect(ys.map((l) => l.text)).toContain("€0");
  });
});
