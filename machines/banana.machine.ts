import { assign, fromPromise, setup } from "xstate";
import {
  BANANA_MAX_ASSETS,
  BANANA_MIN_ASSETS,
  budgetProblem,
  holdingCents,
  editWindowOpen,
  type BananaList,
  type BananaPortfolio,
  type BananaUniverse,
  type CreateBananaRequest,
  type MonkeyRegion,
  type UpdateBananaRequest,
} from "../src/contract/banana.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import { SessionFailure } from "./session.machine.ts";

/** A stock chosen on the picker: its whole shares, or null while the field is empty or unreadable. */
export interface BananaPick {
  readonly symbol: string;
  readonly shares: number | null;
}

/** What a pick costs: a close of the day (the universe's, or the price a held stock was bought at). */
export type BananaPrices = ReadonlyMap<string, number>;

/** Why the portfolio cannot be sent yet: each mirrors a check of the server (docs/banana.md). */
export type BananaIssue =
  | "NAME_REQUIRED"
  | "TOO_FEW_ASSETS"
  | "TOO_MANY_ASSETS"
  | "SHARES_REQUIRED"
  | "FRACTIONAL_SHARES"
  | "TOTAL_TOO_LOW"
  | "TOTAL_TOO_HIGH";

/** Prices of the picker: the universe's closes, and for an edit the held stocks' own prices. */
export function pricesOf(
  universe: BananaUniverse | null,
  portfolio: BananaPortfolio | null = null,
): BananaPrices {
  const prices = new Map<string, number>();
  for (const h of portfolio?.holdings ?? []) prices.set(h.symbol, h.price);
  for (const s of universe?.stocks ?? []) prices.set(s.symbol, s.close);
  return prices;
}

/** The cost of the picks at the day's closes, in the region's currency (cents added exactly). */
export function bananaTotal(picks: readonly BananaPick[], prices: BananaPrices): number {
  const cents = picks.reduce(
    (sum, p) => sum + holdingCents(p.shares ?? 0, prices.get(p.symbol) ?? 0),
    0,
  );
  return cents / 100;
}

/**
 * The server's rules for a banana portfolio, in its order (src/server/banana/service.ts): a name;
 * whole shares (a stock with 0 shares is left out); 1 to 50 stocks; the total at the day's closes
 * within the budget (budgetProblem, section 5). Capacity and the editing window are states.
 */
export function bananaIssues(
  name: string,
  picks: readonly BananaPick[],
  prices: BananaPrices,
): BananaIssue[] {
  const issues: BananaIssue[] = [];
  if (name.trim().length === 0 || name.trim().length > 80) issues.push("NAME_REQUIRED");
  if (picks.some((p) => p.shares === null)) issues.push("SHARES_REQUIRED");
  else if (picks.some((p) => !Number.isInteger(p.shares) || p.shares! < 0))
    issues.push("FRACTIONAL_SHARES");
  const held = picks.filter((p) => (p.shares ?? 0) > 0).length;
  if (held < BANANA_MIN_ASSETS) issues.push("TOO_FEW_ASSETS");
  if (held > BANANA_MAX_ASSETS) issues.push("TOO_MANY_ASSETS");
  const budget = budgetProblem(bananaTotal(picks, prices));
  if (budget && held >= BANANA_MIN_ASSETS) issues.push(budget);
  return issues;
}

/** The shares sent: every pick with whole shares (0 sells a held stock on an edit). */
const sharesOf = (picks: readonly BananaPick[]) =>
  picks.filter((p) => p.shares !== null).map((p) => ({ id: p.symbol, shares: p.shares as number }));

export type BananaEvent =
  | { type: "region.choose"; region: MonkeyRegion }
  | { type: "region.change" }
  | { type: "stock.add"; symbol: string; shares?: number | null }
  | { type: "stock.remove"; symbol: string }
  | { type: "shares.change"; symbol: string; shares: number | null }
  | { type: "name.change"; name: string }
  | { type: "portfolio.save" }
  | { type: "failure.retry" }
  | { type: "clock.tick"; now: Date }
  | { type: "portfolio.reloaded"; portfolio: BananaPortfolio }
  | { type: "edit.start"; portfolio: BananaPortfolio }
  | { type: "start.again" };

export interface BananaInput {
  /** An edit of this portfolio; a new portfolio otherwise. */
  readonly portfolio?: BananaPortfolio | null;
  /** The time now (the editing window's clock); the system clock by default. */
  readonly now?: Date;
  /** A new portfolio's draft kept by the screen (e.g. across a reload), or the name it proposes. */
  readonly draft?: {
    readonly region?: MonkeyRegion | null;
    readonly name?: string;
    readonly picks?: readonly BananaPick[];
  };
}

export interface BananaContext {
  readonly mode: "create" | "edit";
  readonly now: Date;
  readonly capacity: BananaList["capacity"] | null;
  readonly region: MonkeyRegion | null;
  readonly universe: BananaUniverse | null;
  readonly portfolio: BananaPortfolio | null;
  readonly picks: readonly BananaPick[];
  readonly name: string;
  readonly saved: BananaPortfolio | null;
  readonly error: MsgCode | null;
}

const failureOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

const picksOf = (portfolio: BananaPortfolio): BananaPick[] =>
  portfolio.holdings.map((h) => ({ symbol: h.symbol, shares: h.shares }));

const pricesIn = (context: BananaContext) => pricesOf(context.universe, context.portfolio);

/** What the picker accepts while picking (the same in a new portfolio and an edit). */
const pickingEvents = {
  "stock.add": { guard: "canAdd", actions: "addStock" },
  "stock.remove": { actions: "removeStock" },
  "shares.change": { actions: "changeShares" },
  "name.change": { actions: "changeName" },
  "clock.tick": { actions: "tick" },
} as const;

/** After a failed save, a change goes back to picking. */
const backToPicking = {
  "stock.add": { guard: "canAdd", target: "picking", actions: ["addStock", "clearError"] },
  "stock.remove": { target: "picking", actions: ["removeStock", "clearError"] },
  "shares.change": { target: "picking", actions: ["changeShares", "clearError"] },
  "name.change": { target: "picking", actions: ["changeName", "clearError"] },
} as const;

/**
 * The banana challenge (PRODUCT.md "Banana challenge", docs/banana.md): a new portfolio chooses a
 * region with capacity left, picks stocks of that region in whole shares within the budget and is
 * saved (the server draws the monkey); an edit of a saved one opens only inside the 10:00-22:00 UTC
 * window with editions left, starts from its holdings and sends the version it read (412 on a
 * conflict: reload and edit again).
 */
export const bananaMachine = setup({
  types: {
    input: {} as BananaInput,
    context: {} as BananaContext,
    events: {} as BananaEvent,
  },
  actors: {
    /** GET /banana/portfolios: the capacity left per region. */
    loadCapacity: fromPromise<BananaList>(async () => {
      throw new Error("loadCapacity must be provided");
    }),
    /** GET /banana/universe?region=: the stocks offered and the day's closes. */
    loadUniverse: fromPromise<BananaUniverse, { region: MonkeyRegion }>(async () => {
      throw new Error("loadUniverse must be provided");
    }),
    /** POST /banana/portfolios. */
    create: fromPromise<BananaPortfolio, CreateBananaRequest>(async () => {
      throw new Error("create must be provided");
    }),
    /** PUT /banana/portfolios/:id. */
    update: fromPromise<BananaPortfolio, { id: number; body: UpdateBananaRequest }>(async () => {
      throw new Error("update must be provided");
    }),
  },
  actions: {
    keepCapacity: assign((_, params: { list: BananaList }) => ({
      capacity: params.list.capacity,
      error: null,
    })),
    chooseRegion: assign(({ context, event }) =>
      event.type === "region.choose" && event.region !== context.region
        ? { region: event.region, picks: [], universe: null }
        : {},
    ),
    keepUniverse: assign((_, params: { universe: BananaUniverse }) => ({
      universe: params.universe,
      error: null,
    })),
    addStock: assign(({ context, event }) =>
      event.type === "stock.add"
        ? { picks: [...context.picks, { symbol: event.symbol, shares: event.shares ?? 1 }] }
        : {},
    ),
    removeStock: assign(({ context, event }) => {
      if (event.type !== "stock.remove") return {};
      // On an edit a held stock stays listed with 0 shares: it is sold.
      const held = context.portfolio?.holdings.some((h) => h.symbol === event.symbol);
      return {
        picks: held
          ? context.picks.map((p) => (p.symbol === event.symbol ? { ...p, shares: 0 } : p))
          : context.picks.filter((p) => p.symbol !== event.symbol),
      };
    }),
    changeShares: assign(({ context, event }) =>
      event.type === "shares.change"
        ? {
            picks: context.picks.map((p) =>
              p.symbol === event.symbol ? { ...p, shares: event.shares } : p,
            ),
          }
        : {},
    ),
    changeName: assign(({ event }) => (event.type === "name.change" ? { name: event.name } : {})),
    tick: assign(({ event }) => (event.type === "clock.tick" ? { now: event.now } : {})),
    reload: assign(({ event }) =>
      event.type === "portfolio.reloaded" || event.type === "edit.start"
        ? {
            mode: "edit" as const,
            region: event.portfolio.region,
            portfolio: event.portfolio,
            picks: picksOf(event.portfolio),
            name: event.portfolio.name,
            error: null,
          }
        : {},
    ),
    keepSaved: assign(({ context }, params: { portfolio: BananaPortfolio }) => ({
      saved: params.portfolio,
      // An edit goes on from the new version.
      ...(context.mode === "edit"
        ? { portfolio: params.portfolio, picks: picksOf(params.portfolio) }
        : {}),
      error: null,
    })),
    reportError: assign((_, params: { error: unknown }) => ({ error: failureOf(params.error) })),
    clearError: assign({ error: null }),
    startAgain: assign({
      region: null,
      universe: null,
      picks: [],
      name: "",
      saved: null,
      error: null,
    }),
  },
  guards: {
    isEdit: ({ context }) => context.mode === "edit",
    hasCapacity: ({ context, event }) =>
      event.type === "region.choose" && (context.capacity?.[event.region] ?? 0) > 0,
    canAdd: ({ context, event }) =>
      event.type === "stock.add" &&
      !context.picks.some((p) => p.symbol === event.symbol) &&
      context.picks.filter((p) => p.shares !== 0).length < BANANA_MAX_ASSETS &&
      (context.universe?.stocks.some((s) => s.symbol === event.symbol) ?? false),
    canSave: ({ context }) =>
      bananaIssues(context.name, context.picks, pricesIn(context)).length === 0,
    mayEdit: ({ context }) =>
      editWindowOpen(context.now) && context.portfolio?.remainingEditions !== 0,
    isConflict: ({ event }) =>
      "error" in event &&
      event.error instanceof SessionFailure &&
      event.error.msgCode === "PORTFOLIO_CONFLICT",
    windowClosed: ({ event }) =>
      "error" in event &&
      event.error instanceof SessionFailure &&
      event.error.msgCode === "BANANA_WINDOW_CLOSED",
  },
}).createMachine({
  id: "banana",
  description:
    "Banana challenge: a new portfolio (region with capacity, stocks in whole shares within the budget, saved with its monkey) or an edit of a saved one inside the 10:00-22:00 UTC window.",
  context: ({ input }) => ({
    mode: input?.portfolio ? "edit" : "create",
    now: input?.now ?? new Date(),
    capacity: null,
    region: input?.portfolio?.region ?? input?.draft?.region ?? null,
    universe: null,
    portfolio: input?.portfolio ?? null,
    picks: input?.portfolio ? picksOf(input.portfolio) : [...(input?.draft?.picks ?? [])],
    name: input?.portfolio?.name ?? input?.draft?.name ?? "",
    saved: null,
    error: null,
  }),
  initial: "starting",
  states: {
    starting: {
      always: [{ guard: "isEdit", target: "edit" }, { target: "create" }],
    },
    create: {
      initial: "loadingCapacity",
      states: {
        loadingCapacity: {
          invoke: {
            id: "loadCapacity",
            src: "loadCapacity",
            onDone: {
              target: "choosingRegion",
              actions: { type: "keepCapacity", params: ({ event }) => ({ list: event.output }) },
            },
            onError: {
              target: "loadFailed",
              actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        choosingRegion: {
          on: {
            "region.choose": {
              guard: "hasCapacity",
              target: "loadingUniverse",
              actions: "chooseRegion",
            },
          },
        },
        loadingUniverse: {
          invoke: {
            id: "loadUniverse",
            src: "loadUniverse",
            input: ({ context }) => ({ region: context.region! }),
            onDone: {
              target: "picking",
              actions: {
                type: "keepUniverse",
                params: ({ event }) => ({ universe: event.output }),
              },
            },
            onError: {
              target: "loadFailed",
              actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        loadFailed: {
          on: { "failure.retry": { target: "loadingCapacity", actions: "clearError" } },
        },
        picking: {
          on: {
            ...pickingEvents,
            "region.change": "choosingRegion",
            "portfolio.save": { guard: "canSave", target: "creating" },
          },
        },
        creating: {
          invoke: {
            id: "create",
            src: "create",
            input: ({ context }) => ({
              name: context.name.trim(),
              region: context.region,
              assets: sharesOf(context.picks).filter((a) => a.shares > 0),
            }),
            onDone: {
              target: "saved",
              actions: { type: "keepSaved", params: ({ event }) => ({ portfolio: event.output }) },
            },
            onError: {
              target: "failed",
              actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: {
            ...backToPicking,
            "region.change": "choosingRegion",
            "failure.retry": { guard: "canSave", target: "creating" },
          },
        },
        saved: {
          on: {
            "start.again": { target: "loadingCapacity", actions: "startAgain" },
            // The portfolio just saved can be changed at once (inside the window).
            "edit.start": { target: "#banana.edit", actions: "reload" },
          },
        },
      },
    },
    edit: {
      initial: "checkingWindow",
      states: {
        checkingWindow: {
          always: [{ guard: "mayEdit", target: "loadingUniverse" }, { target: "windowClosed" }],
        },
        windowClosed: {
          on: {
            "clock.tick": { target: "checkingWindow", actions: "tick" },
            "portfolio.reloaded": { target: "checkingWindow", actions: "reload" },
          },
        },
        loadingUniverse: {
          invoke: {
            id: "loadEditUniverse",
            src: "loadUniverse",
            input: ({ context }) => ({ region: context.region! }),
            onDone: {
              target: "picking",
              actions: {
                type: "keepUniverse",
                params: ({ event }) => ({ universe: event.output }),
              },
            },
            onError: {
              target: "loadFailed",
              actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        loadFailed: {
          on: { "failure.retry": { target: "checkingWindow", actions: "clearError" } },
        },
        picking: {
          on: { ...pickingEvents, "portfolio.save": { guard: "canSave", target: "updating" } },
        },
        updating: {
          invoke: {
            id: "update",
            src: "update",
            input: ({ context }) => ({
              id: context.portfolio!.id,
              body: { version: context.portfolio!.version, assets: sharesOf(context.picks) },
            }),
            onDone: {
              target: "saved",
              actions: { type: "keepSaved", params: ({ event }) => ({ portfolio: event.output }) },
            },
            onError: [
              {
                guard: "isConflict",
                target: "conflict",
                actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
              },
              {
                guard: "windowClosed",
                target: "windowClosed",
                actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
              },
              {
                target: "failed",
                actions: { type: "reportError", params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        failed: {
          on: { ...backToPicking, "failure.retry": { guard: "canSave", target: "updating" } },
        },
        conflict: {
          // The portfolio changed elsewhere: the screen reloads it and the edit starts from it.
          on: { "portfolio.reloaded": { target: "checkingWindow", actions: "reload" } },
        },
        saved: {
          on: { "portfolio.reloaded": { target: "checkingWindow", actions: "reload" } },
        },
      },
    },
  },
});

/** A small universe and portfolio, for the path tests and the documents (machines/index.ts). */
export const demoBananaUniverse: BananaUniverse = {
  region: "eu",
  currency: "EUR",
  date: "2026-11-20",
  simulated: true,
  minInvestment: 9_900,
  maxInvestment: 10_000,
  maxAssets: BANANA_MAX_ASSETS,
  stocks: [
    { symbol: "SAN.MC", name: "Banco Santander", exchange: "MC", sector: "Financials", close: 5 },
    { symbol: "ITX.MC", name: "Inditex", exchange: "MC", sector: "Consumer", close: 50 },
  ],
};

export const demoBananaPortfolio: BananaPortfolio = {
  id: 11,
  name: "Iberian monkeys",
  region: "eu",
  currency: "EUR",
  version: 1,
  remainingEditions: null,
  createdOn: "2026-11-20",
  pricedOn: "2026-11-20",
  totalInvested: 10_000,
  holdings: [
    {
      symbol: "SAN.MC",
      name: "Banco Santander",
      exchange: "MC",
      shares: 1000,
      price: 5,
      investedAmount: 5000,
    },
    {
      symbol: "ITX.MC",
      name: "Inditex",
      exchange: "MC",
      shares: 100,
      price: 50,
      investedAmount: 5000,
    },
  ],
  monkey: { seed: 7, holdings: [], totalInvested: 0 },
  figures: null,
  rank: null,
  window: { open: true, changesAt: "2026-11-20T22:00:00.000Z" },
};
