// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  AllocationChart,
  BarChart,
  DistributionChart,
  GaugeChart,
  LineChart,
} from "../../../src/ui/charts/index.ts";

afterEach(cleanup);

const money = (v: number) => `€${v.toFixed(0)}`;
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const date = (iso: string) => iso.slice(5).replace("-", "/");

/** The chart's SVG: role img, named by its <title> and described by its <desc>. */
function expectLabelledImg(title: string, description: string) {
  const img = screen.getByRole("img", { name: title });
  expect(img.tagName.toLowerCase()).toBe("svg");
  const titleEl = document.getElementById(img.getAttribute("aria-labelledby") ?? "");
  const descEl = document.getElementById(img.getAttribute("aria-describedby") ?? "");
  expect(titleEl?.tagName.toLowerCase()).toBe("title");
  expect(titleEl?.textContent).toBe(title);
  expect(descEl?.tagName.toLowerCase()).toBe("desc");
  expect(descEl?.textContent).toBe(description);
  expect(img.getAttribute("viewBox")).toMatch(/^0 0 \d+(\.\d+)? \d+(\.\d+)?$/);
  return img;
}

/** The rows of a hidden data table as [header, ...cells] texts. */
function tableRows(table: HTMLElement) {
  return within(table)
    .getAllByRole("row")
    .map((row) => Array.from(row.children).map((c) => c.textContent));
}

function figureOf(title: string) {
  const caption = screen.getByText(title, { selector: "figcaption" });
  const figure = caption.closest("figure");
  expect(figure).toBeTruthy();
  return figure as HTMLElement;
}

describe("AllocationChart", () => {
  const props = {
    title: "By asset",
    description: "Share of the amount invested.",
    formatValue: money,
    formatShare: pct,
    otherLabel: "Other",
    emptyLabel: "No data",
  };

  it("draws a donut with a legend and a data table", () => {
    render(
      <AllocationChart
        {...props}
        slices={[
          { key: "a", label: "Apple", value: 250 },
          { key: "b", label: "Bonds", value: 750 },
          { key: "n", label: "Broken", value: Number.NaN },
        ]}
        columnLabels={{ label: "Asset", value: "Amount", share: "Share" }}
      />,
    );
    const figure = figureOf("By asset");
    const img = expectLabelledImg("By asset", "Share of the amount invested.");
    expect(img.querySelectorAll("path.chart-slice")).toHaveLength(2);
    const table = within(figure).getByRole("table", { name: "By asset" });
    expect(table.classList.contains("visually-hidden")).toBe(true);
    expect(tableRows(table)).toEqual([
      ["Asset", "Amount", "Share"],
      ["Bonds", "€750", "75.0%"],
      ["Apple", "€250", "25.0%"],
    ]);
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((h) => h.textContent),
    ).toEqual(["Bonds", "Apple"]);
    const legend = figure.querySelector(".chart-legend");
    expect(legend?.textContent).toContain("Bonds€750 75.0%");
  });

  it("gathers slices past the tenth colour into 'other'", () => {
    const slices = Array.from({ length: 12 }, (_, i) => ({
      key: `s${i}`,
      label: `Asset ${i}`,
      value: 12 - i,
    }));
    render(<AllocationChart {...props} slices={slices} />);
    const rows = tableRows(screen.getByRole("table"));
    expect(rows).toHaveLength(10);
    expect(rows[9]).toEqual(["Other", "€6", "7.7%"]);
  });

  it("draws one slice as a full ring", () => {
    render(<AllocationChart {...props} slices={[{ key: "a", label: "Cash", value: 10 }]} />);
    const path = screen.getByRole("img").querySelector("path.chart-slice");
    expect(path?.getAttribute("d")?.match(/A/g)).toHaveLength(4);
    expect(tableRows(screen.getByRole("table"))).toEqual([["Cash", "€10", "100.0%"]]);
  });

  it("shows the empty label without data", () => {
    render(<AllocationChart {...props} slices={[{ key: "z", label: "Zero", value: 0 }]} />);
    expect(screen.getByText("No data")).toBeTruthy();
    expect(screen.queryByRole("img")).toBeNull();
    expect(screen.queryByRole("table")).toBeNull();
    figureOf("By asset");
  });
});

describe("BarChart", () => {
  const props = {
    title: "Contribution to risk",
    description: "Volatility contributed by each asset.",
    formatValue: pct,
    emptyLabel: "No data",
    valueTitle: "Volatility over one month",
  };

  it("draws positive and negative bars around the zero line", () => {
    render(
      <BarChart
        {...props}
        highlightNegative
        bars={[
          { key: "a", label: "Apple", value: 0.1 },
          { key: "g", label: "Gold", value: -0.05 },
          { key: "x", label: "Broken", value: Number.NaN },
        ]}
        columnLabels={{ label: "Asset", value: "Contribution" }}
      />,
    );
    const img = expectLabelledImg("Contribution to risk", "Volatility contributed by each asset.");
    const bars = Array.from(img.querySelectorAll("rect.chart-bar"));
    expect(bars).toHaveLength(2);
    const zero = Number(img.querySelector("line.chart-axis")?.getAttribute("x1"));
    const [apple, gold] = bars;
    // Apple starts at zero and goes right; gold ends at zero, coloured as a negative.
    expect(Number(apple?.getAttribute("x"))).toBeCloseTo(zero, 6);
    expect(Number(gold?.getAttribute("x")) + Number(gold?.getAttribute("width"))).toBeCloseTo(
      zero,
      6,
    );
    expect(Number(apple?.getAttribute("width"))).toBeCloseTo(
      2 * Number(gold?.getAttribute("width")),
      6,
    );
    expect(gold?.classList.contains("chart-bar-negative")).toBe(true);
    expect(apple?.classList.contains("chart-bar-negative")).toBe(false);
    expect(tableRows(screen.getByRole("table", { name: "Contribution to risk" }))).toEqual([
      ["Asset", "Contribution"],
      ["Apple", "10.0%"],
      ["Gold", "-5.0%"],
    ]);
  });

  it("does not colour negatives unless asked", () => {
    render(<BarChart {...props} bars={[{ key: "g", label: "Gold", value: -1 }]} />);
    expect(screen.getByRole("img").querySelector(".chart-bar-negative")).toBeNull();
  });

  it("handles all-equal and all-zero values", () => {
    render(
      <BarChart
        {...props}
        bars={[
          { key: "a", label: "A", value: 0 },
          { key: "b", label: "B", value: 0 },
        ]}
      />,
    );
    const rects = screen.getByRole("img").querySelectorAll("rect.chart-bar");
    expect(Array.from(rects).map((r) => r.getAttribute("width"))).toEqual(["0", "0"]);
    expect(tableRows(screen.getByRole("table"))).toEqual([
      ["A", "0.0%"],
      ["B", "0.0%"],
    ]);
  });

  it("shows the empty label without data", () => {
    render(<BarChart {...props} bars={[{ key: "x", label: "X", value: Number.NaN }]} />);
    expect(screen.getByText("No data")).toBeTruthy();
    expect(screen.queryByRole("img")).toBeNull();
  });
});

describe("DistributionChart", () => {
  const values = Array.from({ length: 201 }, (_, i) => i - 100); // -100 … 100
  const props = {
    title: "Gains and losses",
    description: "How often each monthly gain or loss happened.",
    formatValue: money,
    formatCount: (n: number) => String(n),
    emptyLabel: "No data",
    xTitle: "Gain or loss in a month (EUR)",
    yTitle: "Number of months",
  };

  it("bins the values, places the markers and shades the left tail", () => {
    render(
      <DistributionChart
        {...props}
        values={[...values, Number.NaN]}
        bins={10}
        markers={[
          { key: "var", label: "VaR 95", value: -50, tone: "danger" },
          { key: "cvar", label: "CVaR 95", value: -75, tone: "warning" },
        ]}
        columnLabels={{ range: "Range", count: "Months" }}
      />,
    );
    const img = expectLabelledImg(
      "Gains and losses",
      "How often each monthly gain or loss happened.",
    );
    // x runs over the nice domain [-100, 100] onto [24, 394] (18 left for the count axis's title).
    const x = (v: number) => 24 + ((v + 100) / 200) * 370;
    const varLine = img.querySelector(".chart-marker-danger line");
    const cvarLine = img.querySelector(".chart-marker-warning line");
    expect(Number(varLine?.getAttribute("x1"))).toBeCloseTo(x(-50), 6);
    expect(Number(cvarLine?.getAttribute("x1"))).toBeCloseTo(x(-75), 6);
    expect(cvarLine?.getAttribute("stroke-dasharray")).toBeTruthy();
    const tail = img.querySelector("rect.chart-tail");
    expect(Number(tail?.getAttribute("x"))).toBe(24);
    expect(Number(tail?.getAttribute("width"))).toBeCloseTo(x(-50) - 24, 6);
    // Bins left of -50 are in the tail; the bin [-60, -40) straddles it and is split.
    const tailBins = Array.from(img.querySelectorAll("rect.chart-bin-tail"));
    expect(tailBins).toHaveLength(3);
    expect(
      Math.max(
        ...tailBins.map((r) => Number(r.getAttribute("x")) + Number(r.getAttribute("width"))),
      ),
    ).toBeCloseTo(x(-50), 6);

    const [markerTable, binTable] = screen.getAllByRole("table", { name: "Gains and losses" });
    expect(tableRows(markerTable!)).toEqual([
      ["VaR 95", "€-50"],
      ["CVaR 95", "€-75"],
    ]);
    const binRows = tableRows(binTable!);
    expect(binRows[0]).toEqual(["Range", "Months"]);
    expect(binRows).toHaveLength(11);
    expect(binRows[1]).toEqual(["€-100 – €-80", "20"]);
    expect(binRows[10]).toEqual(["€80 – €100", "21"]);
    expect(binRows.slice(1).reduce((s, r) => s + Number(r[1]), 0)).toBe(201);
  });

  it("draws one value and all-equal values as a single bin", () => {
    render(<DistributionChart {...props} values={[0.02, 0.02, 0.02]} markers={[]} />);
    const img = screen.getByRole("img");
    expect(img.querySelectorAll("rect.chart-bin")).toHaveLength(1);
    expect(img.querySelector("rect.chart-tail")).toBeNull();
    expect(tableRows(screen.getByRole("table"))).toEqual([["€0", "3"]]);
  });

  it("shows the empty label without finite values", () => {
    render(<DistributionChart {...props} values={[Number.NaN]} markers={[]} />);
    expect(screen.getByText("No data")).toBeTruthy();
    expect(screen.queryByRole("img")).toBeNull();
  });
});

describe("LineChart", () => {
  const dates = ["2026-01-02", "2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08"];
  const props = {
    title: "Value over time",
    description: "Portfolio against its benchmark.",
    formatValue: money,
    formatDate: date,
    dates,
    emptyLabel: "No data",
    xTitle: "Market date",
    yTitle: "Value (EUR)",
  };

  it("draws series, a band, nice y ticks and date ticks", () => {
    render(
      <LineChart
        {...props}
        series={[
          { key: "p", label: "Portfolio", values: [100, 104, Number.NaN, 97, 110] },
          { key: "b", label: "Benchmark", values: [100, 101, 102, 103, 104] },
        ]}
        band={{ label: "5% to 95%", lower: [90, 92, 93, 94, 95], upper: [110, 112, 113, 114, 115] }}
        dateLabel="Date"
      />,
    );
    const img = expectLabelledImg("Value over time", "Portfolio against its benchmark.");
    // The portfolio has a gap: two runs of two points, plus the benchmark.
    expect(img.querySelectorAll("path.chart-line")).toHaveLength(3);
    expect(img.querySelectorAll("circle.chart-point")).toHaveLength(0);
    expect(img.querySelectorAll("path.chart-band")).toHaveLength(1);
    const ticks = Array.from(img.querySelectorAll("text.chart-tick-label")).map(
      (t) => t.textContent,
    );
    expect(ticks).toEqual([
      "€90",
      "€95",
      "€100",
      "€105",
      "€110",
      "€115",
      "01/02",
      "01/05",
      "01/06",
      "01/07",
      "01/08",
    ]);
    const table = screen.getByRole("table", { name: "Value over time" });
    expect(tableRows(table)).toEqual([
      ["Date", "Portfolio", "Benchmark", "5% to 95%"],
      ["01/02", "€100", "€100", "€90 – €110"],
      ["01/05", "€104", "€101", "€92 – €112"],
      ["01/06", "", "€102", "€93 – €113"],
      ["01/07", "€97", "€103", "€94 – €114"],
      ["01/08", "€110", "€104", "€95 – €115"],
    ]);
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Date", "Portfolio", "Benchmark", "5% to 95%"]);
    expect(screen.getByRole("figure").querySelector(".chart-legend")?.textContent).toBe(
      "PortfolioBenchmark5% to 95%",
    );
  });

  it("keeps to about six date ticks on long series", () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10),
    );
    render(
      <LineChart
        {...props}
        dates={many}
        series={[{ key: "r", label: "Return", values: many.map((_, i) => i / 1000 - 0.1) }]}
        formatValue={pct}
      />,
    );
    const img = screen.getByRole("img");
    expect(img.querySelectorAll("line.chart-tick")).toHaveLength(6);
    // 300 days make a table of the first day and each month's last (10 months), not 300 rows.
    expect(tableRows(screen.getByRole("table")).map((r) => r[0])).toEqual([
      "", // the header row's empty date header
      "01/01",
      "01/31",
      "02/28",
      "03/31",
      "04/30",
      "05/31",
      "06/30",
      "07/31",
      "08/31",
      "09/30",
      "10/27",
    ]);
    expect(screen.getByRole("figure").querySelector(".chart-legend")).toBeNull();
  });

  it("draws a single point, and all-equal values", () => {
    render(
      <LineChart
        {...props}
        dates={["2026-03-01"]}
        series={[{ key: "a", label: "A", values: [5] }]}
      />,
    );
    expect(screen.getByRole("img").querySelectorAll("circle.chart-point")).toHaveLength(1);
    cleanup();
    render(<LineChart {...props} series={[{ key: "a", label: "A", values: [7, 7, 7, 7, 7] }]} />);
    const ticks = Array.from(screen.getByRole("img").querySelectorAll("text.chart-tick-label")).map(
      (t) => t.textContent,
    );
    expect(ticks).toContain("€7");
  });

  it("shows the empty label without dates or values", () => {
    render(<LineChart {...props} dates={[]} series={[]} />);
    expect(screen.getByText("No data")).toBeTruthy();
    cleanup();
    render(
      <LineChart
        {...props}
        series={[{ key: "a", label: "A", values: dates.map(() => Number.NaN) }]}
      />,
    );
    expect(screen.queryByRole("img")).toBeNull();
  });
});

describe("GaugeChart", () => {
  const props = {
    title: "Risk against your limit",
    description: "The bar is the loss at 95%; the mark is what you can bear.",
    valueLabel: "Loss at 95%",
    limitLabel: "What you can bear",
    formatValue: money,
    overLabel: "More than you can bear",
    withinLabel: "Within what you can bear",
  };

  it("shows a value within the limit", () => {
    render(<GaugeChart {...props} value={800} limit={1000} />);
    const img = expectLabelledImg(props.title, props.description);
    expect(img.classList.contains("is-within")).toBe(true);
    expect(screen.getByText("Within what you can bear")).toBeTruthy();
    expect(screen.queryByText("More than you can bear")).toBeNull();
    // Domain [0, 1200] onto [8, 392]: the bar ends at 800, the mark sits at 1000.
    const fill = img.querySelector("rect.chart-gauge-fill");
    expect(Number(fill?.getAttribute("width"))).toBeCloseTo((800 / 1200) * 384, 6);
    expect(Number(img.querySelector(".chart-gauge-limit line")?.getAttribute("x1"))).toBeCloseTo(
      8 + (1000 / 1200) * 384,
      6,
    );
    expect(tableRows(screen.getByRole("table", { name: props.title }))).toEqual([
      ["Loss at 95%", "€800"],
      ["What you can bear", "€1000"],
    ]);
  });

  it("shows a value over the limit by colour, hatching, sign and words", () => {
    render(<GaugeChart {...props} value={1500} limit={1000} max={3000} />);
    const img = screen.getByRole("img");
    expect(img.classList.contains("is-over")).toBe(true);
    const fill = img.querySelector("rect.chart-gauge-fill") as SVGRectElement | null;
    expect(fill?.style.fill).toMatch(/^url\(/);
    expect(img.querySelector("pattern")).toBeTruthy();
    expect(Number(fill?.getAttribute("width"))).toBeCloseTo(0.5 * 384, 6);
    const status = screen.getByText("More than you can bear").closest("p");
    expect(status?.getAttribute("data-over")).toBe("true");
    expect(status?.querySelector("svg path")).toBeTruthy();
  });

  it("shows the empty label for missing amounts", () => {
    render(<GaugeChart {...props} value={Number.NaN} limit={1000} emptyLabel="No data" />);
    expect(screen.getByText("No data")).toBeTruthy();
    expect(screen.queryByRole("img")).toBeNull();
  });
});

/** The texts of the axis titles an SVG draws, by axis. */
function axisTitles(img: Element) {
  return Object.fromEntries(
    Array.from(img.querySelectorAll("text.chart-axis-title")).map((t) => [
      t.getAttribute("data-axis"),
      t.textContent,
    ]),
  );
}

/** Every text of the chart stays inside the SVG's viewBox (nothing clipped). */
function insideViewBox(img: Element) {
  const [, , w, h] = (img.getAttribute("viewBox") ?? "").split(" ").map(Number);
  for (const t of Array.from(img.querySelectorAll("text.chart-axis-title"))) {
    const x = Number(t.getAttribute("x"));
    const y = Number(t.getAttribute("y"));
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(w!);
    expect(y).toBeGreaterThan(0);
    expect(y).toBeLessThanOrEqual(h!);
  }
}

describe("axis titles", () => {
  it("titles both axes of a line chart, the value axis turned on the left", () => {
    render(
      <LineChart
        title="Value"
        description="Value over time."
        dates={["2026-01-02", "2026-01-05", "2026-01-06"]}
        series={[{ key: "a", label: "A", values: [1, 2, 3] }]}
        formatValue={money}
        formatDate={date}
        xTitle="Market date"
        yTitle="Value (EUR)"
      />,
    );
    const img = screen.getByRole("img");
    expect(axisTitles(img)).toEqual({ x: "Market date", y: "Value (EUR)" });
    const y = img.querySelector('text.chart-axis-title[data-axis="y"]');
    expect(y?.getAttribute("transform")).toMatch(/^rotate\(-90 /);
    // The value ticks sit right of the turned title.
    const tick = img.querySelector("text.chart-tick-label");
    expect(Number(tick?.getAttribute("x"))).toBeGreaterThan(Number(y?.getAttribute("x")) + 12);
    insideViewBox(img);
  });

  it("condenses a title longer than its axis into the axis, and leaves a short one alone", () => {
    render(
      <LineChart
        title="Value"
        description="Value over time."
        dates={["2026-01-02", "2026-01-05"]}
        series={[{ key: "a", label: "A", values: [1, 2] }]}
        formatValue={money}
        formatDate={date}
        xTitle="Market date"
        yTitle={"A very long title for a value axis, longer than the plot is tall"}
      />,
    );
    const img = screen.getByRole("img");
    const y = img.querySelector('text.chart-axis-title[data-axis="y"]');
    const x = img.querySelector('text.chart-axis-title[data-axis="x"]');
    expect(Number(y?.getAttribute("textLength"))).toBeGreaterThan(100);
    expect(y?.getAttribute("lengthAdjust")).toBe("spacingAndGlyphs");
    expect(x?.getAttribute("textLength")).toBeNull();
  });

  it("titles both axes of a distribution and the value axis of a bar chart", () => {
    render(
      <DistributionChart
        title="Gains"
        description="Monthly gains."
        values={[-2, -1, 0, 1, 2]}
        markers={[{ key: "v", label: "VaR", value: -1.5, tone: "danger" }]}
        formatValue={money}
        xTitle="Gain or loss in a month (EUR)"
        yTitle="Number of months"
      />,
    );
    const hist = screen.getByRole("img");
    expect(axisTitles(hist)).toEqual({
      x: "Gain or loss in a month (EUR)",
      y: "Number of months",
    });
    insideViewBox(hist);
    cleanup();
    render(
      <BarChart
        title="Contribution"
        description="Contribution of each asset."
        bars={[{ key: "a", label: "A", value: 0.1 }]}
        formatValue={pct}
        valueTitle="Volatility over one month"
      />,
    );
    const bars = screen.getByRole("img");
    expect(axisTitles(bars)).toEqual({ x: "Volatility over one month" });
    insideViewBox(bars);
  });
});
