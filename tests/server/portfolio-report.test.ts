// The PDF writer's paths and dashes, and the full report's layout (issue 27, "A report worth
// printing"): pages, languages, the method and data date of every figure, the charts, and the
// sections a plan leaves out with the plan that shows them.
import { describe, expect, it } from "vitest";
import { permissionsFor, type Tier } from "../../src/contract/permissions.ts";
import { lineChart, niceTicks, stepDigits, wrap } from "../../src/server/portfolios/charts.ts";
import { portfolioPdf } from "../../src/server/portfolios/exports.ts";
import { formatDay, reportLabels } from "../../src/server/portfolios/labels.ts";
import { createPdf } from "../../src/server/portfolios/pdf.ts";
import { portfolioReport, sectionTier } from "../../src/server/portfolios/report.ts";
import {
  chartPaths,
  checkPdf,
  countText,
  hasText,
  latin1,
  plainText,
} from "../support/pdf-file.ts";
import { reportFixture } from "../support/report-fixture.ts";

/** The content stream of a one-page document drawn by `draw`. */
function content(draw: (page: ReturnType<ReturnType<typeof createPdf>["addPage"]>) => void) {
  const pdf = createPdf({ title: "t", created: new Date("2026-01-01T00:00:00Z") });
  draw(pdf.addPage());
  const file = latin1(pdf.bytes());
  checkPdf(file);
  return /stream\n([\s\S]*?)\nendstream/.exec(file)![1]!;
}

describe("PDF paths and dashed lines", () => {
  it("strokes a polyline as one path op", () => {
    expect(content((p) => p.path([0, 0, 10, 10.5, 20, 0], { stroke: [1, 0, 0], width: 2 }))).toBe(
      "1 0 0 RG 2 w 0 0 m 10 10.5 l 20 0 l S",
    );
  });

  it("breaks a series at values that are not finite and drops single points", () => {
    const ops = content((p) =>
      p.path([0, 0, 1, 1, NaN, NaN, 2, 2, NaN, NaN, 3, 3, 4, 4], { stroke: [0, 0, 0] }),
    );
    expect(ops).toBe("0 0 0 RG 1 w 0 0 m 1 1 l 3 3 m 4 4 l S");
  });

  it("fills (closed) and strokes an area, with a dash reset after it", () => {
    expect(content((p) => p.path([0, 0, 5, 5, 10, 0], { fill: [0.5, 0.5, 0.5] }))).toBe(
      "0.5 0.5 0.5 rg 0 0 m 5 5 l 10 0 l h f",
    );
    expect(
      content((p) => p.path([0, 0, 5, 5], { fill: [1, 1, 1], stroke: [0, 0, 0], dash: [3, 2] })),
    ).toBe("1 1 1 rg 0 0 0 RG 1 w [3 2] 0 d 0 0 m 5 5 l h b [] 0 d");
  });

  it("writes nothing for a path without points or paint", () => {
    expect(content((p) => p.path([1, 1], { stroke: [0, 0, 0] }))).toBe("");
    expect(content((p) => p.path([0, 0, 1, 1], {}))).toBe("");
  });

  it("dashes a line and goes back to solid", () => {
    expect(content((p) => p.line(0, 0, 10, 0, [0, 0, 0], 0.5, { dash: [1, 2] }))).toBe(
      "0 0 0 RG 0.5 w [1 2] 0 d 0 0 m 10 0 l S [] 0 d",
    );
    expect(content((p) => p.line(0, 0, 10, 0, [0, 0, 0]))).toBe("0 0 0 RG 0.5 w 0 0 m 10 0 l S");
  });
});

describe("chart helpers", () => {
  it("picks round ticks covering the range, and the decimals their spacing needs", () => {
    expect(niceTicks(-0.34, 0)).toEqual([-0.4, -0.3, -0.2, -0.1, 0]);
    expect(niceTicks(80_000, 160_000)).toEqual([80_000, 100_000, 120_000, 140_000, 160_000]);
    expect(niceTicks(5, 5).length).toBeGreaterThan(1);
    expect([stepDigits(5), stepDigits(2.5), stepDigits(0.25), stepDigits(20_000)]).toEqual([
      0, 1, 2, 0,
    ]);
  });

  it("wraps a line between words within a width", () => {
    const lines = wrap("Method: one two three four five six seven eight nine ten", 80, 8);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(" ")).toBe("Method: one two three four five six seven eight nine ten");
  });

  it("draws a series that starts late as one path from its first value, thinned to the width", () => {
    const dates = Array.from({ length: 3000 }, (_, i) =>
      new Date(Date.UTC(2015, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
    );
    const values = dates.map((_, i) => (i < 1000 ? null : Math.sin(i / 50)));
    const ops = content((p) =>
      lineChart(
        p,
        { x: 50, y: 100, width: 400, height: 200 },
        dates,
        [{ values, label: "Late", color: [0, 0, 1] }],
        { format: (v) => v.toFixed(1) },
      ),
    );
    const paths = ops.split("\n").filter((op) => / l .* l /.test(op) && !op.includes(" d "));
    expect(paths).toHaveLength(1);
    const moves = paths[0]!.match(/ m /g) ?? [];
    expect(moves).toHaveLength(1);
    // About two points per point of the plot's width (348), not one per day (2,000).
    const points = paths[0]!.match(/ l /g)!.length + 1;
    expect(points).toBeGreaterThan(300);
    expect(points).toBeLessThan(800);
  });
});

describe("the full report", () => {
  const f = reportFixture();
  const report = (tier: Tier, lang: "en" | "es", product: "simAssets" | "simMonk" = "simAssets") =>
    latin1(
      portfolioReport(f.portfolio, f.analysis, f.past, {
        lang,
        edition: "ht",
        today: f.past.today,
        simulated: true,
        product,
        permissions: permissionsFor(product, tier),
      }),
    );

  it("is several pages, each numbered 'Page n of N', with every section and its method and date (advanced, en)", () => {
    const file = report("advanced", "en");
    const { pages } = checkPdf(file);
    expect(pages).toBeGreaterThan(5);
    for (let n = 1; n <= pages; n++) expect(hasText(file, `Page ${n} of ${pages}`)).toBe(true);
    const r = reportLabels("en");
    for (const title of Object.values(r.sections)) expect(hasText(file, title)).toBe(true);
    // The summary comes first, as the one-page report has it.
    expect(hasText(file, "Portfolio report")).toBe(true);
    expect(hasText(file, "S01.MC")).toBe(true);
    // One method line per figure: risk, growth, years, rolling, drawdowns, correlation, regression.
    const text = plainText(file);
    const date = formatDay(f.past.today, "en").replace(/\//g, "\\/");
    const lines = text.match(new RegExp(`Method: [^·]+ · [^·]+ · Data to ${date}`, "g")) ?? [];
    expect(lines.length).toBe(7);
    // Charts: growth (2), rolling return (2) and volatility (2), underwater (2 and its area).
    expect(chartPaths(file)).toBeGreaterThanOrEqual(9);
    // The heat map: one cell per pair, and the regression's standard errors.
    expect(file.match(/ re f/g)!.length).toBeGreaterThan(30 * 30);
    expect(hasText(file, "Std. error")).toBe(true);
    expect(hasText(file, "0.0400")).toBe(true);
    expect(file).not.toContain("Included in the");
  });

  it("speaks Spanish with lang=es, and names the plan that unlocks what the standard plan lacks", () => {
    const file = report("standard", "es");
    const { pages } = checkPdf(file);
    expect(pages).toBeGreaterThan(1);
    expect(hasText(file, `Página 1 de ${pages}`)).toBe(true);
    const r = reportLabels("es");
    expect(hasText(file, "Informe de cartera")).toBe(true);
    expect(hasText(file, r.sections.growth)).toBe(true);
    expect(hasText(file, r.sections.drawdowns)).toBe(true);
    const date = formatDay(f.past.today, "es").replace(/\//g, "\\/");
    const lines =
      plainText(file).match(new RegExp(`Método: [^·]+ · [^·]+ · Datos hasta ${date}`, "g")) ?? [];
    // Risk, growth, calendar years, rolling and drawdowns.
    expect(lines.length).toBe(5);
    expect(file).not.toContain("Method: ");
    // Correlation and regression need componentRisk2: the advanced plan.
    expect(hasText(file, r.sections.correlation)).toBe(true);
    expect(countText(file, "Incluido en el plan Avanzado; no figura en este informe.")).toBe(2);
    expect(hasText(file, "Error típico")).toBe(false);
    // The benchmark by its Spanish name, never the data's English "(price index)".
    expect(plainText(file)).toContain("EURO STOXX 50 (índice de precios)");
    expect(plainText(file)).not.toContain("(price index)");
    // Numbers in the Spanish way: a decimal comma.
    expect(hasText(file, "6,40 %")).toBe(true);
    expect(chartPaths(file)).toBeGreaterThanOrEqual(9);
  });

  it("leaves out every past section for a plan with var but without monitoring (banana advanced)", () => {
    const file = report("advanced", "en", "simMonk");
    expect(checkPdf(file).pages).toBeGreaterThan(1);
    expect(chartPaths(file)).toBe(0);
    // No plan of the banana challenge shows them: the line says so without naming one.
    expect(countText(file, reportLabels("en").notInPlan)).toBe(6);
  });

  it("says why a section the plan shows has no figures", () => {
    const file = latin1(
      portfolioReport(
        f.portfolio,
        f.analysis,
        {
          ...f.past,
          regression: null,
          unavailable: [{ section: "regression", reason: "no-factor-data" }],
        },
        {
          lang: "en",
          edition: "ht",
          today: f.past.today,
          simulated: true,
          product: "simAssets",
          permissions: permissionsFor("simAssets", "advanced"),
        },
      ),
    );
    expect(hasText(file, "Not available: no factor data covers the window.")).toBe(true);
  });

  it("names the lowest plan showing each section", () => {
    expect(sectionTier("simAssets", "growth")).toBe("standard");
    expect(sectionTier("simAssets", "rolling")).toBe("standard");
    expect(sectionTier("simAssets", "correlation")).toBe("advanced");
    expect(sectionTier("simIndices", "growth")).toBe("advanced");
    expect(sectionTier("simMonk", "regression")).toBeNull();
  });

  it("the one-page summary stays one page without charts", () => {
    const small = reportFixture({ assets: 5 });
    const file = latin1(
      portfolioPdf(small.portfolio, small.analysis, {
        lang: "es",
        edition: "ht",
        today: small.past.today,
        simulated: false,
      }),
    );
    expect(checkPdf(file).pages).toBe(1);
    expect(chartPaths(file)).toBe(0);
    expect(hasText(file, "Página 1 / 1")).toBe(true);
  });
});
