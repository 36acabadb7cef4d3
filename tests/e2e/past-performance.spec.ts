// A saved portfolio's "How these holdings would have done" (issue 27) in a browser against the real
// server and its workers: the engine's figures shown, a benchmark chosen and stored with the
// portfolio, a table downloaded as CSV (header in the page's language, numbers unformatted), and
// the page no wider than a phone's screen. The figures' formatting and the locks are checked at
// route level (tests/app/past-performance.test.tsx); the layout in route-checks.spec.ts.
import { readFile } from "node:fs/promises";
import { readyContext } from "./accounts-support.ts";
import { expect, test } from "./fixtures.ts";

const pagePath = {
  en: "/en/my-account/portfolios/portfolio-",
  es: "/es/mi-cuenta/carteras/cartera-",
};

test("past performance: figures, a chosen benchmark stored, a CSV, a phone's width", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { context, token } = await readyContext(browser, baseURL!, "all-advanced@demo.test");
  const page = await context.newPage();
  const headers = { Authorization: `Bearer ${token}` };
  const proposed = await page.request.post("/api/portfolios/propose", {
    headers,
    data: {
      currency: "EUR",
      answers: {
        universe: [],
        amount: 10_000,
        maxToLose95: null,
        ordering: "balanced",
        maxAssetsLevel: 0,
      },
    },
  });
  expect(proposed.ok(), await proposed.text()).toBe(true);
  const { assets } = (await proposed.json()) as {
    assets: { symbol: string; investedAmount: number }[];
  };
  const saved = await page.request.post("/api/portfolios", {
    headers,
    data: {
      name: "Past performance",
      currency: "EUR",
      assets: assets.map((a) => ({ id: a.symbol, investedAmount: a.investedAmount })),
    },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const id = ((await saved.json()) as { id: number }).id;
  try {
    await page.goto(`${pagePath.en}${id}`);
    const section = page.getByTestId("past-performance");
    await expect(section.getByTestId("past-growth-end")).toHaveText(/^€[\d,]+\.\d\d$/, {
      timeout: 60_000,
    });
    await expect(section.getByTestId("past-growth-window")).toContainText("daily returns");
    await expect(section.getByTestId("past-correlation")).toBeVisible();

    await section.getByLabel("Compare with").selectOption("GSPC_INDEX");
    await expect(section.getByTestId("past-benchmark")).toHaveText("Compared with: S&P 500.", {
      timeout: 60_000,
    });
    const stored = await page.request.get(`/api/portfolios/${id}`, { headers });
    expect(((await stored.json()) as { benchmarkSeries: string | null }).benchmarkSeries).toBe(
      "GSPC_INDEX",
    );

    // In Spanish, on a phone: the CSV's header in Spanish, the page no wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${pagePath.es}${id}`);
    await expect(section.getByTestId("past-growth-end")).toBeVisible({ timeout: 60_000 });
    const download = page.waitForEvent("download");
    await section
      .getByRole("button", { name: "Descargar la rentabilidad por año natural en CSV" })
      .click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("past-performance-calendar-year-returns.csv");
    const text = await readFile((await file.path())!, "utf8");
    // UTF-8 with a byte-order mark, so that spreadsheets read the accents.
    expect(text.startsWith("\ufeff")).toBe(true);
    const lines = text.slice(1).split("\r\n");
    expect(lines[0]).toBe("Año,Año parcial,Cartera,S&P 500,Diferencia");
    expect(lines[1]).toMatch(/^\d{4},(true|false),-?\d+(\.\d+)?(e-?\d+)?,/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  } finally {
    await context.close();
  }
});
