import { createEmptyActor, type AnyStateMachine, type AnyStateNode } from "xstate";
import { getShortestPaths, getSimplePaths, type StatePath } from "xstate/graph";
import type { MachineEntry } from "../../machines/index.ts";

type Transition = {
  target?: readonly AnyStateNode[];
  guard?: unknown;
  eventType: string;
  delay?: unknown;
  actions?: readonly unknown[];
};

/** The actors a transition starts and leaves running (`spawnChild`), as ` / starts a, b`. */
function startsLabel(t: Transition): string {
  const started = (t.actions ?? []).flatMap((a) => {
    const action = a as { type?: unknown; src?: unknown };
    return action.type === "xstate.spawnChild" && typeof action.src === "string"
      ? [action.src]
      : [];
  });
  return started.length ? ` / starts ${started.join(", ")}` : "";
}

const nodeName = (n: AnyStateNode) => (n.path.length ? n.path.join("_") : n.machine.id);

/** A guard as the chart shows it: `name` or `name(param)` for parameterised guards. */
export function guardLabel(guard: unknown): string | undefined {
  if (guard == null) return undefined;
  if (typeof guard === "string") return guard;
  if (typeof guard === "function") return guard.name || "inline";
  const { type, params } = guard as { type: string; params?: unknown };
  if (params && typeof params === "object") return `${type}(${Object.values(params).join(", ")})`;
  return type;
}

const eventLabel = (t: Transition) => {
  if (t.eventType.startsWith("xstate.after.")) return `after ${String(t.delay)}`;
  if (t.eventType.startsWith("xstate.done.actor.")) return `done ${t.eventType.slice(18)}`;
  if (t.eventType.startsWith("xstate.error.actor.")) return `error ${t.eventType.slice(19)}`;
  return t.eventType;
};

/** A Mermaid stateDiagram-v2 of the machine: states, transitions with their guards, invocations. */
export function toMermaid(machine: AnyStateMachine): string {
  const out = ["stateDiagram-v2"];
  const edge = (ind: string, from: AnyStateNode, t: Transition, label: string) => {
    const g = guardLabel(t.guard);
    for (const target of t.target ?? [from])
      out.push(
        `${ind}${nodeName(from)} --> ${nodeName(target)}: ${label}${g ? ` [${g}]` : ""}${startsLabel(t)}`,
      );
  };
  const walk = (node: AnyStateNode, ind: string) => {
    const initial = node.initial?.target?.[0];
    if (initial) out.push(`${ind}[*] --> ${nodeName(initial)}`);
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      if (child.description)
        out.push(
          `${ind}${nodeName(child)}: ${child.key}\\n${child.description.replaceAll(":", " -")}`,
        );
      if (child.type === "final") out.push(`${ind}${nodeName(child)} --> [*]`);
      for (const inv of child.invoke)
        out.push(
          `${ind}note right of ${nodeName(child)}: invokes ${typeof inv.src === "string" ? inv.src : inv.id}`,
        );
      for (const [, ts] of child.transitions)
        for (const t of ts as Transition[]) edge(ind, child, t, eventLabel(t));
      for (const t of (child.always ?? []) as Transition[]) edge(ind, child, t, "always");
      if (Object.keys(child.states).length) {
        out.push(`${ind}state ${nodeName(child)} {`);
        walk(child, ind + "  ");
        out.push(`${ind}}`);
      }
    }
  };
  walk(machine.root, "  ");
  // Transitions declared on the root apply in every state.
  for (const [, ts] of machine.root.transitions) {
    for (const t of ts as Transition[]) {
      for (const target of t.target ?? [])
        out.push(`  note left of ${nodeName(target)}: any state --> ${t.eventType}`);
    }
  }
  return out.join("\n");
}

/** Every event the machine reacts to, with the states that accept it. */
export function eventsOf(machine: AnyStateMachine): Map<string, string[]> {
  const events = new Map<string, string[]>();
  const visit = (node: AnyStateNode) => {
    for (const [type] of node.transitions) {
      const list = events.get(type) ?? [];
      list.push(node.path.length ? node.path.join(".") : "(any state)");
      events.set(type, list);
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return events;
}

/** Guard labels used anywhere in the chart. */
export function guardsOf(machine: AnyStateMachine): Set<string> {
  const found = new Set<string>();
  const visit = (node: AnyStateNode) => {
    const all = [...[...node.transitions.values()].flat(), ...(node.always ?? [])] as Transition[];
    for (const t of all) {
      const g = guardLabel(t.guard);
      if (g) found.add(g);
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return found;
}

/** The machine's configuration as JSON the Stately visualiser imports (implementations by name). */
export function toStatelyJson(machine: AnyStateMachine): string {
  const replacer = (_key: string, value: unknown) =>
    typeof value === "function"
      ? { type: (value as { type?: string }).type ?? (value.name || "inline") }
      : value;
  return JSON.stringify(machine.config, replacer, 2) + "\n";
}

const stateLabel = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function describePath(path: StatePath<any, any>): string {
  const steps = path.steps
    .filter((s) => s.event.type !== "xstate.init")
    .map((s, i) => `  ${i + 1}. send ${s.event.type} -> ${stateLabel(s.state.value)}`);
  return [
    `reach "${stateLabel(path.state.value)}"${steps.length ? "" : " (initial state)"}`,
    ...steps,
  ].join("\n");
}

/** A bare actor scope with its own (empty) actor system, as xstate/graph's own. */
function scopeOfItsOwn() {
  const empty = createEmptyActor();
  return {
    self: empty,
    logger: console.log,
    id: "",
    sessionId: Math.random().toString(32).slice(2),
    defer: () => {},
    system: empty.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  };
}

/**
 * The machine as the traversal walks it, each transition in an actor system of its own: xstate/graph
 * shares one, so a machine that spawns a child under a `systemId` (the app's root) would register
 * that id twice, from two branches of the walk.
 */
function walked(machine: AnyStateMachine): AnyStateMachine {
  return Object.assign(Object.create(machine) as AnyStateMachine, {
    transition: (snapshot: never, event: never) =>
      machine.transition(snapshot, event, scopeOfItsOwn() as never),
  });
}

export function pathsOf(entry: MachineEntry, kind: "shortest" | "simple") {
  const machine = walked(entry.machine);
  const options = {
    input: entry.input,
    events: entry.pathEvents as never,
    serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
  };
  return kind === "shortest"
    ? getShortestPaths(machine, options)
    : getSimplePaths(machine, options);
}

export function machineMarkdown(entry: MachineEntry): string {
  const { machine } = entry;
  const events = eventsOf(machine);
  const guards = [...guardsOf(machine)].sort();
  const undocumented = guards.filter((g) => !(g in entry.guards));
  if (undocumented.length)
    throw new Error(
      `${machine.id}: guards without a rule in the registry: ${undocumented.join(", ")}`,
    );
  const lines = [
    `# ${entry.title} (\`${machine.id}\`)`,
    "",
    "<!-- Generated by `npm run machines:docs` from machines/; do not edit. -->",
    "",
    machine.root.description ?? "",
    "",
    "Import `" + machine.id + ".json` into the Stately visualiser to explore it.",
    "",
    "## Chart",
    "",
    "```mermaid",
    toMermaid(machine),
    "```",
    "",
    "## Events",
    "",
    "| event | accepted in |",
    "|---|---|",
    ...[...events].map(([type, states]) => `| \`${type}\` | ${states.join(", ")} |`),
    "",
    "## Guards",
    "",
    guards.length ? "| guard | rule it mirrors |" : "This machine has no guards.",
    ...(guards.length
      ? ["|---|---|", ...guards.map((g) => `| \`${g}\` | ${entry.guards[g]} |`)]
      : []),
    "",
    "## Shortest paths (for QA)",
    "",
    "```text",
    ...pathsOf(entry, "shortest").map(describePath),
    "```",
    "",
  ];
  return lines.join("\n");
}
