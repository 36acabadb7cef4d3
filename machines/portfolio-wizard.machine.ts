import { assertEvent, assign, enqueueActions, fromPromise, setup, type EventObject } from "xstate";
import type { Currency } from "../src/contract/analytics.ts";
import type { Edition, Product } from "../src/contract/common.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import type { ProductPermissions } from "../src/contract/permissions.ts";
import {
  compositionProblem,
  DEFAULT_BOUNDS,
  DEFAULT_CURRENCY,
  lazyTotalAllowed,
  meetsMinimumDesiredRisk,
  offeredAssetLevels,
  orderingAllowed,
  requireCurrency,
  type CompositionProblem,
  type InvestmentBounds,
  type Ordering,
} from "../src/contract/portfolio-rules.ts";
import type {
  LazyPortfolioId,
  ProposeRequest,
  ProposeResponse,
  WizardAnswers,
} from "../src/contract/portfolios.ts";
import {
  applyDraftEvent,
  compositionOf,
  keptAssets,
  portfolioErrorOf,
  type DraftAsset,
  type DraftEvent,
  type PortfolioDraft,
} from "./portfolio-lifecycle.machine.ts";

/** The answers as the questions are being filled in (PRODUCT.md, "The three questions"). */
export interface WizardDraftAnswers {
  /** q1: exchanges (simAssets) or asset classes (simIndices); empty = all. */
  readonly universe: readonly string[];
  /** q1: null is "Portfolio Currency is undefined" (section 8). */
  readonly currency: Currency | null;
  /** q1: the amount to invest, within the min and max investment. */
  readonly amount: number | null;
  /** q2: the loss at 95% over a month the investor could bear, as an amount (null: not said). */
  readonly maxToLose95: number | null;
  readonly ordering: Ordering;
  readonly maxAssetsLevel: number;
  /** q1 in the `tt` edition: start from a lazy portfolio instead (skips q2 and q3). */
  readonly lazyPortfolio: LazyPortfolioId | null;
}

/** Why the current step cannot go on, for the screen to explain. */
export type WizardProblem =
  | CompositionProblem
  | "LAZY_NOT_ALLOWED"
  | "MAX_TO_LOSE_NOT_POSITIVE"
  | "ORDERING_NOT_ALLOWED"
  | "ASSET_LEVEL_NOT_OFFERED";

/** The wizard's pages: a step of the wizard, each a route of the app. */
export type WizardPage = "q1" | "q2" | "q3" | "summary";

/** The route (its key in the app's route table) of each page. */
export const wizardRoutes = {
  q1: "create-q1",
  q2: "create-q2",
  q3: "create-q3",
  summary: "create-summary",
} as const satisfies Record<WizardPage, string>;

export type WizardRoute = (typeof wizardRoutes)[WizardPage];

/**
 * The abstract navigation the app provides: take the person to this route (a step's page, or my
 * portfolios once the creation is discarded).
 */
type FollowAction = { type: "follow"; params: { route: WizardRoute | "account-portfolios" } };

export type PortfolioWizardEvent =
  /**
   * A page of the wizard opened (a link, a reload, the browser's back or forward button): an
   * earlier step steps the machine back to it, a later one is sent back to the machine's step.
   */
  | { type: "page.opened"; page: WizardPage }
  /** The person left the wizard's pages: what the machine does next moves no page. */
  | { type: "page.left" }
  | {
      type: "q1.change";
      answers: Partial<
        Pick<WizardDraftAnswers, "universe" | "currency" | "amount" | "lazyPortfolio">
      >;
    }
  /** q2: the UI may give a percentage of the amount; it is kept as an amount. */
  | { type: "q2.change"; maxToLose95: number | null; unit?: "amount" | "percent" }
  | { type: "q3.change"; answers: Partial<Pick<WizardDraftAnswers, "ordering" | "maxAssetsLevel">> }
  | { type: "step.next" }
  | { type: "step.back" }
  | DraftEvent
  | { type: "portfolio.save" }
  /** The person discards the creation: the answers and the proposal are dropped, nothing is saved. */
  | { type: "creation.cancel" };

export interface PortfolioWizardInput {
  readonly product: Product;
  readonly edition: Edition;
  readonly permissions: ProductPermissions;
  readonly bounds?: InvestmentBounds;
  readonly currency?: Currency | null;
  /** Answers to start from (e.g. those of a portfolio created before). */
  readonly answers?: Partial<WizardDraftAnswers>;
}

export interface PortfolioWizardContext {
  readonly product: Product;
  readonly edition: Edition;
  readonly permissions: ProductPermissions;
  readonly bounds: InvestmentBounds;
  readonly answers: WizardDraftAnswers;
  /** Section 5: maxToLose95 below the minimum desired risk is explained, not changed. */
  readonly maxToLoseBelowMinimum: boolean;
  /** The proposal came by the lazy-portfolio route (q2 and q3 skipped). */
  readonly viaLazyPortfolio: boolean;
  /** autoCreate held when the proposal was asked for: the engine chose the weights. */
  readonly autoCreated: boolean;
  readonly proposal: ProposeResponse | null;
  /** The summary's assets, as adjusted by the user. */
  readonly assets: readonly DraftAsset[];
  readonly problem: WizardProblem | null;
  /** The msgCode of a failed proposal. */
  readonly error: MsgCode | null;
  /** The composed portfolio handed to the lifecycle machine (also the output of `done`). */
  readonly portfolio: PortfolioDraft | null;
  /** The wizard's page the person is on; null when none is open (the wizard moves no page). */
  readonly page: WizardPage | null;
}

/** The currency of the wizard's portfolio; raises "Portfolio Currency is undefined" without one. */
export function wizardCurrency(context: Pick<PortfolioWizardContext, "answers">): Currency {
  return requireCurrency(context.answers.currency);
}

export function maxToLoseBelowMinimum(answers: WizardDraftAnswers): boolean {
  const { maxToLose95, amount, currency } = answers;
  if (maxToLose95 === null || !(maxToLose95 > 0) || amount === null || currency === null)
    return false;
  return !meetsMinimumDesiredRisk(maxToLose95, amount, currency);
}

/** The answers as the contract has them; the lazy route leaves q2 and q3 at their defaults. */
export function answersOf(context: PortfolioWizardContext): WizardAnswers {
  const a = context.answers;
  return {
    universe: [...a.universe],
    amount: a.amount ?? 0,
    maxToLose95: context.viaLazyPortfolio ? null : a.maxToLose95,
    ordering: a.ordering,
    maxAssetsLevel: a.maxAssetsLevel,
    lazyPortfolio: context.viaLazyPortfolio ? a.lazyPortfolio : null,
  };
}

export function proposeRequestOf(context: PortfolioWizardContext): ProposeRequest {
  return { currency: wizardCurrency(context), answers: answersOf(context) };
}

/** The portfolio the summary composed: kept assets only (zero rule). */
export function composedPortfolioOf(context: PortfolioWizardContext): PortfolioDraft {
  return {
    currency: wizardCurrency(context),
    maxAssetsLevel: context.answers.maxAssetsLevel,
    answers: answersOf(context),
    assets: keptAssets(context.assets),
  };
}

const summaryDraft = (context: PortfolioWizardContext): PortfolioDraft => ({
  currency: context.answers.currency,
  maxAssetsLevel: context.answers.maxAssetsLevel,
  assets: context.assets,
});

const amountProblem = (c: PortfolioWizardContext): WizardProblem =>
  c.answers.amount !== null && c.answers.amount > c.bounds.max ? "TOTAL_TOO_HIGH" : "TOTAL_TOO_LOW";

/**
 * The creation wizard (PRODUCT.md, "The three questions"; specification sections 5 and 9): q1 what
 * and how much, q2 the loss at 95% the investor could bear, q3 ordering and number of assets, then
 * the engine's proposal, adjusted in the summary. In the `tt` edition a lazy portfolio goes from q1
 * straight to the proposal. The proposal is an abstract actor (`propose`).
 */
export const portfolioWizardMachine = setup({
  types: {
    input: {} as PortfolioWizardInput,
    context: {} as PortfolioWizardContext,
    events: {} as PortfolioWizardEvent,
    output: {} as PortfolioDraft | null,
  },
  actors: {
    propose: fromPromise<ProposeResponse, ProposeRequest>(async () => {
      throw new Error("propose must be provided");
    }),
  },
  actions: {
    /** Takes the person to a route of the app (provided by the app: the URL follows the machine). */
    follow: (_, _params: FollowAction["params"]) => {
      throw new Error("follow must be provided");
    },
    /**
     * On entering a step: when the person is on another of the wizard's pages, takes them to this
     * step's page (a new history entry). Nobody on the wizard's pages: nothing moves.
     */
    showPage: enqueueActions<
      PortfolioWizardContext,
      PortfolioWizardEvent,
      { page: WizardPage },
      PortfolioWizardEvent,
      never,
      FollowAction,
      never,
      never,
      EventObject
    >(({ context, enqueue }, { page }) => {
      if (context.page === null || context.page === page) return;
      enqueue({ type: "follow", params: { route: wizardRoutes[page] } });
      enqueue.assign({ page });
    }),
    /**
     * The creation discarded from one of its pages: the person goes to my portfolios (a new history
     * entry). Nobody on the wizard's pages: nothing moves.
     */
    showPortfolios: enqueueActions<
      PortfolioWizardContext,
      PortfolioWizardEvent,
      undefined,
      PortfolioWizardEvent,
      never,
      FollowAction,
      never,
      never,
      EventObject
    >(({ context, enqueue }) => {
      if (context.page === null) return;
      enqueue({ type: "follow", params: { route: "account-portfolios" } });
      enqueue.assign({ page: null });
    }),
    openPage: assign({
      page: ({ event }) => {
        assertEvent(event, "page.opened");
        return event.page;
      },
    }),
    leavePage: assign({ page: null }),
    clearProblem: assign({ problem: null, error: null }),
    editAssets: assign({
      assets: ({ context, event }) => {
        assertEvent(event, ["amount.change", "asset.add", "asset.remove"]);
        return applyDraftEvent(context.assets, event);
      },
      problem: null,
    }),
  },
  guards: {
    /** The page opened is this step's. */
    pageIs: ({ event }, params: { page: WizardPage }) => {
      assertEvent(event, "page.opened");
      return event.page === params.page;
    },
    /** A page before the summary opened on a lazy portfolio's summary (q2 and q3 were skipped). */
    lazyPageBeforeSummary: ({ context, event }) => {
      assertEvent(event, "page.opened");
      return context.viaLazyPortfolio && event.page !== "summary";
    },
    currencyDefined: ({ context }) =>
      context.answers.currency === "EUR" || context.answers.currency === "USD",
    amountWithinBounds: ({ context }) => {
      const amount = context.answers.amount;
      return amount !== null && amount > context.bounds.min && amount <= context.bounds.max;
    },
    lazyPortfoliosAllowed: ({ context }) =>
      context.answers.lazyPortfolio !== null &&
      context.edition === "tt" &&
      context.permissions.construction.lazyPortfolios,
    lazyPortfolioChosen: ({ context }) => context.answers.lazyPortfolio !== null,
    // The total of a lazy portfolio is the amount of q1.
    lazyTotalAllowed: ({ context }) =>
      lazyTotalAllowed(context.answers.amount ?? 0, context.bounds),
    maxToLoseValid: ({ context }) =>
      context.answers.maxToLose95 === null || context.answers.maxToLose95 > 0,
    orderingAllowed: ({ context }) =>
      orderingAllowed(context.answers.ordering, context.permissions),
    assetLevelOffered: ({ context }) =>
      offeredAssetLevels(context.permissions).some(
        (l) => l.level === context.answers.maxAssetsLevel,
      ),
    autoCreate: ({ context }) => context.permissions.construction.autoCreate,
    viaLazyPortfolio: ({ context }) => context.viaLazyPortfolio,
    composable: ({ context }) =>
      compositionProblem(
        compositionOf(context.product, summaryDraft(context)),
        context.permissions,
        context.bounds,
      ) === null,
  },
}).createMachine({
  id: "portfolioWizard",
  description: "The creation wizard q1 -> q2 -> q3 -> summary (PRODUCT.md, the three questions).",
  context: ({ input }) => {
    const answers: WizardDraftAnswers = {
      universe: [],
      amount: null,
      maxToLose95: null,
      ordering: "balanced",
      maxAssetsLevel: 1,
      lazyPortfolio: null,
      ...input.answers,
      currency:
        input.answers?.currency !== undefined
          ? input.answers.currency
          : input.currency !== undefined
            ? input.currency
            : DEFAULT_CURRENCY,
    };
    return {
      product: input.product,
      edition: input.edition,
      permissions: input.permissions,
      bounds: input.bounds ?? DEFAULT_BOUNDS,
      answers,
      maxToLoseBelowMinimum: maxToLoseBelowMinimum(answers),
      viaLazyPortfolio: false,
      autoCreated: false,
      proposal: null,
      assets: [],
      problem: null,
      error: null,
      portfolio: null,
      page: null,
    };
  },
  output: ({ context }) => context.portfolio,
  initial: "q1",
  on: { "creation.cancel": ".cancelled", "page.left": { actions: "leavePage" } },
  states: {
    q1: {
      description: "What to invest in, the currency and how much.",
      entry: { type: "showPage", params: { page: "q1" } },
      on: {
        "page.opened": { actions: ["openPage", { type: "showPage", params: { page: "q1" } }] },
        "q1.change": {
          actions: assign(({ context, event }) => {
            const answers = { ...context.answers, ...event.answers };
            return {
              answers,
              maxToLoseBelowMinimum: maxToLoseBelowMinimum(answers),
              problem: null,
              error: null,
            };
          }),
        },
        "step.next": [
          { guard: "currencyDefined", target: "checkingAmount", actions: "clearProblem" },
          { actions: assign({ problem: "CURRENCY_UNDEFINED" }) },
        ],
      },
    },
    checkingAmount: {
      always: [
        { guard: "amountWithinBounds", target: "checkingLazy" },
        { target: "q1", actions: assign({ problem: ({ context }) => amountProblem(context) }) },
      ],
    },
    checkingLazy: {
      always: [
        { guard: "lazyPortfoliosAllowed", target: "checkingLazyTotal" },
        {
          guard: "lazyPortfolioChosen",
          target: "q1",
          actions: assign({ problem: "LAZY_NOT_ALLOWED" }),
        },
        { target: "q2", actions: assign({ viaLazyPortfolio: false }) },
      ],
    },
    checkingLazyTotal: {
      always: [
        {
          guard: "lazyTotalAllowed",
          target: "proposing",
          actions: assign({ viaLazyPortfolio: true, autoCreated: false }),
        },
        { target: "q1", actions: assign({ problem: "TOTAL_TOO_HIGH" }) },
      ],
    },
    q2: {
      description: "The loss at 95% over a month the investor could bear.",
      entry: { type: "showPage", params: { page: "q2" } },
      on: {
        "page.opened": [
          {
            guard: { type: "pageIs", params: { page: "q1" } },
            target: "q1",
            actions: ["openPage", "clearProblem"],
          },
          { actions: ["openPage", { type: "showPage", params: { page: "q2" } }] },
        ],
        "q2.change": {
          actions: assign(({ context, event }) => {
            const value =
              event.maxToLose95 !== null && event.unit === "percent"
                ? Math.round((context.answers.amount ?? 0) * event.maxToLose95) / 100
                : event.maxToLose95;
            const answers = { ...context.answers, maxToLose95: value };
            return {
              answers,
              maxToLoseBelowMinimum: maxToLoseBelowMinimum(answers),
              problem: null,
            };
          }),
        },
        "step.next": [
          {
            guard: "maxToLoseValid",
            target: "q3",
            // Below the minimum desired risk the answer is kept and the flag explains it.
            actions: [
              "clearProblem",
              assign({
                maxToLoseBelowMinimum: ({ context }) => maxToLoseBelowMinimum(context.answers),
              }),
            ],
          },
          { actions: assign({ problem: "MAX_TO_LOSE_NOT_POSITIVE" }) },
        ],
        "step.back": { target: "q1", actions: "clearProblem" },
      },
    },
    q3: {
      description: "What matters most, and how many assets.",
      entry: { type: "showPage", params: { page: "q3" } },
      on: {
        "page.opened": [
          {
            guard: { type: "pageIs", params: { page: "q1" } },
            target: "q1",
            actions: ["openPage", "clearProblem"],
          },
          {
            guard: { type: "pageIs", params: { page: "q2" } },
            target: "q2",
            actions: ["openPage", "clearProblem"],
          },
          { actions: ["openPage", { type: "showPage", params: { page: "q3" } }] },
        ],
        "q3.change": {
          actions: assign({
            answers: ({ context, event }) => ({ ...context.answers, ...event.answers }),
            problem: null,
          }),
        },
        "step.next": [
          { guard: "orderingAllowed", target: "checkingAssetLevel", actions: "clearProblem" },
          { actions: assign({ problem: "ORDERING_NOT_ALLOWED" }) },
        ],
        "step.back": { target: "q2", actions: "clearProblem" },
      },
    },
    checkingAssetLevel: {
      always: [
        { guard: "assetLevelOffered", target: "checkingAutoCreate" },
        { target: "q3", actions: assign({ problem: "ASSET_LEVEL_NOT_OFFERED" }) },
      ],
    },
    checkingAutoCreate: {
      // Both propose: autoCreate only changes who weights the proposal (the server, which reads the
      // permission from the session), and the summary says so.
      always: [
        {
          guard: "autoCreate",
          target: "proposing",
          actions: assign({ viaLazyPortfolio: false, autoCreated: true }),
        },
        { target: "proposing", actions: assign({ viaLazyPortfolio: false, autoCreated: false }) },
      ],
    },
    proposing: {
      description: "The engine builds the proposed portfolio from the answers.",
      // The page is noted; the answer then takes the person on (to the summary, or back).
      on: { "page.opened": { actions: "openPage" } },
      invoke: {
        id: "propose",
        src: "propose",
        input: ({ context }) => proposeRequestOf(context),
        onDone: {
          target: "summary",
          actions: assign({
            proposal: ({ event }) => event.output,
            assets: ({ event }) =>
              event.output.assets.map((a) => ({
                id: a.symbol,
                name: a.name,
                investedAmount: a.investedAmount,
              })),
            problem: null,
            error: null,
          }),
        },
        onError: [
          {
            guard: "viaLazyPortfolio",
            target: "q1",
            actions: assign({ error: ({ event }) => portfolioErrorOf(event.error) }),
          },
          {
            target: "q3",
            actions: assign({ error: ({ event }) => portfolioErrorOf(event.error) }),
          },
        ],
      },
    },
    summary: {
      description: "The proposal, adjusted by the user (zero or less removes an asset).",
      entry: { type: "showPage", params: { page: "summary" } },
      on: {
        "page.opened": [
          { guard: "lazyPageBeforeSummary", target: "q1", actions: ["openPage", "clearProblem"] },
          {
            guard: { type: "pageIs", params: { page: "q1" } },
            target: "q1",
            actions: ["openPage", "clearProblem"],
          },
          {
            guard: { type: "pageIs", params: { page: "q2" } },
            target: "q2",
            actions: ["openPage", "clearProblem"],
          },
          {
            guard: { type: "pageIs", params: { page: "q3" } },
            target: "q3",
            actions: ["openPage", "clearProblem"],
          },
          { actions: ["openPage", { type: "showPage", params: { page: "summary" } }] },
        ],
        "amount.change": { actions: "editAssets" },
        "asset.add": { actions: "editAssets" },
        "asset.remove": { actions: "editAssets" },
        "step.back": [
          { guard: "viaLazyPortfolio", target: "q1", actions: "clearProblem" },
          { target: "q3", actions: "clearProblem" },
        ],
        "portfolio.save": [
          {
            guard: "composable",
            target: "done",
            actions: assign({
              portfolio: ({ context }) => composedPortfolioOf(context),
              problem: null,
            }),
          },
          {
            actions: assign({
              problem: ({ context }) =>
                compositionProblem(
                  compositionOf(context.product, summaryDraft(context)),
                  context.permissions,
                  context.bounds,
                ),
            }),
          },
        ],
      },
    },
    done: {
      description: "Composed: the portfolio goes to the lifecycle machine to be saved.",
      type: "final",
    },
    cancelled: {
      description:
        "The person discarded the creation (from any step): nothing is saved, its kept draft is dropped, and the person goes to my portfolios.",
      type: "final",
      entry: "showPortfolios",
    },
  },
});
