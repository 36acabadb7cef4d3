// GET /api/portfolios/:id/export.pdf through the app, on both databases (issue 27, "A report worth
// printing"; PRODUCT.md, "Portfolio history and report"): the multi-page report with its charts
// for a plan with `var`, its sections as the plan's permissions allow and the others named with
// the plan that unlocks them; the one-page summary without `var`. The server decides, whatever
// the screen shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../src/contract/common.ts";
import { permissionsByTier } from "../../src/contract/permissions.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { reportLabels } from "../../src/server/portfolios/labels.ts";
import type { ApiAgent } from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";
import { openMarketApp, type MarketApp } from "../support/market-app.ts";
import { chartPaths, checkPdf, countText, hasText, latin1 } from "../support/pdf-file.ts";
import { clientWithSavedPortfolio, SAVED_ON } from "../support/saved-portfolios.ts";

const TODAY = SAVED_ON;

describe.each(databaseTargets)("the PDF report's plans on $name", (target) => {
  let m: MarketApp;
  let api: ApiAgent;
  beforeAll(async () => {
    m = await openMarketApp(target, {
      datasets: [simulatedDataset({ end: TODAY })],
      workers: 2,
    });
    api = m.api;
  });
  afterAll(async () => m.close());

  async function pdfOf(
    tier: "standard" | "advanced",
    lang: "en" | "es",
    product: Product = "simAssets",
  ) {
    const { client, id } = await clientWithSavedPortfolio(m.database, product, tier, {
      name: "Report",
    });
    const res = await api.request(
      "GET",
      `/portfolios/${id}/export.pdf?lang=${lang}&stc=${product}`,
      {
        token: client.token,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="portfolio-${id}.pdf"`,
    );
    const file = latin1(new Uint8Array(await res.arrayBuffer()));
    return { file, pages: checkPdf(file).pages };
  }

  it("advanced: every section with its charts, nothing locked", async () => {
    const { file, pages } = await pdfOf("advanced", "en");
    expect(pages).toBeGreaterThan(1);
    expect(hasText(file, `Page ${pages} of ${pages}`)).toBe(true);
    const r = reportLabels("en");
    for (const title of Object.values(r.sections)) expect(hasText(file, title)).toBe(true);
    expect(file).not.toContain("Included in the");
    expect(file).not.toContain("Not available");
    expect(chartPaths(file)).toBeGreaterThanOrEqual(9);
    expect(hasText(file, "Std. error")).toBe(true);
    // The summary's content, as the one-page report had it.
    for (const symbol of ["AAPL", "SAN.MC", "TLT"]) expect(hasText(file, symbol)).toBe(true);
  });

  it("standard (monitoring, no componentRisk2), in Spanish: the past's charts, correlation and regression named with the Advanced plan", async () => {
    const { file, pages } = await pdfOf("standard", "es");
    expect(pages).toBeGreaterThan(1);
    expect(hasText(file, `Página 1 de ${pages}`)).toBe(true);
    const r = reportLabels("es");
    expect(hasText(file, r.sections.growth)).toBe(true);
    expect(chartPaths(file)).toBeGreaterThanOrEqual(9);
    expect(countText(file, "Incluido en el plan Avanzado; no figura en este informe.")).toBe(2);
    expect(hasText(file, "Error típico")).toBe(false);
    expect(hasText(file, r.averageCorrelation)).toBe(false);
  });

  it("a plan with export but without var gets the one-page summary", async () => {
    // No plan of today's table exports without `var`: the standard tier's table entry is changed
    // for this request (the route reads the one table), and put back.
    const standard = permissionsByTier.simAssets.standard!.analysis as { var: boolean };
    standard.var = false;
    try {
      const { file, pages } = await pdfOf("standard", "en");
      expect(pages).toBe(1);
      expect(chartPaths(file)).toBe(0);
      expect(hasText(file, "Page 1 / 1")).toBe(true);
      expect(hasText(file, reportLabels("en").sections.growth)).toBe(false);
    } finally {
      standard.var = true;
    }
  });
});
