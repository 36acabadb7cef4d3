import { createActor, type ActorRefFrom, type SnapshotFrom } from "xstate";
import {
  creationInProgress,
  portfolioFacts,
  type PortfolioWizardSnapshot,
} from "../../machines/guards/portfolio-facts.ts";
import type {
  portfolioLifecycleMachine,
  PortfolioDraft,
} from "../../machines/portfolio-lifecycle.machine.ts";
import type {
  portfolioWizardMachine,
  PortfolioWizardInput,
} from "../../machines/portfolio-wizard.machine.ts";
import type { HttpClient } from "../client/http.ts";
import type { Edition, Product } from "../contract/common.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { DraftStore } from "./drafts.ts";
import type { ProductPermissions } from "../contract/permissions.ts";
import type { Portfolio } from "../contract/portfolios.ts";
import { inspectObserver } from "./inspector.ts";
import type { RouteTarget } from "./route-follow.ts";
import type * as PortfolioMachines from "./portfolio-machines.ts";

let machines: typeof PortfolioMachines | null = null;

/**
 * Loads the portfolio machines (their own chunk, not the first page's). The routes whose screens
 * start a wizard or a lifecycle load them with the screen (src/app/route-table.ts); the route guards
 * read only the actors' snapshots, and there are none before then.
 */
export async function loadPortfolioMachines(): Promise<void> {
  machines ??= await import("./portfolio-machines.ts");
}

function loadedMachines(): typeof PortfolioMachines {
  if (!machines) throw new Error("portfolio machines not loaded: await loadPortfolioMachines()");
  return machines;
}

export type WizardActor = ActorRefFrom<typeof portfolioWizardMachine>;
export type LifecycleActor = ActorRefFrom<typeof portfolioLifecycleMachine>;

export interface PortfolioWorkspaceDeps {
  readonly http: HttpClient;
  readonly edition: Edition;
  /** Hands an exported file to the browser. */
  readonly saveFile: (blob: Blob, fileName: string) => void;
  /** Where the portfolio being created is kept for a reload (none: it lives in memory only). */
  readonly drafts?: DraftStore | null;
  /** The machines' `follow` action: takes the person to a route (none: the page stays). */
  readonly follow?: (target: RouteTarget) => void;
}

/** The wizard's resting states: a snapshot is kept only there (no proposal in flight). */
const stableWizardStates = ["q1", "q2", "q3", "summary"];

type PersistedWizard = ReturnType<WizardActor["getPersistedSnapshot"]> &
  Pick<SnapshotFrom<typeof portfolioWizardMachine>, "value" | "status" | "context">;

/** A stored wizard snapshot this build can restore: active, in a resting state, with its context. */
function restorableWizard(value: unknown): value is PersistedWizard {
  if (typeof value !== "object" || value === null) return false;
  const s = value as { status?: unknown; value?: unknown; context?: unknown; children?: unknown };
  const context = s.context as Record<string, unknown> | null | undefined;
  return (
    s.status === "active" &&
    typeof s.value === "string" &&
    stableWizardStates.includes(s.value) &&
    typeof context === "object" &&
    context !== null &&
    typeof context.answers === "object" &&
    typeof context.permissions === "object" &&
    typeof context.product === "string" &&
    Array.isArray(context.assets)
  );
}

export interface WorkspaceState {
  readonly wizard: WizardActor | null;
  readonly lifecycle: LifecycleActor | null;
  /** A stored wizard is being brought back (its machines are loading): start no other meanwhile. */
  readonly restoring: boolean;
  /** Bumped on every change of either actor (for useSyncExternalStore). */
  readonly revision: number;
}

/**
 * The portfolio being created or worked on, shared by every route: the creation wizard's actor
 * and the save-and-edit lifecycle's actor. The route guards' creationInProgress / portfolioLoaded
 * come from their snapshots; sign-out clears both.
 */
export class PortfolioWorkspace {
  private state: WorkspaceState = { wizard: null, lifecycle: null, restoring: false, revision: 0 };
  /** The stored snapshot being brought back, counted by the guards until its actor runs. */
  private pending: PersistedWizard | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly stops: (() => void)[] = [];

  private readonly deps: PortfolioWorkspaceDeps;

  constructor(deps: PortfolioWorkspaceDeps) {
    this.deps = deps;
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = () => this.state;

  /** The drafts of this tab (the what-if and the optimisation keep theirs there too). */
  get drafts(): DraftStore | null {
    return this.deps.drafts ?? null;
  }

  facts() {
    return portfolioFacts(
      this.state.wizard?.getSnapshot() ??
        (this.pending as unknown as PortfolioWizardSnapshot | null),
      this.state.lifecycle?.getSnapshot(),
    );
  }

  private changed(patch: Partial<WorkspaceState> = {}) {
    this.state = { ...this.state, ...patch, revision: this.state.revision + 1 };
    for (const l of this.listeners) l();
  }

  private watch(actor: { subscribe: (next: () => void) => { unsubscribe: () => void } }) {
    const sub = actor.subscribe(() => this.changed());
    this.stops.push(() => sub.unsubscribe());
  }

  /**
   * Keeps the wizard's snapshot in the tab's drafts at each resting state; a cancelled wizard
   * leaves none. A composed one keeps its summary until the portfolio is saved.
   */
  private keepWizard(wizard: WizardActor) {
    const drafts = this.deps.drafts;
    if (!drafts) return;
    // The page the person is on is not kept (a tab brought back is on no page until one opens):
    // a change of page alone writes nothing.
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
    this.stops.push(() => sub.unsubscribe());
  }

  /** A saved portfolio needs no draft: the server has it. */
  private forgetWizardOnceSaved(lifecycle: LifecycleActor) {
    const drafts = this.deps.drafts;
    if (!drafts) return;
    const sub = lifecycle.subscribe({
      next: (s) => {
        if (s.context.portfolio !== null) drafts.remove("wizard");
      },
      error: () => {},
    });
    this.stops.push(() => sub.unsubscribe());
  }

  /** A wizard actor, new (from its input) or brought back (from a stored snapshot). */
  private wizardActor(input: PortfolioWizardInput, snapshot?: PersistedWizard): WizardActor {
    const inspect = inspectObserver();
    // A wizard brought back is on no page until one of its pages opens.
    const restored =
      snapshot &&
      ({ ...snapshot, context: { ...snapshot.context, page: null } } as PersistedWizard);
    const wizard = createActor(loadedMachines().wizardMachine(this.deps.http, this.follow), {
      input,
      ...(restored ? { snapshot: restored } : {}),
      ...(inspect ? { inspect } : {}),
    }).start();
    this.watch(wizard);
    this.keepWizard(wizard);
    return wizard;
  }

  /**
   * Brings back the portfolio being created in this tab (a reload, a link opened in it), from its
   * last resting snapshot, when there is no other portfolio in the workspace. The route guards
   * count it at once; its actor runs once the portfolio machines have loaded.
   */
  restore(): void {
    if (this.state.wizard || this.state.lifecycle || this.pending) return;
    const drafts = this.deps.drafts;
    const stored = drafts?.read("wizard");
    if (stored === null || stored === undefined) return;
    if (!restorableWizard(stored)) {
      drafts?.remove("wizard");
      return;
    }
    this.pending = stored;
    this.changed({ restoring: true });
    void loadPortfolioMachines().then(() => {
      if (this.pending !== stored) return; // cleared or replaced meanwhile
      this.pending = null;
      let wizard: WizardActor | null = null;
      try {
        const c = stored.context;
        wizard = this.wizardActor(
          { product: c.product, permissions: c.permissions, edition: this.deps.edition },
          stored,
        );
      } catch {
        drafts?.remove("wizard");
      }
      this.changed({ wizard, restoring: false });
    });
  }

  /** A new creation wizard (q1) for the product, replacing any other portfolio in progress. */
  startWizard(input: Omit<PortfolioWizardInput, "edition">): WizardActor {
    this.clear();
    const wizard = this.wizardActor({ ...input, edition: this.deps.edition });
    this.changed({ wizard, lifecycle: null });
    return wizard;
  }

  private readonly follow = (target: RouteTarget) => this.deps.follow?.(target);

  private lifecycleMachine() {
    const { http, saveFile } = this.deps;
    return loadedMachines().lifecycleMachine(http, saveFile, this.follow);
  }

  private startLifecycle(input: {
    product: Product;
    permissions: ProductPermissions;
    savedCount: number;
    portfolio?: Portfolio;
    draft?: PortfolioDraft;
  }): LifecycleActor {
    const inspect = inspectObserver();
    const lifecycle = createActor(this.lifecycleMachine(), {
      input,
      ...(inspect ? { inspect } : {}),
    }).start();
    this.watch(lifecycle);
    this.forgetWizardOnceSaved(lifecycle);
    this.changed({ lifecycle });
    return lifecycle;
  }

  /** The wizard composed its portfolio: it goes on to be saved (the wizard stays, done). */
  adoptComposed(permissions: ProductPermissions, savedCount: number): LifecycleActor | null {
    const wizard = this.state.wizard?.getSnapshot();
    if (!wizard || wizard.status !== "done" || !wizard.output) return null;
    return this.startLifecycle({
      product: wizard.context.product,
      permissions,
      savedCount,
      draft: wizard.output,
    });
  }

  /** A saved portfolio opened from my portfolios. */
  open(portfolio: Portfolio, permissions: ProductPermissions, savedCount: number): LifecycleActor {
    const current = this.state.lifecycle?.getSnapshot();
    if (
      this.state.lifecycle &&
      current?.status === "active" &&
      current.context.portfolio?.id === portfolio.id
    )
      return this.state.lifecycle;
    this.clear();
    return this.startLifecycle({ product: portfolio.product, permissions, savedCount, portfolio });
  }

  /**
   * The saved portfolio as the server now has it after a stored setting changed (its benchmark,
   * issue 27): the lifecycle starts again on it when it holds this portfolio saved, not being
   * edited (the what-if and the other screens then read the new setting).
   */
  renew(portfolio: Portfolio, permissions: ProductPermissions): void {
    const life = this.state.lifecycle?.getSnapshot();
    if (life?.status !== "active" || life.context.portfolio?.id !== portfolio.id) return;
    if (!life.matches("saved")) return;
    const savedCount = life.context.savedCount;
    this.clear();
    this.startLifecycle({ product: portfolio.product, permissions, savedCount, portfolio });
  }

  /**
   * Optimising a saved portfolio is an edition of it: the optimisation routes are behind
   * `portfolio-creation` ("a creation or edition process is under way", PRODUCT.md), which a
   * portfolio opened from my portfolios is not, and adopting the result edits the saved portfolio.
   * The saved portfolio `id` in the lifecycle starts an edition with the lifecycle's own `edit`
   * event (its canEdit guard: the edit permission, edits left; nothing is spent until a submit).
   * True when this portfolio's creation or edition is then under way, the fact the route guard
   * checks; false when the lifecycle refused (its `problem` says why) or holds no such portfolio.
   */
  startEdition(id: number): boolean {
    const lifecycle = this.state.lifecycle;
    const life = lifecycle?.getSnapshot();
    if (!lifecycle || life?.status !== "active" || life.context.portfolio?.id !== id) return false;
    if (life.matches("saved")) lifecycle.send({ type: "edit.start" });
    return creationInProgress(lifecycle.getSnapshot());
  }

  /** Sign-out, or a new start: nothing of the previous portfolio stays, in memory or stored. */
  clear() {
    for (const stop of this.stops.splice(0)) stop();
    this.state.wizard?.stop();
    this.state.lifecycle?.stop();
    this.deps.drafts?.remove("wizard");
    const had = this.state.wizard || this.state.lifecycle || this.pending;
    this.pending = null;
    if (had) this.changed({ wizard: null, lifecycle: null, restoring: false });
  }
}

/** Saved portfolios of the product already counted against the plan's limit. */
export async function savedCountOf(
  http: HttpClient,
  product: Product,
  permissions: ProductPermissions,
): Promise<number> {
  const limits = await http.call(endpoints.portfolioLimits);
  const entry = limits.find((l) => l.category === product);
  const available = typeof entry?.availablePortfolios === "number" ? entry.availablePortfolios : 0;
  return Math.max(0, permissions.construction.saveLimit - available);
}
