import type { AnyStateMachine, EventObject } from "xstate";
import { dataLoadMachine } from "./data-load.machine.ts";
import { routeGuardNames, routeGuards } from "./guards/route-guards.ts";
import { signedOutFacts } from "./guards/access-facts.ts";
import { routeAccessMachine } from "./route-access.machine.ts";
import { versionCheckMachine } from "./version-check.machine.ts";

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

const guestFacts = signedOutFacts("ht", "simAssets");

export const machineRegistry: readonly MachineEntry[] = [
  {
    machine: routeAccessMachine,
    title: "Route access (route guards)",
    guards: {
      awaitsSession: "A guard of the route needs the session, which is still being restored.",
      ...Object.fromEntries(
        routeGuardNames.map((g) => [`deniedBy(${g})`, `${g}: ${routeGuards[g].rule}`]),
      ),
    },
    input: {
      guards: ["auth-registered", "portfolio-creation", "subscribed"],
      facts: { ...guestFacts, session: "unknown" },
    },
    pathEvents: [
      { type: "facts.changed", facts: guestFacts },
      {
        type: "facts.changed",
        facts: {
          ...guestFacts,
          session: "signedIn",
          account: {
            kind: "standard",
            trial: false,
            subscribedProducts: [],
            bananaPermission: false,
            policiesAccepted: true,
          },
        },
      },
      {
        type: "facts.changed",
        facts: {
          ...guestFacts,
          session: "signedIn",
          creationInProgress: true,
          account: {
            kind: "standard",
            trial: false,
            subscribedProducts: ["simAssets"],
            bananaPermission: false,
            policiesAccepted: true,
          },
        },
      },
    ],
  },
  {
    machine: versionCheckMachine,
    title: "New version check",
    guards: {
      isNewBuild:
        "builds/latest.json names another build than the running one (poll every 10 seconds).",
    },
    input: { currentBuild: "build-1" },
    pathEvents: [
      { type: "xstate.after.pollInterval.versionCheck.waiting" },
      { type: "xstate.done.actor.fetchLatestBuild", output: "build-1" },
      { type: "xstate.done.actor.fetchLatestBuild", output: "build-2" },
      { type: "xstate.error.actor.fetchLatestBuild", error: new Error("offline") },
      { type: "version.reload" },
      { type: "version.dismiss" },
    ],
  },
  {
    machine: dataLoadMachine,
    title: "Data loading",
    guards: {},
    pathEvents: [
      { type: "xstate.done.actor.load", output: { ok: true } },
      { type: "xstate.error.actor.load", error: new Error("offline") },
      { type: "data.retry" },
      { type: "data.refresh" },
    ],
  },
];

export function machineEntry(id: string): MachineEntry {
  const entry = machineRegistry.find((e) => e.machine.id === id);
  if (!entry)
    throw new Error(
      `Unknown machine "${id}"; known: ${machineRegistry.map((e) => e.machine.id).join(", ")}`,
    );
  return entry;
}
