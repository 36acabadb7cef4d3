// The PDF report of a full analysis (issue 27, "A report worth printing"): `node scripts/bench.ts
// report`. The layout and the file of the advanced plan's report (every section and chart) for a
// 30-holding portfolio over ten years of trading days, from figures already computed (the
// history's own cases time the engine): target under one second.
import type { BenchCase } from "../bench.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import { portfolioReport } from "../../src/server/portfolios/report.ts";
import { reportFixture } from "../../tests/support/report-fixture.ts";

export const cases: BenchCase[] = [
  {
    name: "report: full analysis PDF (advanced plan, 30 holdings, 10 years, es)",
    runs: 15,
    targetMs: 1000,
    setup() {
      const f = reportFixture({ assets: 30, years: 10 });
      const permissions = permissionsFor("simAssets", "advanced");
      return () =>
        portfolioReport(f.portfolio, f.analysis, f.past, {
          lang: "es",
          edition: "ht",
          today: f.past.today,
          simulated: true,
          product: "simAssets",
          permissions,
        });
    },
  },
];
