// Where the person is: the machines take the person to their pages through one abstract action,
// `follow`, with a route of the app's route table (its key, never a URL), and learn which of their
// pages is open from `page.opened` / `page.left`. The app provides `follow` once
// (src/app/route-follow.ts); here it is a list of the routes asked for.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { optimiseMachine, type OptimalAnswer } from "../../machines/optimise.machine.ts";
import { portfolioLifecycleMachine } from "../../machines/portfolio-lifecycle.machine.ts";
import { portfolioWizardMachine } from "../../machines/portfolio-wizard.machine.ts";
import { whatIfMachine } from "../../machines/what-if.machine.ts";
import type { OptimiseResponse, WhatIfResponse } from "../../src/contract/analytics.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import type { Portfolio, ProposeResponse } from "../../src/contract/portfolios.ts";

type Followed = { route: string; params?: Record<string, string> };

const advanced = permissionsFor("simAssets", "advanced");
const standard = permissionsFor("simAssets", "standard");

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const proposal: ProposeResponse = {
  currency: "EUR",
  assets: [
    { symbol: "SAN.MC", name: "Banco Santander", investedAmount: 6000, percentage: 60 },
    { symbol: "ITX.MC", name: "Inditex", investedAmount: 4000, percentage: 40 },
  ],
  method: "equal",
  var95Amount: 500,
  cvar95Amount: 700,
  withinMaxToLose: null,
  minimumDesiredRiskAmount: 110,
  simulated: true,
};

function wizard(input: { edition?: "ht" | "tt"; lazy?: boolean } = {}) {
  const followed: Followed[] = [];
  const answers: { promise: Promise<ProposeResponse>; resolve: (p: ProposeResponse) => void }[] =
    [];
  const actor = createActor(
    portfolioWizardMachine.provide({
      actors: {
        propose: fromPromise(() => {
          const d = deferred<ProposeResponse>();
          answers.push(d);
          return d.promise;
        }),
      },
      actions: { follow: (_, target) => void followed.push(target) },
    }),
    {
      input: {
        product: "simAssets",
        edition: input.edition ?? "ht",
        permissions: advanced,
        answers: { amount: 10_000, ...(input.lazy ? { lazyPortfolio: "all-weather" } : {}) },
      },
    },
  ).start();
  /** Answers the proposal asked for last, and waits for the summary. */
  const propose = async () => {
    answers.at(-1)!.resolve(proposal);
    await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
  };
  return { actor, followed, propose };
}

describe("the wizard: its steps are pages, and the URL follows it", () => {
  it("moves no page while none of its pages is open", () => {
    const { actor, followed } = wizard();
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q3");
    expect(followed).toEqual([]);
  });

  it("takes the person from step to step, forward and back (a new history entry each)", async () => {
    const { actor, followed, propose } = wizard();
    actor.send({ type: "page.opened", page: "q1" });
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    actor.send({ type: "step.back" });
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("proposing");
    await propose();
    expect(followed.map((f) => f.route)).toEqual([
      "create-q2",
      "create-q3",
      "create-q2",
      "create-q3",
      "create-summary",
    ]);
  });

  it("a refused step stays on its page", () => {
    const { actor, followed } = wizard();
    actor.send({ type: "page.opened", page: "q1" });
    actor.send({ type: "q1.change", answers: { amount: 0 } });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q1");
    expect(actor.getSnapshot().context.problem).toBe("TOTAL_TOO_LOW");
    expect(followed).toEqual([]);
  });

  it("an earlier step's page opened (the back button) steps the wizard back to it, in place", async () => {
    const { actor, followed, propose } = wizard();
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    await propose();
    actor.send({ type: "page.opened", page: "q2" });
    expect(actor.getSnapshot().value).toBe("q2");
    expect(actor.getSnapshot().context.page).toBe("q2");
    actor.send({ type: "page.opened", page: "q1" });
    expect(actor.getSnapshot().value).toBe("q1");
    // The person is already on the page: nothing to follow.
    expect(followed).toEqual([]);
  });

  it("a later step's page opened sends the person back to the wizard's step", () => {
    const { actor, followed } = wizard();
    actor.send({ type: "step.next" });
    actor.send({ type: "page.opened", page: "summary" });
    expect(actor.getSnapshot().value).toBe("q2");
    expect(followed).toEqual([{ route: "create-q2" }]);
  });

  it("a lazy portfolio's summary goes back to q1 from any question's page (q2 and q3 were skipped)", async () => {
    const { actor, followed, propose } = wizard({ edition: "tt", lazy: true });
    actor.send({ type: "page.opened", page: "q1" });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("proposing");
    await propose();
    actor.send({ type: "page.opened", page: "q3" });
    expect(actor.getSnapshot().value).toBe("q1");
    expect(followed).toEqual([{ route: "create-summary" }, { route: "create-q1" }]);
  });

  it("while proposing a page opened is noted: the answer takes the person to the summary", async () => {
    const { actor, followed, propose } = wizard();
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    actor.send({ type: "page.opened", page: "q2" });
    expect(actor.getSnapshot().value).toBe("proposing");
    await propose();
    expect(followed).toEqual([{ route: "create-summary" }]);
  });

  it("an answer that comes after the person left moves no page", async () => {
    const { actor, followed, propose } = wizard();
    actor.send({ type: "page.opened", page: "q1" });
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    actor.send({ type: "page.left" });
    await propose();
    expect(followed.map((f) => f.route)).toEqual(["create-q2", "create-q3"]);
  });
});

const optimalAnswer: OptimalAnswer = {
  status: "optimal",
  method: "minimum-risk",
  currency: "EUR",
  window: { benchmark: 5, from: "2023-11-20", to: "2026-11-20", limitedBy: [], simulated: true },
  assets: [{ symbol: "AAPL", weight: 1, investedAmount: 10_000, currentWeight: 0.6 }],
  volatility: 0.03,
  var95: 0.05,
  cvar95: 0.07,
  var95Amount: 500,
  cvar95Amount: 700,
  expectedReturn: 0.06,
  current: {
    volatility: 0.04,
    var95: 0.06,
    cvar95: 0.08,
    var95Amount: 600,
    cvar95Amount: 800,
    expectedReturn: 0.07,
  },
  frontier: [{ volatility: 0.03, expectedReturn: 0.06 }],
  gap: 0,
};

function optimisation(options: { savedId?: number | null; permissions?: typeof advanced } = {}) {
  const followed: Followed[] = [];
  const actor = createActor(
    optimiseMachine.provide({
      actors: {
        optimise: fromPromise(async (): Promise<OptimiseResponse> => optimalAnswer),
        adopt: fromPromise(async () => {}),
      },
      actions: { follow: (_, target) => void followed.push(target) },
    }),
    {
      input: {
        portfolio: {
          currency: "EUR",
          assets: [
            { symbol: "AAPL", name: "Apple", investedAmount: 6000 },
            { symbol: "SAN.MC", name: "Santander", investedAmount: 4000 },
          ],
          key: "k1",
        },
        savedId: options.savedId ?? null,
        permissions: options.permissions ?? advanced,
        clientLevel: 30,
        maxToLose95: 1000,
      },
    },
  ).start();
  return { actor, followed };
}

describe("the optimisation: the choice, each level and the summary are pages", () => {
  it("a level's page opened on the choice chooses that level, in place", () => {
    const { actor, followed } = optimisation();
    actor.send({ type: "page.opened", page: "o2" });
    expect(actor.getSnapshot().value).toEqual({ options: "o2" });
    expect(actor.getSnapshot().context.level).toBe(2);
    expect(followed).toEqual([]);
  });

  it("a locked level's page opened stays and shows the lock", () => {
    const { actor, followed } = optimisation({ permissions: standard });
    actor.send({ type: "page.opened", page: "o3" });
    expect(actor.getSnapshot().value).toBe("choose");
    expect(actor.getSnapshot().context.lockedLevel).toBe(3);
    expect(followed).toEqual([]);
  });

  it("takes the person from the choice to the level, the summary, and back to the level", async () => {
    const { actor, followed } = optimisation();
    actor.send({ type: "page.opened", page: "choose" });
    actor.send({ type: "level.choose", level: 1 });
    actor.send({ type: "optimisation.run" });
    await waitFor(actor, (s) => s.matches("summary"));
    actor.send({ type: "step.back" });
    actor.send({ type: "step.back" });
    expect(followed.map((f) => f.route)).toEqual([
      "optimize-o1",
      "optimize-summary",
      "optimize-o1",
      "optimize-choose",
    ]);
  });

  it("the choice's page opened on a level (the back button) goes back to the choice, in place", () => {
    const { actor, followed } = optimisation();
    actor.send({ type: "page.opened", page: "o1" });
    actor.send({ type: "page.opened", page: "choose" });
    expect(actor.getSnapshot().value).toBe("choose");
    expect(actor.getSnapshot().context.level).toBeNull();
    expect(followed).toEqual([]);
  });

  it("another level's page opened sends the person back to the machine's level", () => {
    const { actor, followed } = optimisation();
    actor.send({ type: "page.opened", page: "o1" });
    actor.send({ type: "page.opened", page: "o3" });
    expect(actor.getSnapshot().value).toEqual({ options: "o1" });
    expect(followed).toEqual([{ route: "optimize-o1" }]);
  });

  it.each([
    [7, { route: "account-portfolio", params: { id: "7" } }],
    [null, { route: "create-summary" }],
  ] as const)(
    "adopted (saved portfolio %s): the person goes where the portfolio lives",
    async (savedId, route) => {
      const { actor, followed } = optimisation({ savedId });
      actor.send({ type: "page.opened", page: "o1" });
      actor.send({ type: "optimisation.run" });
      await waitFor(actor, (s) => s.matches("summary"));
      actor.send({ type: "result.adopt" });
      await waitFor(actor, (s) => s.status === "done");
      expect(followed).toEqual([{ route: "optimize-summary" }, route]);
    },
  );

  it("a result that comes after the person left moves no page", async () => {
    const { actor, followed } = optimisation();
    actor.send({ type: "page.opened", page: "o1" });
    actor.send({ type: "optimisation.run" });
    actor.send({ type: "page.left" });
    await waitFor(actor, (s) => s.matches("summary"));
    expect(followed).toEqual([]);
  });
});

const whatIfAnswer: WhatIfResponse = {
  kind: "custom",
  currency: "EUR",
  totalInvested: 10000,
  totalChange: -1500,
  totalReturn: -0.15,
  assets: [],
  shocks: { dRV: -0.2 },
  ignored: [],
  sensitivities: { periods: 150, from: "2023-11-20", to: "2026-11-20", factors: [], excluded: [] },
  sources: [],
  simulated: true,
};

function whatIf() {
  const followed: Followed[] = [];
  const actor = createActor(
    whatIfMachine.provide({
      actors: { runWhatIf: fromPromise(async () => whatIfAnswer) },
      actions: { follow: (_, target) => void followed.push(target) },
    }),
    {
      input: {
        permissions: { marketScenarios: true, realLifeScenarios: true, backTesting: true },
        portfolio: { currency: "EUR", assets: [{ symbol: "SAN.MC", investedAmount: 6000 }] },
        shocks: { dRV: -20 },
      },
    },
  ).start();
  const run = async () => {
    actor.send({ type: "whatIf.run" });
    await waitFor(actor, (s) => s.matches("result"));
  };
  return { actor, followed, run };
}

describe("the what-if: a run started on the scenarios ends on the assessment", () => {
  it("from the scenarios' page", async () => {
    const { actor, followed, run } = whatIf();
    actor.send({ type: "page.opened", page: "scenarios" });
    await run();
    expect(followed).toEqual([{ route: "what-if-assessment" }]);
    // Run again there: the person stays.
    await run();
    expect(followed).toHaveLength(1);
  });

  it("from the assessment's page, or after the person left, no page moves", async () => {
    const { actor, followed, run } = whatIf();
    actor.send({ type: "page.opened", page: "assessment" });
    await run();
    actor.send({ type: "page.opened", page: "scenarios" });
    actor.send({ type: "page.left" });
    await run();
    expect(followed).toEqual([]);
  });
});

const saved = {
  id: 42,
  name: "Mine",
  product: "simAssets",
  currency: "EUR",
  benchmark: 5,
  benchmarkSeries: null,
  assets: [],
  totalInvested: 10_000,
  initialInvested: 10_000,
  maxAssetsLevel: 2,
  saved: true,
  remainingEditions: 3,
  monkeyRegion: null,
  answers: null,
  version: 1,
  createdAt: "2025-01-02T10:00:00.000Z",
  updatedAt: "2025-01-02T10:00:00.000Z",
  valuation: null,
} satisfies Portfolio;

function lifecycle() {
  const followed: Followed[] = [];
  const actor = createActor(
    portfolioLifecycleMachine.provide({
      actors: {
        deletePortfolio: fromPromise(async () => {}),
        awaitValuation: fromPromise(async (): Promise<Portfolio | null> => null),
      },
      actions: { follow: (_, target) => void followed.push(target) },
    }),
    { input: { product: "simAssets", permissions: standard, savedCount: 1, portfolio: saved } },
  ).start();
  return { actor, followed };
}

describe("the lifecycle: a portfolio deleted from its page", () => {
  it("takes the person to my portfolios", async () => {
    const { actor, followed } = lifecycle();
    actor.send({ type: "page.opened", page: "portfolio" });
    actor.send({ type: "portfolio.delete" });
    await waitFor(actor, (s) => s.status === "done");
    expect(followed).toEqual([{ route: "account-portfolios" }]);
  });

  it("deleted after the person left, moves no page", async () => {
    const { actor, followed } = lifecycle();
    actor.send({ type: "page.opened", page: "portfolio" });
    actor.send({ type: "portfolio.delete" });
    actor.send({ type: "page.left" });
    await waitFor(actor, (s) => s.status === "done");
    expect(followed).toEqual([]);
  });
});
