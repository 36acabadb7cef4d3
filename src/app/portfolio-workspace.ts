import { createActor, type ActorRefFrom } from "xstate";
import { portfolioFacts } from "../../machines/guards/portfolio-facts.ts";
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
import type { ProductPermissions } from "../contract/permissions.ts";
import type { Portfolio } from "../contract/portfolios.ts";
import { inspectObserver } from "./inspector.ts";
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
}

export interface WorkspaceState {
  readonly wizard: WizardActor | null;
  readonly lifecycle: LifecycleActor | null;
  /** Bumped on every change of either actor (for useSyncExternalStore). */
  readonly revision: number;
}

/**
 * The portfolio being created or worked on, shared by every route: the creation wizard's actor
 * and the save-and-edit lifecycle's actor. The route guards' creationInProgress / portfolioLoaded
 * come from their snapshots; sign-out clears both.
 */
export class PortfolioWorkspace {
  private state: WorkspaceState = { wizard: null, lifecycle: null, revision: 0 };
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

  facts() {
    return portfolioFacts(this.state.wizard?.getSnapshot(), this.state.lifecycle?.getSnapshot());
  }

  private changed(patch: Partial<WorkspaceState> = {}) {
    this.state = { ...this.state, ...patch, revision: this.state.revision + 1 };
    for (const l of this.listeners) l();
  }

  private watch(actor: { subscribe: (next: () => void) => { unsubscribe: () => void } }) {
    const sub = actor.subscribe(() => this.changed());
    this.stops.push(() => sub.unsubscribe());
  }

  /** A new creation wizard (q1) for the product, replacing any other portfolio in progress. */
  startWizard(input: Omit<PortfolioWizardInput, "edition">): WizardActor {
    this.clear();
    const { http } = this.deps;
    const machine = loadedMachines().wizardMachine(http);
    const inspect = inspectObserver();
    const wizard = createActor(machine, {
      input: { ...input, edition: this.deps.edition },
      ...(inspect ? { inspect } : {}),
    }).start();
    this.watch(wizard);
    this.changed({ wizard, lifecycle: null });
    return wizard;
  }

  private lifecycleMachine() {
    const { http, saveFile } = this.deps;
    return loadedMachines().lifecycleMachine(http, saveFile);
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

  /** Sign-out, or a new start: nothing of the previous portfolio stays. */
  clear() {
    for (const stop of this.stops.splice(0)) stop();
    this.state.wizard?.stop();
    this.state.lifecycle?.stop();
    if (this.state.wizard || this.state.lifecycle) this.changed({ wizard: null, lifecycle: null });
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
