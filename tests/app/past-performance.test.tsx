// @vitest-environment jsdom
// A saved portfolio's "How these holdings would have done" (issue 27) at route level
// (account-portfolio, the real machines and HTTP client, the API answered by a fake with the
// contract's shape): the sections show the API's figures in the person's language, the benchmark
// change stores the choice (PUT) and reloads the figures, the sections the plan lacks show the lock
// naming the plan, and each table downloads as CSV.
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PastPerformance } from "../../src/contract/past-performance.ts";
import type { Portfolio } from "../../src/contract/portfolios.ts";
import type * as TabApp from "../support/tab-app.tsx";
import { savedPortfolioFixture } from "../../machines/portfolio-lifecycle.fixtures.ts";

const saved: { blob: Blob; name: string }[] = [];
vi.mock("../../src/ui/save-file.ts", () => ({
  saveFile: (blob: Blob, name: string) => void saved.push({ blob, name }),
}));

const portfolio = (benchmarkSeries: string | null): Portfolio =>
  savedPortfolioFixture(undefined, {
    name: "Iberia Núcleo",
    benchmarkSeries,
    answers: {
      universe: [],
      amount: 10000,
      maxToLose95: 900,
      ordering: "balanced",
      maxAssetsLevel: 2,
    },
  });

const dates = ["2023-12-28", "2023-12-29", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"];
const figure = <M extends string>(method: M) => ({
  method,
  from: "2023-12-28",
  to: "2024-01-05",
  observations: 5,
  dataDate: "2024-01-05",
});
const choices = [
  { series: "GSPC_INDEX", name: "S&P 500", kind: "index", assetClass: null, currency: "USD" },
  {
    series: "STOXX50E_INDEX",
    name: "Euro Stoxx 50",
    kind: "index",
    assetClass: null,
    currency: "EUR",
  },
  {
    series: "VWCE.DE",
    name: "Vanguard FTSE All-World",
    kind: "fund",
    assetClass: "equity",
    currency: "EUR",
  },
];

/** The answer of the past-performance call for a plan with every permission, benchmark `series`. */
function answer(series: string | null): PastPerformance {
  const choice = choices.find((c) => c.series === (series ?? "STOXX50E_INDEX"))!;
  const k = series === "GSPC_INDEX" ? 2 : 1;
  return {
    currency: "EUR",
    totalInvested: 10000,
    today: "2024-01-05",
    simulated: false,
    holdings: [
      {
        symbol: "SAN.MC",
        name: "Banco Santander",
        investedAmount: 6000,
        weight: 0.6,
        firstDate: "2010-01-04",
      },
      {
        symbol: "ITX.MC",
        name: "Inditex",
        investedAmount: 4000,
        weight: 0.4,
        firstDate: "2010-01-04",
      },
    ],
    history: { from: "2023-12-28", to: "2024-01-05", observations: 5, limitedBy: ["ITX.MC"] },
    dates,
    window: { benchmark: 5, from: "2024-01-02", to: "2024-01-05", observations: 3 },
    benchmark: { ...choice, chosen: series !== null, from: "2023-12-28" },
    benchmarkChoices: choices,
    growth: {
      ...figure("current-weights-daily"),
      full: {
        from: "2023-12-28",
        to: "2024-01-05",
        observations: 5,
        start: 0,
        portfolio: [10000, 10100, 10200, 10150, 10300, 12345.67],
        benchmark: [10000, 10050, 10000, 9950, 10100, 10000 + k * 1000],
      },
      window: {
        from: "2024-01-02",
        to: "2024-01-05",
        observations: 3,
        start: 2,
        portfolio: [10000, 9950, 10100, 12100],
        benchmark: [10000, 9950, 10050, 10500],
      },
    },
    calendarYears: {
      ...figure("calendar-year-compounded"),
      years: [
        {
          year: 2023,
          from: "2023-12-28",
          to: "2023-12-29",
          observations: 1,
          partial: true,
          portfolio: 0.01,
          benchmark: 0.005,
          difference: 0.005,
        },
        {
          year: 2024,
          from: "2023-12-29",
          to: "2024-01-05",
          observations: 4,
          partial: true,
          portfolio: 0.1234,
          benchmark: k * 0.05,
          difference: 0.1234 - k * 0.05,
        },
      ],
    },
    rolling: {
      ...figure("rolling-window"),
      windowDays: 2,
      start: 2,
      portfolioReturn: [0.02, 0.005, 0.01, 0.2],
      portfolioVolatility: [0.1, 0.12, 0.11, 0.3],
      benchmarkReturn: [0, -0.01, 0.015, 0.1],
      benchmarkVolatility: [0.08, 0.09, 0.1, 0.2],
    },
    drawdowns: {
      ...figure("peak-to-recovery"),
      portfolio: {
        underwater: [0, 0, 0, -0.004902, 0, 0],
        maxDrawdown: 0.004902,
        worst: [
          {
            depth: 0.004902,
            start: "2024-01-02",
            trough: "2024-01-03",
            recovery: "2024-01-04",
            length: 2,
            toTrough: 1,
            toRecovery: 1,
          },
        ],
      },
      benchmark: {
        underwater: [0, 0, -0.004975, -0.00995, 0, 0],
        maxDrawdown: 0.00995,
        worst: [
          {
            depth: 0.00995,
            start: "2023-12-29",
            trough: "2024-01-03",
            recovery: null,
            length: 4,
            toTrough: 2,
            toRecovery: null,
          },
        ],
      },
    },
    correlation: {
      ...figure("pearson-average-linkage"),
      assets: [
        { symbol: "ITX.MC", name: "Inditex", averageCorrelation: 0.4213, constant: false },
        { symbol: "SAN.MC", name: "Banco Santander", averageCorrelation: 0.4213, constant: false },
      ],
      matrix: [
        [1, 0.4213],
        [0.4213, 1],
      ],
      order: [1, 0],
      merges: [{ left: 0, right: 1, distance: 0.5787, size: 2 }],
    },
    regression: {
      ...figure("ols-weekly"),
      periodDays: 5,
      periods: 120,
      degreesOfFreedom: 118,
      alpha: { estimate: 0.0004, standardError: 0.0002, tStatistic: 2 },
      alphaAnnualised: { estimate: 0.0208, standardError: 0.0104, tStatistic: 2 },
      factors: [
        {
          factor: "market",
          series: "STOXX50E_INDEX",
          beta: { estimate: 1.234, standardError: 0.056, tStatistic: 22.04 },
        },
      ],
      rSquared: 0.8765,
      adjustedRSquared: 0.875,
      residualStandardError: 0.01,
      excluded: [],
    },
    unavailable: [],
    locked: [],
  };
}

/** What a free plan gets: every section withheld, the permissions it lacks. */
const freeAnswer = (): PastPerformance => ({
  ...answer(null),
  dates: [],
  benchmark: null,
  benchmarkChoices: [],
  growth: null,
  calendarYears: null,
  rolling: null,
  drawdowns: null,
  correlation: null,
  regression: null,
  locked: ["monitoring.portfolioReturn", "monitoring.portfolioRisk", "analysis.componentRisk2"],
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const received: { method: string; path: string; body: unknown }[] = [];

function api(options: PageOptions = {}): TabApp.ExtraApi {
  let series: string | null = null;
  // The client tries a GET three times (src/client/http.ts) before it says it failed.
  let failures = options.failFirst ? 3 : 0;
  return async (request, path) => {
    const body = request.method === "GET" ? null : await request.clone().json();
    received.push({ method: request.method, path, body });
    if (request.method === "GET" && path === "/api/portfolios/7")
      return json(200, portfolio(series));
    if (request.method === "GET" && path === "/api/portfolios/7/past-performance") {
      if (failures-- > 0) return json(500, { msgCode: "INTERNAL_ERROR" });
      return json(200, options.free ? freeAnswer() : answer(series));
    }
    // The page's own analysis (not what these tests look at) answers first: the holdings' past
    // starts once it has its answer.
    if (request.method === "GET" && path === "/api/portfolios/7/analysis")
      return options.analysisPending ? null : json(403, { msgCode: "PLAN_FEATURE_LOCKED" });
    if (request.method === "PUT" && path === "/api/portfolios/7/benchmark-series") {
      series = (body as { series: string | null }).series;
      return json(200, portfolio(series));
    }
    return null;
  };
}

type PageOptions = { free?: boolean; failFirst?: boolean; analysisPending?: boolean };

/** Opens the saved portfolio's page, signed in, with the fake API above. */
async function openTabAt(locale: "en" | "es", options: PageOptions = {}) {
  vi.resetModules();
  const tab = await import("../support/tab-app.tsx");
  const { pathFor } = await import("../../src/app/paths.ts");
  tab.signIn();
  await tab.openTab(pathFor("account-portfolio", locale, { id: "7" }), { api: api(options) });
}

/** Opens the page and waits for the past performance section. */
async function openPage(locale: "en" | "es", options: PageOptions = {}) {
  await openTabAt(locale, options);
  return screen.findByTestId("past-performance", {}, { timeout: 5000 });
}

beforeEach(() => {
  sessionStorage.clear();
  received.length = 0;
  saved.length = 0;
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const cellsOf = (table: HTMLElement, row: string) =>
  within(
    within(table)
      .getByRole("rowheader", { name: new RegExp(row) })
      .closest("tr")!,
  )
    .getAllByRole("cell")
    .map((c) => c.textContent);

describe("a saved portfolio's past performance", () => {
  it("waits for the page's own analysis before asking the workers for the holdings' past", async () => {
    await openTabAt("en", { analysisPending: true });
    await screen.findByText("Analysing your portfolio…", {}, { timeout: 5000 });
    expect(received.some((r) => r.path === "/api/portfolios/7/analysis")).toBe(true);
    expect(received.some((r) => r.path.endsWith("/past-performance"))).toBe(false);
    expect(screen.queryByTestId("past-performance")).toBeNull();
  });

  it("shows the API's figures in English, with method, window and data date", async () => {
    const section = await openPage("en");
    await within(section).findByTestId("past-growth-end", {}, { timeout: 5000 });
    expect(
      within(section).getByRole("heading", { name: "How these holdings would have done" }),
    ).toBeTruthy();
    expect(within(section).getByTestId("past-growth-end").textContent).toBe("€12,345.67");
    expect(within(section).getByTestId("past-growth-window").textContent).toContain(
      "From December 28, 2023 to January 5, 2024 (5 daily returns); data as of January 5, 2024",
    );
    expect(within(section).getByTestId("past-benchmark").textContent).toBe(
      "Compared with: EURO STOXX 50.",
    );
    const years = within(section).getByTestId("past-calendar-years");
    expect(cellsOf(years, "2024")).toEqual(["12.34%", "5.00%", "7.34%"]);
    expect(within(years).getByRole("rowheader", { name: /2023/ }).textContent).toContain("partial");
    const falls = within(section).getByTestId("past-falls-benchmark");
    expect(cellsOf(falls, "1")).toEqual(["-1.00%", "12/29/23", "01/03/24", "Not recovered", "4"]);
    const corr = within(section).getByTestId("past-correlation");
    expect(within(corr).getAllByText("0.42").length).toBe(4);
    expect(within(section).getByTestId("past-r-squared").textContent).toBe("0.88");
    const reg = within(section).getByTestId("past-regression");
    expect(cellsOf(reg, "Beta to Stock market")).toEqual(["1.234", "0.056", "22.04"]);
    expect(cellsOf(reg, "Alpha")).toEqual(["2.08%", "1.04%", "2.00"]);
    expect(
      section.querySelectorAll("figure[data-chart='line'], figure.chart svg").length,
    ).toBeGreaterThan(0);
  });

  it("shows the figures in Spanish", async () => {
    const section = await openPage("es");
    await within(section).findByTestId("past-growth-end", {}, { timeout: 5000 });
    expect(within(section).getByTestId("past-growth-end").textContent?.replace(/\s/g, " ")).toBe(
      "12.345,67 €",
    );
    const years = within(section).getByTestId("past-calendar-years");
    expect(cellsOf(years, "2024")).toEqual(
      ["12,34 %", "5,00 %", "7,34 %"].map((v) => v.replace(" ", "\u00a0")),
    );
    const falls = within(section).getByTestId("past-falls-benchmark");
    expect(cellsOf(falls, "1")).toContain("No recuperada");
    expect(within(section).getByTestId("past-r-squared").textContent).toBe("0,88");
    expect(within(section).getByTestId("past-growth-window").textContent).toContain(
      "28 de diciembre de 2023",
    );
  });

  it("stores a new benchmark (PUT) and shows the figures against it", async () => {
    const section = await openPage("en");
    const select = await within(section).findByLabelText("Compare with", {}, { timeout: 5000 });
    expect(within(select).getByRole("option", { name: "S&P 500 (USD)" })).toBeTruthy();
    fireEvent.change(select, { target: { value: "GSPC_INDEX" } });
    await waitFor(() =>
      expect(within(section).getByTestId("past-benchmark").textContent).toBe(
        "Compared with: S&P 500.",
      ),
    );
    expect(received.filter((r) => r.method === "PUT")).toEqual([
      { method: "PUT", path: "/api/portfolios/7/benchmark-series", body: { series: "GSPC_INDEX" } },
    ]);
    const years = within(section).getByTestId("past-calendar-years");
    await waitFor(() => expect(cellsOf(years, "2024")).toEqual(["12.34%", "10.00%", "2.34%"]));
    // The figures were replaced in place: the same selector, with the new choice.
    expect(within(section).getByLabelText("Compare with")).toBe(select);
    expect((select as HTMLSelectElement).value).toBe("GSPC_INDEX");
  });

  it("the stored benchmark goes to the what-if: the saved portfolio's backtest asks for it (issue 27)", async () => {
    vi.resetModules();
    const tab = await import("../support/tab-app.tsx");
    const { pathFor } = await import("../../src/app/paths.ts");
    tab.signIn();
    const fake = api();
    const whatIfBodies: unknown[] = [];
    const mounted = await tab.openTab(pathFor("account-portfolio", "en", { id: "7" }), {
      api: async (request, path) => {
        if (request.method === "POST" && path === "/api/analytics/what-if") {
          whatIfBodies.push(await request.clone().json());
          return json(422, { msgCode: "NOT_ENOUGH_HISTORY" });
        }
        return fake(request, path);
      },
    });
    const section = await screen.findByTestId("past-performance", {}, { timeout: 5000 });
    const select = await within(section).findByLabelText("Compare with", {}, { timeout: 5000 });
    fireEvent.change(select, { target: { value: "GSPC_INDEX" } });
    // The workspace holds the portfolio as stored now.
    await waitFor(() =>
      expect(
        mounted.portfolios.getState().lifecycle?.getSnapshot().context.portfolio?.benchmarkSeries,
      ).toBe("GSPC_INDEX"),
    );
    await mounted.router.navigate(pathFor("what-if-scenarios", "en"));
    fireEvent.click(await screen.findByRole("radio", { name: "1 year" }, { timeout: 5000 }));
    fireEvent.click(screen.getByRole("button", { name: "Run the what-if" }));
    await waitFor(() => expect(whatIfBodies).toHaveLength(1));
    expect(whatIfBodies[0]).toMatchObject({ backTesting: "1y", benchmarkSeries: "GSPC_INDEX" });
  });

  it("says a failed load and loads again on retry", async () => {
    const section = await openPage("en", { failFirst: true });
    const retry = await within(section).findByRole(
      "button",
      { name: "Try again" },
      { timeout: 5000 },
    );
    fireEvent.click(retry);
    await within(section).findByTestId("past-growth-end", {}, { timeout: 5000 });
  });

  it.each(["en", "es"] as const)(
    "a free plan sees the locks naming the plan (%s)",
    async (locale) => {
      const section = await openPage(locale, { free: true });
      await waitFor(() => expect(within(section).getAllByTestId("plan-lock").length).toBe(7));
      const tiers = within(section)
        .getAllByTestId("plan-lock")
        .map((l) => l.getAttribute("data-tier"));
      expect(tiers).toEqual([
        "standard",
        "standard",
        "standard",
        "standard",
        "standard",
        "advanced",
        "advanced",
      ]);
      expect(
        within(section).queryByLabelText(locale === "en" ? "Compare with" : "Comparar con"),
      ).toBeNull();
      const text = within(section).getAllByTestId("plan-lock")[0]!.textContent;
      expect(text).toContain(locale === "en" ? "Included in the Standard plan." : "Estándar");
    },
  );

  it("downloads each table as CSV: a header row in the person's language, numbers unformatted", async () => {
    const section = await openPage("es");
    await within(section).findByTestId("past-growth-end", {}, { timeout: 5000 });
    const buttons = within(section).getAllByRole("button", { name: /CSV/ });
    expect(buttons.length).toBe(5);
    for (const b of buttons) fireEvent.click(b);
    expect(saved.map((s) => s.name)).toEqual([
      "iberia-nucleo-calendar-year-returns.csv",
      "iberia-nucleo-worst-falls-portfolio.csv",
      "iberia-nucleo-worst-falls-benchmark.csv",
      "iberia-nucleo-correlation.csv",
      "iberia-nucleo-market-factors.csv",
    ]);
    const years = (await saved[0]!.blob.text()).split("\r\n");
    expect(years[0]).toBe("Año,Año parcial,Cartera,EURO STOXX 50,Diferencia");
    expect(years[2]).toBe(`2024,true,0.1234,0.05,${0.1234 - 0.05}`);
    const corr = (await saved[3]!.blob.text()).split("\r\n");
    expect(corr[1]).toBe("ITX.MC,Inditex,1,0.4213,0.4213");
  });
});
