import { createActor, fromPromise, waitFor, type ActorRefFrom } from "xstate";
import {
  optimiseMachine,
  type OptimalAnswer,
  type OptimiseInput,
  type OptimisePortfolio,
} from "../../../machines/optimise.machine.ts";
import { SessionFailure } from "../../../machines/session.machine.ts";
import type { PortfolioWorkspace } from "../../app/portfolio-workspace.ts";
import { orFailure } from "../../app/session/session-actor.ts";
import type { HttpClient } from "../../client/http.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { CurrentPortfolio } from "./portfolio-views.ts";

export type OptimiseActor = ActorRefFrom<typeof optimiseMachine>;

/** Below a cent an optimised amount is no holding. */
const CENT = 0.01;
const toCents = (v: number) => Math.round(v * 100) / 100;

/** The optimisation's view of the current portfolio; its key changes with its composition. */
export function optimisePortfolioOf(
  current: CurrentPortfolio,
  names: ReadonlyMap<string, string>,
  maxAssetsLevel: number | null,
): OptimisePortfolio {
  const assets = current.assets.map((a) => ({
    symbol: a.id,
    name: names.get(a.id) ?? a.id,
    amount: a.investedAmount,
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
      current.assets.map((a) => [a.id, a.investedAmount]),
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
 * amounts. Resolves once the portfolio holds them.
 */
export async function adoptInto(
  workspace: PortfolioWorkspace,
  answer: OptimalAnswer,
  names: ReadonlyMap<string, string>,
): Promise<void> {
  const { lifecycle, wizard } = workspace.getState();
  const target = new Map(
    answer.assets.filter((a) => a.amount >= CENT).map((a) => [a.symbol, toCents(a.amount)]),
  );
  const life = lifecycle?.getSnapshot();
  if (lifecycle && life && (life.matches("saved") || life.matches("editing"))) {
    if (life.matches("saved")) lifecycle.send({ type: "edit" });
    const editing = lifecycle.getSnapshot();
    if (!editing.matches("editing"))
      throw new SessionFailure(
        editing.context.problem === "NO_EDITIONS_LEFT" ? "NO_EDITIONS_LEFT" : "EDIT_FORBIDDEN",
      );
    for (const event of amountEvents(editing.context.draft?.assets ?? [], target, names))
      lifecycle.send(event);
    lifecycle.send({ type: "submit" });
    const done = await waitFor(
      lifecycle,
      (s) =>
        s.matches("saved") ||
        s.matches("conflict") ||
        (s.matches("editing") && (s.context.error !== null || s.context.problem !== null)),
    );
    if (!done.matches("saved")) {
      const code = done.context.error ?? done.context.problem;
      if (done.matches("editing")) lifecycle.send({ type: "cancel" });
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

let current: { actor: OptimiseActor; identity: string } | null = null;
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
  deps: { http: HttpClient; workspace: PortfolioWorkspace },
): OptimiseActor {
  // The same portfolio keeps its optimisation, finished (adopted) or not, until the screen ends it.
  if (current && current.identity === identity) return current.actor;
  current?.actor.stop();
  const machine = optimiseMachine.provide({
    actors: {
      optimise: fromPromise(({ input: body, signal }) =>
        orFailure(() => deps.http.call(endpoints.optimise, { body, signal })),
      ),
      adopt: fromPromise(({ input: { answer } }) => adoptInto(deps.workspace, answer, knownNames)),
    },
  });
  const actor = createActor(machine, { input }).start();
  current = { actor, identity };
  return actor;
}

/** The optimisation is over (adopted) or its portfolio is gone. */
export function endOptimisation(): void {
  current?.actor.stop();
  current = null;
}
