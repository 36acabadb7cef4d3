import { assign, fromPromise, setup } from "xstate";

/**
 * Loads one thing from the API for a screen: loading, loaded, failed, with retry and refresh. The
 * `load` actor is abstract; each screen provides its own call.
 */
export const dataLoadMachine = setup({
  types: {
    context: {} as { data: unknown; error: unknown },
    events: {} as { type: "data.retry" } | { type: "data.refresh" },
  },
  actors: {
    load: fromPromise<unknown>(async () => {
      throw new Error("load must be provided");
    }),
  },
}).createMachine({
  id: "dataLoad",
  description: "The reusable loader behind every screen that shows data from the API.",
  context: { data: null, error: null },
  initial: "loading",
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        onDone: {
          target: "loaded",
          actions: assign({ data: ({ event }) => event.output, error: null }),
        },
        onError: { target: "failed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    loaded: { on: { "data.refresh": "loading" } },
    failed: { on: { "data.retry": "loading" } },
  },
});
