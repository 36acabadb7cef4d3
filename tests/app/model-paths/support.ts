// What the screen models of tests/app/model-paths.test.tsx share: the model's shape and the
// few ways a person looks at and acts on a screen.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import { pathFor } from "../../../src/app/paths.ts";
import type { Locale } from "../../../src/contract/common.ts";
import { browserRequest, type ServerTab, type TabServer } from "../../support/server-tab.tsx";

/** How a machine is seen and driven on the screens, in one language. */
export interface ScreenModel {
  readonly machine: string;
  /** A demo account whose plan lets the whole flow through. */
  readonly account: string;
  /** The server's options beyond the edition (workers for flows that compute). */
  readonly server?: { readonly workers?: number; readonly marketDays?: number };
  /** Each language on its own server (the flow leaves the account changed on the server). */
  readonly serverPerLanguage?: boolean;
  /** Opens the flow's first screen in a signed-in tab. */
  open(server: TabServer, locale: Locale): Promise<ServerTab>;
  /** What the person sees in each state (the state's value as JSON). */
  readonly sees: Record<string, (tab: ServerTab, locale: Locale) => Promise<void>>;
  /**
   * What the person does to send each event, from the state it leaves (`to`: the state the path
   * goes to, when one event leads to several states, as a server's answer does).
   */
  readonly does: Record<
    string,
    (tab: ServerTab, locale: Locale, from: string, to: string) => Promise<void>
  >;
  /** Events of the machine that no screen sends, with the reason; their paths are not played. */
  readonly noScreen: Record<string, string>;
  /**
   * States (as JSON) a screen leads to but this harness cannot bring about, with the reason; the
   * paths that reach them are not played.
   */
  readonly notPlayed?: Record<string, string>;
}

export const heading = async (text: string) =>
  waitFor(() => expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(text), {
    timeout: 10_000,
  });

export const at = async (tab: ServerTab, path: string) =>
  waitFor(() => expect(tab.router.state.location.pathname).toBe(path), { timeout: 10_000 });

export const click = async (name: string) =>
  fireEvent.click(await screen.findByRole("button", { name, exact: true } as never));

/** Waits until the tab has made `call` ("POST /api/..."). */
export const called = async (tab: ServerTab, call: string) =>
  waitFor(() => expect(tab.calls).toContain(call), { timeout: 10_000 });

/**
 * Saves a portfolio of the account's plan through the API, as the tab's browser (the person saved
 * it before), and opens it: the lifecycle is then in "saved" and the portfolio is the one the
 * analysis screens look at. Returns its id.
 */
export async function openSavedPortfolio(
  server: TabServer,
  tab: ServerTab,
  locale: Locale,
  name = "Model path",
): Promise<number> {
  const api = browserRequest(server, tab.browser);
  const list = (await (await api("/api/market/assets?product=simAssets&currency=EUR")).json()) as {
    assets: { symbol: string }[];
  };
  const saved = await api("/api/portfolios", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name,
      currency: "EUR",
      maxAssetsLevel: 2,
      assets: list.assets
        .slice(0, 3)
        .map((a, i) => ({ id: a.symbol, investedAmount: 3000 + i * 1000 })),
    }),
  });
  expect(saved.status).toBe(201);
  const { id } = (await saved.json()) as { id: number };
  await tab.router.navigate(pathFor("account-portfolio", locale, { id: String(id) }));
  // Open: its screen shows it (the lifecycle has loaded it).
  await heading(name);
  await screen.findAllByRole("row", undefined, { timeout: 10_000 });
  return id;
}
