import {
  assign,
  fromPromise,
  setup,
  spawnChild,
  stopChild,
  type ActorLogic,
  type ActorSystem,
  type AnyStateMachine,
  type EmittedFrom,
  type EventFromLogic,
  type InputFrom,
  type SnapshotFrom,
} from "xstate";
import type {
  PortfolioLifecycleInput,
  portfolioLifecycleMachine,
} from "./portfolio-lifecycle.machine.ts";
import type { PortfolioWizardInput, portfolioWizardMachine } from "./portfolio-wizard.machine.ts";
import type { OptimiseInput, optimiseMachine } from "./optimise.machine.ts";
import type { sessionMachine } from "./session.machine.ts";
import type { WhatIfInput, whatIfMachine } from "./what-if.machine.ts";
import { systemIds } from "./system-ids.ts";

/** A child started from its input, or brought back from a stored snapshot (`snapshot`, else null). */
export interface RestorableInput<TInput> {
  readonly input: TInput;
  readonly snapshot: unknown;
}

/** The logic of a child that can be brought back from a stored snapshot given in its input. */
export type RestorableLogic<TMachine extends AnyStateMachine> = ActorLogic<
  SnapshotFrom<TMachine>,
  EventFromLogic<TMachine>,
  RestorableInput<InputFrom<TMachine>>,
  ActorSystem<any>,
  EmittedFrom<TMachine>
>;

/**
 * A child's logic the app provides (with its I/O, from a chunk loaded when a route needs it): the
 * root imports only the child machines' types, so the first page does not carry their code.
 */
function provided<TLogic>(name: string): TLogic {
  return fromPromise(async () => {
    throw new Error(`${name} must be provided`);
  }) as unknown as TLogic;
}

export interface AppContext {
  /**
   * The stored wizard being brought back (a reload) while its machine's chunk loads: the route
   * guards count it as the portfolio being created until its actor runs. Null otherwise.
   */
  readonly storedWizard: unknown;
  /** Which portfolio (of which client) the running optimisation is of; null when none runs. */
  readonly optimisation: string | null;
  /** The client the what-if belongs to; null when none runs. */
  readonly whatIfClient: number | null;
}

/** The root's children by id (`systemIds`), each with the name of its logic (`actors` below). */
export type AppChildren = {
  session: "session";
  portfolioWizard: "wizard";
  portfolioLifecycle: "lifecycle";
  optimise: "optimise";
  whatIf: "whatIf";
};

export type AppEvent =
  /** A new creation wizard (q1), replacing any other portfolio in progress. */
  | { type: "wizard.start"; input: PortfolioWizardInput }
  /** A wizard stored in this tab is being brought back (its machine is loading). */
  | { type: "wizard.restore"; snapshot: unknown }
  /** Its machine is there: the stored wizard runs again, from its snapshot. */
  | { type: "wizard.restored"; input: PortfolioWizardInput }
  /** The wizard composed its portfolio: it goes on to be saved in a lifecycle (the wizard stays, done). */
  | { type: "portfolio.adopt"; input: PortfolioLifecycleInput }
  /** A saved portfolio, opened from my portfolios (or again, as the server now has it). */
  | { type: "portfolio.open"; input: PortfolioLifecycleInput }
  /** An optimisation of the portfolio named by `identity`, replacing any other. */
  | { type: "optimisation.start"; identity: string; input: OptimiseInput }
  /** The optimisation is over or its portfolio is gone: nothing of it is kept. */
  | { type: "optimisation.end" }
  /** The optimisation was adopted: it is over. */
  | { type: "xstate.done.actor.optimise" }
  /** The what-if of the signed-in client, replacing another client's. */
  | { type: "whatIf.start"; clientId: number; input: WhatIfInput }
  /** Sign-out: nothing of the previous portfolio, its optimisation or the what-if stays. */
  | { type: "workspace.clear" };

/**
 * The app's root actor (issue 26; KittyCAD modeling-app's `appMachine`): it owns the long-lived
 * actors as children, each with its id from `systemIds` as child id and `systemId`. The session
 * runs from the start; the portfolio being created (the wizard) and the portfolio being saved or
 * worked on (the lifecycle) are started, replaced and cleared by events, one of each at a time.
 * The optimisation of the portfolio in the workspace runs beside them, one at a time, until it is
 * adopted, ended or cleared; so does the what-if of the signed-in client, until sign-out. The
 * children's logic and the stored drafts' removal (`forgetWizardDraft`, `forgetOptimiseDraft`) are
 * provided by the app; the one `inspect` on the root's actor sees every child.
 */
export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    children: {} as AppChildren,
  },
  actors: {
    session: provided<typeof sessionMachine>("session"),
    wizard: provided<RestorableLogic<typeof portfolioWizardMachine>>("wizard"),
    lifecycle: provided<typeof portfolioLifecycleMachine>("lifecycle"),
    optimise: provided<typeof optimiseMachine>("optimise"),
    whatIf: provided<typeof whatIfMachine>("whatIf"),
  },
  actions: {
    /** Removes the wizard's draft kept in this tab (provided by the app). */
    forgetWizardDraft: () => {
      throw new Error("forgetWizardDraft must be provided");
    },
    /** Removes the optimisation's inputs kept in this tab (provided by the app). */
    forgetOptimiseDraft: () => {
      throw new Error("forgetOptimiseDraft must be provided");
    },
    stopOptimise: stopChild(systemIds.optimise),
    forgetOptimisation: assign({ optimisation: null }),
    stopWhatIf: stopChild(systemIds.whatIf),
    stopWizard: stopChild(systemIds.portfolioWizard),
    stopLifecycle: stopChild(systemIds.portfolioLifecycle),
    forgetStoredWizard: assign({ storedWizard: null }),
  },
}).createMachine({
  id: "app",
  description:
    "The root of the long-lived actors: the session from the start, the portfolio being created (wizard) and the one being saved or worked on (lifecycle), their optimisation and the what-if, each a child under its system id, one of each at a time.",
  context: { storedWizard: null, optimisation: null, whatIfClient: null },
  entry: spawnChild("session", { id: systemIds.session, systemId: systemIds.session }),
  initial: "ready",
  on: {
    "wizard.start": {
      target: ".ready",
      actions: [
        "stopWizard",
        "stopLifecycle",
        "forgetWizardDraft",
        "forgetStoredWizard",
        spawnChild("wizard", {
          id: systemIds.portfolioWizard,
          systemId: systemIds.portfolioWizard,
          input: ({ event }) => {
            if (event.type !== "wizard.start") throw new Error(event.type);
            return { input: event.input, snapshot: null };
          },
        }),
      ],
    },
    "portfolio.open": {
      target: ".ready",
      actions: [
        "stopWizard",
        "stopLifecycle",
        "forgetWizardDraft",
        "forgetStoredWizard",
        spawnChild("lifecycle", {
          id: systemIds.portfolioLifecycle,
          systemId: systemIds.portfolioLifecycle,
          input: ({ event }) => {
            if (event.type !== "portfolio.open") throw new Error(event.type);
            return event.input;
          },
        }),
      ],
    },
    "workspace.clear": {
      target: ".ready",
      actions: [
        "stopWizard",
        "stopLifecycle",
        "forgetWizardDraft",
        "forgetStoredWizard",
        "stopOptimise",
        "forgetOptimisation",
        "forgetOptimiseDraft",
        "stopWhatIf",
        assign({ whatIfClient: null }),
      ],
    },
    "whatIf.start": {
      actions: [
        "stopWhatIf",
        spawnChild("whatIf", {
          id: systemIds.whatIf,
          systemId: systemIds.whatIf,
          input: ({ event }) => {
            if (event.type !== "whatIf.start") throw new Error(event.type);
            return event.input;
          },
        }),
        assign({
          whatIfClient: ({ event }) => (event.type === "whatIf.start" ? event.clientId : null),
        }),
      ],
    },
    "optimisation.start": {
      actions: [
        "stopOptimise",
        spawnChild("optimise", {
          id: systemIds.optimise,
          systemId: systemIds.optimise,
          input: ({ event }) => {
            if (event.type !== "optimisation.start") throw new Error(event.type);
            return event.input;
          },
        }),
        assign({
          optimisation: ({ event }) =>
            event.type === "optimisation.start" ? event.identity : null,
        }),
      ],
    },
    "optimisation.end": {
      actions: ["stopOptimise", "forgetOptimisation", "forgetOptimiseDraft"],
    },
    "xstate.done.actor.optimise": {
      description:
        "Adopted: the optimisation took the person to the portfolio; nothing of it is kept.",
      actions: ["stopOptimise", "forgetOptimisation", "forgetOptimiseDraft"],
    },
  },
  states: {
    ready: {
      on: {
        "wizard.restore": {
          target: "restoring",
          actions: assign({ storedWizard: ({ event }) => event.snapshot }),
        },
        "portfolio.adopt": {
          actions: [
            "stopLifecycle",
            spawnChild("lifecycle", {
              id: systemIds.portfolioLifecycle,
              systemId: systemIds.portfolioLifecycle,
              input: ({ event }) => {
                if (event.type !== "portfolio.adopt") throw new Error(event.type);
                return event.input;
              },
            }),
          ],
        },
      },
    },
    /** A stored wizard is coming back: start no other meanwhile (a start or a clear drops it). */
    restoring: {
      on: {
        "wizard.restored": {
          description: "The stored wizard's machine has loaded: it runs again from its snapshot.",
          target: "ready",
          actions: [
            spawnChild("wizard", {
              id: systemIds.portfolioWizard,
              systemId: systemIds.portfolioWizard,
              input: ({ context, event }) => {
                if (event.type !== "wizard.restored") throw new Error(event.type);
                return { input: event.input, snapshot: context.storedWizard };
              },
            }),
            "forgetStoredWizard",
          ],
        },
      },
    },
  },
});
