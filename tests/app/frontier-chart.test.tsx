// @vitest-environment jsdom
// Issue 24, the optimisation summary's efficient frontier: both axes titled with their units, tick
// labels that differ from one another (a flat frontier read "0.0%" five times), that stay inside the
// chart and do not overlap, and a table whose disclosure says what it opens (it read "Efficient
// frontier: Efficient frontier"), in both languages.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import type { Locale } from "../../src/contract/common.ts";
import { tickDigits } from "../../src/features/optimise/frontier-chart.tsx";
import { SummaryFrontier } from "../../src/features/optimise/summary-screen.tsx";
import { AXIS_TITLE_ROOM } from "../../src/ui/charts/frame.tsx";
import { textWidth } from "../../src/ui/charts/index.ts";

afterEach(cleanup);

// Expected returns that differ by hundredths of a percent; volatilities over a few percent.
const frontier = Array.from({ length: 15 }, (_, k) => ({
  volatility: 0.031 + (0.027 * k) / 14,
  expectedReturn: 0.0801 + (0.0003 * Math.sqrt(k)) / Math.sqrt(14),
}));
const current = { volatility: 0.052, expectedReturn: 0.0802 };
const optimised = frontier[14]!;

async function show(locale: Locale) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <SummaryFrontier
        frontier={frontier}
        current={current}
        optimised={optimised}
        locale={locale}
      />
    </I18nProvider>,
  );
  return screen.getByRole("img");
}

/** The tick labels of an axis: text, position and the width the kit reckons they take. */
function ticks(svg: Element, axis: "x" | "y") {
  const bottom = Math.max(
    ...Array.from(svg.querySelectorAll("line.chart-axis")).map((l) => Number(l.getAttribute("y1"))),
  );
  return (
    Array.from(svg.querySelectorAll("text.chart-tick-label"))
      .map((t) => ({
        text: t.textContent ?? "",
        x: Number(t.getAttribute("x")),
        y: Number(t.getAttribute("y")),
        anchor: t.getAttribute("text-anchor"),
      }))
      // The volatility's labels hang a line under the axis; the lowest value label sits on it.
      .filter((t) => (axis === "x" ? t.y > bottom + 8 : t.y <= bottom + 8))
      .map((t) => ({ ...t, width: textWidth(t.text, 12) }))
  );
}

function expectReadableAxes(svg: Element) {
  const [, , width] = (svg.getAttribute("viewBox") ?? "").split(" ").map(Number);
  const ys = ticks(svg, "y");
  const xs = ticks(svg, "x");
  expect(ys.length).toBeGreaterThanOrEqual(3);
  expect(xs.length).toBeGreaterThanOrEqual(2);
  // Distinct labels on each axis.
  expect(new Set(ys.map((t) => t.text)).size).toBe(ys.length);
  expect(new Set(xs.map((t) => t.text)).size).toBe(xs.length);
  // The value labels end right of the turned axis title: not clipped, not over the title.
  for (const t of ys) expect(t.x - t.width).toBeGreaterThanOrEqual(AXIS_TITLE_ROOM);
  // The volatility labels do not overlap one another and stay inside the chart.
  const spans = xs
    .map((t) => {
      const start = t.anchor === "end" ? t.x - t.width : t.x - t.width / 2;
      return [start, start + t.width] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < spans.length; k++)
    expect(spans[k]![0]).toBeGreaterThanOrEqual(spans[k - 1]![1] + 4);
  expect(spans[0]![0]).toBeGreaterThanOrEqual(0);
  expect(spans.at(-1)![1]).toBeLessThanOrEqual(width!);
  return { ys, xs };
}

const axisTitles = (svg: Element) =>
  Object.fromEntries(
    Array.from(svg.querySelectorAll("text.chart-axis-title")).map((t) => [
      t.getAttribute("data-axis"),
      t.textContent,
    ]),
  );

describe("the efficient frontier on the optimisation summary", () => {
  it("titles both axes with their units, and its ticks differ, in English", async () => {
    const svg = await show("en");
    expect(axisTitles(svg)).toEqual({
      x: "Volatility over 1 month (%)",
      y: "Expected return a year (%)",
    });
    const { ys, xs } = expectReadableAxes(svg);
    expect(ys.map((t) => t.text)).toContain("8.02%");
    expect(xs.every((t) => /^\d+(\.\d)?%$/.test(t.text))).toBe(true);
    expect(
      screen.getByText("The frontier's points as a table", { selector: "summary" }),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain("Efficient frontier: Efficient frontier");
  });

  it("and in Spanish", async () => {
    const svg = await show("es");
    expect(axisTitles(svg)).toEqual({
      x: "Volatilidad a 1 mes (%)",
      y: "Rentabilidad esperada al año (%)",
    });
    const { ys } = expectReadableAxes(svg);
    expect(ys.map((t) => t.text)).toContain("8,02\u00a0%");
    expect(
      screen.getByText("Los puntos de la frontera en una tabla", { selector: "summary" }),
    ).toBeTruthy();
  });

  it("gives a tick the decimals its step needs", () => {
    expect([0.05, 0.01, 0.005, 0.002, 0.0001, 0.00005].map(tickDigits)).toEqual([0, 0, 1, 1, 2, 3]);
  });

  it("plots each holding beside the portfolio, labelled with its symbol, with its figures in the table (issue 27)", async () => {
    const holdings = [
      { symbol: "AAPL", name: "Apple", volatility: 0.081, expectedReturn: 0.0804 },
      { symbol: "SAN.MC", name: "Banco Santander", volatility: 0.094, expectedReturn: 0.0803 },
      { symbol: "TLT", name: "TLT", volatility: 0.045, expectedReturn: 0.0801 },
    ];
    for (const [locale, legend, cells] of [
      ["en", "Holdings", ["8.10%", "8.04%"]],
      ["es", "Activos de la cartera", ["8,10\u00a0%", "8,04\u00a0%"]],
    ] as const) {
      await activateLocale(locale);
      render(
        <I18nProvider i18n={i18n}>
          <SummaryFrontier
            frontier={frontier}
            current={current}
            optimised={optimised}
            holdings={holdings}
            locale={locale}
          />
        </I18nProvider>,
      );
      const svg = screen.getByRole("img");
      const marks = Array.from(svg.querySelectorAll("g.frontier-holding"));
      expect(marks.map((g) => g.getAttribute("data-symbol")).sort()).toEqual(
        ["AAPL", "SAN.MC", "TLT"].sort(),
      );
      // Each labelled with its symbol; the riskier holding right of the less risky one.
      const at = (symbol: string) => {
        const g = svg.querySelector(`g.frontier-holding[data-symbol="${symbol}"]`)!;
        expect(g.querySelector("text")!.textContent).toBe(symbol);
        return Number(g.querySelector("rect")!.getAttribute("x"));
      };
      expect(at("SAN.MC")).toBeGreaterThan(at("AAPL"));
      expect(at("AAPL")).toBeGreaterThan(at("TLT"));
      // The axes still read well with the holdings on them.
      expectReadableAxes(svg);
      // The legend names them; the table (the chart's text alternative) gives their figures.
      expect(screen.getByText(legend, { selector: ".chart-legend-label" })).toBeTruthy();
      const row = within(screen.getByTestId("frontier-table"))
        .getByRole("rowheader", { name: "Apple (AAPL)" })
        .closest("tr")!;
      expect(Array.from(row.querySelectorAll("td"), (c) => c.textContent)).toEqual(cells);
      // The chart's description names each holding's figures for a screen reader.
      expect(svg.querySelector("desc")!.textContent).toContain(`AAPL: `);
      cleanup();
    }
  });

  it("keeps a linear return axis with a holding near 0 % (a cash fund), the holding inside the plot", async () => {
    await activateLocale("en");
    render(
      <I18nProvider i18n={i18n}>
        <SummaryFrontier
          frontier={frontier}
          current={current}
          optimised={optimised}
          holdings={[{ symbol: "CASH", name: "Cash", volatility: 0.0005, expectedReturn: 0.0002 }]}
          locale="en"
        />
      </I18nProvider>,
    );
    const svg = screen.getByRole("img");
    expect(svg.getAttribute("data-scale")).not.toBe("log");
    const rect = svg.querySelector('g.frontier-holding[data-symbol="CASH"] rect')!;
    const bottom = Math.max(
      ...Array.from(svg.querySelectorAll("line.chart-axis")).map((l) =>
        Number(l.getAttribute("y1")),
      ),
    );
    expect(Number(rect.getAttribute("y")) + 4).toBeLessThanOrEqual(bottom + 0.5);
    expect(Number(rect.getAttribute("y")) + 4).toBeGreaterThan(0);
  });
});
