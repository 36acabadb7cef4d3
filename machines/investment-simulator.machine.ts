import { assign, fromPromise, setup } from "xstate";
import {
  SIMULATION_ASSUMPTIONS,
  SIMULATION_LIMITS,
  type Holding,
  type SimulateRequest,
  type SimulateResponse,
  type SimulationMode,
} from "../src/contract/analytics.ts";
import type { Currency } from "../src/contract/analytics.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import { SessionFailure } from "./session.machine.ts";

/** A saved portfolio the simulator can start from: its currency and its holdings (the weights). */
export interface SimulatorPortfolio {
  readonly id: number;
  readonly name: string;
  readonly currency: Currency;
  readonly benchmark: 1 | 2 | 3 | 4 | 5 | 6;
  readonly assets: readonly Holding[];
  readonly totalInvested: number;
}

/**
 * An asset that can be chosen on the spot, with the portfolio currencies that can hold it (never a
 * yield, nor a currency the data cannot convert into the portfolio's: the API refuses those).
 */
export interface SimulatorAsset {
  readonly symbol: string;
  readonly name: string;
  readonly currency: string;
  readonly holdableIn: readonly Currency[];
}

/** The assets a portfolio in `currency` can hold, as the picker offers them. */
export const assetsHoldableIn = (
  assets: readonly SimulatorAsset[],
  currency: Currency,
): readonly SimulatorAsset[] => assets.filter((a) => a.holdableIn.includes(currency));

/** A holding as the form holds it: its invested amount is null while the field is empty. */
export interface SimulatorHolding {
  readonly symbol: string;
  readonly investedAmount: number | null;
}

export interface SimulatorSources {
  readonly portfolios: readonly SimulatorPortfolio[];
  readonly assets: readonly SimulatorAsset[];
}

export type SimulatorSourceKind = "saved" | "custom";

/** What the form holds; numbers are null while a field is empty or unreadable. */
export interface SimulatorInputs {
  readonly source: SimulatorSourceKind;
  readonly portfolioId: number | null;
  readonly currency: Currency;
  /** The holdings chosen on the spot (the saved portfolio's come from the portfolio). */
  readonly assets: readonly SimulatorHolding[];
  readonly initialAmount: number | null;
  readonly monthlyContribution: number | null;
  readonly years: number | null;
  readonly inflation: boolean;
  readonly goal: number | null;
  readonly paths: number;
  /** The assumptions of the paths (PRODUCT.md "Simulator assumptions"), equilibrium by default. */
  readonly mode: SimulationMode;
  /** My own assumptions, in percent as typed: expected annual return and annual volatility. */
  readonly ownReturn: number | null;
  readonly ownVolatility: number | null;
}

export type SimulatorField =
  | "portfolio"
  | "assets"
  | "initialAmount"
  | "monthlyContribution"
  | "years"
  | "goal"
  | "ownReturn"
  | "ownVolatility";

/** Why a field cannot be sent: each mirrors a check of SimulateRequest on the server. */
export type SimulatorIssue =
  | "required"
  | "range"
  | "integer"
  | "nothingInvested"
  | "noAssets"
  | "duplicateAsset"
  | "tooManyAssets";

/** The figures "my own" starts from before a run has printed the portfolio's own. */
export const DEFAULT_OWN_RETURN_PERCENT = 6;
export const DEFAULT_OWN_VOLATILITY_PERCENT = 15;

export const defaultSimulatorInputs: SimulatorInputs = {
  source: "saved",
  portfolioId: null,
  currency: "EUR",
  assets: [],
  initialAmount: 10_000,
  monthlyContribution: 200,
  years: 20,
  inflation: false,
  goal: null,
  paths: SIMULATION_LIMITS.defaultPaths,
  mode: "equilibrium",
  ownReturn: DEFAULT_OWN_RETURN_PERCENT,
  ownVolatility: DEFAULT_OWN_VOLATILITY_PERCENT,
};

const L = SIMULATION_LIMITS;
const inRange = (v: number, min: number, max: number) => Number.isFinite(v) && v >= min && v <= max;

/** The holdings a run uses: the saved portfolio's, or those chosen on the spot. */
export function assetsOf(
  inputs: SimulatorInputs,
  portfolios: readonly SimulatorPortfolio[],
): readonly SimulatorHolding[] {
  if (inputs.source === "custom") return inputs.assets;
  return portfolios.find((p) => p.id === inputs.portfolioId)?.assets ?? [];
}

/**
 * The server's rules for a simulation (SimulateRequest in src/contract/analytics.ts), field by
 * field: 1 to 500 assets with amounts above 0 (up to 1e9) and no symbol twice; initial amount 0 to
 * 1e9; monthly contribution 0 to 1e8; one of them above 0; horizon a whole number of years 1 to 40;
 * an optional goal above 0 (up to 1e12); with my own assumptions, an annual return of -50 % to
 * +50 % and a volatility of 0 to 100 %. The seed is not the person's: the server's default is used.
 */
export function simulatorIssues(
  inputs: SimulatorInputs,
  portfolios: readonly SimulatorPortfolio[],
): Partial<Record<SimulatorField, SimulatorIssue>> {
  const issues: Partial<Record<SimulatorField, SimulatorIssue>> = {};
  if (inputs.source === "saved" && !portfolios.some((p) => p.id === inputs.portfolioId))
    issues.portfolio = "required";
  const assets = assetsOf(inputs, portfolios);
  if (inputs.source === "custom") {
    const symbols = assets.map((a) => a.symbol);
    if (assets.length === 0) issues.assets = "noAssets";
    else if (assets.length > 500) issues.assets = "tooManyAssets";
    else if (new Set(symbols).size !== symbols.length) issues.assets = "duplicateAsset";
    else if (
      assets.some(
        (a) => a.investedAmount === null || !inRange(a.investedAmount, Number.MIN_VALUE, 1e9),
      )
    )
      issues.assets = "range";
  }
  const { initialAmount: a, monthlyContribution: c, years, goal } = inputs;
  if (a === null) issues.initialAmount = "required";
  else if (!inRange(a, 0, L.maxInitialAmount)) issues.initialAmount = "range";
  if (c === null) issues.monthlyContribution = "required";
  else if (!inRange(c, 0, L.maxMonthlyContribution)) issues.monthlyContribution = "range";
  if (a !== null && c !== null && !issues.initialAmount && !issues.monthlyContribution)
    if (!(a > 0 || c > 0)) issues.initialAmount = "nothingInvested";
  if (years === null) issues.years = "required";
  else if (!Number.isInteger(years)) issues.years = "integer";
  else if (!inRange(years, L.minYears, L.maxYears)) issues.years = "range";
  if (goal !== null && !inRange(goal, Number.MIN_VALUE, L.maxGoal)) issues.goal = "range";
  if (inputs.mode === "own") {
    const A = SIMULATION_ASSUMPTIONS;
    const r = inputs.ownReturn;
    const v = inputs.ownVolatility;
    if (r === null) issues.ownReturn = "required";
    else if (!inRange(r / 100, A.minOwnReturn, A.maxOwnReturn)) issues.ownReturn = "range";
    if (v === null) issues.ownVolatility = "required";
    else if (!inRange(v / 100, A.minOwnVolatility, A.maxOwnVolatility))
      issues.ownVolatility = "range";
  }
  return issues;
}

/** The request of valid inputs (call only when simulatorIssues is empty). */
export function simulateRequestOf(
  inputs: SimulatorInputs,
  portfolios: readonly SimulatorPortfolio[],
): SimulateRequest {
  const saved = portfolios.find((p) => p.id === inputs.portfolioId);
  const currency = inputs.source === "saved" && saved ? saved.currency : inputs.currency;
  return {
    currency,
    ...(inputs.source === "saved" && saved ? { benchmark: saved.benchmark } : {}),
    assets: assetsOf(inputs, portfolios).map((a) => ({
      symbol: a.symbol,
      investedAmount: a.investedAmount!,
    })),
    initialAmount: inputs.initialAmount!,
    monthlyContribution: inputs.monthlyContribution!,
    years: inputs.years!,
    paths: inputs.paths,
    ...(inputs.inflation ? { inflation: true } : {}),
    ...(inputs.goal !== null ? { goal: inputs.goal } : {}),
    assumptions:
      inputs.mode === "own"
        ? {
            mode: "own",
            annualReturn: inputs.ownReturn! / 100,
            annualVolatility: inputs.ownVolatility! / 100,
          }
        : { mode: inputs.mode },
  };
}

/** A fraction as the percent a person types, to one decimal (0.0782 -> 7.8). */
const typedPercent = (fraction: number) => Math.round(fraction * 1000) / 10;
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

export type InvestmentSimulatorEvent =
  | { type: "source.choose"; source: SimulatorSourceKind; portfolioId?: number | null }
  | { type: "source.change" }
  | { type: "inputs.change"; inputs: Partial<SimulatorInputs> }
  | { type: "simulation.run" }
  | { type: "simulation.cancel" }
  | { type: "failure.retry" };

export interface InvestmentSimulatorInput {
  /** A saved portfolio to start from (e.g. the link from a portfolio's page). */
  readonly portfolioId?: number | null;
}

export interface InvestmentSimulatorContext {
  readonly sources: SimulatorSources | null;
  readonly inputs: SimulatorInputs;
  /** The request of the run on screen (or under way): what its figures answer. */
  readonly request: SimulateRequest | null;
  readonly result: SimulateResponse | null;
  /** The inputs changed after the result on screen was computed: it is marked, never shown as current. */
  readonly stale: boolean;
  /** The last run was cancelled by the user. */
  readonly cancelled: boolean;
  /** When the run under way started (ms since the epoch), for its progress. */
  readonly startedAt: number | null;
  readonly error: MsgCode | null;
}

const failureOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

/**
 * The investment simulator (PRODUCT.md "Markets and the investment simulator"): load the saved
 * portfolios and the assets; choose a source (a saved portfolio or assets chosen on the spot);
 * fill the inputs, checked by the server's rules; simulate on the server (cancellable, progress
 * shown for large runs); the result, or the failure with a retry. A change of the inputs after a
 * result marks it out of date until the next run.
 */
export const investmentSimulatorMachine = setup({
  types: {
    input: {} as InvestmentSimulatorInput,
    context: {} as InvestmentSimulatorContext,
    events: {} as InvestmentSimulatorEvent,
  },
  actors: {
    /** GET /portfolios and GET /market/assets. */
    loadSources: fromPromise<SimulatorSources>(async () => {
      throw new Error("loadSources must be provided");
    }),
    /** POST /analytics/simulate; aborted (its signal) when the run is cancelled. */
    simulate: fromPromise<SimulateResponse, SimulateRequest>(async () => {
      throw new Error("simulate must be provided");
    }),
  },
  actions: {
    keepSources: assign(({ context }, params: { sources: SimulatorSources }) => {
      const { portfolios } = params.sources;
      const wanted = context.inputs.portfolioId;
      const first = portfolios.find((p) => p.id === wanted) ?? portfolios[0];
      return {
        sources: params.sources,
        error: null,
        inputs: first
          ? {
              ...context.inputs,
              portfolioId: first.id,
              initialAmount: Math.round(first.totalInvested * 100) / 100,
            }
          : { ...context.inputs, source: "custom" as const },
      };
    }),
    chooseSource: assign(({ context, event }) => {
      if (event.type !== "source.choose") return {};
      const portfolios = context.sources?.portfolios ?? [];
      const saved = portfolios.find(
        (p) => p.id === (event.portfolioId ?? context.inputs.portfolioId),
      );
      return {
        stale: context.result !== null,
        inputs: {
          ...context.inputs,
          source: event.source,
          ...(event.source === "saved"
            ? {
                portfolioId: saved?.id ?? context.inputs.portfolioId ?? portfolios[0]?.id ?? null,
                ...(saved ? { initialAmount: Math.round(saved.totalInvested * 100) / 100 } : {}),
              }
            : {}),
        },
      };
    }),
    changeInputs: assign(({ context, event }) => {
      if (event.type !== "inputs.change") return {};
      return { inputs: { ...context.inputs, ...event.inputs }, stale: context.result !== null };
    }),
    startRun: assign(({ context }) => ({
      request: simulateRequestOf(context.inputs, context.sources?.portfolios ?? []),
      startedAt: Date.now(),
      cancelled: false,
      error: null,
    })),
    // "My own" starts from the assumptions just printed, so that editing them changes one figure.
    keepResult: assign(({ context }, params: { result: SimulateResponse }) => ({
      result: params.result,
      stale: false,
      startedAt: null,
      inputs:
        params.result.assumptions.mode === "own"
          ? context.inputs
          : {
              ...context.inputs,
              ownReturn: typedPercent(
                clamp(
                  params.result.assumptions.annualReturn,
                  SIMULATION_ASSUMPTIONS.minOwnReturn,
                  SIMULATION_ASSUMPTIONS.maxOwnReturn,
                ),
              ),
              ownVolatility: typedPercent(
                clamp(
                  params.result.assumptions.annualVolatility,
                  SIMULATION_ASSUMPTIONS.minOwnVolatility,
                  SIMULATION_ASSUMPTIONS.maxOwnVolatility,
                ),
              ),
            },
    })),
    markCancelled: assign({ cancelled: true, startedAt: null }),
    reportError: assign((_, params: { error: unknown }) => ({
      error: failureOf(params.error),
      startedAt: null,
    })),
  },
  guards: {
    chosePortfolio: ({ context, event }) =>
      event.type === "source.choose" &&
      (event.source === "custom" ||
        (context.sources?.portfolios ?? []).some(
          (p) => p.id === (event.portfolioId ?? context.inputs.portfolioId),
        )),
    inputsValid: ({ context }) =>
      Object.keys(simulatorIssues(context.inputs, context.sources?.portfolios ?? [])).length === 0,
  },
}).createMachine({
  id: "investmentSimulator",
  description:
    "Investment simulator: choose a saved portfolio or assets on the spot, fill the inputs, simulate on the server (cancellable) and read the fan chart; a change marks the result out of date.",
  context: ({ input }) => ({
    sources: null,
    inputs: { ...defaultSimulatorInputs, portfolioId: input?.portfolioId ?? null },
    request: null,
    result: null,
    stale: false,
    cancelled: false,
    startedAt: null,
    error: null,
  }),
  initial: "loading",
  states: {
    loading: {
      invoke: {
        id: "loadSources",
        src: "loadSources",
        onDone: {
          target: "choosingSource",
          actions: { type: "keepSources", params: ({ event }) => ({ sources: event.output }) },
        },
        onError: {
          target: "loadFailed",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: { on: { "failure.retry": "loading" } },
    choosingSource: {
      on: {
        "inputs.change": { actions: "changeInputs" },
        "source.choose": { guard: "chosePortfolio", target: "editing", actions: "chooseSource" },
      },
    },
    editing: {
      on: {
        "inputs.change": { actions: "changeInputs" },
        "source.choose": { guard: "chosePortfolio", actions: "chooseSource" },
        "source.change": "choosingSource",
        "simulation.run": { guard: "inputsValid", target: "simulating", actions: "startRun" },
      },
    },
    simulating: {
      invoke: {
        id: "simulate",
        src: "simulate",
        input: ({ context }) => context.request!,
        onDone: {
          target: "result",
          actions: { type: "keepResult", params: ({ event }) => ({ result: event.output }) },
        },
        onError: {
          target: "failed",
          actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: {
        // Leaving the state stops the call: its signal aborts the request.
        "simulation.cancel": { target: "editing", actions: "markCancelled" },
      },
    },
    result: {
      on: {
        "inputs.change": { target: "editing", actions: "changeInputs" },
        "source.choose": { guard: "chosePortfolio", target: "editing", actions: "chooseSource" },
        "source.change": "choosingSource",
        "simulation.run": { guard: "inputsValid", target: "simulating", actions: "startRun" },
      },
    },
    failed: {
      on: {
        "failure.retry": { guard: "inputsValid", target: "simulating", actions: "startRun" },
        "inputs.change": { target: "editing", actions: "changeInputs" },
        "source.change": "choosingSource",
      },
    },
  },
});

/** A small answer of the simulator, for the path tests and the documents (machines/index.ts). */
export const demoSimulation: SimulateResponse = {
  currency: "EUR",
  method: "monte-carlo-lognormal",
  assumptions: {
    mode: "equilibrium",
    annualReturn: 0.071,
    annualVolatility: 0.18,
    history: { from: "2016-05-17", to: "2024-05-17", observations: 2016, years: 8 },
    capm: {
      riskFreeRate: 0.02,
      equityRiskPremium: 0.05,
      beta: 1.02,
      market: "STOXX50E_INDEX",
      from: "2021-05-17",
      to: "2024-05-17",
      observations: 756,
    },
    blocks: null,
    cautions: [],
  },
  months: 12,
  invested: Array.from({ length: 13 }, (_, k) => 10_000 + 200 * k),
  percentiles: [5, 25, 50, 75, 95].map((percentile) => ({
    percentile,
    values: Array.from(
      { length: 13 },
      (_, k) => (10_000 + 200 * k) * (1 + (percentile - 50) / 1000) ** k,
    ),
  })),
  historical: {
    months: 12,
    values: Array.from({ length: 13 }, (_, k) => 10_000 + 210 * k),
    from: "2023-05-17",
    to: "2024-05-17",
  },
  paths: 10_000,
  seed: 1,
  monthlyLogMean: 0.005,
  monthlyLogVolatility: 0.04,
  window: {
    benchmark: 5,
    from: "2021-05-17",
    to: "2024-05-17",
    simulated: false,
    observations: 756,
  },
  inflation: null,
  goal: { amount: 15_000, probability: 0.42 },
};

export const demoSimulatorSources: SimulatorSources = {
  portfolios: [
    {
      id: 7,
      name: "Iberia",
      currency: "EUR",
      benchmark: 5,
      assets: [
        { symbol: "SAN.MC", investedAmount: 6000 },
        { symbol: "ITX.MC", investedAmount: 4000 },
      ],
      totalInvested: 10_000,
    },
  ],
  assets: [
    { symbol: "SAN.MC", name: "Banco Santander", currency: "EUR", holdableIn: ["EUR", "USD"] },
    { symbol: "SPY", name: "SPDR S&P 500 ETF", currency: "USD", holdableIn: ["EUR", "USD"] },
  ],
};
