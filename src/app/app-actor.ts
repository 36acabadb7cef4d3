import { createActor, type ActorRefFrom, type AnyStateMachine, type SnapshotFrom } from "xstate";
import { appMachine, type AppChildren, type RestorableLogic } from "../../machines/app.machine.ts";
import type { portfolioWizardMachine } from "../../machines/portfolio-wizard.machine.ts";
import { systemIds } from "../../machines/system-ids.ts";
import type { HttpClient } from "../client/http.ts";
import type { DraftStore } from "./drafts.ts";
import { inspectObserver } from "./inspector.ts";
import { loadedPortfolioMachines, stableWizardStates } from "./portfolio-workspace.ts";
import type { RouteTarget } from "./route-follow.ts";
import { sessionLogic, type SessionDeps } from "./session/session-actor.ts";

export type AppActor = ActorRefFrom<typeof appMachine>;
export type AppSnapshot = SnapshotFrom<typeof appMachine>;

export interface AppActorDeps extends SessionDeps {
  readonly http: HttpClient;
  /** Hands an exported file to the browser. */
  readonly saveFile: (blob: Blob, fileName: string) => void;
  /** Where the portfolio being created is kept for a reload (none: it lives in memory only). */
  readonly drafts?: DraftStore | null;
  /** The machines' `follow` action: takes the person to a route (none: the page stays). */
  readonly follow?: (target: RouteTarget) => void;
}

/**
 * The logic of a machine made on first use, once its chunk has loaded (the root is created with
 * the first page; its portfolio children are spawned only after `loadPortfolioMachines`). Every
 * call goes to the machine, so its actors are that machine's (the inspector draws its chart).
 */
function onceLoaded<TMachine extends AnyStateMachine>(make: () => TMachine): TMachine {
  let machine: AnyStateMachine | null = null;
  const get = () => (machine ??= make());
  const logic: Pick<
    AnyStateMachine,
    | "config"
    | "transition"
    | "getInitialSnapshot"
    | "restoreSnapshot"
    | "start"
    | "getPersistedSnapshot"
  > = {
    get config() {
      return get().config;
    },
    transition: (s, e, scope) => get().transition(s, e, scope),
    getInitialSnapshot: (scope, input) => get().getInitialSnapshot(scope, input),
    restoreSnapshot: (s, scope) => get().restoreSnapshot(s, scope),
    start: (s) => get().start(s),
    getPersistedSnapshot: (s, options) => get().getPersistedSnapshot(s, options),
  };
  return logic as unknown as TMachine;
}

/** As `onceLoaded`, for a child the root starts from `{ input, snapshot }`: a stored snapshot brings it back. */
function restorableOnceLoaded<TMachine extends AnyStateMachine>(
  make: () => TMachine,
): RestorableLogic<TMachine> {
  const logic: AnyStateMachine = onceLoaded(make);
  return {
    get config() {
      return logic.config;
    },
    transition: logic.transition,
    restoreSnapshot: logic.restoreSnapshot,
    start: logic.start,
    getPersistedSnapshot: logic.getPersistedSnapshot,
    getInitialSnapshot: (
      scope: never,
      { input, snapshot }: { input: unknown; snapshot: unknown },
    ) =>
      snapshot
        ? logic.restoreSnapshot(snapshot as never, scope)
        : logic.getInitialSnapshot(scope, input),
  } as unknown as RestorableLogic<TMachine>;
}

type WizardActor = ActorRefFrom<RestorableLogic<typeof portfolioWizardMachine>>;
type PersistedWizard = ReturnType<WizardActor["getPersistedSnapshot"]> & {
  context: Record<string, unknown>;
};

/**
 * Keeps the wizard's snapshot in the tab's drafts at each resting state; a cancelled wizard leaves
 * none, a saved portfolio needs none (the server has it). A composed wizard keeps its summary until
 * the portfolio is saved. Each new child of the root is followed from when it is spawned.
 */
function keepWizardDrafts(app: AppActor, drafts: DraftStore): void {
  let wizard: unknown = null;
  let lifecycle: unknown = null;
  let stopWizard = () => {};
  let stopLifecycle = () => {};
  app.subscribe((root) => {
    const w = root.children[systemIds.portfolioWizard] ?? null;
    if (w !== wizard) {
      stopWizard();
      stopWizard = () => {};
      wizard = w;
      if (w) stopWizard = keepWizard(w, drafts);
    }
    const l = root.children[systemIds.portfolioLifecycle] ?? null;
    if (l !== lifecycle) {
      stopLifecycle();
      stopLifecycle = () => {};
      lifecycle = l;
      if (l) {
        const sub = l.subscribe({
          next: (s) => {
            if (s.context.portfolio !== null) drafts.remove("wizard");
          },
          error: () => {},
        });
        stopLifecycle = () => sub.unsubscribe();
      }
    }
  });
}

function keepWizard(wizard: WizardActor, drafts: DraftStore): () => void {
  // The page the person is on is not kept (a tab brought back is on no page until one opens): a
  // change of page alone writes nothing.
  let kept: string | null = null;
  const keep = () => {
    const s = wizard.getSnapshot();
    if (s.status === "active" && stableWizardStates.includes(String(s.value))) {
      const persisted = wizard.getPersistedSnapshot() as PersistedWizard;
      const snapshot = { ...persisted, context: { ...persisted.context, page: null } };
      const text = JSON.stringify(snapshot);
      if (text === kept) return;
      kept = text;
      drafts.write("wizard", snapshot);
    } else if (s.status === "done" && s.output == null) drafts.remove("wizard");
  };
  keep();
  const sub = wizard.subscribe({ next: keep, error: () => {} });
  return () => sub.unsubscribe();
}

/**
 * The app's one root actor (machines/app.machine.ts) with its children's I/O provided: the session
 * from the start, the portfolio machines from their chunk. Created once per tab (src/app/main.tsx);
 * the inspector, when open, sees the root and every child.
 */
export function createAppActor(deps: AppActorDeps): AppActor {
  const follow = (target: RouteTarget) => deps.follow?.(target);
  // Every child's logic, with its I/O (a child left out would throw "must be provided").
  const actors = {
    session: sessionLogic(deps),
    wizard: restorableOnceLoaded(() => loadedPortfolioMachines().wizardMachine(deps.http, follow)),
    lifecycle: onceLoaded(() =>
      loadedPortfolioMachines().lifecycleMachine(deps.http, deps.saveFile, follow),
    ),
    optimise: onceLoaded(() => loadedPortfolioMachines().optimiseMachine(deps.http, app, follow)),
    whatIf: onceLoaded(() => loadedPortfolioMachines().whatIfMachine(deps.http, follow)),
  } satisfies Record<AppChildren[keyof AppChildren], unknown>;
  const machine = appMachine.provide({
    actors,
    actions: {
      forgetWizardDraft: () => deps.drafts?.remove("wizard"),
      forgetOptimiseDraft: () => deps.drafts?.remove("optimise"),
    },
  });
  const inspect = inspectObserver();
  const app = createActor(machine, inspect ? { inspect } : {});
  if (deps.drafts) keepWizardDrafts(app, deps.drafts);
  return app.start();
}
