// @vitest-environment jsdom
// Nothing lost on reload (docs/decisions.md, "Nothing lost on reload"): the portfolio being created,
// the what-if's and the optimisation's inputs are kept in the tab's sessionStorage and come back
// after a reload; a page that needs a portfolio the tab does not have says why. A reload here is
// the tab unmounted, every module of the app loaded again (vi.resetModules: no actor or module
// state survives) and the app opened at the same URL with the same sessionStorage and cookies.
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as TabApp from "../support/tab-app.tsx";

type TabModule = typeof TabApp;

/** A fresh page: every module of the app loaded again. */
async function freshPage(): Promise<TabModule> {
  vi.resetModules();
  return import("../support/tab-app.tsx");
}

async function reload(path: string) {
  cleanup();
  const tab = await freshPage();
  return tab.openTab(path);
}

const amountBox = () => screen.findByLabelText("Amount to invest", {}, { timeout: 5000 });

/** Fills q1-q3 in the screens and waits for the summary. */
async function answerTheQuestions(tab: TabModule) {
  const opened = await tab.openTab("/en/create-portfolio/q1");
  fireEvent.change(await amountBox(), { target: { value: "10000" } });
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  const loss = await screen.findByRole("textbox", {}, { timeout: 5000 });
  await waitFor(() =>
    expect(opened.router.state.location.pathname).toBe("/en/create-portfolio/q2"),
  );
  fireEvent.change(loss, { target: { value: "500" } });
  fireEvent.click(screen.getByRole("button", { name: "Next" }));
  await waitFor(() =>
    expect(opened.router.state.location.pathname).toBe("/en/create-portfolio/q3"),
  );
  fireEvent.click(await screen.findByRole("button", { name: "Build my portfolio" }));
  await waitFor(() =>
    expect(opened.router.state.location.pathname).toBe("/en/create-portfolio/summary"),
  );
  await screen.findByText(/Built for €10,000/, {}, { timeout: 5000 });
  return opened;
}

beforeEach(async () => {
  sessionStorage.clear();
  (await import("../support/tab-app.tsx")).signIn();
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe("the portfolio being created", () => {
  it("is the same after a reload of the summary", async () => {
    await answerTheQuestions(await freshPage());
    expect(screen.getAllByText("Banco Santander").length).toBeGreaterThan(0);

    const reloaded = await reload("/en/create-portfolio/summary");
    await screen.findByText(/Built for €10,000/, {}, { timeout: 5000 });
    expect(reloaded.router.state.location.pathname).toBe("/en/create-portfolio/summary");
    expect(screen.getAllByText("Banco Santander").length).toBeGreaterThan(0);
    expect(screen.getAllByText("Inditex").length).toBeGreaterThan(0);
    expect(screen.queryByTestId("unavailable-notice")).toBeNull();
    // The answers are the same: back on q1 the amount is there.
    const snapshot = reloaded.portfolios.getState().wizard!.getSnapshot();
    expect(snapshot.value).toBe("summary");
    expect(snapshot.context.answers).toMatchObject({ amount: 10000, maxToLose95: 500 });
  });

  it("opened at q1 with the draft at the summary, stays on q1 with the draft's answers", async () => {
    await answerTheQuestions(await freshPage());
    // A link to q1 (the header's "New portfolio") or a reload there: the machine steps back to q1
    // question by question, and the page stays on q1 instead of landing on q3.
    const reloaded = await reload("/en/create-portfolio/q1");
    await waitFor(() =>
      expect(reloaded.portfolios.getState().wizard?.getSnapshot().value).toBe("q1"),
    );
    expect(reloaded.router.state.location.pathname).toBe("/en/create-portfolio/q1");
    await waitFor(async () => expect(await amountBox()).toHaveProperty("value", "10,000.00"));
  });

  it("keeps the answers of a question after a reload, in the other language too", async () => {
    const tab = await freshPage();
    const opened = await tab.openTab("/en/create-portfolio/q1");
    fireEvent.change(await amountBox(), { target: { value: "25000" } });
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() =>
      expect(opened.router.state.location.pathname).toBe("/en/create-portfolio/q2"),
    );

    const reloaded = await reload("/es/crear-cartera/p1");
    const box = await screen.findByLabelText("Importe a invertir", {}, { timeout: 5000 });
    await waitFor(() => expect((box as HTMLInputElement).value).toBe("25.000,00"));
    expect(reloaded.router.state.location.pathname).toBe("/es/crear-cartera/p1");
  });

  it("is not restored for another client, and holds no secrets", async () => {
    await answerTheQuestions(await freshPage());
    const stored = JSON.parse(sessionStorage.getItem("draft:wizard")!) as { owner: number };
    expect(stored.owner).toBe(7);
    // No token, no password: the draft holds answers and the proposal.
    expect(sessionStorage.getItem("draft:wizard")).not.toMatch(/token|password/i);
    sessionStorage.setItem("draft:wizard", JSON.stringify({ ...stored, owner: 8 }));
    await reload("/en/create-portfolio/summary");
    await screen.findByTestId("unavailable-notice", {}, { timeout: 5000 });
    expect(sessionStorage.getItem("draft:wizard")).not.toContain('"owner":8');
  });

  it("is cleared on sign-out", async () => {
    const opened = await answerTheQuestions(await freshPage());
    expect(sessionStorage.getItem("draft:wizard")).not.toBeNull();
    act(() => opened.session.send({ type: "session.signOut" }));
    expect(sessionStorage.getItem("draft:wizard")).toBeNull();
  });
});

describe("a step that cannot be shown", () => {
  it("says why, with a link to the start, in a fresh tab at the summary", async () => {
    const opened = await (await freshPage()).openTab("/en/create-portfolio/summary");
    const notice = await screen.findByTestId("unavailable-notice", {}, { timeout: 5000 });
    // The guard's rule stands (PRODUCT.md: otherwise q1); the page says why the person is there.
    expect(opened.router.state.location.pathname).toBe("/en/create-portfolio/q1");
    expect(notice.textContent).toContain("“Your proposed portfolio” could not be shown");
    const start = screen.getByRole("link", { name: "Start a new portfolio" });
    expect(start.getAttribute("href")).toBe("/en/create-portfolio/q1");
  });

  it("says why in Spanish for optimisation step o3 without a portfolio", async () => {
    await (await freshPage()).openTab("/es/optimizar/o3");
    const notice = await screen.findByTestId("unavailable-notice", {}, { timeout: 5000 });
    expect(notice.textContent).toContain("«Elegir cuántos activos» no se pudo mostrar");
    expect(
      screen.getByRole("link", { name: "Empezar una cartera nueva" }).getAttribute("href"),
    ).toBe("/es/crear-cartera/p1");
  });

  it("discards a stored snapshot of another version instead of restoring it", async () => {
    await answerTheQuestions(await freshPage());
    const stored = JSON.parse(sessionStorage.getItem("draft:wizard")!) as { version: number };
    sessionStorage.setItem("draft:wizard", JSON.stringify({ ...stored, version: 0 }));
    const reloaded = await reload("/en/create-portfolio/summary");
    await screen.findByTestId("unavailable-notice", {}, { timeout: 5000 });
    expect(reloaded.router.state.location.pathname).toBe("/en/create-portfolio/q1");
    await amountBox();
    expect(reloaded.portfolios.getState().wizard?.getSnapshot().context.answers.amount).toBeNull();
  });

  it("discards a stored snapshot this build cannot restore (a state it no longer has)", async () => {
    await answerTheQuestions(await freshPage());
    const stored = JSON.parse(sessionStorage.getItem("draft:wizard")!) as {
      data: Record<string, unknown>;
    };
    sessionStorage.setItem(
      "draft:wizard",
      JSON.stringify({ ...stored, data: { ...stored.data, value: "reviewing" } }),
    );
    await reload("/en/create-portfolio/summary");
    await screen.findByTestId("unavailable-notice", {}, { timeout: 5000 });
  });
});

describe("the what-if's and the optimisation's inputs", () => {
  it("are the same after a reload of what-if", async () => {
    await answerTheQuestions(await freshPage());
    let tab = await reload("/en/what-if/scenarios");
    const slider = await screen.findByLabelText("Stock market, slider", {}, { timeout: 5000 });
    fireEvent.change(slider, { target: { value: "-20" } });
    fireEvent.click(screen.getByRole("radio", { name: /2008/ }));
    expect(tab.router.state.location.pathname).toBe("/en/what-if/scenarios");

    tab = await reload("/en/what-if/scenarios");
    const again = await screen.findByLabelText("Stock market, slider", {}, { timeout: 5000 });
    expect((again as HTMLInputElement).value).toBe("-20");
    expect((screen.getByRole("radio", { name: /2008/ }) as HTMLInputElement).checked).toBe(true);
  });

  it("are the same after a reload of optimisation step o3", async () => {
    await answerTheQuestions(await freshPage());
    let tab = await reload("/en/optimize/o3");
    const desired = await screen.findByRole(
      "spinbutton",
      { name: /number of assets/i },
      {
        timeout: 5000,
      },
    );
    fireEvent.change(desired, { target: { value: "4" } });
    // A money field: typed as the person types it, shown with two decimals once left.
    const maxLoss = screen.getByRole("textbox", { name: /Maximum loss at 95%/ });
    fireEvent.change(maxLoss, { target: { value: "700" } });
    fireEvent.blur(maxLoss);
    expect((maxLoss as HTMLInputElement).value).toBe("700.00");
    expect(tab.router.state.location.pathname).toBe("/en/optimize/o3");

    tab = await reload("/en/optimize/o3");
    const again = await screen.findByRole(
      "spinbutton",
      { name: /number of assets/i },
      {
        timeout: 5000,
      },
    );
    expect(tab.router.state.location.pathname).toBe("/en/optimize/o3");
    expect((again as HTMLInputElement).value).toBe("4");
    expect(
      (screen.getByRole("textbox", { name: /Maximum loss at 95%/ }) as HTMLInputElement).value,
    ).toBe("700.00");
  });
});
