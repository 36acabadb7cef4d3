import { describe, expect, it, vi } from "vitest";
import { waitFor } from "xstate";
import { SessionFailure } from "../../machines/session.machine.ts";
import { startWizard, type WizardFakes } from "../../machines/portfolio-wizard.fixtures.ts";
import {
  proposeRequestOf,
  wizardCurrency,
  type PortfolioWizardInput,
} from "../../machines/portfolio-wizard.machine.ts";
import { permissionsFor, type ProductPermissions } from "../../src/contract/permissions.ts";
import type { Ordering } from "../../src/contract/portfolio-rules.ts";
import type { ProposeRequest, ProposeResponse } from "../../src/contract/portfolios.ts";

const free = permissionsFor("simAssets", "free");
const standard = permissionsFor("simAssets", "standard");
const advanced = permissionsFor("simAssets", "advanced");

function withConstruction(
  base: ProductPermissions,
  construction: Partial<ProductPermissions["construction"]>,
): ProductPermissions {
  return { ...base, construction: { ...base.construction, ...construction } };
}

/** A proposal of `count` assets sharing `total`. */
function proposal(count: number, total = 10_000): ProposeResponse {
  return {
    currency: "EUR",
    assets: Array.from({ length: count }, (_, i) => ({
      symbol: `A${i}`,
      name: `Asset ${i}`,
      investedAmount: total / count,
      percentage: 100 / count,
    })),
    method: "equal",
    var95Amount: 500,
    cvar95Amount: 700,
    withinMaxToLose: null,
    minimumDesiredRiskAmount: 110,
    simulated: true,
  };
}

function start(
  input: Partial<PortfolioWizardInput> = {},
  propose: (request: ProposeRequest) => Promise<ProposeResponse> = async () => proposal(2),
  guards?: WizardFakes["guards"],
) {
  const spy = vi.fn(propose);
  const { actor } = startWizard(input, { propose: spy, ...(guards ? { guards } : {}) });
  return { actor, propose: spy };
}

/** Answers q1 and q2 and lands in q3. */
function toQ3(actor: ReturnType<typeof start>["actor"], amount = 10_000) {
  actor.send({ type: "q1.change", answers: { amount } });
  actor.send({ type: "step.next" });
  actor.send({ type: "step.next" });
  expect(actor.getSnapshot().value).toBe("q3");
}

async function toSummary(actor: ReturnType<typeof start>["actor"]) {
  toQ3(actor);
  actor.send({ type: "step.next" });
  await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
}

describe("portfolioWizardMachine q1", () => {
  it("starts in q1 with EUR by default and no problem", () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe("q1");
    expect(actor.getSnapshot().context.answers.currency).toBe("EUR");
    expect(actor.getSnapshot().context.problem).toBeNull();
  });

  it("takes the currency of the input", () => {
    const { actor } = start({ currency: "USD" });
    expect(actor.getSnapshot().context.answers.currency).toBe("USD");
  });

  it("refuses next without a currency: CURRENCY_UNDEFINED (currencyDefined)", () => {
    const { actor, propose } = start();
    actor.send({ type: "q1.change", answers: { amount: 10_000, currency: null } });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q1");
    expect(actor.getSnapshot().context.problem).toBe("CURRENCY_UNDEFINED");
    expect(propose).not.toHaveBeenCalled();
    actor.send({ type: "q1.change", answers: { currency: "USD" } });
    expect(actor.getSnapshot().context.problem).toBeNull();
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q2");
  });

  it('raises "Portfolio Currency is undefined" when a request is built without a currency', () => {
    const { actor } = start({ currency: null });
    const context = actor.getSnapshot().context;
    expect(() => wizardCurrency(context)).toThrow(new Error("Portfolio Currency is undefined"));
    expect(() => proposeRequestOf(context)).toThrow("Portfolio Currency is undefined");
  });

  it.each([
    [5_000_000, "q2", null],
    [5_000_000.01, "q1", "TOTAL_TOO_HIGH"],
    [0, "q1", "TOTAL_TOO_LOW"],
    [-1, "q1", "TOTAL_TOO_LOW"],
    [0.01, "q2", null],
  ])("amount %d with default bounds -> %s (amountWithinBounds)", (amount, state, problem) => {
    const { actor } = start();
    actor.send({ type: "q1.change", answers: { amount } });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe(state);
    expect(actor.getSnapshot().context.problem).toBe(problem);
  });

  it("refuses next without an amount", () => {
    const { actor } = start();
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q1");
    expect(actor.getSnapshot().context.problem).toBe("TOTAL_TOO_LOW");
  });

  it.each([
    [1000, "q1"],
    [1000.01, "q2"],
    [2000, "q2"],
    [2000.01, "q1"],
  ])("amount %d with bounds 1000..2000 -> %s", (amount, state) => {
    const { actor } = start({ bounds: { min: 1000, max: 2000 } });
    actor.send({ type: "q1.change", answers: { amount } });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe(state);
  });
});

describe("portfolioWizardMachine lazy portfolios", () => {
  it("goes from q1 straight to the proposal in tt with the lazyPortfolios permission", async () => {
    const { actor, propose } = start({ edition: "tt", permissions: advanced });
    actor.send({
      type: "q1.change",
      answers: { amount: 20_000, lazyPortfolio: "all-weather" },
    });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("proposing");
    await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
    expect(propose).toHaveBeenCalledTimes(1);
    expect(propose.mock.calls[0]![0]).toMatchObject({
      currency: "EUR",
      answers: { amount: 20_000, lazyPortfolio: "all-weather", maxToLose95: null },
    });
    // Back from a lazy proposal returns to q1, q2 and q3 were never asked.
    actor.send({ type: "step.back" });
    expect(actor.getSnapshot().value).toBe("q1");
  });

  it.each([
    ["ht", advanced],
    ["tt", standard],
  ] as const)(
    "refuses a lazy portfolio in %s without the edition or the permission",
    (edition, permissions) => {
      const { actor, propose } = start({ edition, permissions });
      actor.send({ type: "q1.change", answers: { amount: 20_000, lazyPortfolio: "permanent" } });
      actor.send({ type: "step.next" });
      expect(actor.getSnapshot().value).toBe("q1");
      expect(actor.getSnapshot().context.problem).toBe("LAZY_NOT_ALLOWED");
      expect(propose).not.toHaveBeenCalled();
    },
  );

  it("without a lazy portfolio, tt goes through q2", () => {
    const { actor } = start({ edition: "tt", permissions: advanced });
    actor.send({ type: "q1.change", answers: { amount: 20_000 } });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q2");
  });

  it("refuses a lazy total above the max investment (lazyTotalAllowed), max itself allowed", () => {
    // The amount rule refuses it first; it is switched off here to check the lazy rule alone.
    const guards = { amountWithinBounds: () => true };
    const over = start({ edition: "tt", permissions: advanced }, undefined, guards).actor;
    over.send({ type: "q1.change", answers: { amount: 5_000_000.01, lazyPortfolio: "permanent" } });
    over.send({ type: "step.next" });
    expect(over.getSnapshot().value).toBe("q1");
    expect(over.getSnapshot().context.problem).toBe("TOTAL_TOO_HIGH");

    const max = start({ edition: "tt", permissions: advanced }, undefined, guards).actor;
    max.send({ type: "q1.change", answers: { amount: 5_000_000, lazyPortfolio: "permanent" } });
    max.send({ type: "step.next" });
    expect(max.getSnapshot().value).toBe("proposing");
  });

  it("returns to q1 with the error when a lazy proposal fails", async () => {
    const { actor } = start({ edition: "tt", permissions: advanced }, async () => {
      throw new SessionFailure("ANALYTICS_FAILED");
    });
    actor.send({ type: "q1.change", answers: { amount: 20_000, lazyPortfolio: "permanent" } });
    actor.send({ type: "step.next" });
    await waitFor(actor, (s) => s.matches("q1"), { timeout: 2000 });
    expect(actor.getSnapshot().context.error).toBe("ANALYTICS_FAILED");
  });
});

describe("portfolioWizardMachine q2", () => {
  function atQ2(amount = 10_000, currency: "EUR" | "USD" = "EUR") {
    const started = start({ currency });
    started.actor.send({ type: "q1.change", answers: { amount } });
    started.actor.send({ type: "step.next" });
    expect(started.actor.getSnapshot().value).toBe("q2");
    return started.actor;
  }

  it.each([0, -5])("refuses maxToLose95 %d (maxToLoseValid)", (maxToLose95) => {
    const actor = atQ2();
    actor.send({ type: "q2.change", maxToLose95 });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q2");
    expect(actor.getSnapshot().context.problem).toBe("MAX_TO_LOSE_NOT_POSITIVE");
  });

  it("accepts no answer (null)", () => {
    const actor = atQ2();
    actor.send({ type: "q2.change", maxToLose95: null });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q3");
    expect(actor.getSnapshot().context.maxToLoseBelowMinimum).toBe(false);
  });

  it.each([
    ["EUR", 109.99, true],
    ["EUR", 110, false],
    ["USD", 173.99, true],
    ["USD", 174, false],
  ] as const)(
    "%s %d on 10,000 is kept; below the minimum desired risk flagged: %s",
    (currency, maxToLose95, below) => {
      const actor = atQ2(10_000, currency);
      actor.send({ type: "q2.change", maxToLose95 });
      actor.send({ type: "step.next" });
      expect(actor.getSnapshot().value).toBe("q3");
      expect(actor.getSnapshot().context.answers.maxToLose95).toBe(maxToLose95);
      expect(actor.getSnapshot().context.maxToLoseBelowMinimum).toBe(below);
    },
  );

  it("converts a percentage of the amount into an amount", () => {
    const actor = atQ2(12_345);
    actor.send({ type: "q2.change", maxToLose95: 2.5, unit: "percent" });
    expect(actor.getSnapshot().context.answers.maxToLose95).toBe(308.63);
  });

  it("goes back to q1 keeping the answers", () => {
    const actor = atQ2();
    actor.send({ type: "step.back" });
    expect(actor.getSnapshot().value).toBe("q1");
    expect(actor.getSnapshot().context.answers.amount).toBe(10_000);
  });
});

describe("portfolioWizardMachine q3", () => {
  const orderings: Ordering[] = ["marketRisk", "expectedReturn", "riskReturn", "minimization"];

  it.each(orderings)("refuses ordering %s without its permission (orderingAllowed)", (ordering) => {
    const { actor, propose } = start({ permissions: free });
    toQ3(actor);
    actor.send({ type: "q3.change", answers: { ordering } });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("q3");
    expect(actor.getSnapshot().context.problem).toBe("ORDERING_NOT_ALLOWED");
    expect(propose).not.toHaveBeenCalled();
  });

  it("offers balanced to everybody", () => {
    const { actor } = start({ permissions: free });
    toQ3(actor);
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("proposing");
  });

  it.each([
    ["marketRisk", "proposing"],
    ["expectedReturn", "proposing"],
    ["riskReturn", "q3"],
    ["minimization", "q3"],
  ] as const)("standard tier: %s -> %s", (ordering, state) => {
    const { actor } = start({ permissions: standard });
    toQ3(actor);
    actor.send({ type: "q3.change", answers: { ordering } });
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe(state);
  });

  it.each([
    [free, 1, "proposing"],
    [free, 2, "q3"],
    [standard, 2, "proposing"],
    [standard, 3, "q3"],
    [advanced, 3, "proposing"],
    [advanced, 5, "q3"],
    [advanced, 4, "q3"],
    [advanced, 7, "q3"],
  ] as const)(
    "maxAssetsLevel offered by the permission's maxAssets (%#: level %d -> %s)",
    (permissions, maxAssetsLevel, state) => {
      const { actor } = start({ permissions });
      toQ3(actor);
      actor.send({ type: "q3.change", answers: { maxAssetsLevel } });
      actor.send({ type: "step.next" });
      expect(actor.getSnapshot().value).toBe(state);
      if (state === "q3")
        expect(actor.getSnapshot().context.problem).toBe("ASSET_LEVEL_NOT_OFFERED");
    },
  );

  it.each([
    [true, true],
    [false, false],
  ])("proposes with autoCreate %s, and records it (autoCreated %s)", async (autoCreate, flag) => {
    const { actor, propose } = start({
      permissions: withConstruction(standard, { autoCreate }),
    });
    toQ3(actor);
    actor.send({ type: "step.next" });
    expect(actor.getSnapshot().value).toBe("proposing");
    expect(actor.getSnapshot().context.autoCreated).toBe(flag);
    await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
    expect(propose).toHaveBeenCalledWith({
      currency: "EUR",
      answers: {
        universe: [],
        amount: 10_000,
        maxToLose95: null,
        ordering: "balanced",
        maxAssetsLevel: 1,
        lazyPortfolio: null,
      },
    });
  });

  it("returns to q3 with the error when the proposal fails", async () => {
    const { actor } = start({}, async () => {
      throw new SessionFailure("NOT_ENOUGH_HISTORY");
    });
    toQ3(actor);
    actor.send({ type: "step.next" });
    await waitFor(actor, (s) => s.matches("q3"), { timeout: 2000 });
    expect(actor.getSnapshot().context.error).toBe("NOT_ENOUGH_HISTORY");
  });

  it("goes back to q2", () => {
    const { actor } = start();
    toQ3(actor);
    actor.send({ type: "step.back" });
    expect(actor.getSnapshot().value).toBe("q2");
  });
});

describe("portfolioWizardMachine summary", () => {
  it("shows the proposal's assets", async () => {
    const { actor } = start();
    await toSummary(actor);
    expect(actor.getSnapshot().context.assets).toEqual([
      { id: "A0", name: "Asset 0", investedAmount: 5000 },
      { id: "A1", name: "Asset 1", investedAmount: 5000 },
    ]);
    expect(actor.getSnapshot().context.proposal?.method).toBe("equal");
  });

  it.each([0, -1])("removes an asset whose amount becomes %d", async (investedAmount) => {
    const { actor } = start();
    await toSummary(actor);
    actor.send({ type: "amount.change", id: "A0", investedAmount });
    expect(actor.getSnapshot().context.assets.map((a) => a.id)).toEqual(["A1"]);
  });

  it("changes amounts, adds and removes assets", async () => {
    const { actor } = start();
    await toSummary(actor);
    actor.send({ type: "amount.change", id: "A1", investedAmount: 7000 });
    actor.send({ type: "asset.add", id: "B", name: "Bee", investedAmount: 100 });
    actor.send({ type: "asset.add", id: "C", name: "Sea" });
    actor.send({ type: "asset.add", id: "D", name: "Dee", investedAmount: 0 });
    actor.send({ type: "asset.remove", id: "A0" });
    expect(actor.getSnapshot().context.assets).toEqual([
      { id: "A1", name: "Asset 1", investedAmount: 7000 },
      { id: "B", name: "Bee", investedAmount: 100 },
      { id: "C", name: "Sea", investedAmount: 0 },
    ]);
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().value).toBe("done");
    // The composed portfolio keeps only assets with an amount (zero rule).
    expect(actor.getSnapshot().output).toMatchObject({
      currency: "EUR",
      maxAssetsLevel: 1,
      assets: [
        { id: "A1", investedAmount: 7000 },
        { id: "B", investedAmount: 100 },
      ],
    });
    expect(actor.getSnapshot().status).toBe("done");
  });

  it("goes back to q3", async () => {
    const { actor } = start();
    await toSummary(actor);
    actor.send({ type: "step.back" });
    expect(actor.getSnapshot().value).toBe("q3");
  });

  it.each([
    [5, "done", null],
    [6, "summary", "TOO_MANY_ASSETS"],
  ])("level 1 with %d assets -> %s (composable)", async (count, state, problem) => {
    const { actor } = start({ permissions: advanced }, async () => proposal(count));
    await toSummary(actor);
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().value).toBe(state);
    expect(actor.getSnapshot().context.problem).toBe(problem);
  });

  it.each([
    [10, "done"],
    [11, "summary"],
  ])("the permission's maxAssets 10 caps level 3 (30): %d assets -> %s", async (count, state) => {
    // q3 would not offer level 3 with maxAssets 10; the level is forced to check the cap alone.
    const guards = { assetLevelOffered: () => true };
    const { actor } = start({ permissions: standard }, async () => proposal(count), guards);
    toQ3(actor);
    actor.send({ type: "q3.change", answers: { maxAssetsLevel: 3 } });
    actor.send({ type: "step.next" });
    await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().value).toBe(state);
  });

  it.each([
    [50, "done"],
    [51, "summary"],
  ])("simMonk holds at most 50 assets: %d -> %s", async (count, state) => {
    const { actor } = start(
      { product: "simMonk", permissions: permissionsFor("simMonk", "standard") },
      async () => proposal(count),
    );
    await toSummary(actor);
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().value).toBe(state);
  });

  it.each([
    [5_000_000, "done", null],
    [5_000_000.01, "summary", "TOTAL_TOO_HIGH"],
  ])("total %d -> %s", async (total, state, problem) => {
    const { actor } = start({}, async () => proposal(1, 1000));
    await toSummary(actor);
    actor.send({ type: "amount.change", id: "A0", investedAmount: total });
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().value).toBe(state);
    expect(actor.getSnapshot().context.problem).toBe(problem);
  });

  it("refuses a summary without assets (TOO_FEW_ASSETS)", async () => {
    const { actor } = start();
    await toSummary(actor);
    actor.send({ type: "asset.remove", id: "A0" });
    actor.send({ type: "amount.change", id: "A1", investedAmount: 0 });
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().value).toBe("summary");
    expect(actor.getSnapshot().context.problem).toBe("TOO_FEW_ASSETS");
  });

  it("refuses a total not above the minimum", async () => {
    const { actor } = start({ bounds: { min: 1000, max: 50_000 } }, async () => proposal(2, 1000));
    toQ3(actor, 2000);
    actor.send({ type: "step.next" });
    await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().context.problem).toBe("TOTAL_TOO_LOW");
  });
});

describe("portfolioWizardMachine cancel", () => {
  it.each(["q1", "q2", "q3", "summary"])("cancels from %s", async (state) => {
    const { actor } = start();
    if (state !== "q1") {
      actor.send({ type: "q1.change", answers: { amount: 10_000 } });
      actor.send({ type: "step.next" });
    }
    if (state === "q3" || state === "summary") actor.send({ type: "step.next" });
    if (state === "summary") {
      actor.send({ type: "step.next" });
      await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
    }
    expect(actor.getSnapshot().value).toBe(state);
    actor.send({ type: "creation.cancel" });
    expect(actor.getSnapshot().value).toBe("cancelled");
    expect(actor.getSnapshot().status).toBe("done");
    expect(actor.getSnapshot().output).toBeNull();
  });

  it("cancels while proposing", () => {
    const { actor } = start({}, () => new Promise<never>(() => {}));
    toQ3(actor);
    actor.send({ type: "step.next" });
    actor.send({ type: "creation.cancel" });
    expect(actor.getSnapshot().value).toBe("cancelled");
  });
});
