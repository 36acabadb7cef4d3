import { describe, expect, it } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import {
  creationInProgress,
  portfolioCurrency,
  portfolioFacts,
  portfolioLoaded,
} from "../../machines/guards/portfolio-facts.ts";
import { portfolioLifecycleMachine } from "../../machines/portfolio-lifecycle.machine.ts";
import { portfolioWizardMachine } from "../../machines/portfolio-wizard.machine.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import type { Portfolio, ProposeResponse } from "../../src/contract/portfolios.ts";

const standard = permissionsFor("simAssets", "standard");

const proposal: ProposeResponse = {
  currency: "EUR",
  assets: [{ symbol: "A", name: "A", investedAmount: 1000, percentage: 100 }],
  method: "equal",
  var95Amount: 1,
  cvar95Amount: 1,
  withinMaxToLose: null,
  minimumDesiredRiskAmount: 11,
  simulated: true,
};

const saved: Portfolio = {
  id: 1,
  name: "P",
  product: "simAssets",
  currency: "EUR",
  benchmark: 5,
  benchmarkSeries: null,
  assets: [
    {
      stockExchange: "X",
      stockExchangeId: "X",
      assetClass: null,
      assetClassId: null,
      position: 1,
      assets: [
        {
          id: "A",
          name: "A",
          investedAmount: 1000,
          percentage: 100,
          volatilities: { 1: null, 2: null, 3: null, 4: null, 5: null, 6: null },
          currency: "EUR",
          stale: false,
        },
      ],
    },
  ],
  totalInvested: 1000,
  initialInvested: 1000,
  maxAssetsLevel: 1,
  saved: true,
  remainingEditions: null,
  monkeyRegion: null,
  answers: null,
  version: 1,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  valuation: null,
};

const wizard = (currency: "EUR" | null = "EUR") =>
  createActor(
    portfolioWizardMachine.provide({ actors: { propose: fromPromise(async () => proposal) } }),
    {
      input: {
        product: "simAssets",
        edition: "ht",
        permissions: standard,
        currency,
        answers: { amount: 1000 },
      },
    },
  ).start();

const lifecycle = (input: { portfolio?: Portfolio; draft?: unknown }) =>
  createActor(
    portfolioLifecycleMachine.provide({
      actors: {
        savePortfolio: fromPromise(async () => saved),
        loadPortfolio: fromPromise(async () => saved),
        updatePortfolio: fromPromise(async () => saved),
        deletePortfolio: fromPromise(async () => {}),
        exportPortfolio: fromPromise(async () => {}),
      },
    }),
    { input: { product: "simAssets", permissions: standard, savedCount: 0, ...input } as never },
  ).start();

describe("portfolio facts of the wizard", () => {
  it("q1: neither in progress nor loaded", () => {
    const s = wizard().getSnapshot();
    expect(creationInProgress(s)).toBe(false);
    expect(portfolioLoaded(s)).toBe(false);
  });

  it("past q1: in progress; summary: loaded too; done: both; cancelled: neither", async () => {
    const actor = wizard();
    actor.send({ type: "step.next" });
    expect(creationInProgress(actor.getSnapshot())).toBe(true);
    expect(portfolioLoaded(actor.getSnapshot())).toBe(false);
    actor.send({ type: "step.next" });
    actor.send({ type: "step.next" });
    await waitFor(actor, (s) => s.matches("summary"), { timeout: 2000 });
    expect(creationInProgress(actor.getSnapshot())).toBe(true);
    expect(portfolioLoaded(actor.getSnapshot())).toBe(true);
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().value).toBe("done");
    expect(portfolioFacts(actor.getSnapshot())).toEqual({
      creationInProgress: true,
      portfolioLoaded: true,
    });

    const cancelled = wizard();
    cancelled.send({ type: "step.next" });
    cancelled.send({ type: "creation.cancel" });
    expect(portfolioFacts(cancelled.getSnapshot())).toEqual({
      creationInProgress: false,
      portfolioLoaded: false,
    });
  });

  it('raises "Portfolio Currency is undefined" for a wizard without a currency', () => {
    expect(portfolioCurrency(wizard().getSnapshot())).toBe("EUR");
    expect(() => portfolioCurrency(wizard(null).getSnapshot())).toThrow(
      new Error("Portfolio Currency is undefined"),
    );
  });
});

describe("portfolio facts of the lifecycle", () => {
  const draft = {
    currency: "EUR",
    maxAssetsLevel: 1,
    assets: [{ id: "A", name: "A", investedAmount: 1000 }],
  };

  it("a composed unsaved portfolio is loaded and its creation in progress", () => {
    const s = lifecycle({ draft }).getSnapshot();
    expect(s.value).toBe("unsaved");
    expect(portfolioFacts(s)).toEqual({ creationInProgress: true, portfolioLoaded: true });
  });

  it("nothing composed: neither", () => {
    const s = lifecycle({}).getSnapshot();
    expect(portfolioFacts(s)).toEqual({ creationInProgress: false, portfolioLoaded: false });
  });

  it("saved: loaded; editing: in progress; deleted: neither", async () => {
    const actor = lifecycle({ draft });
    actor.send({ type: "portfolio.save", name: "P" });
    await waitFor(actor, (s) => s.matches("saved"), { timeout: 2000 });
    expect(portfolioFacts(actor.getSnapshot())).toEqual({
      creationInProgress: false,
      portfolioLoaded: true,
    });
    actor.send({ type: "edit.start" });
    expect(portfolioFacts(actor.getSnapshot())).toEqual({
      creationInProgress: true,
      portfolioLoaded: true,
    });
    actor.send({ type: "edit.cancel" });
    actor.send({ type: "portfolio.delete" });
    await waitFor(actor, (s) => s.matches("deleted"), { timeout: 2000 });
    expect(portfolioFacts(actor.getSnapshot())).toEqual({
      creationInProgress: false,
      portfolioLoaded: false,
    });
  });

  it("combines the wizard and the lifecycle", () => {
    expect(
      portfolioFacts(wizard().getSnapshot(), lifecycle({ portfolio: saved }).getSnapshot()),
    ).toEqual({ creationInProgress: false, portfolioLoaded: true });
    expect(portfolioFacts(null, undefined)).toEqual({
      creationInProgress: false,
      portfolioLoaded: false,
    });
  });

  it('raises "Portfolio Currency is undefined" for a draft without a currency', () => {
    expect(portfolioCurrency(lifecycle({ portfolio: saved }).getSnapshot())).toBe("EUR");
    expect(() =>
      portfolioCurrency(lifecycle({ draft: { ...draft, currency: null } }).getSnapshot()),
    ).toThrow(new Error("Portfolio Currency is undefined"));
  });
});
