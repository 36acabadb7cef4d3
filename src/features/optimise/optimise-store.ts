import { createActor, fromPromise, waitFor, type ActorRefFrom } from "xstate";
import {
  optimiseMachine,
  type KeepWeight,
  type Objective,
  type OptimalAnswer,
  type OptimisationLevel,
  type OptimiseContext,
  type OptimiseInput,
  type OptimisePortfolio,
} from "../../../machines/optimise.machine.ts";
import { SessionFailure } from "../../../machines/session.machine.ts";
import type { PortfolioWorkspace } from "../../app/portfolio-workspace.ts";
import type { RouteTarget } from "../../app/route-follow.ts";
import { orFailure } from "../../app/session/session-actor.ts";
import type { HttpClient } from "../../client/http.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { roundToCent } from "../../contract/money.ts";
import type { CurrentPortfolio } from "./portfolio-views.ts";

export type OptimiseActor = ActorRefFrom<typeof optimiseMachine>;

/** Below a cent an optimised amount is no holding. */
const CENT = 0.01;

/** The optimisation's view of the current portfolio; its key changes with its composition. */
export function optimisePortfolioOf(
  current: CurrentPortfolio,
  names: ReadonlyMap<string, string>,
  maxAssetsLevel: number | null,
): OptimisePortfolio {
  const assets = current.assets.map((a) => ({
    symbol: a.id,
    // The portfolio's own name first: the market's names may not have arrived yet.
    name: a.name || (names.get(a.id) ?? a.id),
    investedAmount: a.investedAmount,
  }));
  return {
    currency: current.currency,
    ...(current.benchmark ? { benchmark: current.benchmark } : {}),
    assets,
    maxAssetsLevel,
    key: JSON.stringify([
      maxAssetsLevel,
      current.currency,
      current.benchmark ?? null,
      // The composition, whatever the order of its rows (a refused adoption puts them back).
      current.assets
        .map((a) => [a.id, a.investedAmount] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ]),
  };
}

/** The events that turn `assets` into the optimised amounts (0 removes, a new asset is added). */
function amountEvents(
  assets: readonly { readonly id: string }[],
  target: ReadonlyMap<string, number>,
  names: ReadonlyMap<string, string>,
) {
  const held = new Set(assets.map((a) => a.id));
  return [
    ...assets
      .filter((a) => !target.has(a.id))
      .map((a) => ({ type: "amount.change" as const, id: a.id, investedAmount: 0 })),
    ...[...target].map(([symbol, amount]) =>
      held.has(symbol)
        ? { type: "amount.change" as const, id: symbol, investedAmount: amount }
        : {
            type: "asset.add" as const,
            id: symbol,
            name: names.get(symbol) ?? symbol,
            investedAmount: amount,
          },
    ),
  ];
}

/**
 * Hands the optimised amounts to the portfolio's own machine: an edition of the saved portfolio
 * (edit, amounts, submit: it spends an edition as any edit does), or the creation summary's
 * amounts. Resolves once the portfolio holds them. A refused edition gives the portfolio back as
 * it was: an edition started here is cancelled, one already under way (optimising a saved
 * portfolio starts one) goes on with its amounts of before, so that the optimisation's routes and
 * its result stay as they were.
 */
export async function adoptInto(
  workspace: PortfolioWorkspace,
  answer: OptimalAnswer,
  names: ReadonlyMap<string, string>,
): Promise<void> {
  const { lifecycle, wizard } = workspace.getState();
  const target = new Map(
    answer.assets
      .filter((a) => a.investedAmount >= CENT)
      .map((a) => [a.symbol, roundToCent(a.investedAmount)]),
  );
  const life = lifecycle?.getSnapshot();
  if (lifecycle && life && (life.matches("saved") || life.matches("editing"))) {
    const startedHere = life.matches("saved");
    if (startedHere) lifecycle.send({ type: "edit.start" });
    const editing = lifecycle.getSnapshot();
    if (!editing.matches("editing"))
      throw new SessionFailure(
        editing.context.problem === "NO_EDITIONS_LEFT" ? "NO_EDITIONS_LEFT" : "EDIT_FORBIDDEN",
      );
    const before = editing.context.draft?.assets ?? [];
    for (const event of amountEvents(before, target, names)) lifecycle.send(event);
    lifecycle.send({ type: "edit.submit" });
    const done = await waitFor(
      lifecycle,
      (s) =>
        s.matches("saved") ||
        s.matches("conflict") ||
        (s.matches("editing") && (s.context.error !== null || s.context.problem !== null)),
    );
    if (!done.matches("saved")) {
      const code = done.context.error ?? done.context.problem;
      if (done.matches("editing") && startedHere) lifecycle.send({ type: "edit.cancel" });
      else if (done.matches("editing"))
        for (const event of amountEvents(
          done.context.draft?.assets ?? [],
          new Map(before.map((a) => [a.id, a.investedAmount])),
          new Map(before.map((a) => [a.id, a.name])),
        ))
          lifecycle.send(event);
      throw new SessionFailure(
        code === "PORTFOLIO_CONFLICT" || code === "NO_EDITIONS_LEFT" || code === "TOO_MANY_ASSETS"
          ? code
          : "EDIT_FORBIDDEN",
      );
    }
    return;
  }
  if (lifecycle && life && life.matches("unsaved")) {
    // Handed over by the wizard but not saved yet: the draft takes the optimised amounts.
    for (const event of amountEvents(life.context.draft?.assets ?? [], target, names))
      lifecycle.send(event);
    return;
  }
  const w = wizard?.getSnapshot();
  if (wizard && w && w.matches("summary")) {
    for (const event of amountEvents(w.context.assets, target, names)) wizard.send(event);
    return;
  }
  throw new SessionFailure("EDIT_FORBIDDEN");
}

/** The optimisation's inputs as kept in the tab's drafts (its result is computed again). */
interface OptimiseDraft {
  readonly identity: string;
  readonly level: OptimisationLevel | null;
  readonly objective: Objective;
  readonly maxToLose95: number | null;
  readonly newAssets: readonly { readonly symbol: string; readonly name: string }[];
  readonly keepAssets: readonly string[];
  readonly keepAssetsWeight: Readonly<Record<string, KeepWeight>>;
  readonly desiredAssetsAmount: number | null;
}

function draftOf(identity: string, c: OptimiseContext): OptimiseDraft {
  return {
    identity,
    level: c.level,
    objective: c.objective,
    maxToLose95: c.maxToLose95,
    newAssets: c.newAssets,
    keepAssets: c.keepAssets,
    keepAssetsWeight: c.keepAssetsWeight,
    desiredAssetsAmount: c.desiredAssetsAmount,
  };
}

const isDraft = (value: unknown, identity: string): value is OptimiseDraft =>
  typeof value === "object" &&
  value !== null &&
  (value as OptimiseDraft).identity === identity &&
  Array.isArray((value as OptimiseDraft).newAssets) &&
  Array.isArray((value as OptimiseDraft).keepAssets) &&
  typeof (value as OptimiseDraft).keepAssetsWeight === "object";

/** Sets the stored inputs through the machine's own events (its rules apply to them as to typing). */
function replay(actor: OptimiseActor, d: OptimiseDraft): void {
  if (d.level === null) return;
  actor.send({ type: "level.choose", level: d.level });
  if (!actor.getSnapshot().matches("options")) return;
  actor.send({ type: "maxLoss.change", amount: d.maxToLose95 });
  actor.send({ type: "objective.change", objective: d.objective });
  for (const a of d.newAssets) actor.send({ type: "newAsset.add", symbol: a.symbol, name: a.name });
  for (const symbol of d.keepAssets) {
    actor.send({ type: "keep.toggle", symbol });
    const w = d.keepAssetsWeight[symbol];
    if (w) actor.send({ type: "keepWeight.change", symbol, min: w.min, max: w.max });
  }
  actor.send({ type: "desired.change", amount: d.desiredAssetsAmount });
}

let current: { actor: OptimiseActor; identity: string; workspace: PortfolioWorkspace } | null =
  null;
/** The market's names of the assets, for assets the optimisation adds. */
let knownNames: ReadonlyMap<string, string> = new Map();

export function rememberNames(names: ReadonlyMap<string, string>): void {
  knownNames = names;
}

/**
 * The optimisation of the portfolio in the workspace, shared by the six optimisation routes: a
 * new one starts when another portfolio (or another client) is optimised.
 */
export function optimiseActorFor(
  identity: string,
  input: OptimiseInput,
  deps: {
    http: HttpClient;
    workspace: PortfolioWorkspace;
    /** The app's navigation (the machine's `follow` action). */
    follow: (target: RouteTarget) => void;
  },
): OptimiseActor {
  // The same portfolio keeps its optimisation until it is adopted (then a new one starts).
  if (current && current.identity === identity && current.workspace === deps.workspace)
    return current.actor;
  current?.actor.stop();
  const machine = optimiseMachine.provide({
    actors: {
      optimise: fromPromise(({ input: body, signal }) =>
        orFailure(() => deps.http.call(endpoints.optimise, { body, signal })),
      ),
      adopt: fromPromise(({ input: { answer } }) => adoptInto(deps.workspace, answer, knownNames)),
    },
    actions: { follow: (_, target) => deps.follow(target) },
  });
  const actor = createActor(machine, { input }).start();
  // Adopted: the machine took the person to the portfolio; nothing of the optimisation is kept.
  actor.subscribe((s) => {
    if (s.status === "done" && current?.actor === actor) endOptimisation();
  });
  // The inputs kept in this tab for this portfolio (a reload) come back; each change is kept.
  const drafts = deps.workspace.drafts;
  if (drafts) {
    const stored = drafts.read("optimise");
    if (isDraft(stored, identity)) replay(actor, stored);
    actor.subscribe((s) => {
      if (s.status === "active") drafts.write("optimise", draftOf(identity, s.context));
    });
  }
  current = { actor, identity, workspace: deps.workspace };
  return actor;
}

/** The optimisation is over (adopted) or its portfolio is gone: nothing of it is kept. */
export function endOptimisation(): void {
  current?.workspace.drafts?.remove("optimise");
  current?.actor.stop();
  current = null;
}
