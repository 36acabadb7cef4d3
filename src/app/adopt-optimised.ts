import { waitFor } from "xstate";
import type { OptimalAnswer } from "../../machines/optimise.machine.ts";
import { SessionFailure } from "../../machines/session.machine.ts";
import { roundToCent } from "../contract/money.ts";
import type { AppActor } from "./app-actor.ts";
import { workspaceOf } from "./portfolio-workspace.ts";

/** Below a cent an optimised amount is no holding. */
const CENT = 0.01;

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
  app: AppActor,
  answer: OptimalAnswer,
  names: ReadonlyMap<string, string>,
): Promise<void> {
  const { lifecycle, wizard } = workspaceOf(app.getSnapshot());
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
