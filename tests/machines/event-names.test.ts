// One event style (issue 26): every event a person, a screen or the app sends a machine is named
// `noun.verb` ("step.next", "portfolio.save", "edit.cancel"), so that a chart reads what happened
// to what; the machines' own internal events (xstate.*, done/error of an invoked actor, delays)
// are xstate's. A bare `next` or `save` beside `q1.change` fails here.
import { describe, expect, it } from "vitest";
import { machineRegistry } from "../../machines/index.ts";

const internal = /^xstate\./;
const nounVerb = /^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*$/;

describe("the machines' events", () => {
  it.each(machineRegistry.map((e) => [e.machine.id, e] as const))(
    "%s names each of its events noun.verb",
    (_id, entry) => {
      const events = entry.machine.root.events.filter((e: string) => !internal.test(e));
      expect(events.length).toBeGreaterThan(0);
      expect(events.filter((e: string) => !nounVerb.test(e))).toEqual([]);
    },
  );

  it("includes the events each machine's path exploration sends", () => {
    const bare = machineRegistry.flatMap((e) =>
      e.pathEvents.map((p) => p.type).filter((t) => !internal.test(t) && !nounVerb.test(t)),
    );
    expect(bare).toEqual([]);
  });
});
