import type { ActorRefFrom } from "xstate";
import type {
  optimiseMachine,
  KeepWeight,
  Objective,
  OptimisationLevel,
  OptimiseContext,
  OptimiseInput,
  OptimisePortfolio,
} from "../../../machines/optimise.machine.ts";
import { systemIds } from "../../../machines/system-ids.ts";
import type { AppActor } from "../../app/app-actor.ts";
import type { DraftStore } from "../../app/drafts.ts";
import type { CurrentPortfolio } from "./portfolio-views.ts";

export type OptimiseActor = ActorRefFrom<typeof optimiseMachine>;

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

/**
 * The optimisation of the portfolio in the workspace, shared by the six optimisation routes: the
 * root's `optimise` child (`systemIds.optimise`). A new one starts when another portfolio (or
 * another client) is optimised; the same portfolio keeps its optimisation until it is adopted
 * (then the root ends it, and a new one starts). The inputs kept in this tab for this portfolio
 * (a reload) come back through the machine's own events; each change is kept.
 */
export function optimiseActorFor(
  identity: string,
  input: OptimiseInput,
  deps: { app: AppActor; drafts: DraftStore | null },
): OptimiseActor {
  const running = deps.app.getSnapshot();
  const actor = running.children[systemIds.optimise];
  if (actor && running.context.optimisation === identity) return actor;
  deps.app.send({ type: "optimisation.start", identity, input });
  const started = deps.app.getSnapshot().children[systemIds.optimise]!;
  const drafts = deps.drafts;
  if (drafts) {
    const stored = drafts.read("optimise");
    if (isDraft(stored, identity)) replay(started, stored);
    started.subscribe((s) => {
      if (s.status === "active") drafts.write("optimise", draftOf(identity, s.context));
    });
  }
  return started;
}

/** The optimisation is over or its portfolio is gone: nothing of it is kept. */
export function endOptimisation(app: AppActor): void {
  app.send({ type: "optimisation.end" });
}
