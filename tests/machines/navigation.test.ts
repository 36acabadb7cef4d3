// Where the person is: the machines take the person to their pages through one abstract action,
// `follow`, with a route of the app's route table (its key, never a URL), and learn which of their
// pages is open from `page.opened` / `page.left`. The app provides `follow` once
// (src/app/route-follow.ts); here it is a list of the routes asked for.
import { describe, expect, it } from "vitest";
import { waitFor } from "xstate";
import { startOptimisation } from "../../machines/optimise.fixtures.ts";
import {
  savedPortfolioFixture,
  startLifecycle,
} from "../../machines/portfolio-lifecycle.fixtures.ts";
import { demoProposal, startWizard } from "../../machines/portfolio-wizard.fixtures.ts";
import { startWhatIf } from "../../machines/what-if.fixtures.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import type { ProposeResponse } from "../../src/contract/portfolios.ts";

const advanced = permissionsFor("simAssets", "advanced");
const standard = permissionsFor("simAssets", "standard");

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function wizard(input: { edition?: "ht" | "tt"; lazy?: boolean } = {}) {
  const answers: { promise: Promise<ProposeResponse>; resolve: (p: ProposeResponse) => void }[] =
    [];
  const { actor, followed } = startWizard(
    {
      edition: input.edition ?? "ht",
      permissions: advanced,
      answers: { amount: 10_000, ...(input.lazy ? { lazyPortfolio: "all-weather" } : {}) },
    },
    {
      propose: () => {
        const d = deferred<ProposeResponse>();
        answers.push(d);
        return d.promise;
      },
    },
  );
  /** Answers the proposal asked for last, and waits for the summary. */
  const propose = async () => {
    answers.at(-1)!.resolve(demoProposal);
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

  it.each(["q1", "q2", "summary"] as const)(
    "the creation discarded on %s takes the person to my portfolios, with nothing composed",
    async (page) => {
      const { actor, followed, propose } = wizard();
      if (page !== "q1") actor.send({ type: "step.next" });
      if (page === "summary") {
        actor.send({ type: "step.next" });
        actor.send({ type: "step.next" });
        await propose();
      }
      actor.send({ type: "page.opened", page });
      actor.send({ type: "creation.cancel" });
      expect(actor.getSnapshot().status).toBe("done");
      expect(actor.getSnapshot().value).toBe("cancelled");
      expect(actor.getSnapshot().output).toBeNull();
      expect(followed).toEqual([{ route: "account-portfolios" }]);
    },
  );

  it("the creation discarded with none of its pages open moves no page", () => {
    const { actor, followed } = wizard();
    actor.send({ type: "step.next" });
    actor.send({ type: "creation.cancel" });
    expect(actor.getSnapshot().value).toBe("cancelled");
    expect(followed).toEqual([]);
  });
});

function optimisation(options: { savedId?: number | null; permissions?: typeof advanced } = {}) {
  return startOptimisation({
    savedId: options.savedId ?? null,
    permissions: options.permissions ?? advanced,
  });
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

function whatIf() {
  const { actor, followed } = startWhatIf({
    portfolio: { currency: "EUR", assets: [{ symbol: "SAN.MC", investedAmount: 6000 }] },
    shocks: { dRV: -20 },
  });
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

function lifecycle() {
  return startLifecycle({
    product: "simAssets",
    permissions: standard,
    savedCount: 1,
    portfolio: savedPortfolioFixture(),
  });
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
