// @vitest-environment jsdom
// Model-based tests that reach the screens (issue 26): the machine's own shortest paths
// (`pathsOf`, the same xstate graph walk `npm run machines:paths` prints for QA) each become a
// route-level test. The real app, answered by the real server in-process
// (tests/support/server-tab.tsx), is driven through its screens: each event of a path is done as
// a person does it (the `does` table: type, click), and at each state the test checks what the
// person sees there (the `sees` table). A new state or transition of the machine adds a path, and
// with it a test; one the tables cannot play fails until someone says what the screen shows and
// how a person does it, or lists it below as an event no screen sends (with the reason).
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { machineEntry } from "../../machines/index.ts";
import { pathFor } from "../../src/app/paths.ts";
import { pathsOf } from "../../scripts/lib/machine-docs.ts";
import { openTabServer, signInThroughScreen, type TabServer } from "../support/server-tab.tsx";
import { at, click, heading, type ScreenModel } from "./model-paths/support.ts";
import { banana } from "./model-paths/banana.ts";
import { optimise } from "./model-paths/optimise.ts";
import { subscription } from "./model-paths/subscription.ts";
import { portfolioLifecycle } from "./model-paths/portfolio-lifecycle.ts";
import { whatIf } from "./model-paths/what-if.ts";

const words = {
  q1: { en: "What do you want to invest in?", es: "¿En qué quieres invertir?" },
  q2: { en: "How much could you bear to lose?", es: "¿Cuánto podrías soportar perder?" },
  q3: { en: "What matters most to you?", es: "¿Qué es lo que más te importa?" },
  summary: { en: "Your proposed portfolio", es: "Tu cartera propuesta" },
  amount: { en: "Amount to invest", es: "Importe a invertir" },
  next: { en: "Next", es: "Siguiente" },
  build: { en: "Build my portfolio", es: "Construir mi cartera" },
  name: { en: "Name of the portfolio", es: "Nombre de la cartera" },
  save: { en: "Save the portfolio", es: "Guardar la cartera" },
  saved: {
    en: "Your portfolio “Model path” is saved.",
    es: "Tu cartera «Model path» está guardada.",
  },
  open: { en: "Open the portfolio", es: "Abrir la cartera" },
} as const;

/** The creation wizard (machines/portfolio-wizard.machine.ts) on q1-q3 and the summary. */
const wizard: ScreenModel = {
  machine: "portfolioWizard",
  account: "assets-standard@demo.test",
  server: { workers: 1, marketDays: 2016 },
  async open(server, locale) {
    const tab = await signInThroughScreen(server, locale, this.account);
    await tab.router.navigate(pathFor("create-q1", locale));
    return tab;
  },
  sees: {
    '"q1"': async (tab, locale) => {
      await at(tab, pathFor("create-q1", locale));
      await heading(words.q1[locale]);
      expect(await screen.findByLabelText(words.amount[locale])).toBeTruthy();
    },
    '"q2"': async (tab, locale) => {
      await at(tab, pathFor("create-q2", locale));
      await heading(words.q2[locale]);
    },
    '"q3"': async (tab, locale) => {
      await at(tab, pathFor("create-q3", locale));
      await heading(words.q3[locale]);
    },
    // The proposal is being computed: q3's answers are sent and the person is taken on (the
    // in-process server may answer before a progress indicator can be seen).
    '"proposing"': async (tab, locale) => {
      await waitFor(
        () =>
          expect(
            tab.calls.includes("POST /api/portfolios/propose") &&
              tab.router.state.location.pathname !== pathFor("create-q3", locale),
          ).toBe(true),
        { timeout: 10_000 },
      );
    },
    '"summary"': async (tab, locale) => {
      await at(tab, pathFor("create-summary", locale));
      await heading(words.summary[locale]);
      // The proposal's holdings, each with its amount to change.
      expect((await screen.findAllByRole("row")).length).toBeGreaterThan(1);
      expect(await screen.findByLabelText(words.name[locale])).toBeTruthy();
    },
    '"done"': async (tab, locale) => {
      await waitFor(() => expect(screen.getByText(words.saved[locale])).toBeTruthy(), {
        timeout: 10_000,
      });
      const open = screen.getByRole("link", { name: words.open[locale] });
      expect(open.getAttribute("href")).toMatch(
        new RegExp(`^${pathFor("account-portfolios", locale)}/`),
      );
      expect(tab.calls).toContain("POST /api/portfolios");
    },
  },
  does: {
    next: async (_tab, locale, from) => {
      if (from === '"q1"')
        fireEvent.change(await screen.findByLabelText(words.amount[locale]), {
          target: { value: "10000" },
        });
      await click(from === '"q3"' ? words.build[locale] : words.next[locale]);
    },
    // The server's answer: nothing for the person to do.
    "xstate.done.actor.propose": async () => {},
    save: async (_tab, locale) => {
      fireEvent.change(await screen.findByLabelText(words.name[locale]), {
        target: { value: "Model path" },
      });
      await click(words.save[locale]);
    },
  },
  noScreen: {
    cancel:
      "The wizard's cancel ends a creation for the workspace (a new one replaces it); no screen has a button for it.",
  },
};

const models = [wizard, portfolioLifecycle, whatIf, optimise, banana, subscription];

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  for (const name of ["auth", "lang"])
    document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

describe.each(models.map((m) => [m.machine, m] as const))("%s on the screens", (_id, model) => {
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
  });

  describe.each(["en", "es"] as const)("in %s", (locale) => {
    if (model.serverPerLanguage) {
      beforeAll(open);
      afterAll(close);
    }
    for (const path of playable) {
      const route = steps(path).map((s) => s.event.type);
      it(`reaches ${JSON.stringify(path.state.value)}${route.length ? ` by ${route.join(", ")}` : ""}`, async () => {
        const tab = await model.open(server, locale);
        // The state the machine starts in (after its eventless moves: the path's first step).
        let state = JSON.stringify(path.steps[0]!.state.value);
        await model.sees[state]!(tab, locale);
        for (const step of steps(path)) {
          const does = model.does[step.event.type];
          expect(does, `how a person sends ${step.event.type} from ${state}`).toBeDefined();
          const to = JSON.stringify(step.state.value);
          await does!(tab, locale, state, to);
          state = to;
          const sees = model.sees[state];
          expect(sees, `what a person sees in ${state}`).toBeDefined();
          await sees!(tab, locale);
        }
      }, 30_000);
    }
  });
});
