import { assertEvent, assign, enqueueActions, fromPromise, setup, type EventObject } from "xstate";
import type { Benchmark as BenchmarkSchema, Currency } from "../src/contract/analytics.ts";
import type { Product } from "../src/contract/common.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import type { ProductPermissions } from "../src/contract/permissions.ts";
import {
  compositionProblem,
  CURRENCY_UNDEFINED_MESSAGE,
  DEFAULT_BOUNDS,
  DEFAULT_CURRENCY,
  editProblem,
  keptAmounts,
  requireCurrency,
  saveProblem,
  type Composition,
  type CompositionProblem,
  type EditProblem,
  type InvestmentBounds,
  type SaveProblem,
} from "../src/contract/portfolio-rules.ts";
import type {
  Portfolio,
  SavePortfolioRequest,
  UpdatePortfolioRequest,
  WizardAnswers,
} from "../src/contract/portfolios.ts";
import { SessionFailure } from "./session.machine.ts";

export type MonkeyRegion = "eu" | "usa";
type Benchmark = typeof BenchmarkSchema.Type;

/** An asset of a portfolio being composed or edited. */
export interface DraftAsset {
  readonly id: string;
  readonly name: string;
  readonly investedAmount: number;
}

/** A composed portfolio not saved yet (the wizard's output), or the amounts of an edition. */
export interface PortfolioDraft {
  /** Null or absent: "Portfolio Currency is undefined" (section 8). */
  readonly currency: Currency | null | undefined;
  readonly benchmark?: Benchmark;
  readonly maxAssetsLevel: number | null;
  readonly monkeyRegion?: MonkeyRegion | null;
  readonly answers?: WizardAnswers | null;
  readonly assets: readonly DraftAsset[];
}

/** The draft edits of the summary and of an edition (section 4), shared with the wizard. */
export type DraftEvent =
  | { type: "amount.change"; id: string; investedAmount: number }
  | { type: "asset.add"; id: string; name: string; investedAmount?: number }
  | { type: "asset.remove"; id: string };

/** Section 4: an amount of zero or less removes the asset. */
export function withAmount(
  assets: readonly DraftAsset[],
  id: string,
  investedAmount: number,
): DraftAsset[] {
  if (!(investedAmount > 0)) return assets.filter((a) => a.id !== id);
  return assets.map((a) => (a.id === id ? { ...a, investedAmount } : a));
}

/**
 * Adds an asset. Without an amount it joins at 0, a row waiting for its amount that the zero rule
 * leaves out of every count and request; with an amount of zero or less it is removed (section 4).
 */
export function withAsset(
  assets: readonly DraftAsset[],
  asset: { id: string; name: string; investedAmount?: number },
): DraftAsset[] {
  const present = assets.some((a) => a.id === asset.id);
  if (asset.investedAmount === undefined)
    return present
      ? [...assets]
      : [...assets, { id: asset.id, name: asset.name, investedAmount: 0 }];
  if (!(asset.investedAmount > 0)) return assets.filter((a) => a.id !== asset.id);
  const added = { id: asset.id, name: asset.name, investedAmount: asset.investedAmount };
  return present ? assets.map((a) => (a.id === asset.id ? added : a)) : [...assets, added];
}

/**
 * Section 4, resetting invested assets: the chosen assets (or all, without ids) go to 0. They stay
 * listed so that the user can type new amounts; whatever is still 0 is removed on submit (zero rule).
 */
export function withReset(
  assets: readonly DraftAsset[],
  ids: readonly string[] | undefined,
): DraftAsset[] {
  return assets.map((a) => (!ids || ids.includes(a.id) ? { ...a, investedAmount: 0 } : a));
}

export function applyDraftEvent(assets: readonly DraftAsset[], event: DraftEvent): DraftAsset[] {
  switch (event.type) {
    case "amount.change":
      return withAmount(assets, event.id, event.investedAmount);
    case "asset.add":
      return withAsset(assets, event);
    case "asset.remove":
      return assets.filter((a) => a.id !== event.id);
  }
}

/** The assets a request carries: the zero rule applied. */
export function keptAssets(assets: readonly DraftAsset[]): DraftAsset[] {
  return assets.filter((a) => keptAmounts([a.investedAmount]).length > 0);
}

/** The draft of an edition: the saved portfolio's holdings, flattened from their groups. */
export function draftOf(portfolio: Portfolio): PortfolioDraft {
  return {
    currency: portfolio.currency,
    benchmark: portfolio.benchmark,
    maxAssetsLevel: portfolio.maxAssetsLevel,
    monkeyRegion: portfolio.monkeyRegion,
    answers: portfolio.answers,
    assets: portfolio.assets.flatMap((g) =>
      g.assets.map((a) => ({ id: a.id, name: a.name, investedAmount: a.investedAmount })),
    ),
  };
}

export function compositionOf(product: Product, draft: PortfolioDraft): Composition {
  return {
    product,
    currency: draft.currency,
    maxAssetsLevel: draft.maxAssetsLevel,
    amounts: draft.assets.map((a) => a.investedAmount),
  };
}

/** The save request of a draft; a draft without a currency raises "Portfolio Currency is undefined". */
export function saveRequestOf(draft: PortfolioDraft, name: string): SavePortfolioRequest {
  return {
    name,
    currency: requireCurrency(draft.currency),
    ...(draft.benchmark === undefined ? {} : { benchmark: draft.benchmark }),
    maxAssetsLevel: draft.maxAssetsLevel,
    monkeyRegion: draft.monkeyRegion ?? null,
    answers: draft.answers ?? null,
    assets: keptAssets(draft.assets).map(({ id, investedAmount }) => ({ id, investedAmount })),
  };
}

/** The edition request, at the version the portfolio was read at (a newer one answers 412). */
export function updateRequestOf(
  portfolio: Portfolio,
  draft: PortfolioDraft,
): UpdatePortfolioRequest {
  requireCurrency(draft.currency);
  return {
    version: portfolio.version,
    assets: keptAssets(draft.assets).map(({ id, investedAmount }) => ({ id, investedAmount })),
  };
}

/** The msgCode of a failed call (the app turns API failures into SessionFailure). */
export function portfolioErrorOf(error: unknown): MsgCode {
  if (error instanceof SessionFailure) return error.msgCode;
  if (error instanceof Error && error.message === CURRENCY_UNDEFINED_MESSAGE)
    return "CURRENCY_UNDEFINED";
  return "INTERNAL_ERROR";
}

export type LifecycleProblem =
  SaveProblem | EditProblem | CompositionProblem | "DELETE_FORBIDDEN" | "EXPORT_FORBIDDEN";

export type ExportFormat = "csv" | "pdf";

/** The lifecycle's page: a saved portfolio's own page (the route `account-portfolio`). */
export type LifecyclePage = "portfolio";

/** The abstract navigation the app provides: take the person to this route. */
type FollowAction = { type: "follow"; params: { route: "account-portfolios" } };

export type PortfolioLifecycleEvent =
  /** The portfolio's page opened: what the machine does next may move it. */
  | { type: "page.opened"; page: LifecyclePage }
  /** The person left it: what the machine does next moves no page. */
  | { type: "page.left" }
  | { type: "portfolio.save"; name: string }
  | { type: "edit.start" }
  | { type: "portfolio.delete" }
  | { type: "portfolio.export"; format: ExportFormat }
  | DraftEvent
  | { type: "edit.reset"; ids?: readonly string[] }
  | { type: "edit.submit" }
  | { type: "edit.cancel" }
  | { type: "conflict.reload" }
  | { type: "conflict.discard" };

export interface PortfolioLifecycleInput {
  readonly product: Product;
  readonly permissions: ProductPermissions;
  /** Portfolios of the product already saved (for simMonk: in the draft's region). */
  readonly savedCount: number;
  readonly bounds?: InvestmentBounds;
  /** A saved portfolio opened from my portfolios: the lifecycle starts in `saved`. */
  readonly portfolio?: Portfolio | null;
  /** A composed portfolio not saved yet (the wizard's output). */
  readonly draft?: PortfolioDraft | null;
}

export interface PortfolioLifecycleContext {
  readonly product: Product;
  readonly permissions: ProductPermissions;
  readonly bounds: InvestmentBounds;
  readonly savedCount: number;
  /** The server's portfolio, once saved or loaded. */
  readonly portfolio: Portfolio | null;
  /** Unsaved: the composed portfolio; editing: the amounts being changed; else null. */
  readonly draft: PortfolioDraft | null;
  readonly name: string | null;
  readonly saved: boolean;
  /** Section 4: set once this client has saved a portfolio (the lifecycle's creation is over). */
  readonly clientPortfolioCreated: boolean;
  /** A rule that refused the last request, for the screen to explain. */
  readonly problem: LifecycleProblem | null;
  /** The msgCode of the last failed call. */
  readonly error: MsgCode | null;
  /** The lifecycle's page the person is on; null when none is open. */
  readonly page: LifecyclePage | null;
}

const emptyDraft: PortfolioDraft = { currency: DEFAULT_CURRENCY, maxAssetsLevel: null, assets: [] };

function saveProblemOf(c: PortfolioLifecycleContext): SaveProblem | null {
  return saveProblem(
    {
      product: c.product,
      saved: c.saved,
      savedCount: c.savedCount,
      monkeyRegion: c.draft?.monkeyRegion ?? null,
    },
    c.permissions,
  );
}

function editProblemOf(
  c: PortfolioLifecycleContext,
  portfolio: Portfolio | null,
): EditProblem | null {
  if (!portfolio) return "EDIT_FORBIDDEN";
  const draft = c.draft ?? draftOf(portfolio);
  return editProblem(
    portfolio.remainingEditions,
    compositionOf(c.product, { ...draft, maxAssetsLevel: portfolio.maxAssetsLevel }),
    c.permissions,
    c.bounds,
  );
}

/** Starting an edition: only the first two rules of editProblem (the composition is checked on submit). */
const startsEdition = (problem: EditProblem | null) =>
  problem !== "EDIT_FORBIDDEN" && problem !== "NO_EDITIONS_LEFT";

/**
 * The lifecycle of one portfolio (specification sections 4, 5 and 6): new unsaved, then saved
 * (`saved` and `clientPortfolioCreated` true), then editions while remainingEditions is null or
 * above 0, with optimistic concurrency (a 412 PORTFOLIO_CONFLICT offers a reload). Every call is an
 * abstract actor; the guards call the rule functions the server enforces again.
 */
export const portfolioLifecycleMachine = setup({
  types: {
    input: {} as PortfolioLifecycleInput,
    context: {} as PortfolioLifecycleContext,
    events: {} as PortfolioLifecycleEvent,
  },
  actors: {
    savePortfolio: fromPromise<Portfolio, SavePortfolioRequest>(async () => {
      throw new Error("savePortfolio must be provided");
    }),
    updatePortfolio: fromPromise<Portfolio, { id: number; request: UpdatePortfolioRequest }>(
      async () => {
        throw new Error("updatePortfolio must be provided");
      },
    ),
    loadPortfolio: fromPromise<Portfolio, { id: number }>(async () => {
      throw new Error("loadPortfolio must be provided");
    }),
    deletePortfolio: fromPromise<void, { id: number }>(async () => {
      throw new Error("deletePortfolio must be provided");
    }),
    /** Downloads the file (the app hands it to the browser). */
    exportPortfolio: fromPromise<void, { id: number; format: ExportFormat }>(async () => {
      throw new Error("exportPortfolio must be provided");
    }),
    /**
     * A save is answered once committed and its first valuation follows: the portfolio read again
     * until it has one (null: none came, or none is needed). Without an API, nothing to wait for.
     */
    awaitValuation: fromPromise<Portfolio | null, { id: number; valued: boolean }>(
      async () => null,
    ),
  },
  actions: {
    /** Takes the person to a route of the app (provided by the app: the URL follows the machine). */
    follow: (_, _params: FollowAction["params"]) => {
      throw new Error("follow must be provided");
    },
    /** Deleted from its own page: the person goes to my portfolios (a new history entry). */
    showPortfolios: enqueueActions<
      PortfolioLifecycleContext,
      PortfolioLifecycleEvent,
      undefined,
      PortfolioLifecycleEvent,
      never,
      FollowAction,
      never,
      never,
      EventObject
    >(({ context, enqueue }) => {
      if (context.page === "portfolio")
        enqueue({ type: "follow", params: { route: "account-portfolios" } });
    }),
    reportSaveProblem: assign({ problem: ({ context }) => saveProblemOf(context) }),
    reportEditProblem: assign({
      problem: ({ context }) => editProblemOf(context, context.portfolio),
    }),
    reportCompositionProblem: assign({
      problem: ({ context }) =>
        compositionProblem(
          compositionOf(context.product, context.draft ?? emptyDraft),
          context.permissions,
          context.bounds,
        ),
    }),
    editDraft: assign({
      draft: ({ context, event }) => {
        assertEvent(event, ["amount.change", "asset.add", "asset.remove", "edit.reset"]);
        const draft = context.draft ?? emptyDraft;
        const assets =
          event.type === "edit.reset"
            ? withReset(draft.assets, event.ids)
            : applyDraftEvent(draft.assets, event);
        return { ...draft, assets };
      },
      problem: null,
      error: null,
    }),
  },
  guards: {
    hasSavedPortfolio: ({ context }) => context.portfolio !== null,
    canSave: ({ context }) => saveProblemOf(context) === null,
    draftComposable: ({ context }) =>
      compositionProblem(
        compositionOf(context.product, context.draft ?? emptyDraft),
        context.permissions,
        context.bounds,
      ) === null,
    canEdit: ({ context }, params: { portfolio: Portfolio | null }) =>
      startsEdition(editProblemOf({ ...context, draft: null }, params.portfolio)),
    canSubmit: ({ context }) => editProblemOf(context, context.portfolio) === null,
    canDelete: ({ context }) => context.permissions.management.delete,
    canExport: ({ context }) => context.permissions.management.export,
    valuationArrived: ({ context, event }) => {
      const read = (event as unknown as { output: Portfolio | null }).output;
      return read !== null && read.valuation !== null && read.id === context.portfolio?.id;
    },
    isConflict: (_, params: { error: unknown }) =>
      portfolioErrorOf(params.error) === "PORTFOLIO_CONFLICT",
  },
}).createMachine({
  id: "portfolioLifecycle",
  description: "Save, edit, export and delete one portfolio (specification sections 4, 5 and 6).",
  context: ({ input }) => ({
    product: input.product,
    permissions: input.permissions,
    bounds: input.bounds ?? DEFAULT_BOUNDS,
    savedCount: input.savedCount,
    portfolio: input.portfolio ?? null,
    draft: input.portfolio ? null : (input.draft ?? null),
    name: input.portfolio?.name ?? null,
    saved: input.portfolio?.saved ?? false,
    clientPortfolioCreated: false,
    problem: null,
    error: null,
    page: null,
  }),
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
  },
  initial: "opening",
  states: {
    opening: {
      always: [{ guard: "hasSavedPortfolio", target: "saved" }, { target: "unsaved" }],
    },
    unsaved: {
      description:
        "A composed portfolio that is not saved yet; its amounts can still change (e.g. an optimised portfolio adopted).",
      on: {
        "amount.change": { actions: "editDraft" },
        "asset.add": { actions: "editDraft" },
        "asset.remove": { actions: "editDraft" },
        "portfolio.save": [
          {
            guard: "canSave",
            target: "checkingDraft",
            actions: assign({ name: ({ event }) => event.name, problem: null, error: null }),
          },
          { actions: "reportSaveProblem" },
        ],
      },
    },
    checkingDraft: {
      always: [
        { guard: "draftComposable", target: "saving" },
        { target: "unsaved", actions: "reportCompositionProblem" },
      ],
    },
    saving: {
      invoke: {
        id: "savePortfolio",
        src: "savePortfolio",
        input: ({ context }) => saveRequestOf(context.draft ?? emptyDraft, context.name ?? ""),
        onDone: {
          target: "saved",
          actions: assign(({ context, event }) => ({
            portfolio: event.output,
            draft: null,
            saved: true,
            clientPortfolioCreated: true,
            savedCount: context.savedCount + 1,
          })),
        },
        // A failed save changes nothing: still unsaved, the count as it was.
        onError: {
          target: "unsaved",
          actions: assign({ error: ({ event }) => portfolioErrorOf(event.error) }),
        },
      },
    },
    saved: {
      invoke: {
        id: "awaitValuation",
        src: "awaitValuation",
        input: ({ context }) => ({
          id: context.portfolio!.id,
          valued: context.portfolio!.valuation !== null,
        }),
        onDone: {
          guard: "valuationArrived",
          // Only the valuation: the rest of the portfolio is what this machine last saw.
          actions: assign({
            portfolio: ({ context, event }) => ({
              ...context.portfolio!,
              valuation: event.output!.valuation,
            }),
          }),
        },
      },
      on: {
        "edit.start": [
          {
            guard: { type: "canEdit", params: ({ context }) => ({ portfolio: context.portfolio }) },
            target: "editing",
            actions: assign({
              draft: ({ context }) => draftOf(context.portfolio!),
              problem: null,
              error: null,
            }),
          },
          { actions: "reportEditProblem" },
        ],
        "portfolio.delete": [
          {
            guard: "canDelete",
            target: "deleting",
            actions: assign({ problem: null, error: null }),
          },
          { actions: assign({ problem: "DELETE_FORBIDDEN" }) },
        ],
        "portfolio.export": [
          {
            guard: "canExport",
            target: "exporting",
            actions: assign({ problem: null, error: null }),
          },
          { actions: assign({ problem: "EXPORT_FORBIDDEN" }) },
        ],
        // Saving twice is refused by the same rule (ALREADY_SAVED).
        "portfolio.save": { actions: "reportSaveProblem" },
      },
    },
    exporting: {
      invoke: {
        id: "exportPortfolio",
        src: "exportPortfolio",
        input: ({ context, event }) => {
          assertEvent(event, "portfolio.export");
          return { id: context.portfolio!.id, format: event.format };
        },
        onDone: "saved",
        onError: {
          target: "saved",
          actions: assign({ error: ({ event }) => portfolioErrorOf(event.error) }),
        },
      },
    },
    deleting: {
      invoke: {
        id: "deletePortfolio",
        src: "deletePortfolio",
        input: ({ context }) => ({ id: context.portfolio!.id }),
        onDone: {
          target: "deleted",
          actions: assign(({ context }) => ({
            portfolio: null,
            draft: null,
            savedCount: Math.max(0, context.savedCount - 1),
          })),
        },
        onError: {
          target: "saved",
          actions: assign({ error: ({ event }) => portfolioErrorOf(event.error) }),
        },
      },
    },
    deleted: { type: "final", entry: "showPortfolios" },
    editing: {
      description:
        "An edition: amounts change locally (zero or less removes; reset sets chosen or all to 0). Optimising a saved portfolio starts one too: the optimisation routes need a creation or edition under way (portfolio-creation), and adopting the result submits it.",
      on: {
        "amount.change": { actions: "editDraft" },
        "asset.add": { actions: "editDraft" },
        "asset.remove": { actions: "editDraft" },
        "edit.reset": { actions: "editDraft" },
        "edit.submit": [
          {
            guard: "canSubmit",
            target: "updating",
            actions: assign({ problem: null, error: null }),
          },
          { actions: "reportEditProblem" },
        ],
        "edit.cancel": {
          target: "saved",
          actions: assign({ draft: null, problem: null, error: null }),
        },
      },
    },
    updating: {
      invoke: {
        id: "updatePortfolio",
        src: "updatePortfolio",
        input: ({ context }) => ({
          id: context.portfolio!.id,
          request: updateRequestOf(context.portfolio!, context.draft!),
        }),
        onDone: {
          target: "saved",
          actions: assign({ portfolio: ({ event }) => event.output, draft: null }),
        },
        onError: [
          {
            guard: { type: "isConflict", params: ({ event }) => ({ error: event.error }) },
            target: "conflict",
            actions: assign({ error: "PORTFOLIO_CONFLICT" }),
          },
          {
            target: "editing",
            actions: assign({ error: ({ event }) => portfolioErrorOf(event.error) }),
          },
        ],
      },
    },
    conflict: {
      description: "The portfolio changed elsewhere since it was read (412 PORTFOLIO_CONFLICT).",
      on: {
        "conflict.reload": { target: "reloading", actions: assign({ error: null }) },
        "conflict.discard": { target: "saved", actions: assign({ draft: null, error: null }) },
      },
    },
    reloading: {
      invoke: {
        id: "loadPortfolio",
        src: "loadPortfolio",
        input: ({ context }) => ({ id: context.portfolio!.id }),
        onDone: [
          // The fresh version may have used the last edition: then it is shown, not edited.
          {
            guard: { type: "canEdit", params: ({ event }) => ({ portfolio: event.output }) },
            target: "editing",
            actions: assign({
              portfolio: ({ event }) => event.output,
              draft: ({ event }) => draftOf(event.output),
            }),
          },
          {
            target: "saved",
            actions: [
              assign({ portfolio: ({ event }) => event.output, draft: null }),
              "reportEditProblem",
            ],
          },
        ],
        onError: {
          target: "conflict",
          actions: assign({ error: ({ event }) => portfolioErrorOf(event.error) }),
        },
      },
    },
  },
});
