// What the screen models of tests/app/model-paths/ share: the model's shape, the few ways a person
// looks at and acts on a screen, and the runner that plays a model's paths (one test file each).
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { machineEntry } from "../../../machines/index.ts";
import { pathsOf } from "../../../scripts/lib/machine-docs.ts";
import { pathFor } from "../../../src/app/paths.ts";
import type { Locale } from "../../../src/contract/common.ts";
import {
  browserRequest,
  openTabServer,
  type ServerTab,
  type TabServer,
} from "../../support/server-tab.tsx";

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
   * goes to, when one event leads to several states, as a server's answer does; `goal`: the state
   * the whole path reaches, when what the person chooses now decides a later server's answer).
   */
  readonly does: Record<
    string,
    (tab: ServerTab, locale: Locale, from: string, to: string, goal: string) => Promise<void>
  >;
  /** Events of the machine that no screen sends, with the reason; their paths are not played. */
  readonly noScreen: Record<string, string>;
  /**
   * States (as JSON) a screen leads to but this harness cannot bring about, with the reason; the
   * paths that reach them are not played.
   */
  readonly notPlayed?: Record<string, string>;
  /**
   * States (as JSON) the machine reaches by a server's failure (an `xstate.error.*` step), with
   * the call the server fails for it: the harness arms the fault just before the step that starts
   * the call (before the path's first screen opens, when the machine starts with it;
   * tests/support/server-tab.tsx, `fail`) and heals it once the failure is seen.
   */
  readonly faults?: Record<string, ServerFault>;
}

/** A call the server answers with a failure: "GET /api/billing", 500 INTERNAL_ERROR by default. */
export interface ServerFault {
  /** The call, or a pattern of calls (an id in the path). */
  readonly call: string | RegExp;
  readonly status?: number;
  readonly msgCode?: string;
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

/**
 * Plays the model's machine's shortest paths on the screens (issue 26): the real app, answered by
 * the real server in-process (tests/support/server-tab.tsx), driven through its screens — each
 * event of a path done as a person does it (`does`), and at each state what the person sees there
 * checked (`sees`). A new state or transition adds a path, and with it a test; one the tables
 * cannot play fails until someone says what the screen shows and how a person does it, or lists
 * it as an event no screen sends (with the reason). One test file per model, so that the models
 * run on several workers.
 */
export function playOnScreens(model: ScreenModel) {
  afterEach(() => {
    cleanup();
    sessionStorage.clear();
    for (const name of ["auth", "lang"])
      document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });

  describe(`${model.machine} on the screens`, () => {
    let server: TabServer;
    const open = async () => {
      server = await openTabServer("ht", model.server ?? {});
    };
    const close = () => server?.close();
    if (!model.serverPerLanguage) {
      beforeAll(open);
      afterAll(close);
    }

    const paths = pathsOf(machineEntry(model.machine), "shortest");
    const steps = (path: (typeof paths)[number]) =>
      path.steps.filter((s) => s.event.type !== "xstate.init");
    const notPlayed = model.notPlayed ?? {};
    const faults = model.faults ?? {};
    /** The fault of a step that is a server's failure reaching a state the model fails for. */
    const failureOf = (step: ReturnType<typeof steps>[number]) =>
      step.event.type.startsWith("xstate.error.")
        ? faults[JSON.stringify(step.state.value)]
        : undefined;
    const playable = paths.filter(
      (p) =>
        steps(p).every((s) => !(s.event.type in model.noScreen)) &&
        !(JSON.stringify(p.state.value) in notPlayed),
    );

    it("plays every path but those of events no screen sends, and says what each state shows", () => {
      const unplayed = paths
        .filter((p) => !playable.includes(p))
        .flatMap((p) => steps(p).map((s) => s.event.type))
        .filter((e) => e in model.noScreen);
      expect([...new Set(unplayed)].sort()).toEqual(Object.keys(model.noScreen).sort());
      // Each state the harness cannot bring about is one a path reaches.
      const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
      expect(Object.keys(notPlayed).filter((s) => !reached.has(s))).toEqual([]);
      const states = new Set(playable.map((p) => JSON.stringify(p.state.value)));
      expect([...states].filter((s) => !(s in model.sees))).toEqual([]);
      // Each fault is of a state a played path reaches by a server's failure.
      const failedInto = new Set(
        playable.flatMap((p) =>
          steps(p)
            .filter((s) => s.event.type.startsWith("xstate.error."))
            .map((s) => JSON.stringify(s.state.value)),
        ),
      );
      expect(Object.keys(faults).filter((s) => !failedInto.has(s))).toEqual([]);
    });

    describe.each(["en", "es"] as const)("in %s", (locale) => {
      if (model.serverPerLanguage) {
        beforeAll(open);
        afterAll(close);
      }
      for (const path of playable) {
        const route = steps(path).map((s) => s.event.type);
        it(`reaches ${JSON.stringify(path.state.value)}${route.length ? ` by ${route.join(", ")}` : ""}`, async () => {
          // The server's failures on the path, each armed just before the step that starts its
          // call (before the first screen opens, when the machine starts with the call).
          const played = steps(path);
          const failures = played.filter((s) => failureOf(s) !== undefined);
          const arm = (step: (typeof played)[number] | undefined) => {
            const fault = step && failureOf(step);
            if (fault) server.fail(fault.call, fault.status, fault.msgCode);
          };
          arm(played[0]);
          try {
            const tab = await model.open(server, locale);
            // The state the machine starts in (after its eventless moves: the path's first step).
            let state = JSON.stringify(path.steps[0]!.state.value);
            await model.sees[state]!(tab, locale);
            for (const [i, step] of played.entries()) {
              arm(played[i + 1]);
              const failed = failures.includes(step);
              // A server's failure: nothing for the person to do.
              const does = failed ? async () => {} : model.does[step.event.type];
              expect(does, `how a person sends ${step.event.type} from ${state}`).toBeDefined();
              const to = JSON.stringify(step.state.value);
              await does!(tab, locale, state, to, JSON.stringify(path.state.value));
              state = to;
              const sees = model.sees[state];
              expect(sees, `what a person sees in ${state}`).toBeDefined();
              await sees!(tab, locale);
              if (failed) {
                server.heal();
                arm(played[i + 1]);
              }
            }
          } finally {
            server.heal();
          }
        }, 30_000);
      }
    });
  });
}
