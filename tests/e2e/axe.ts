// axe-core run in the page itself: the script injected once per page (a page the route checks
// keep across widths and languages), then `axe.run` on the document for each check.
//
// @axe-core/playwright's `analyze()` opens a blank page for every run to finish it there (its
// way round a page's CSP and its frames): about 2 s a run on these machines, against 0.3 s for
// the run itself. Our pages have no frames, and Playwright's evaluate is not bound by the CSP.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** The page's violations of every axe rule (all but the experimental ones, axe's default). */
export async function axeViolations(page: Page): Promise<AxeResults["violations"]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: RunOptions): Promise<AxeResults> };
    };
    const frames = document.querySelectorAll("iframe, frame").length;
    if (frames > 0) throw new Error(`axe is run without frame support; this page has ${frames}`);
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  });
}
