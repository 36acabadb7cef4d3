import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import {
  defaultSimulatorInputs,
  demoSimulation,
  demoSimulatorSources,
  investmentSimulatorMachine,
  simulateRequestOf,
  simulatorIssues,
  type SimulatorInputs,
  type SimulatorSources,
} from "../../machines/investment-simulator.machine.ts";
import { SessionFailure } from "../../machines/session.machine.ts";
import { SimulateRequest, type SimulateResponse } from "../../src/contract/analytics.ts";
import { decode } from "../../src/contract/decode.ts";

interface Fakes {
  sources?: SimulatorSources;
  /** The simulate call; by default answers demoSimulation at once. */
  simulate?: (request: SimulateRequest, signal: AbortSignal) => Promise<SimulateResponse>;
}

function start(fakes: Fakes = {}, portfolioId: number | null = null) {
  const loadSources = vi.fn(async () => fakes.sources ?? demoSimulatorSources);
  const simulate = vi.fn(fakes.simulate ?? (async () => demoSimulation));
  const actor = createActor(
    investmentSimulatorMachine.provide({
      actors: {
        loadSources: fromPromise(loadSources),
        simulate: fromPromise(({ input, signal }) => simulate(input, signal)),
      },
    }),
    { input: { portfolioId } },
  );
  actor.start();
  return { actor, loadSources, simulate };
}

const valid: SimulatorInputs = {
  ...defaultSimulatorInputs,
  source: "saved",
  portfolioId: 7,
};
const portfolios = demoSimulatorSources.portfolios;

describe("the simulator's rules mirror the server's schema", () => {
  const cases: [string, Partial<SimulatorInputs>, string, string][] = [
    ["years 0", { years: 0 }, "years", "range"],
    ["years 41", { years: 41 }, "years", "range"],
    ["years 2.5", { years: 2.5 }, "years", "integer"],
    ["no horizon", { years: null }, "years", "required"],
    ["a negative initial amount", { initialAmount: -1 }, "initialAmount", "range"],
    ["an initial amount above 1e9", { initialAmount: 1e9 + 1 }, "initialAmount", "range"],
    ["a contribution above 1e8", { monthlyContribution: 1e8 + 1 }, "monthlyContribution", "range"],
    [
      "nothing invested",
      { initialAmount: 0, monthlyContribution: 0 },
      "initialAmount",
      "nothingInvested",
    ],
    ["a goal of 0", { goal: 0 }, "goal", "range"],
    ["my own return above 50 %", { mode: "own", ownReturn: 50.1 }, "ownReturn", "range"],
    ["my own return below -50 %", { mode: "own", ownReturn: -50.1 }, "ownReturn", "range"],
    ["no return of my own", { mode: "own", ownReturn: null }, "ownReturn", "required"],
    [
      "my own volatility above 100 %",
      { mode: "own", ownVolatility: 101 },
      "ownVolatility",
      "range",
    ],
    [
      "a negative volatility of my own",
      { mode: "own", ownVolatility: -1 },
      "ownVolatility",
      "range",
    ],
    ["an unknown portfolio", { portfolioId: 99 }, "portfolio", "required"],
    ["no assets on the spot", { source: "custom", assets: [] }, "assets", "noAssets"],
    [
      "an asset twice",
      {
        source: "custom",
        assets: [
          { symbol: "SPY", investedAmount: 1 },
          { symbol: "SPY", investedAmount: 2 },
        ],
      },
      "assets",
      "duplicateAsset",
    ],
    [
      "an amount of 0",
      { source: "custom", assets: [{ symbol: "SPY", investedAmount: 0 }] },
      "assets",
      "range",
    ],
  ];
  it.each(cases)("%s is refused by both", (_name, change, field, issue) => {
    const inputs = { ...valid, ...change };
    expect(simulatorIssues(inputs, portfolios)).toMatchObject({ [field]: issue });
    // The server's schema refuses what the request would carry (unknown portfolio: no assets).
    if (field !== "portfolio" && field !== "assets") {
      const request = {
        ...simulateRequestOf({ ...valid }, portfolios),
        ...(field === "initialAmount" || field === "monthlyContribution"
          ? { initialAmount: inputs.initialAmount, monthlyContribution: inputs.monthlyContribution }
          : field === "ownReturn" || field === "ownVolatility"
            ? {
                assumptions: {
                  mode: "own",
                  annualReturn: inputs.ownReturn === null ? null : inputs.ownReturn / 100,
                  annualVolatility:
                    inputs.ownVolatility === null ? null : inputs.ownVolatility / 100,
                },
              }
            : { [field]: inputs[field as keyof SimulatorInputs] }),
      };
      expect(decode(SimulateRequest, request).ok).toBe(false);
    }
  });
  it("valid inputs give a request the server's schema accepts, with the saved portfolio's amounts", () => {
    expect(simulatorIssues(valid, portfolios)).toEqual({});
    const request = simulateRequestOf({ ...valid, goal: 50_000, inflation: true }, portfolios);
    expect(decode(SimulateRequest, request).ok).toBe(true);
    expect(request).toMatchObject({
      currency: "EUR",
      benchmark: 5,
      assets: [
        { symbol: "SAN.MC", investedAmount: 6000 },
        { symbol: "ITX.MC", investedAmount: 4000 },
      ],
      years: 20,
      goal: 50_000,
      inflation: true,
      assumptions: { mode: "equilibrium" },
    });
    // No seed on screen: the server's default seed is used.
    expect(request).not.toHaveProperty("seed");
    // My own assumptions travel as fractions; the historical mode alone.
    const own = simulateRequestOf(
      { ...valid, mode: "own", ownReturn: 7.5, ownVolatility: 18 },
      portfolios,
    );
    expect(decode(SimulateRequest, own).ok).toBe(true);
    expect(own.assumptions).toEqual({ mode: "own", annualReturn: 0.075, annualVolatility: 0.18 });
    expect(simulateRequestOf({ ...valid, mode: "historical" }, portfolios).assumptions).toEqual({
      mode: "historical",
    });
    // The limits of my own: -50 % and +50 %, 0 and 100 %.
    for (const [ownReturn, ownVolatility] of [
      [-50, 0],
      [50, 100],
    ] as const)
      expect(
        simulatorIssues({ ...valid, mode: "own", ownReturn, ownVolatility }, portfolios),
      ).toEqual({});
    // The limits: 1 and 40 years, nothing but a contribution.
    for (const years of [1, 40])
      expect(simulatorIssues({ ...valid, years }, portfolios)).toEqual({});
    expect(simulatorIssues({ ...valid, initialAmount: 0 }, portfolios)).toEqual({});
  });
});

describe("investmentSimulatorMachine", () => {
  it("loads, starts from the first saved portfolio with its total, simulates and shows the result", async () => {
    const { actor, simulate } = start();
    await waitFor(actor, (s) => s.matches("choosingSource"));
    expect(actor.getSnapshot().context.inputs).toMatchObject({
      portfolioId: 7,
      initialAmount: 10_000,
    });
    actor.send({ type: "source.choose", source: "saved", portfolioId: 7 });
    actor.send({ type: "inputs.change", inputs: { goal: 15_000, monthlyContribution: 300 } });
    actor.send({ type: "simulation.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(simulate).toHaveBeenCalledTimes(1);
    expect(simulate.mock.calls[0]![0]).toMatchObject({ goal: 15_000, monthlyContribution: 300 });
    const { context } = actor.getSnapshot();
    expect(context.result).toBe(demoSimulation);
    expect(context.stale).toBe(false);
    expect(context.request?.goal).toBe(15_000);
  });

  it("a portfolio picked before continuing is the one simulated, with its total as the initial amount", async () => {
    const second = {
      ...demoSimulatorSources.portfolios[0]!,
      id: 8,
      name: "Second",
      totalInvested: 2500,
    };
    const { actor } = start({
      sources: {
        ...demoSimulatorSources,
        portfolios: [...demoSimulatorSources.portfolios, second],
      },
    });
    await waitFor(actor, (s) => s.matches("choosingSource"));
    actor.send({ type: "inputs.change", inputs: { portfolioId: 8 } });
    actor.send({ type: "source.choose", source: "saved" });
    expect(actor.getSnapshot().matches("editing")).toBe(true);
    expect(actor.getSnapshot().context.inputs).toMatchObject({
      portfolioId: 8,
      initialAmount: 2500,
    });
  });

  it("without saved portfolios, chooses assets on the spot", async () => {
    const { actor } = start({ sources: { ...demoSimulatorSources, portfolios: [] } });
    await waitFor(actor, (s) => s.matches("choosingSource"));
    expect(actor.getSnapshot().context.inputs.source).toBe("custom");
    actor.send({ type: "source.choose", source: "saved", portfolioId: 7 });
    expect(actor.getSnapshot().matches("choosingSource")).toBe(true);
    actor.send({ type: "source.choose", source: "custom" });
    actor.send({ type: "simulation.run" });
    expect(actor.getSnapshot().matches("editing")).toBe(true);
    actor.send({
      type: "inputs.change",
      inputs: { currency: "USD", assets: [{ symbol: "SPY", investedAmount: 1000 }] },
    });
    actor.send({ type: "simulation.run" });
    expect(actor.getSnapshot().matches("simulating")).toBe(true);
    expect(actor.getSnapshot().context.request).toMatchObject({
      currency: "USD",
      assets: [{ symbol: "SPY", investedAmount: 1000 }],
    });
  });

  it("invalid inputs never reach the server", async () => {
    const { actor, simulate } = start();
    await waitFor(actor, (s) => s.matches("choosingSource"));
    actor.send({ type: "source.choose", source: "saved", portfolioId: 7 });
    actor.send({ type: "inputs.change", inputs: { years: 41 } });
    actor.send({ type: "simulation.run" });
    expect(actor.getSnapshot().matches("editing")).toBe(true);
    expect(simulate).not.toHaveBeenCalled();
  });

  it("a change after a result marks it out of date until the next run", async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches("choosingSource"));
    actor.send({ type: "source.choose", source: "saved", portfolioId: 7 });
    actor.send({ type: "simulation.run" });
    await waitFor(actor, (s) => s.matches("result"));
    actor.send({ type: "inputs.change", inputs: { years: 30 } });
    expect(actor.getSnapshot().matches("editing")).toBe(true);
    expect(actor.getSnapshot().context.stale).toBe(true);
    expect(actor.getSnapshot().context.result).toBe(demoSimulation);
    actor.send({ type: "simulation.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(actor.getSnapshot().context.stale).toBe(false);
    expect(actor.getSnapshot().context.request?.years).toBe(30);
  });

  it("my own assumptions start from those printed by the last run; a mode change marks the result out of date", async () => {
    const { actor, simulate } = start();
    await waitFor(actor, (s) => s.matches("choosingSource"));
    actor.send({ type: "source.choose", source: "saved", portfolioId: 7 });
    expect(actor.getSnapshot().context.inputs.mode).toBe("equilibrium");
    actor.send({ type: "simulation.run" });
    await waitFor(actor, (s) => s.matches("result"));
    // demoSimulation printed 7.1 % and 18 %.
    expect(actor.getSnapshot().context.inputs).toMatchObject({ ownReturn: 7.1, ownVolatility: 18 });
    actor.send({ type: "inputs.change", inputs: { mode: "own", ownReturn: 5 } });
    expect(actor.getSnapshot().context.stale).toBe(true);
    actor.send({ type: "simulation.run" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(simulate.mock.calls[1]![0].assumptions).toEqual({
      mode: "own",
      annualReturn: 0.05,
      annualVolatility: 0.18,
    });
  });

  it("cancel aborts the call under way and returns to the inputs", async () => {
    let aborted = false;
    const { actor } = start({
      simulate: (_request, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(new Error("aborted"));
          });
        }),
    });
    await waitFor(actor, (s) => s.matches("choosingSource"));
    actor.send({ type: "source.choose", source: "saved", portfolioId: 7 });
    actor.send({ type: "simulation.run" });
    expect(actor.getSnapshot().matches("simulating")).toBe(true);
    expect(actor.getSnapshot().context.startedAt).not.toBeNull();
    actor.send({ type: "simulation.cancel" });
    expect(actor.getSnapshot().matches("editing")).toBe(true);
    expect(actor.getSnapshot().context.cancelled).toBe(true);
    expect(aborted).toBe(true);
  });

  it("a failed run says why and can be retried", async () => {
    let fail = true;
    const { actor, simulate } = start({
      simulate: async () => {
        if (fail) {
          fail = false;
          throw new SessionFailure("NOT_ENOUGH_HISTORY");
        }
        return demoSimulation;
      },
    });
    await waitFor(actor, (s) => s.matches("choosingSource"));
    actor.send({ type: "source.choose", source: "saved", portfolioId: 7 });
    actor.send({ type: "simulation.run" });
    await waitFor(actor, (s) => s.matches("failed"));
    expect(actor.getSnapshot().context.error).toBe("NOT_ENOUGH_HISTORY");
    actor.send({ type: "failure.retry" });
    await waitFor(actor, (s) => s.matches("result"));
    expect(simulate).toHaveBeenCalledTimes(2);
  });

  it("a failed load can be retried", async () => {
    let fail = true;
    const loadSources = vi.fn(async () => {
      if (fail) {
        fail = false;
        throw new SessionFailure("NETWORK_ERROR");
      }
      return demoSimulatorSources;
    });
    const actor = createActor(
      investmentSimulatorMachine.provide({ actors: { loadSources: fromPromise(loadSources) } }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches("loadFailed"));
    expect(actor.getSnapshot().context.error).toBe("NETWORK_ERROR");
    actor.send({ type: "failure.retry" });
    await waitFor(actor, (s) => s.matches("choosingSource"));
  });
});
