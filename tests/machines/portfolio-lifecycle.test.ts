import { describe, expect, it, vi } from "vitest";
import { waitFor } from "xstate";
import { SessionFailure } from "../../machines/session.machine.ts";
import {
  startLifecycle,
  type LifecycleFakes,
} from "../../machines/portfolio-lifecycle.fixtures.ts";
import {
  saveRequestOf,
  updateRequestOf,
  type PortfolioDraft,
  type PortfolioLifecycleInput,
} from "../../machines/portfolio-lifecycle.machine.ts";
import { permissionsFor, type ProductPermissions } from "../../src/contract/permissions.ts";
import type { Portfolio, UpdatePortfolioRequest } from "../../src/contract/portfolios.ts";

const free = permissionsFor("simAssets", "free");
const standard = permissionsFor("simAssets", "standard");
const monkey = permissionsFor("simMonk", "standard");

function withManagement(
  base: ProductPermissions,
  management: Partial<ProductPermissions["management"]>,
): ProductPermissions {
  return { ...base, management: { ...base.management, ...management } };
}

const assets = (amounts: readonly number[]) =>
  amounts.map((investedAmount, i) => ({ id: `A${i}`, name: `Asset ${i}`, investedAmount }));

const draft = (over: Partial<PortfolioDraft> = {}): PortfolioDraft => ({
  currency: "EUR",
  maxAssetsLevel: 2,
  assets: assets([6000, 4000]),
  ...over,
});

function portfolio(over: Partial<Portfolio> = {}, amounts: readonly number[] = [6000, 4000]) {
  const held = amounts.map((investedAmount, i) => ({
    id: `A${i}`,
    name: `Asset ${i}`,
    investedAmount,
    percentage: 0,
    volatilities: { 1: null, 2: null, 3: null, 4: null, 5: 0.2, 6: null },
    currency: "EUR",
    stale: false,
  }));
  const p: Portfolio = {
    id: 42,
    name: "Mine",
    product: "simAssets",
    currency: "EUR",
    benchmark: 5,
    benchmarkSeries: null,
    assets: [
      {
        stockExchange: "Madrid",
        stockExchangeId: "MC",
        assetClass: null,
        assetClassId: null,
        position: 1,
        assets: held,
      },
    ],
    totalInvested: amounts.reduce((s, a) => s + a, 0),
    initialInvested: amounts.reduce((s, a) => s + a, 0),
    maxAssetsLevel: 2,
    saved: true,
    remainingEditions: 3,
    monkeyRegion: null,
    answers: null,
    version: 1,
    createdAt: "2025-01-02T10:00:00.000Z",
    updatedAt: "2025-01-02T10:00:00.000Z",
    valuation: null,
    ...over,
  };
  return p;
}

function start(input: Partial<PortfolioLifecycleInput> = {}, fakes: LifecycleFakes = {}) {
  const save = vi.fn(fakes.save ?? (async () => portfolio()));
  const update = vi.fn(
    fakes.update ??
      (async ({ request }: { request: UpdatePortfolioRequest }) =>
        portfolio({ version: request.version + 1, remainingEditions: 2 })),
  );
  const load = vi.fn(fakes.load ?? (async () => portfolio({ version: 5 })));
  const remove = vi.fn(fakes.remove ?? (async () => {}));
  const exportFile = vi.fn(fakes.exportFile ?? (async () => {}));
  const awaitValuation = vi.fn(fakes.awaitValuation ?? (async () => null));
  const { actor } = startLifecycle(
    {
      product: "simAssets",
      permissions: standard,
      savedCount: 0,
      ...(input.portfolio ? {} : { draft: draft() }),
      ...input,
    },
    { save, update, load, remove, exportFile, awaitValuation },
  );
  return { actor, save, update, load, remove, exportFile, awaitValuation };
}

type Actor = ReturnType<typeof start>["actor"];
const settle = (actor: Actor, state: string) =>
  waitFor(actor, (s) => s.value === state, { timeout: 2000 });

describe("portfolioLifecycleMachine: the valuation after the save", () => {
  const valuation: NonNullable<Portfolio["valuation"]> = {
    date: "2026-11-20",
    value: 10_000,
    return: 0,
    risk: 0.1,
    score: 5,
    communityPercentile: 100,
  };

  it("shows the save's answer at once, then its first valuation when it arrives", async () => {
    let arrive!: (p: Portfolio) => void;
    const { actor, awaitValuation } = start(
      {},
      {
        save: async () => portfolio({ name: "Saved" }),
        awaitValuation: () => new Promise((resolve) => (arrive = resolve)),
      },
    );
    actor.send({ type: "portfolio.save", name: "Saved" });
    await settle(actor, "saved");
    expect(actor.getSnapshot().context.portfolio!.valuation).toBeNull();
    expect(awaitValuation).toHaveBeenCalledWith({ id: 42, valued: false });
    arrive(portfolio({ name: "Renamed elsewhere", valuation }));
    await waitFor(actor, (s) => s.context.portfolio!.valuation !== null, { timeout: 2000 });
    // Only the valuation is taken from the read.
    expect(actor.getSnapshot().context.portfolio).toMatchObject({ name: "Saved", valuation });
    expect(actor.getSnapshot().value).toBe("saved");
  });

  it("keeps the portfolio as it is when no valuation comes", async () => {
    const { actor, awaitValuation } = start({ portfolio: portfolio({ valuation }) });
    await settle(actor, "saved");
    expect(awaitValuation).toHaveBeenCalledWith({ id: 42, valued: true });
    await Promise.resolve();
    expect(actor.getSnapshot().context.portfolio!.valuation).toEqual(valuation);
  });
});

describe("portfolioLifecycleMachine saving", () => {
  it("starts unsaved with the draft", () => {
    const { actor } = start();
    const s = actor.getSnapshot();
    expect(s.value).toBe("unsaved");
    expect(s.context.saved).toBe(false);
    expect(s.context.clientPortfolioCreated).toBe(false);
  });

  it("takes new amounts while unsaved (an optimised portfolio adopted before the first save)", () => {
    const { actor } = start();
    const before = actor.getSnapshot().context.draft!.assets;
    const [first, ...rest] = before;
    actor.send({ type: "amount.change", id: first!.id, investedAmount: 0 });
    actor.send({ type: "asset.add", id: "GLD", name: "Gold", investedAmount: 1234.5 });
    const after = actor.getSnapshot();
    expect(after.value).toBe("unsaved");
    expect(after.context.draft!.assets.map((a) => a.id)).toEqual([...rest.map((a) => a.id), "GLD"]);
    expect(after.context.draft!.assets.at(-1)!.investedAmount).toBe(1234.5);
  });

  it("saves: saved, clientPortfolioCreated, the server's portfolio, one more saved", async () => {
    const { actor, save } = start({ savedCount: 2 });
    actor.send({ type: "portfolio.save", name: "Iberia" });
    await settle(actor, "saved");
    const c = actor.getSnapshot().context;
    expect(c.saved).toBe(true);
    expect(c.clientPortfolioCreated).toBe(true);
    expect(c.savedCount).toBe(3);
    expect(c.portfolio?.id).toBe(42);
    expect(c.draft).toBeNull();
    expect(save).toHaveBeenCalledWith({
      name: "Iberia",
      currency: "EUR",
      maxAssetsLevel: 2,
      monkeyRegion: null,
      answers: null,
      assets: [
        { id: "A0", investedAmount: 6000 },
        { id: "A1", investedAmount: 4000 },
      ],
    });
  });

  it("refuses to save without the save permission (canSave: SAVE_FORBIDDEN)", () => {
    const { actor, save } = start({ permissions: free });
    actor.send({ type: "portfolio.save", name: "x" });
    expect(actor.getSnapshot().value).toBe("unsaved");
    expect(actor.getSnapshot().context.problem).toBe("SAVE_FORBIDDEN");
    expect(save).not.toHaveBeenCalled();
  });

  it.each([
    [4, "saving", null],
    [5, "unsaved", "SAVE_LIMIT_REACHED"],
  ])("saveLimit 5 with %d saved -> %s", (savedCount, state, problem) => {
    const { actor } = start({ savedCount }, { save: () => new Promise<never>(() => {}) });
    actor.send({ type: "portfolio.save", name: "x" });
    expect(actor.getSnapshot().value).toBe(state);
    expect(actor.getSnapshot().context.problem).toBe(problem);
  });

  it.each([
    ["eu", 0, "saving"],
    ["eu", 1, "unsaved"],
    [null, 0, "unsaved"],
  ] as const)(
    "simMonk counts per region (%s, %d saved -> %s)",
    (monkeyRegion, savedCount, state) => {
      const { actor } = start(
        { product: "simMonk", permissions: monkey, savedCount, draft: draft({ monkeyRegion }) },
        { save: () => new Promise<never>(() => {}) },
      );
      actor.send({ type: "portfolio.save", name: "x" });
      expect(actor.getSnapshot().value).toBe(state);
    },
  );

  it("refuses to save twice (ALREADY_SAVED)", async () => {
    const { actor, save } = start();
    actor.send({ type: "portfolio.save", name: "x" });
    await settle(actor, "saved");
    actor.send({ type: "portfolio.save", name: "again" });
    expect(actor.getSnapshot().value).toBe("saved");
    expect(actor.getSnapshot().context.problem).toBe("ALREADY_SAVED");
    expect(save).toHaveBeenCalledTimes(1);
  });

  it("a failed save changes nothing but the error", async () => {
    const { actor } = start(
      { savedCount: 1 },
      {
        save: async () => {
          throw new SessionFailure("SAVE_LIMIT_REACHED");
        },
      },
    );
    const before = actor.getSnapshot().context;
    actor.send({ type: "portfolio.save", name: "x" });
    await waitFor(actor, (s) => s.context.error !== null, { timeout: 2000 });
    const after = actor.getSnapshot();
    expect(after.value).toBe("unsaved");
    expect(after.context).toEqual({ ...before, name: "x", error: "SAVE_LIMIT_REACHED" });
  });

  it("refuses a draft without a currency (CURRENCY_UNDEFINED) and sends nothing", () => {
    const { actor, save } = start({ draft: draft({ currency: null }) });
    actor.send({ type: "portfolio.save", name: "x" });
    expect(actor.getSnapshot().value).toBe("unsaved");
    expect(actor.getSnapshot().context.problem).toBe("CURRENCY_UNDEFINED");
    expect(save).not.toHaveBeenCalled();
  });

  it('raises "Portfolio Currency is undefined" when a request is built without a currency', () => {
    expect(() => saveRequestOf(draft({ currency: undefined }), "x")).toThrow(
      new Error("Portfolio Currency is undefined"),
    );
    expect(() => updateRequestOf(portfolio(), draft({ currency: null }))).toThrow(
      "Portfolio Currency is undefined",
    );
  });

  it.each([
    [10, "saving", null],
    [11, "unsaved", "TOO_MANY_ASSETS"],
  ])(
    "maxAssets 10 caps level 3 (30): %d assets -> %s (draftComposable)",
    (count, state, problem) => {
      const { actor } = start(
        { draft: draft({ maxAssetsLevel: 3, assets: assets(Array(count).fill(100)) }) },
        { save: () => new Promise<never>(() => {}) },
      );
      actor.send({ type: "portfolio.save", name: "x" });
      expect(actor.getSnapshot().value).toBe(state);
      expect(actor.getSnapshot().context.problem).toBe(problem);
    },
  );

  it("leaves zero amounts out of the saved portfolio", async () => {
    const { actor, save } = start({ draft: draft({ assets: assets([100, 0, -3]) }) });
    actor.send({ type: "portfolio.save", name: "x" });
    await settle(actor, "saved");
    expect(save.mock.calls[0]![0].assets).toEqual([{ id: "A0", investedAmount: 100 }]);
  });
});

describe("portfolioLifecycleMachine editing", () => {
  it("starts saved with a loaded portfolio", () => {
    const { actor } = start({ portfolio: portfolio() });
    expect(actor.getSnapshot().value).toBe("saved");
    expect(actor.getSnapshot().context.saved).toBe(true);
  });

  it.each([
    [1, "editing", null],
    [0, "saved", "NO_EDITIONS_LEFT"],
    [null, "editing", null],
  ])("remainingEditions %s -> %s (canEdit)", (remainingEditions, state, problem) => {
    const { actor } = start({ portfolio: portfolio({ remainingEditions }) });
    actor.send({ type: "edit.start" });
    expect(actor.getSnapshot().value).toBe(state);
    expect(actor.getSnapshot().context.problem).toBe(problem);
  });

  it("refuses to edit without the edit permission (EDIT_FORBIDDEN)", () => {
    const { actor } = start({
      portfolio: portfolio({ remainingEditions: null }),
      permissions: withManagement(standard, { edit: false }),
    });
    actor.send({ type: "edit.start" });
    expect(actor.getSnapshot().value).toBe("saved");
    expect(actor.getSnapshot().context.problem).toBe("EDIT_FORBIDDEN");
  });

  function editing(over: Partial<Portfolio> = {}, fakes: LifecycleFakes = {}, amounts?: number[]) {
    const started = start({ portfolio: portfolio(over, amounts) }, fakes);
    started.actor.send({ type: "edit.start" });
    expect(started.actor.getSnapshot().value).toBe("editing");
    return started;
  }
  const amountsOf = (actor: Actor) =>
    actor.getSnapshot().context.draft!.assets.map((a) => [a.id, a.investedAmount]);

  it("starts from the saved holdings", () => {
    const { actor } = editing();
    expect(amountsOf(actor)).toEqual([
      ["A0", 6000],
      ["A1", 4000],
    ]);
  });

  it.each([0, -10])("removes an asset whose amount becomes %d", (investedAmount) => {
    const { actor } = editing();
    actor.send({ type: "amount.change", id: "A0", investedAmount });
    expect(amountsOf(actor)).toEqual([["A1", 4000]]);
  });

  it("adds and removes assets", () => {
    const { actor } = editing();
    actor.send({ type: "asset.add", id: "B", name: "Bee", investedAmount: 50 });
    actor.send({ type: "asset.remove", id: "A1" });
    actor.send({ type: "asset.add", id: "A0", name: "Asset 0", investedAmount: 0 });
    expect(amountsOf(actor)).toEqual([["B", 50]]);
  });

  it("resets the chosen assets to 0, and they are removed on submit", async () => {
    const { actor, update } = editing({}, {}, [6000, 4000, 1000]);
    actor.send({ type: "edit.reset", ids: ["A1"] });
    expect(amountsOf(actor)).toEqual([
      ["A0", 6000],
      ["A1", 0],
      ["A2", 1000],
    ]);
    actor.send({ type: "edit.submit" });
    await settle(actor, "saved");
    expect(update.mock.calls[0]![0].request.assets).toEqual([
      { id: "A0", investedAmount: 6000 },
      { id: "A2", investedAmount: 1000 },
    ]);
  });

  it("resets all assets without ids; submitting nothing is refused (TOO_FEW_ASSETS)", () => {
    const { actor, update } = editing();
    actor.send({ type: "edit.reset" });
    expect(amountsOf(actor)).toEqual([
      ["A0", 0],
      ["A1", 0],
    ]);
    actor.send({ type: "edit.submit" });
    expect(actor.getSnapshot().value).toBe("editing");
    expect(actor.getSnapshot().context.problem).toBe("TOO_FEW_ASSETS");
    expect(update).not.toHaveBeenCalled();
  });

  it.each([
    [5_000_000, "updating", null],
    [5_000_000.01, "editing", "TOTAL_TOO_HIGH"],
  ])("total %d -> %s (canSubmit)", (total, state, problem) => {
    const { actor } = editing({}, { update: () => new Promise<never>(() => {}) });
    actor.send({ type: "amount.change", id: "A0", investedAmount: total - 4000 });
    actor.send({ type: "edit.submit" });
    expect(actor.getSnapshot().value).toBe(state);
    expect(actor.getSnapshot().context.problem).toBe(problem);
  });

  it.each([
    [5, "updating"],
    [6, "editing"],
  ])("level 1 with %d assets -> %s", (count, state) => {
    const { actor } = editing(
      { maxAssetsLevel: 1 },
      { update: () => new Promise<never>(() => {}) },
      Array(count).fill(100),
    );
    actor.send({ type: "edit.submit" });
    expect(actor.getSnapshot().value).toBe(state);
  });

  it("submits at the version it was read at and takes the server's answer", async () => {
    const { actor, update } = editing({ version: 4, remainingEditions: 3 });
    actor.send({ type: "amount.change", id: "A1", investedAmount: 5000 });
    actor.send({ type: "edit.submit" });
    await settle(actor, "saved");
    expect(update).toHaveBeenCalledWith({
      id: 42,
      request: {
        version: 4,
        assets: [
          { id: "A0", investedAmount: 6000 },
          { id: "A1", investedAmount: 5000 },
        ],
      },
    });
    const c = actor.getSnapshot().context;
    expect(c.portfolio?.version).toBe(5);
    expect(c.portfolio?.remainingEditions).toBe(2);
    expect(c.draft).toBeNull();
  });

  it("cancels an edition", () => {
    const { actor, update } = editing();
    actor.send({ type: "amount.change", id: "A1", investedAmount: 5000 });
    actor.send({ type: "edit.cancel" });
    expect(actor.getSnapshot().value).toBe("saved");
    expect(actor.getSnapshot().context.draft).toBeNull();
    expect(update).not.toHaveBeenCalled();
  });

  it("goes back to editing with the msgCode of another failure", async () => {
    const { actor } = editing(
      {},
      {
        update: async () => {
          throw new SessionFailure("NO_EDITIONS_LEFT");
        },
      },
    );
    actor.send({ type: "edit.submit" });
    await waitFor(actor, (s) => s.context.error !== null, { timeout: 2000 });
    expect(actor.getSnapshot().value).toBe("editing");
    expect(actor.getSnapshot().context.error).toBe("NO_EDITIONS_LEFT");
  });
});

describe("portfolioLifecycleMachine conflicts", () => {
  const conflicting = (fakes: LifecycleFakes = {}) => {
    const started = start(
      { portfolio: portfolio({ version: 2 }) },
      {
        update: async ({ request }) => {
          if (request.version < 5) throw new SessionFailure("PORTFOLIO_CONFLICT");
          return portfolio({ version: request.version + 1, remainingEditions: 2 });
        },
        ...fakes,
      },
    );
    started.actor.send({ type: "edit.start" });
    started.actor.send({ type: "edit.submit" });
    return started;
  };

  it("a 409 leads to conflict; reload edits the fresh version", async () => {
    const { actor, load, update } = conflicting();
    await settle(actor, "conflict");
    expect(actor.getSnapshot().context.error).toBe("PORTFOLIO_CONFLICT");
    actor.send({ type: "conflict.reload" });
    await settle(actor, "editing");
    expect(load).toHaveBeenCalledWith({ id: 42 });
    expect(actor.getSnapshot().context.portfolio?.version).toBe(5);
    actor.send({ type: "edit.submit" });
    await settle(actor, "saved");
    expect(update.mock.calls.map((c) => c[0].request.version)).toEqual([2, 5]);
    expect(actor.getSnapshot().context.portfolio?.version).toBe(6);
  });

  it("discard goes back to the saved portfolio", async () => {
    const { actor } = conflicting();
    await settle(actor, "conflict");
    actor.send({ type: "conflict.discard" });
    expect(actor.getSnapshot().value).toBe("saved");
    expect(actor.getSnapshot().context.draft).toBeNull();
  });

  it("a fresh version without editions left is shown, not edited", async () => {
    const { actor } = conflicting({
      load: async () => portfolio({ version: 5, remainingEditions: 0 }),
    });
    await settle(actor, "conflict");
    actor.send({ type: "conflict.reload" });
    await settle(actor, "saved");
    expect(actor.getSnapshot().context.portfolio?.version).toBe(5);
    expect(actor.getSnapshot().context.problem).toBe("NO_EDITIONS_LEFT");
  });

  it("a failed reload stays in conflict", async () => {
    const { actor } = conflicting({
      load: async () => {
        throw new SessionFailure("NETWORK_ERROR");
      },
    });
    await settle(actor, "conflict");
    actor.send({ type: "conflict.reload" });
    await waitFor(actor, (s) => s.context.error === "NETWORK_ERROR", { timeout: 2000 });
    expect(actor.getSnapshot().value).toBe("conflict");
  });
});

describe("portfolioLifecycleMachine delete and export", () => {
  it("refuses to delete without management.delete (canDelete)", () => {
    const { actor, remove } = start({
      portfolio: portfolio(),
      permissions: withManagement(standard, { delete: false }),
    });
    actor.send({ type: "portfolio.delete" });
    expect(actor.getSnapshot().value).toBe("saved");
    expect(actor.getSnapshot().context.problem).toBe("DELETE_FORBIDDEN");
    expect(remove).not.toHaveBeenCalled();
  });

  it("deletes", async () => {
    const { actor, remove } = start({ portfolio: portfolio(), savedCount: 2 });
    actor.send({ type: "portfolio.delete" });
    await settle(actor, "deleted");
    expect(remove).toHaveBeenCalledWith({ id: 42 });
    expect(actor.getSnapshot().status).toBe("done");
    expect(actor.getSnapshot().context.savedCount).toBe(1);
  });

  it("stays saved when deleting fails", async () => {
    const { actor } = start(
      { portfolio: portfolio() },
      {
        remove: async () => {
          throw new SessionFailure("NETWORK_ERROR");
        },
      },
    );
    actor.send({ type: "portfolio.delete" });
    await waitFor(actor, (s) => s.context.error !== null, { timeout: 2000 });
    expect(actor.getSnapshot().value).toBe("saved");
  });

  it("refuses to export without management.export (canExport)", () => {
    const { actor, exportFile } = start({
      product: "simMonk",
      permissions: monkey,
      portfolio: portfolio({ product: "simMonk" }),
    });
    actor.send({ type: "portfolio.export", format: "csv" });
    expect(actor.getSnapshot().value).toBe("saved");
    expect(actor.getSnapshot().context.problem).toBe("EXPORT_FORBIDDEN");
    expect(exportFile).not.toHaveBeenCalled();
  });

  it.each(["csv", "pdf"] as const)("exports as %s and stays saved", async (format) => {
    const { actor, exportFile } = start({ portfolio: portfolio() });
    actor.send({ type: "portfolio.export", format });
    expect(actor.getSnapshot().value).toBe("exporting");
    await settle(actor, "saved");
    expect(exportFile).toHaveBeenCalledWith({ id: 42, format });
  });
});
