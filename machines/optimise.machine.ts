import { assertEvent, assign, enqueueActions, fromPromise, setup, type EventObject } from "xstate";
import type {
  Benchmark as BenchmarkSchema,
  Currency,
  Holding,
  OptimiseRequest,
  OptimiseResponse,
} from "../src/contract/analytics.ts";
import { optimisationPermission } from "../src/contract/analytics-rules.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import {
  optimisationViolations,
  requestLevel,
  type OptimizationRuleViolation,
} from "../src/contract/optimisation-rules.ts";
import type { ProductPermissions } from "../src/contract/permissions.ts";
import { SessionFailure } from "./session.machine.ts";

type Benchmark = typeof BenchmarkSchema.Type;

/** The optimisation state's level (specification section 3): o1, o2 or o3. */
export type OptimisationLevel = 1 | 2 | 3;
/** o1: the lowest risk, or the highest expected return within the maximum loss at 95%. */
export type Objective = "minimum-risk" | "maximum-return";

export type OptimalAnswer = Extract<OptimiseResponse, { status: "optimal" }>;
export type InfeasibleReason = Extract<OptimiseResponse, { status: "infeasible" }>["reason"];

/** A holding of the portfolio optimised (`Holding`), with its name. */
export interface OptimiseAsset extends Holding {
  readonly name: string;
}

/** The portfolio being optimised: the one being built or the saved one (or its edition). */
export interface OptimisePortfolio {
  readonly currency: Currency;
  readonly benchmark?: Benchmark;
  readonly assets: readonly OptimiseAsset[];
  /** Identity of its content: when it changes, a result computed before is stale. */
  readonly key: string;
  /** q3's number of assets (maxAssetsLevel): the portfolio's own limit beside the plan's. */
  readonly maxAssetsLevel?: number | null;
}

/** The optimisation's pages, each a route of the app (`optimize-<page>`). */
export type OptimisePage = "choose" | "o1" | "o2" | "o3" | "summary";

/** The route (its key in the app's route table) of each page. */
export const optimiseRoutes = {
  choose: "optimize-choose",
  o1: "optimize-o1",
  o2: "optimize-o2",
  o3: "optimize-o3",
  summary: "optimize-summary",
} as const satisfies Record<OptimisePage, string>;

/** Where an adopted optimisation takes the person: the saved portfolio, or the creation summary. */
type AdoptedRoute =
  { route: "account-portfolio"; params: { id: string } } | { route: "create-summary" };

/** The abstract navigation the app provides: take the person to this route. */
type FollowAction = {
  type: "follow";
  params: { route: (typeof optimiseRoutes)[OptimisePage] } | AdoptedRoute;
};

export interface OptimiseInput {
  readonly portfolio: OptimisePortfolio;
  /** The saved portfolio optimised (its page shows the adopted amounts); none: one being created. */
  readonly savedId?: number | null;
  readonly permissions: ProductPermissions;
  /** The client's level (section 3, default 1); the rules need 30. */
  readonly clientLevel: number;
  /** The maximum loss at 95% the investor gave (q2), if any. */
  readonly maxToLose95?: number | null;
}

export interface KeepWeight {
  readonly min: number;
  readonly max: number;
}

export interface OptimiseContext {
  readonly portfolio: OptimisePortfolio;
  readonly savedId: number | null;
  /** The optimisation's page the person is on; null when none is open (the machine moves no page). */
  readonly page: OptimisePage | null;
  readonly permissions: ProductPermissions;
  readonly clientLevel: number;
  // The optimisation state of section 3.
  readonly level: OptimisationLevel | null;
  readonly objective: Objective;
  readonly newAssets: readonly { readonly symbol: string; readonly name: string }[];
  readonly keepAssets: readonly string[];
  readonly keepAssetsWeight: Readonly<Record<string, KeepWeight>>;
  readonly maxToLose95: number | null;
  readonly desiredAssetsAmount: number | null;
  readonly optimizedPortfolio: OptimalAnswer | null;
  /** The portfolio key the result was computed for. */
  readonly resultKey: string | null;
  /** The rules that block the optimisation (the same function the server applies). */
  readonly violations: readonly OptimizationRuleViolation[];
  /** The constraint the last answer could not meet. */
  readonly infeasible: InfeasibleReason | null;
  /** A level chosen without its permission (the screen names the plan that unlocks it). */
  readonly lockedLevel: OptimisationLevel | null;
  readonly error: MsgCode | null;
}

export type OptimiseEvent =
  /**
   * A page of the optimisation opened (a link, a reload, the browser's back or forward button):
   * a level's page chooses that level, the choice's page goes back to it; any other is sent to the
   * machine's own page.
   */
  | { type: "page.opened"; page: OptimisePage }
  /** The person left the optimisation's pages: what the machine does next moves no page. */
  | { type: "page.left" }
  | { type: "level.choose"; level: OptimisationLevel }
  | { type: "objective.change"; objective: Objective }
  | { type: "maxLoss.change"; amount: number | null }
  | { type: "newAsset.add"; symbol: string; name: string }
  | { type: "newAsset.remove"; symbol: string }
  | { type: "keep.toggle"; symbol: string }
  | { type: "keepWeight.change"; symbol: string; min: number; max: number }
  | { type: "desired.change"; amount: number | null }
  | { type: "portfolio.change"; portfolio: OptimisePortfolio }
  | { type: "optimisation.run" }
  | { type: "optimisation.cancel" }
  | { type: "step.back" }
  | { type: "optimisation.restart" }
  | { type: "result.adopt" };

/** Kept assets default to the whole range: held or not, as the optimiser finds best. */
export const DEFAULT_KEEP_WEIGHT: KeepWeight = { min: 0, max: 1 };

export const levelPermission = (permissions: ProductPermissions, level: OptimisationLevel) =>
  permissions.optimization[optimisationPermission[level]];

/** Every symbol the optimisation may hold: the portfolio's, then the new ones (levels 2 and 3). */
export function universeOf(c: OptimiseContext): OptimiseAsset[] {
  const held = c.portfolio.assets.map((a) => ({ ...a }));
  if (c.level === 1) return held;
  const seen = new Set(held.map((a) => a.symbol));
  return [
    ...held,
    ...c.newAssets.filter((a) => !seen.has(a.symbol)).map((a) => ({ ...a, investedAmount: 0 })),
  ];
}

/** The API request of the optimisation state (src/contract/analytics.ts OptimiseRequest). */
export function requestOf(c: OptimiseContext): OptimiseRequest {
  const level = c.level ?? 1;
  return {
    currency: c.portfolio.currency,
    ...(c.portfolio.benchmark ? { benchmark: c.portfolio.benchmark } : {}),
    ...(c.portfolio.maxAssetsLevel != null ? { maxAssetsLevel: c.portfolio.maxAssetsLevel } : {}),
    level,
    assets: universeOf(c).map((a) => {
      const kept = level !== 1 && c.keepAssets.includes(a.symbol);
      const w = c.keepAssetsWeight[a.symbol] ?? DEFAULT_KEEP_WEIGHT;
      return {
        symbol: a.symbol,
        investedAmount: a.investedAmount,
        ...(kept ? { keep: true, minWeight: w.min, maxWeight: w.max } : {}),
      };
    }),
    ...(level === 3 && c.desiredAssetsAmount !== null
      ? { desiredAssetsAmount: c.desiredAssetsAmount }
      : {}),
    ...(c.maxToLose95 !== null ? { maxToLose95: c.maxToLose95 } : {}),
    ...(level === 1 ? { objective: c.objective } : {}),
  };
}

/** Why the optimisation is blocked now (empty: it may run). */
export function violationsOf(c: OptimiseContext): OptimizationRuleViolation[] {
  return optimisationViolations(requestOf(c), c.permissions, c.clientLevel);
}

/** The optimisation may run: the level's permission and every rule of sections 5 and 9. */
export function canOptimise(c: OptimiseContext): boolean {
  if (c.level === null || !levelPermission(c.permissions, c.level)) return false;
  if (!levelPermission(c.permissions, requestLevel(requestOf(c)))) return false;
  return violationsOf(c).length === 0;
}

const failureOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

const clamp01 = (v: number) => Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));

/**
 * Optimisation (PRODUCT.md "What-if and optimisation screens", specification sections 3, 5 and
 * 9): choose a level (each behind its `optimization` permission), set its options, optimise
 * (cancellable), then compare and adopt. The guards call the rule functions the server enforces
 * again (src/contract/optimisation-rules.ts). A result computed for another composition of the
 * portfolio is stale and cannot be adopted.
 */
export const optimiseMachine = setup({
  types: {
    input: {} as OptimiseInput,
    context: {} as OptimiseContext,
    events: {} as OptimiseEvent,
  },
  actors: {
    optimise: fromPromise<OptimiseResponse, OptimiseRequest>(async () => {
      throw new Error("optimise must be provided");
    }),
    /** Hands the optimised portfolio to the wizard's summary or to an edition of the saved one. */
    adopt: fromPromise<void, { answer: OptimalAnswer; portfolio: OptimisePortfolio }>(async () => {
      throw new Error("adopt must be provided");
    }),
  },
  actions: {
    /** Takes the person to a route of the app (provided by the app: the URL follows the machine). */
    follow: (_, _params: FollowAction["params"]) => {
      throw new Error("follow must be provided");
    },
    /**
     * On entering a state with a page: when the person is on another of the optimisation's
     * pages, takes them to this one (a new history entry). Nobody on its pages: nothing moves.
     */
    showPage: enqueueActions<
      OptimiseContext,
      OptimiseEvent,
      { page: OptimisePage },
      OptimiseEvent,
      never,
      FollowAction,
      never,
      never,
      EventObject
    >(({ context, enqueue }, { page }) => {
      if (context.page === null || context.page === page) return;
      enqueue({ type: "follow", params: { route: optimiseRoutes[page] } });
      enqueue.assign({ page });
    }),
    /** Adopted from its summary: the portfolio shows the optimised amounts where it lives. */
    showAdopted: enqueueActions<
      OptimiseContext,
      OptimiseEvent,
      undefined,
      OptimiseEvent,
      never,
      FollowAction,
      never,
      never,
      EventObject
    >(({ context, enqueue }) => {
      if (context.page === null) return;
      enqueue({
        type: "follow",
        params:
          context.savedId !== null
            ? { route: "account-portfolio", params: { id: String(context.savedId) } }
            : { route: "create-summary" },
      });
      enqueue.assign({ page: null });
    }),
    openPage: assign({
      page: ({ event }) => {
        assertEvent(event, "page.opened");
        return event.page;
      },
    }),
    /** A level's page opened on a level the plan does not include: the choice shows the lock. */
    lockPageLevel: assign({
      lockedLevel: ({ event }) => {
        assertEvent(event, "page.opened");
        return Number(event.page.slice(1)) as OptimisationLevel;
      },
    }),
    clearOutcome: assign({ violations: [], infeasible: null, error: null, lockedLevel: null }),
    /** Start again: the choice and every option of the last run go (the loss limit stays, from q2). */
    startOver: assign({
      level: null,
      objective: "minimum-risk" as const,
      newAssets: [],
      keepAssets: [],
      keepAssetsWeight: {},
      desiredAssetsAmount: null,
    }),
    setPortfolio: assign({
      portfolio: ({ event }) => {
        assertEvent(event, "portfolio.change");
        return event.portfolio;
      },
    }),
    reportViolations: assign({ violations: ({ context }) => violationsOf(context) }),
    setObjective: assign({
      objective: ({ event }) => {
        assertEvent(event, "objective.change");
        return event.objective;
      },
      infeasible: null,
    }),
    setMaxLoss: assign({
      maxToLose95: ({ event }) => {
        assertEvent(event, "maxLoss.change");
        return event.amount !== null && Number.isFinite(event.amount) ? event.amount : null;
      },
      violations: [],
      infeasible: null,
    }),
    setDesired: assign({
      desiredAssetsAmount: ({ event }) => {
        assertEvent(event, "desired.change");
        return event.amount !== null && Number.isFinite(event.amount) ? event.amount : null;
      },
      violations: [],
      infeasible: null,
    }),
    addNewAsset: assign({
      newAssets: ({ context, event }) => {
        assertEvent(event, "newAsset.add");
        const known =
          context.newAssets.some((a) => a.symbol === event.symbol) ||
          context.portfolio.assets.some((a) => a.symbol === event.symbol);
        return known
          ? context.newAssets
          : [...context.newAssets, { symbol: event.symbol, name: event.name }];
      },
      violations: [],
      infeasible: null,
    }),
    removeNewAsset: assign(({ context, event }) => {
      assertEvent(event, "newAsset.remove");
      return {
        newAssets: context.newAssets.filter((a) => a.symbol !== event.symbol),
        keepAssets: context.keepAssets.filter((s) => s !== event.symbol),
        violations: [],
        infeasible: null,
      };
    }),
    toggleKeep: assign(({ context, event }) => {
      assertEvent(event, "keep.toggle");
      const kept = context.keepAssets.includes(event.symbol);
      return {
        keepAssets: kept
          ? context.keepAssets.filter((s) => s !== event.symbol)
          : [...context.keepAssets, event.symbol],
        keepAssetsWeight: kept
          ? context.keepAssetsWeight
          : {
              ...context.keepAssetsWeight,
              [event.symbol]: context.keepAssetsWeight[event.symbol] ?? DEFAULT_KEEP_WEIGHT,
            },
        violations: [],
        infeasible: null,
      };
    }),
    setKeepWeight: assign({
      keepAssetsWeight: ({ context, event }) => {
        assertEvent(event, "keepWeight.change");
        const min = clamp01(event.min);
        const max = Math.max(min, clamp01(event.max));
        return { ...context.keepAssetsWeight, [event.symbol]: { min, max } };
      },
      infeasible: null,
    }),
  },
  guards: {
    pageIs: ({ event }, params: { page: OptimisePage }) => {
      assertEvent(event, "page.opened");
      return event.page === params.page;
    },
    /** A level's page opened, and the plan includes that level. */
    pageLevelAllowed: ({ context, event }, params: { level: OptimisationLevel }) => {
      assertEvent(event, "page.opened");
      return (
        event.page === `o${params.level}` && levelPermission(context.permissions, params.level)
      );
    },
    isLevelPage: ({ event }) => {
      assertEvent(event, "page.opened");
      return event.page === "o1" || event.page === "o2" || event.page === "o3";
    },
    levelAllowed: ({ context, event }, params: { level: OptimisationLevel }) => {
      assertEvent(event, "level.choose");
      return event.level === params.level && levelPermission(context.permissions, params.level);
    },
    canOptimise: ({ context }) => canOptimise(context),
    atLevel: ({ context }, params: { level: OptimisationLevel }) => context.level === params.level,
    isOptimal: (_, params: { output: OptimiseResponse }) => params.output.status === "optimal",
    portfolioChanged: ({ context, event }) => {
      assertEvent(event, "portfolio.change");
      return event.portfolio.key !== context.portfolio.key;
    },
    resultCurrent: ({ context }) =>
      context.optimizedPortfolio !== null && context.resultKey === context.portfolio.key,
  },
}).createMachine({
  id: "optimise",
  description:
    "Optimise the portfolio being built or saved: choose o1, o2 or o3, set the options, optimise, compare and adopt.",
  context: ({ input }) => ({
    portfolio: input.portfolio,
    savedId: input.savedId ?? null,
    page: null,
    permissions: input.permissions,
    clientLevel: input.clientLevel,
    level: null,
    objective: "minimum-risk",
    newAssets: [],
    keepAssets: [],
    keepAssetsWeight: {},
    maxToLose95: input.maxToLose95 ?? null,
    desiredAssetsAmount: null,
    optimizedPortfolio: null,
    resultKey: null,
    violations: [],
    infeasible: null,
    lockedLevel: null,
    error: null,
  }),
  on: {
    "portfolio.change": { actions: "setPortfolio" },
    "page.opened": { actions: "openPage" },
    "page.left": { actions: assign({ page: null }) },
  },
  initial: "choose",
  states: {
    choose: {
      description: "The three levels; a level without its permission stays locked.",
      entry: { type: "showPage", params: { page: "choose" } },
      on: {
        // A level's page opened: that level is chosen (a locked one stays, and shows the lock).
        "page.opened": [
          {
            guard: { type: "pageLevelAllowed", params: { level: 1 } },
            target: "options.o1",
            actions: ["openPage", assign({ level: 1 }), "clearOutcome"],
          },
          {
            guard: { type: "pageLevelAllowed", params: { level: 2 } },
            target: "options.o2",
            actions: ["openPage", assign({ level: 2 }), "clearOutcome"],
          },
          {
            guard: { type: "pageLevelAllowed", params: { level: 3 } },
            target: "options.o3",
            actions: ["openPage", assign({ level: 3 }), "clearOutcome"],
          },
          { guard: "isLevelPage", actions: ["openPage", "lockPageLevel"] },
          // The summary's page opened before any result stays where it is.
          { actions: "openPage" },
        ],
        "level.choose": [
          {
            guard: { type: "levelAllowed", params: { level: 1 } },
            target: "options.o1",
            actions: [assign({ level: 1 }), "clearOutcome"],
          },
          {
            guard: { type: "levelAllowed", params: { level: 2 } },
            target: "options.o2",
            actions: [assign({ level: 2 }), "clearOutcome"],
          },
          {
            guard: { type: "levelAllowed", params: { level: 3 } },
            target: "options.o3",
            actions: [assign({ level: 3 }), "clearOutcome"],
          },
          { actions: assign({ lockedLevel: ({ event }) => event.level }) },
        ],
      },
    },
    options: {
      description:
        "The options of the level; every level states the maximum loss at 95% the investor accepts.",
      on: {
        "maxLoss.change": { actions: "setMaxLoss" },
        "optimisation.run": [
          { guard: "canOptimise", target: "optimising", actions: "clearOutcome" },
          { actions: "reportViolations" },
        ],
        "step.back": { target: "choose", actions: ["clearOutcome", assign({ level: null })] },
      },
      initial: "o1",
      states: {
        o1: {
          description:
            "Optimise the current assets: the lowest risk, or the highest return within the maximum loss at 95%.",
          entry: { type: "showPage", params: { page: "o1" } },
          on: {
            "page.opened": [
              // The choice's page opened (the browser's back button): the machine goes back to it.
              {
                guard: { type: "pageIs", params: { page: "choose" } },
                target: "#optimise.choose",
                actions: ["openPage", "clearOutcome", assign({ level: null })],
              },
              { actions: ["openPage", { type: "showPage", params: { page: "o1" } }] },
            ],
            "objective.change": { actions: "setObjective" },
          },
        },
        o2: {
          description:
            "Build with new assets from the universe, keeping chosen assets within their minimum and maximum weights.",
          entry: { type: "showPage", params: { page: "o2" } },
          on: {
            "page.opened": [
              // The choice's page opened (the browser's back button): the machine goes back to it.
              {
                guard: { type: "pageIs", params: { page: "choose" } },
                target: "#optimise.choose",
                actions: ["openPage", "clearOutcome", assign({ level: null })],
              },
              { actions: ["openPage", { type: "showPage", params: { page: "o2" } }] },
            ],
            "newAsset.add": { actions: "addNewAsset" },
            "newAsset.remove": { actions: "removeNewAsset" },
            "keep.toggle": { actions: "toggleKeep" },
            "keepWeight.change": { actions: "setKeepWeight" },
          },
        },
        o3: {
          description:
            "Build with a desired number of assets (kept assets count towards it), from the portfolio and new assets.",
          entry: { type: "showPage", params: { page: "o3" } },
          on: {
            "page.opened": [
              // The choice's page opened (the browser's back button): the machine goes back to it.
              {
                guard: { type: "pageIs", params: { page: "choose" } },
                target: "#optimise.choose",
                actions: ["openPage", "clearOutcome", assign({ level: null })],
              },
              { actions: ["openPage", { type: "showPage", params: { page: "o3" } }] },
            ],
            "newAsset.add": { actions: "addNewAsset" },
            "newAsset.remove": { actions: "removeNewAsset" },
            "keep.toggle": { actions: "toggleKeep" },
            "keepWeight.change": { actions: "setKeepWeight" },
            "desired.change": { actions: "setDesired" },
          },
        },
      },
    },
    optimising: {
      description: "The optimiser runs on the server; it can be cancelled.",
      invoke: {
        id: "optimise",
        src: "optimise",
        input: ({ context }) => requestOf(context),
        onDone: [
          {
            guard: { type: "isOptimal", params: ({ event }) => ({ output: event.output }) },
            target: "summary",
            actions: assign({
              optimizedPortfolio: ({ event }) => event.output as OptimalAnswer,
              resultKey: ({ context }) => context.portfolio.key,
            }),
          },
          {
            target: "returning",
            actions: assign({
              infeasible: ({ event }) =>
                event.output.status === "infeasible" ? event.output.reason : null,
            }),
          },
        ],
        onError: {
          target: "returning",
          actions: assign({ error: ({ event }) => failureOf(event.error) }),
        },
      },
      on: {
        "optimisation.cancel": "returning",
        // The portfolio changed while optimising: start again on the new composition.
        "portfolio.change": {
          guard: "portfolioChanged",
          target: "optimising",
          reenter: true,
          actions: "setPortfolio",
        },
      },
    },
    returning: {
      always: [
        { guard: { type: "atLevel", params: { level: 1 } }, target: "options.o1" },
        { guard: { type: "atLevel", params: { level: 2 } }, target: "options.o2" },
        { target: "options.o3" },
      ],
    },
    summary: {
      description: "Current and optimised side by side, with the efficient frontier.",
      entry: { type: "showPage", params: { page: "summary" } },
      on: {
        "page.opened": {
          actions: ["openPage", { type: "showPage", params: { page: "summary" } }],
        },
        "portfolio.change": {
          guard: "portfolioChanged",
          target: "stale",
          actions: "setPortfolio",
        },
        "result.adopt": { guard: "resultCurrent", target: "adopting", actions: "clearOutcome" },
        "step.back": "returning",
        "optimisation.restart": { target: "choose", actions: ["clearOutcome", "startOver"] },
      },
    },
    stale: {
      description:
        "The portfolio changed after the optimisation: the result is shown as outdated and cannot be adopted.",
      entry: { type: "showPage", params: { page: "summary" } },
      on: {
        "page.opened": {
          actions: ["openPage", { type: "showPage", params: { page: "summary" } }],
        },
        "optimisation.run": [
          { guard: "canOptimise", target: "optimising", actions: "clearOutcome" },
          { actions: "reportViolations" },
        ],
        "step.back": "returning",
        "optimisation.restart": { target: "choose", actions: ["clearOutcome", "startOver"] },
      },
    },
    adopting: {
      description:
        "The optimised amounts go to the creation summary or to an edition of the saved portfolio.",
      entry: { type: "showPage", params: { page: "summary" } },
      on: {
        "page.opened": {
          actions: ["openPage", { type: "showPage", params: { page: "summary" } }],
        },
      },
      invoke: {
        id: "adopt",
        src: "adopt",
        input: ({ context }) => ({
          answer: context.optimizedPortfolio!,
          portfolio: context.portfolio,
        }),
        onDone: "adopted",
        onError: {
          target: "summary",
          actions: assign({ error: ({ event }) => failureOf(event.error) }),
        },
      },
    },
    adopted: { type: "final", entry: "showAdopted" },
  },
});
