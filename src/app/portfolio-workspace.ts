import type { ActorRefFrom, SnapshotFrom } from "xstate";
import type { RestorableLogic } from "../../machines/app.machine.ts";
import {
  creationInProgress,
  portfolioFacts,
  type PortfolioWizardSnapshot,
} from "../../machines/guards/portfolio-facts.ts";
import type { portfolioLifecycleMachine } from "../../machines/portfolio-lifecycle.machine.ts";
import type {
  portfolioWizardMachine,
  PortfolioWizardInput,
} from "../../machines/portfolio-wizard.machine.ts";
import { systemIds } from "../../machines/system-ids.ts";
import type { HttpClient } from "../client/http.ts";
import type { Edition, Product } from "../contract/common.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { ProductPermissions } from "../contract/permissions.ts";
import type { Portfolio } from "../contract/portfolios.ts";
import type { AppActor, AppSnapshot } from "./app-actor.ts";
import type { DraftStore } from "./drafts.ts";
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

/** The loaded portfolio machines (the root's wizard and lifecycle children are made of them). */
export function loadedPortfolioMachines(): typeof PortfolioMachines {
  if (!machines) throw new Error("portfolio machines not loaded: await loadPortfolioMachines()");
  return machines;
}

/** The wizard's resting states: a snapshot is kept only there (no proposal in flight). */
export const stableWizardStates = ["q1", "q2", "q3", "summary"];

export type WizardActor = ActorRefFrom<RestorableLogic<typeof portfolioWizardMachine>>;
export type LifecycleActor = ActorRefFrom<typeof portfolioLifecycleMachine>;

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
}

/** The portfolio actors in the root's snapshot (a composed wizard stays there, done). */
export function workspaceOf(root: AppSnapshot): WorkspaceState {
  return {
    wizard: root.children[systemIds.portfolioWizard] ?? null,
    lifecycle: root.children[systemIds.portfolioLifecycle] ?? null,
    restoring: root.matches("restoring"),
  };
}

/**
 * The route guards' portfolio facts: the wizard's (or the stored one coming back) and the
 * lifecycle's snapshots.
 */
export function workspaceFacts(
  storedWizard: unknown,
  wizard: SnapshotFrom<WizardActor> | undefined,
  lifecycle: SnapshotFrom<LifecycleActor> | undefined,
) {
  return portfolioFacts(wizard ?? (storedWizard as PortfolioWizardSnapshot | null), lifecycle);
}

export interface PortfolioWorkspaceDeps {
  readonly edition: Edition;
  /** Where the portfolio being created is kept for a reload (none: it lives in memory only). */
  readonly drafts?: DraftStore | null;
}

/**
 * The portfolio being created or worked on, shared by every route: the creation wizard's actor
 * and the save-and-edit lifecycle's actor, children of the app's root actor (src/app/app-actor.ts;
 * `systemIds.portfolioWizard`, `systemIds.portfolioLifecycle`). This is a thin facade: each action
 * is an event to the root, each read its snapshot; React reads the same with `useSelector`.
 */
export class PortfolioWorkspace {
  private readonly app: AppActor;
  private readonly deps: PortfolioWorkspaceDeps;

  constructor(app: AppActor, deps: PortfolioWorkspaceDeps) {
    this.app = app;
    this.deps = deps;
  }

  getState(): WorkspaceState {
    return workspaceOf(this.app.getSnapshot());
  }

  /** The drafts of this tab (the what-if and the optimisation keep theirs there too). */
  get drafts(): DraftStore | null {
    return this.deps.drafts ?? null;
  }

  facts() {
    const { wizard, lifecycle } = this.getState();
    const stored = this.app.getSnapshot().context.storedWizard;
    return workspaceFacts(stored, wizard?.getSnapshot(), lifecycle?.getSnapshot());
  }

  /**
   * Brings back the portfolio being created in this tab (a reload, a link opened in it), from its
   * last resting snapshot, when there is no other portfolio in the workspace. The route guards
   * count it at once; its actor runs once the portfolio machines have loaded.
   */
  restore(): void {
    const { wizard, lifecycle, restoring } = this.getState();
    if (wizard || lifecycle || restoring) return;
    const drafts = this.deps.drafts;
    const stored = drafts?.read("wizard");
    if (stored === null || stored === undefined) return;
    if (!restorableWizard(stored)) {
      drafts?.remove("wizard");
      return;
    }
    // A brought-back wizard is on no page until one of its pages opens.
    const snapshot = { ...stored, context: { ...stored.context, page: null } };
    this.app.send({ type: "wizard.restore", snapshot });
    void loadPortfolioMachines().then(() => {
      const root = this.app.getSnapshot();
      if (root.context.storedWizard !== snapshot) return; // cleared or replaced meanwhile
      const c = stored.context;
      this.app.send({
        type: "wizard.restored",
        input: { product: c.product, permissions: c.permissions, edition: this.deps.edition },
      });
      // A snapshot its machine could not take back is dropped, with its draft.
      if (this.getState().wizard?.getSnapshot().status !== "active")
        this.app.send({ type: "workspace.clear" });
    });
  }

  /** A new creation wizard (q1) for the product, replacing any other portfolio in progress. */
  startWizard(input: Omit<PortfolioWizardInput, "edition">): WizardActor {
    this.app.send({ type: "wizard.start", input: { ...input, edition: this.deps.edition } });
    return this.getState().wizard!;
  }

  /** The wizard composed its portfolio: it goes on to be saved (the wizard stays, done). */
  adoptComposed(permissions: ProductPermissions, savedCount: number): LifecycleActor | null {
    const wizard = this.getState().wizard?.getSnapshot();
    if (!wizard || wizard.status !== "done" || !wizard.output) return null;
    this.app.send({
      type: "portfolio.adopt",
      input: { product: wizard.context.product, permissions, savedCount, draft: wizard.output },
    });
    return this.getState().lifecycle;
  }

  /** A saved portfolio opened from my portfolios. */
  open(portfolio: Portfolio, permissions: ProductPermissions, savedCount: number): LifecycleActor {
    const { lifecycle } = this.getState();
    const current = lifecycle?.getSnapshot();
    if (lifecycle && current?.status === "active" && current.context.portfolio?.id === portfolio.id)
      return lifecycle;
    this.app.send({
      type: "portfolio.open",
      input: { product: portfolio.product, permissions, savedCount, portfolio },
    });
    return this.getState().lifecycle!;
  }

  /**
   * The saved portfolio as the server now has it after a stored setting changed (its benchmark,
   * issue 27): the lifecycle starts again on it when it holds this portfolio saved, not being
   * edited (the what-if and the other screens then read the new setting).
   */
  renew(portfolio: Portfolio, permissions: ProductPermissions): void {
    const life = this.getState().lifecycle?.getSnapshot();
    if (life?.status !== "active" || life.context.portfolio?.id !== portfolio.id) return;
    if (!life.matches("saved")) return;
    const savedCount = life.context.savedCount;
    this.app.send({
      type: "portfolio.open",
      input: { product: portfolio.product, permissions, savedCount, portfolio },
    });
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
    const { lifecycle } = this.getState();
    const life = lifecycle?.getSnapshot();
    if (!lifecycle || life?.status !== "active" || life.context.portfolio?.id !== id) return false;
    if (life.matches("saved")) lifecycle.send({ type: "edit.start" });
    return creationInProgress(lifecycle.getSnapshot());
  }

  /** Sign-out, or a new start: nothing of the previous portfolio stays, in memory or stored. */
  clear() {
    this.app.send({ type: "workspace.clear" });
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
