import { assertEvent, assign, enqueueActions, fromPromise, setup, type EventObject } from "xstate";
import {
  BACKTEST_WINDOWS,
  type Currency,
  type Holding,
  type WhatIfFactor,
  type WhatIfRequest,
  type WhatIfResponse,
  type WhatIfShocks,
} from "../src/contract/analytics.ts";
import { whatIfKind, whatIfPermission, type WhatIfKind } from "../src/contract/analytics-rules.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import type { ProductPermissions } from "../src/contract/permissions.ts";
import { SessionFailure } from "./session.machine.ts";

/** The five shocks of the specification (section 3, "What-if state"). */
export const SHOCK_KEYS = ["dRV", "dRF", "dCrypto", "dMMPP", "inflation"] as const;
export type ShockKey = (typeof SHOCK_KEYS)[number];

/**
 * Each shock: the factor it moves, its unit and its bounds. A return factor is set in percent
 * (-20 = falls 20%) and sent as a fraction (-0.2); a level factor is set and sent in percentage
 * points. `min`/`max` are the API's bounds (src/contract/analytics.ts WhatIfShocks) in the unit
 * shown; the slider spans the plausible part of that range, the number box all of it.
 */
export const SHOCKS: Readonly<
  Record<
    ShockKey,
    {
      readonly factor: WhatIfFactor;
      readonly optionsType: "return" | "level";
      readonly min: number;
      readonly max: number;
      readonly sliderMin: number;
      readonly sliderMax: number;
      readonly step: number;
    }
  >
> = {
  dRV: {
    factor: "market",
    optionsType: "return",
    min: -100,
    max: 500,
    sliderMin: -60,
    sliderMax: 60,
    step: 1,
  },
  dRF: {
    factor: "rates",
    optionsType: "level",
    min: -10,
    max: 10,
    sliderMin: -5,
    sliderMax: 5,
    step: 0.25,
  },
  dCrypto: {
    factor: "crypto",
    optionsType: "return",
    min: -100,
    max: 2000,
    sliderMin: -90,
    sliderMax: 200,
    step: 5,
  },
  dMMPP: {
    factor: "commodities",
    optionsType: "return",
    min: -100,
    max: 500,
    sliderMin: -60,
    sliderMax: 100,
    step: 1,
  },
  inflation: {
    factor: "inflation",
    optionsType: "level",
    min: -10,
    max: 20,
    sliderMin: -5,
    sliderMax: 10,
    step: 0.25,
  },
};

/**
 * One parameter of the what-if state (section 3): `titleKey` names the shock, `factor` the
 * market factor it moves, `optionsType` its unit (a return in percent or a level in points),
 * `percentage` what the user set (percent or points), `value` what the API receives (a fraction
 * for returns, points for levels; null = not shocked) and `customPercentage` whether it was typed
 * in the number box rather than picked on the slider.
 */
export interface WhatIfParameter {
  readonly titleKey: ShockKey;
  readonly factor: WhatIfFactor;
  readonly optionsType: "return" | "level";
  readonly percentage: number | null;
  readonly value: number | null;
  readonly customPercentage: boolean;
}

export type Rebalancing = "none" | "monthly" | "quarterly" | "annual";
export type BacktestWindow = keyof typeof BACKTEST_WINDOWS;
export const BACKTEST_IDS = Object.keys(BACKTEST_WINDOWS) as BacktestWindow[];
export const REBALANCINGS: readonly Rebalancing[] = ["none", "monthly", "quarterly", "annual"];
export const SCENARIO_TYPES = [0, 1, 2, 3] as const;

/** The four real scenarios, peak to trough (the engine's SCENARIOS, checked equal by the tests). */
export const SCENARIO_WINDOWS = [
  { type: 0, id: "crisis-2008", start: "2007-10-09", end: "2009-03-09" },
  { type: 1, id: "pandemic-2020", start: "2020-02-19", end: "2020-03-23" },
  { type: 2, id: "rate-shock-2022", start: "2022-01-03", end: "2022-10-12" },
  { type: 3, id: "dot-com-2000", start: "2000-03-24", end: "2002-10-09" },
] as const;

/** The portfolio being built or saved, as the what-if calls need it. */
export interface WhatIfPortfolio {
  readonly currency: Currency;
  readonly benchmark?: 1 | 2 | 3 | 4 | 5 | 6;
  /** A saved portfolio's stored benchmark (issue 27): what its backtest is compared with. */
  readonly benchmarkSeries?: string | null;
  readonly assets: readonly Holding[];
}

/** What the screens explain when a run is not sent. */
export type WhatIfRuleProblem =
  "NO_PORTFOLIO" | "WHATIF_NEEDS_SHOCK" | "SCENARIO_TYPE_INVALID" | "BACKTEST_NEEDS_ID";
export type WhatIfProblem = WhatIfRuleProblem | MsgCode;

export interface WhatIfInput {
  readonly permissions: ProductPermissions["whatIf"];
  readonly portfolio: WhatIfPortfolio | null;
  /** Shocks to start from, in the unit shown (percent or points). */
  readonly shocks?: Partial<Record<ShockKey, number | null>>;
}

export interface WhatIfContext {
  readonly permissions: ProductPermissions["whatIf"];
  readonly portfolio: WhatIfPortfolio | null;
  /** Backtest window id ("1y", "3y", "5y", "10y"); any other text breaks the "needs an id" rule. */
  readonly backTesting: string | null;
  readonly rebalancing: Rebalancing;
  /** Real scenario type; only 0 to 3 are valid. */
  readonly scenarioType: number | null;
  readonly parameters: readonly WhatIfParameter[];
  /** The request being run, then the one the result answers. */
  readonly request: WhatIfRequest | null;
  readonly result: WhatIfResponse | null;
  /** The portfolio the result was computed on (to tell a stale result). */
  readonly resultPortfolio: WhatIfPortfolio | null;
  readonly problem: WhatIfProblem | null;
  /** The kind the plan does not include (locked state). */
  readonly locked: WhatIfKind | null;
  /** The what-if's page the person is on; null when none is open. */
  readonly page: WhatIfPage | null;
}

/** The what-if's pages: the scenarios (routes `what-if-scenarios`) and the assessment. */
export type WhatIfPage = "scenarios" | "assessment";

/** The abstract navigation the app provides: take the person to this route. */
type FollowAction = { type: "follow"; params: { route: "what-if-assessment" } };

export type WhatIfEvent =
  /** A page of the what-if opened: a run started there may move it. */
  | { type: "page.opened"; page: WhatIfPage }
  /** The person left the what-if's pages: what the machine does next moves no page. */
  | { type: "page.left" }
  | { type: "shock.set"; key: ShockKey; percentage: number | null; custom?: boolean }
  | { type: "shocks.clear" }
  | { type: "scenario.choose"; scenarioType: number | null }
  | { type: "backtest.choose"; backTesting: string | null }
  | { type: "rebalancing.choose"; rebalancing: Rebalancing }
  | { type: "portfolio.changed"; portfolio: WhatIfPortfolio | null }
  | { type: "permissions.changed"; permissions: ProductPermissions["whatIf"] }
  | { type: "whatIf.run" }
  | { type: "whatIf.cancel" }
  | { type: "whatIf.retry" };

export const emptyParameters = (): WhatIfParameter[] =>
  SHOCK_KEYS.map((key) => ({
    titleKey: key,
    factor: SHOCKS[key].factor,
    optionsType: SHOCKS[key].optionsType,
    percentage: null,
    value: null,
    customPercentage: false,
  }));

/** The API value of a shock set in the unit shown: a fraction for returns, points for levels. */
export function shockValue(key: ShockKey, percentage: number | null): number | null {
  if (percentage === null || !Number.isFinite(percentage)) return null;
  // Rounded so that -20 is sent as -0.2, not -0.20000000000000001.
  return SHOCKS[key].optionsType === "return" ? Number((percentage / 100).toFixed(10)) : percentage;
}

export function shocksOf(parameters: readonly WhatIfParameter[]): WhatIfShocks {
  return Object.fromEntries(parameters.map((p) => [p.titleKey, p.value])) as WhatIfShocks;
}

/** Specification, section 5: a custom what-if needs at least one non-null shock. */
export const hasShock = (parameters: readonly WhatIfParameter[]): boolean =>
  parameters.some((p) => p.value !== null);

/** Specification, section 5: a real what-if needs scenario type 0, 1, 2 or 3. */
export const isScenarioType = (t: number | null): t is 0 | 1 | 2 | 3 =>
  t !== null && (SCENARIO_TYPES as readonly number[]).includes(t);

/** Specification, section 5: a backtest needs an id (one of the windows the API knows). */
export const isBacktestId = (id: string | null): id is BacktestWindow =>
  id !== null && Object.hasOwn(BACKTEST_WINDOWS, id);

/** The kind a run would be, by the specification's priority (the server's own function). */
export const kindOf = (c: Pick<WhatIfContext, "backTesting" | "scenarioType">): WhatIfKind =>
  whatIfKind({ backTesting: c.backTesting as never, scenarioType: c.scenarioType as never });

/** Whether the plan includes a kind (the server answers 403 PLAN_FEATURE_LOCKED otherwise). */
export const allows = (permissions: ProductPermissions["whatIf"], kind: WhatIfKind): boolean =>
  permissions[whatIfPermission[kind]];

/** The rule a run would break, or null (the permission is checked apart: locked). */
export function ruleProblem(c: WhatIfContext): WhatIfRuleProblem | null {
  if (!c.portfolio || c.portfolio.assets.length === 0) return "NO_PORTFOLIO";
  const kind = kindOf(c);
  if (kind === "backtest" && !isBacktestId(c.backTesting)) return "BACKTEST_NEEDS_ID";
  if (kind === "scenario" && !isScenarioType(c.scenarioType)) return "SCENARIO_TYPE_INVALID";
  if (kind === "custom" && !hasShock(c.parameters)) return "WHATIF_NEEDS_SHOCK";
  return null;
}

/**
 * The request of a run: only the fields of its kind, so that what is sent is what runs (the
 * server applies the same priority to whatever it receives).
 */
export function requestOf(c: WhatIfContext): WhatIfRequest {
  const p = c.portfolio!;
  const base = {
    currency: p.currency,
    ...(p.benchmark ? { benchmark: p.benchmark } : {}),
    assets: p.assets.map((a) => ({ symbol: a.symbol, investedAmount: a.investedAmount })),
  };
  const kind = kindOf(c);
  if (kind === "backtest")
    return {
      ...base,
      backTesting: c.backTesting as BacktestWindow,
      rebalancing: c.rebalancing,
      ...(p.benchmarkSeries ? { benchmarkSeries: p.benchmarkSeries } : {}),
    };
  if (kind === "scenario") return { ...base, scenarioType: c.scenarioType as 0 | 1 | 2 | 3 };
  return { ...base, shocks: shocksOf(c.parameters) };
}

/** Same assets, amounts, currency and window: a result on another portfolio is stale. */
export function samePortfolio(a: WhatIfPortfolio | null, b: WhatIfPortfolio | null): boolean {
  if (!a || !b) return a === b;
  if (a.currency !== b.currency || (a.benchmark ?? null) !== (b.benchmark ?? null)) return false;
  if ((a.benchmarkSeries ?? null) !== (b.benchmarkSeries ?? null)) return false;
  const key = (p: WhatIfPortfolio) =>
    p.assets
      .map((x) => `${x.symbol}:${x.investedAmount}`)
      .sort()
      .join("|");
  return key(a) === key(b);
}

/** The result answers another portfolio than the current one. */
export const isStale = (c: WhatIfContext): boolean =>
  c.result !== null && !samePortfolio(c.resultPortfolio, c.portfolio);

const failureOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

const editEvents = {
  "shock.set": { target: "#whatIf.editing", actions: "setShock" },
  "shocks.clear": { target: "#whatIf.editing", actions: "clearShocks" },
  "scenario.choose": { target: "#whatIf.editing", actions: "chooseScenario" },
  "backtest.choose": { target: "#whatIf.editing", actions: "chooseBacktest" },
  "rebalancing.choose": { target: "#whatIf.editing", actions: "chooseRebalancing" },
} as const;

const runTransitions = [
  { guard: "isLocked", target: "#whatIf.locked", actions: "markLocked" },
  { guard: "breaksRule", target: "#whatIf.editing", actions: "reportRule" },
  { target: "#whatIf.running", actions: "prepareRequest" },
] as const;

/**
 * What-if (specification sections 3-5, PRODUCT.md "What-if and optimisation screens"): the user
 * sets the five shocks, a real scenario and a backtest; a run is the backtest if one is chosen,
 * else the real scenario, else the custom shocks (section 4's priority). Each kind needs its
 * whatIf permission (locked otherwise) and its rule (section 5). A run can be cancelled; a result
 * stays with the portfolio it was computed on, so a change of portfolio shows it as stale.
 */
export const whatIfMachine = setup({
  types: {
    input: {} as WhatIfInput,
    context: {} as WhatIfContext,
    events: {} as WhatIfEvent,
  },
  actors: {
    /** POST /analytics/what-if (aborted when the run is cancelled). */
    runWhatIf: fromPromise<WhatIfResponse, WhatIfRequest>(async () => {
      throw new Error("runWhatIf must be provided");
    }),
  },
  actions: {
    /** Takes the person to a route of the app (provided by the app: the URL follows the machine). */
    follow: (_, _params: FollowAction["params"]) => {
      throw new Error("follow must be provided");
    },
    /** A run started on the scenarios' page ends on the assessment (a new history entry). */
    showAssessment: enqueueActions<
      WhatIfContext,
      WhatIfEvent,
      undefined,
      WhatIfEvent,
      never,
      FollowAction,
      never,
      never,
      EventObject
    >(({ context, enqueue }) => {
      if (context.page !== "scenarios") return;
      enqueue({ type: "follow", params: { route: "what-if-assessment" } });
      enqueue.assign({ page: "assessment" });
    }),
    setShock: assign({
      parameters: ({ context, event }) => {
        assertEvent(event, "shock.set");
        return context.parameters.map((p) =>
          p.titleKey === event.key
            ? {
                ...p,
                percentage: event.percentage,
                value: shockValue(event.key, event.percentage),
                customPercentage: event.percentage !== null && (event.custom ?? false),
              }
            : p,
        );
      },
      problem: null,
      locked: null,
    }),
    clearShocks: assign({ parameters: () => emptyParameters(), problem: null, locked: null }),
    chooseScenario: assign({
      scenarioType: ({ event }) => {
        assertEvent(event, "scenario.choose");
        return event.scenarioType;
      },
      problem: null,
      locked: null,
    }),
    chooseBacktest: assign({
      backTesting: ({ event }) => {
        assertEvent(event, "backtest.choose");
        return event.backTesting;
      },
      problem: null,
      locked: null,
    }),
    chooseRebalancing: assign({
      rebalancing: ({ event }) => {
        assertEvent(event, "rebalancing.choose");
        return event.rebalancing;
      },
      problem: null,
    }),
    changePortfolio: assign({
      portfolio: ({ event }) => {
        assertEvent(event, "portfolio.changed");
        return event.portfolio;
      },
    }),
    changePermissions: assign({
      permissions: ({ event }) => {
        assertEvent(event, "permissions.changed");
        return event.permissions;
      },
    }),
    markLocked: assign({ locked: ({ context }) => kindOf(context), problem: null }),
    reportRule: assign({ problem: ({ context }) => ruleProblem(context), locked: null }),
    prepareRequest: assign({
      request: ({ context }) => requestOf(context),
      problem: null,
      locked: null,
    }),
    keepResult: assign((_, params: { result: WhatIfResponse; portfolio: WhatIfPortfolio }) => ({
      result: params.result,
      resultPortfolio: params.portfolio,
      problem: null,
    })),
    reportFailure: assign({ problem: (_, params: { error: unknown }) => failureOf(params.error) }),
  },
  guards: {
    isLocked: ({ context }) => !allows(context.permissions, kindOf(context)),
    breaksRule: ({ context }) => ruleProblem(context) !== null,
    isPlanLocked: (_, params: { error: unknown }) =>
      failureOf(params.error) === "PLAN_FEATURE_LOCKED",
    portfolioGone: ({ event }) => {
      assertEvent(event, "portfolio.changed");
      return !event.portfolio || event.portfolio.assets.length === 0;
    },
    portfolioMoved: ({ context, event }) => {
      assertEvent(event, "portfolio.changed");
      return !samePortfolio(context.portfolio, event.portfolio);
    },
  },
}).createMachine({
  id: "whatIf",
  context: ({ input }) => ({
    permissions: input.permissions,
    portfolio: input.portfolio,
    backTesting: null,
    rebalancing: "none",
    scenarioType: null,
    parameters: emptyParameters().map((p) => {
      const percentage = input.shocks?.[p.titleKey] ?? null;
      return { ...p, percentage, value: shockValue(p.titleKey, percentage) };
    }),
    request: null,
    result: null,
    resultPortfolio: null,
    problem: null,
    locked: null,
    page: null,
  }),
  initial: "editing",
  on: {
    "page.opened": {
      actions: assign({
        page: ({ event }) => {
          assertEvent(event, "page.opened");
          return event.page;
        },
      }),
    },
    "page.left": { actions: assign({ page: null }) },
    "permissions.changed": { actions: "changePermissions" },
    "portfolio.changed": { actions: "changePortfolio" },
  },
  states: {
    editing: {
      on: { ...editEvents, "whatIf.run": runTransitions },
    },
    running: {
      invoke: {
        id: "runWhatIf",
        src: "runWhatIf",
        input: ({ context }) => context.request!,
        onDone: {
          target: "result",
          actions: [
            {
              type: "keepResult",
              params: ({ context, event }) => ({
                result: event.output,
                portfolio: context.portfolio!,
              }),
            },
            "showAssessment",
          ],
        },
        onError: [
          {
            guard: { type: "isPlanLocked", params: ({ event }) => ({ error: event.error }) },
            target: "locked",
            actions: "markLocked",
          },
          {
            target: "failed",
            actions: { type: "reportFailure", params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
      on: {
        "whatIf.cancel": "editing",
        // A run never answers an older portfolio: it starts again on the new one.
        "portfolio.changed": [
          { guard: "portfolioGone", target: "editing", actions: ["changePortfolio", "reportRule"] },
          {
            guard: "portfolioMoved",
            target: "running",
            reenter: true,
            actions: ["changePortfolio", "prepareRequest"],
          },
          { actions: "changePortfolio" },
        ],
      },
    },
    result: {
      on: { ...editEvents, "whatIf.run": runTransitions },
    },
    failed: {
      on: { ...editEvents, "whatIf.run": runTransitions, "whatIf.retry": runTransitions },
    },
    locked: {
      on: { ...editEvents, "whatIf.run": runTransitions },
    },
  },
});
