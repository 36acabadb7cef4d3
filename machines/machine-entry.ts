import type { AnyStateMachine, EventObject } from "xstate";

/** What the documents and the path tests need to know about a machine. */
export interface MachineEntry {
  readonly machine: AnyStateMachine;
  readonly title: string;
  /** Each guard (as it appears in the chart) and the rule of the specification it mirrors. */
  readonly guards: Readonly<Record<string, string>>;
  /** Input for a representative actor. */
  readonly input?: unknown;
  /** Events to explore for paths; internal events (done, error, after) must be listed here. */
  readonly pathEvents: readonly (EventObject & Record<string, unknown>)[];
}
