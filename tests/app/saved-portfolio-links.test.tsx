// @vitest-environment jsdom
// A saved portfolio opened from "My portfolios" leads where its links say (route account-portfolio,
// the real machines and route guards, the API answered by a fake): "Optimise it" opens the
// optimisation of that portfolio, with its holdings, not the creation wizard's q1. The optimisation
// routes are behind portfolio-creation ("a creation or edition process is under way", PRODUCT.md),
// which a portfolio opened from my portfolios is not: following the link starts an edition of it
// (the lifecycle's edit event), and adopting the result submits that edition. The what-if and the
// risk assessment (portfolio-created) open on the same portfolio, and the optimised portfolio's
// full analysis too.
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Client } from "../../src/contract/accounts.ts";
import type { Portfolio } from "../../src/contract/portfolios.ts";
import type * as TabApp from "../support/tab-app.tsx";
import { savedPortfolioFixture } from "../../machines/portfolio-lifecycle.fixtures.ts";

/** A saved portfolio with the answers of the questions (the assessment reads the loss borne). */
const savedPortfolio = (
  holdings: readonly (readonly [string, string, number])[],
  extra: Partial<Portfolio> = {},
): Portfolio =>
  savedPortfolioFixture(holdings, {
    answers: {
      universe: [],
      amount: 10000,
      maxToLose95: 900,
      ordering: "balanced",
      maxAssetsLevel: 2,
    },
    ...extra,
  });

const iberia = savedPortfolio([
  ["SAN.MC", "Banco Santander", 6000],
  ["ITX.MC", "Inditex", 4000],
]);

const optimal = {
  status: "optimal",
  method: "minimum-risk",
  currency: "EUR",
  window: { benchmark: 5, from: "2021-05-31", to: "2024-05-31", limitedBy: [], simulated: false },
  assets: [
    { symbol: "SAN.MC", weight: 0.45, investedAmount: 4500, currentWeight: 0.6 },
    { symbol: "ITX.MC", weight: 0.55, investedAmount: 5500, currentWeight: 0.4 },
  ],
  volatility: 0.05,
  var95: 0.07,
  cvar95: 0.08,
  var95Amount: 700,
  cvar95Amount: 800,
  expectedReturn: 0.06,
  current: {
    volatility: 0.055,
    var95: 0.08,
    cvar95: 0.085,
    var95Amount: 800,
    cvar95Amount: 850,
    expectedReturn: 0.065,
  },
  frontier: [
    { volatility: 0.05, expectedReturn: 0.06 },
    { volatility: 0.07, expectedReturn: 0.08 },
  ],
  gap: 0,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** What the fake API received, for the calls this test answers. */
const received: { method: string; path: string; body: unknown }[] = [];

/**
 * The API of the saved portfolio `portfolio`, for the tab's subscribed client with a plan that
 * edits (as every plan that optimises does); an edition answers it with the new amounts.
 */
function portfolioApi(
  tab: typeof TabApp,
  portfolio: Portfolio,
  options: { refuseEditions?: boolean } = {},
): TabApp.ExtraApi {
  const permissions = tab.tabClient.permissions.simAssets;
  const client: Client = {
    ...tab.tabClient,
    permissions: {
      ...tab.tabClient.permissions,
      simAssets: {
        ...permissions,
        management: { ...permissions.management, edit: true, editLimit: 3 },
      },
    },
  };
  let current = portfolio;
  return async (request, path) => {
    const body = request.method === "GET" ? null : await request.clone().json();
    received.push({ method: request.method, path, body });
    if (path === "/api/client") return json(200, client);
    if (request.method === "GET" && path === "/api/portfolios")
      return json(200, { portfolios: [current], simulated: false });
    if (request.method === "GET" && path === `/api/portfolios/${current.id}`)
      return json(200, current);
    if (request.method === "POST" && path === "/api/analytics/optimise") return json(200, optimal);
    if (request.method === "PUT" && path === `/api/portfolios/${current.id}`) {
      if (options.refuseEditions) return json(403, { msgCode: "NO_EDITIONS_LEFT" });
      const amounts = (body as { assets: { id: string; investedAmount: number }[] }).assets;
      const names = new Map(current.assets.flatMap((g) => g.assets).map((a) => [a.id, a.name]));
      current = savedPortfolio(
        amounts.map((a) => [a.id, names.get(a.id) ?? a.id, a.investedAmount] as const),
        { version: current.version + 1, remainingEditions: (current.remainingEditions ?? 1) - 1 },
      );
      return json(200, current);
    }
    return null;
  };
}

/** A fresh page (no actor or module state of an earlier test), signed in. */
async function freshTab(): Promise<typeof TabApp> {
  vi.resetModules();
  const tab = await import("../support/tab-app.tsx");
  tab.signIn();
  return tab;
}

/** My portfolios, then the saved portfolio's page, as the person gets there. */
async function openSavedPortfolio(
  portfolio: Portfolio = iberia,
  options: { refuseEditions?: boolean } = {},
) {
  const tab = await freshTab();
  const opened = await tab.openTab("/en/my-account/portfolios", {
    api: portfolioApi(tab, portfolio, options),
  });
  const list = await screen.findByTestId("portfolio-list", {}, { timeout: 5000 });
  fireEvent.click(within(list).getByRole("link", { name: "Iberia" }));
  await screen.findByRole("heading", { level: 1, name: "Iberia" }, { timeout: 5000 });
  expect(opened.router.state.location.pathname).toBe("/en/my-account/portfolios/portfolio-7");
  await waitFor(() =>
    expect(opened.portfolios.getState().lifecycle?.getSnapshot().value).toBe("saved"),
  );
  return opened;
}

const pathOf = (opened: { router: { state: { location: { pathname: string } } } }) =>
  opened.router.state.location.pathname;

beforeEach(() => {
  sessionStorage.clear();
  received.length = 0;
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe("a saved portfolio's page", () => {
  it("“Optimise it” opens the optimisation of that portfolio with its holdings, runs it, shows the optimised analysis and adopts it as an edit", async () => {
    const opened = await openSavedPortfolio();
    fireEvent.click(screen.getByRole("link", { name: "Optimise it" }));

    await screen.findByRole(
      "heading",
      { level: 1, name: "Optimise your portfolio" },
      { timeout: 5000 },
    );
    expect(pathOf(opened)).toBe("/en/optimize/choose");
    expect(screen.queryByTestId("unavailable-notice")).toBeNull();
    expect(screen.getByText("Iberia", { selector: ".optimise-portfolio" })).toBeTruthy();
    // An edition of the saved portfolio is under way; none is spent yet.
    const life = opened.portfolios.getState().lifecycle!.getSnapshot();
    expect(life.value).toBe("editing");
    expect(life.context.portfolio?.id).toBe(7);
    expect(received.some((r) => r.method === "PUT")).toBe(false);

    // Its holdings, on the level that lists them.
    fireEvent.click(screen.getByRole("button", { name: "Choose: Add new assets" }));
    await waitFor(() => expect(pathOf(opened)).toBe("/en/optimize/o2"));
    expect(await screen.findByRole("checkbox", { name: "Keep Banco Santander" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "Keep Inditex" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Run the optimisation" }));
    await screen.findByRole(
      "heading",
      { level: 1, name: "Optimised portfolio" },
      { timeout: 5000 },
    );
    expect(pathOf(opened)).toBe("/en/optimize/summary");
    const request = received.find((r) => r.path === "/api/analytics/optimise")!.body as {
      assets: { symbol: string; investedAmount: number }[];
    };
    expect(request.assets.filter((a) => a.investedAmount > 0)).toEqual([
      { symbol: "SAN.MC", investedAmount: 6000 },
      { symbol: "ITX.MC", investedAmount: 4000 },
    ]);
    expect(screen.getByTestId("weight-SAN.MC").textContent).toBe("45.00%");
    // Adopting edits the saved portfolio (not "the portfolio you are creating").
    screen.getByRole("button", { name: "Adopt: save it as an edit of this portfolio" });

    // The optimised portfolio's full analysis (the same guards as the optimisation), and back.
    fireEvent.click(screen.getByRole("link", { name: "Full analysis of the optimised portfolio" }));
    await screen.findByRole(
      "heading",
      { level: 1, name: "Full analysis of the optimised portfolio" },
      { timeout: 5000 },
    );
    expect(pathOf(opened)).toBe("/en/analysis/optimized-portfolio-full-analysis");
    expect(screen.queryByTestId("unavailable-notice")).toBeNull();
    await opened.router.navigate(-1);
    await screen.findByRole(
      "heading",
      { level: 1, name: "Optimised portfolio" },
      { timeout: 5000 },
    );

    // Adopted: the edition is submitted with the optimised amounts, back on the portfolio's page.
    fireEvent.click(
      screen.getByRole("button", { name: "Adopt: save it as an edit of this portfolio" }),
    );
    await waitFor(() => expect(pathOf(opened)).toBe("/en/my-account/portfolios/portfolio-7"), {
      timeout: 5000,
    });
    const put = received.filter((r) => r.method === "PUT");
    expect(put).toHaveLength(1);
    expect(put[0]!.body).toMatchObject({
      version: 1,
      assets: expect.arrayContaining([
        { id: "SAN.MC", investedAmount: 4500 },
        { id: "ITX.MC", investedAmount: 5500 },
      ]),
    });
    await waitFor(() =>
      expect(opened.portfolios.getState().lifecycle?.getSnapshot().value).toBe("saved"),
    );
    expect((await screen.findByTestId("remaining-editions")).textContent).toBe("2");
  });

  it("an adoption the server refuses stays on the optimisation with the reason, the edition as it was", async () => {
    const opened = await openSavedPortfolio(iberia, { refuseEditions: true });
    fireEvent.click(screen.getByRole("link", { name: "Optimise it" }));
    fireEvent.click(
      await screen.findByRole(
        "button",
        { name: "Choose: Lower the risk of my assets" },
        { timeout: 5000 },
      ),
    );
    await waitFor(() => expect(pathOf(opened)).toBe("/en/optimize/o1"));
    fireEvent.click(
      await screen.findByRole("button", { name: "Run the optimisation" }, { timeout: 5000 }),
    );
    await screen.findByRole(
      "heading",
      { level: 1, name: "Optimised portfolio" },
      { timeout: 5000 },
    );
    fireEvent.click(
      screen.getByRole("button", { name: "Adopt: save it as an edit of this portfolio" }),
    );

    await waitFor(() =>
      expect(
        screen.getAllByRole("alert").some((a) => a.textContent?.includes("no edits left")),
      ).toBe(true),
    );
    expect(pathOf(opened)).toBe("/en/optimize/summary");
    // The edition goes on with the portfolio's amounts, so the result is still the current one.
    const life = opened.portfolios.getState().lifecycle!.getSnapshot();
    expect(life.value).toBe("editing");
    expect(life.context.draft?.assets.map((a) => [a.id, a.investedAmount])).toEqual([
      ["SAN.MC", 6000],
      ["ITX.MC", 4000],
    ]);
    expect(
      (
        screen.getByRole("button", {
          name: "Adopt: save it as an edit of this portfolio",
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(false);
    // The other optimisation pages still open (the edition is under way), never q1.
    fireEvent.click(screen.getByRole("button", { name: "Change the options" }));
    await waitFor(() => expect(pathOf(opened)).toBe("/en/optimize/o1"));
    expect(screen.queryByTestId("unavailable-notice")).toBeNull();
  });

  it("a maximum loss below the minimum desired risk is told at its field, not above the form", async () => {
    const opened = await openSavedPortfolio(iberia);
    fireEvent.click(screen.getByRole("link", { name: "Optimise it" }));
    fireEvent.click(
      await screen.findByRole(
        "button",
        { name: "Choose: Lower the risk of my assets" },
        { timeout: 5000 },
      ),
    );
    await waitFor(() => expect(pathOf(opened)).toBe("/en/optimize/o1"));
    const maxLoss = await screen.findByLabelText("Maximum loss at 95% over a month (EUR)");
    fireEvent.change(maxLoss, { target: { value: "10" } });
    fireEvent.blur(maxLoss);
    fireEvent.click(screen.getByRole("button", { name: "Run the optimisation" }));

    await waitFor(() => expect(maxLoss.getAttribute("aria-invalid")).toBe("true"));
    const described = (maxLoss.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" ");
    expect(described).toContain(
      "The maximum loss at 95% (€10.00) must reach the minimum desired risk",
    );
    expect(screen.queryByText("Optimisation is blocked:")).toBeNull();
    expect(pathOf(opened)).toBe("/en/optimize/o1");
  });

  it("“Stress-test it (what if)” opens the what-if on that portfolio", async () => {
    const opened = await openSavedPortfolio();
    fireEvent.click(screen.getByRole("link", { name: "Stress-test it (what if)" }));
    await screen.findByRole("heading", { level: 1, name: "What-if scenarios" }, { timeout: 5000 });
    expect(pathOf(opened)).toBe("/en/what-if/scenarios");
    expect(screen.getByTestId("what-if-portfolio").textContent).toBe(
      "On Iberia: 2 assets, €10,000.00.",
    );
  });

  it("“Assess its risk” opens the risk assessment of that portfolio", async () => {
    const opened = await openSavedPortfolio();
    fireEvent.click(screen.getByRole("link", { name: "Assess its risk" }));
    await screen.findByRole("heading", { level: 1, name: "Risk assessment" }, { timeout: 5000 });
    expect(pathOf(opened)).toBe("/en/assess-risk/assessment");
    expect(screen.queryByTestId("unavailable-notice")).toBeNull();
  });

  it("without edits left, “Optimise it” stays on the page and says why, never q1", async () => {
    const opened = await openSavedPortfolio({ ...iberia, remainingEditions: 0 });
    fireEvent.click(screen.getByRole("link", { name: "Optimise it" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("This portfolio has no edits left.");
    expect(pathOf(opened)).toBe("/en/my-account/portfolios/portfolio-7");
    expect(opened.portfolios.getState().lifecycle?.getSnapshot().value).toBe("saved");
  });
});
