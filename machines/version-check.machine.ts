import { assign, fromPromise, setup } from "xstate";

/** Interval between two reads of builds/latest.json (specification section 9). */
export const VERSION_CHECK_INTERVAL_MS = 10_000;

export interface VersionCheckInput {
  /** The build the running app was made from. */
  readonly currentBuild: string;
}

/**
 * Watches for a newer build of the app and offers a reload. The fetch is an abstract actor: the app
 * provides the real one, tests a fake.
 */
export const versionCheckMachine = setup({
  types: {
    input: {} as VersionCheckInput,
    context: {} as { currentBuild: string; latestBuild: string | null },
    events: {} as { type: "version.reload" } | { type: "version.dismiss" },
  },
  actors: {
    fetchLatestBuild: fromPromise<string>(async () => {
      throw new Error("fetchLatestBuild must be provided");
    }),
  },
  guards: {
    isNewBuild: ({ context }, params: { build: string }) => params.build !== context.currentBuild,
  },
  actions: {
    reloadPage: () => {
      throw new Error("reloadPage must be provided");
    },
  },
  delays: { pollInterval: VERSION_CHECK_INTERVAL_MS },
}).createMachine({
  id: "versionCheck",
  description: "Polls builds/latest.json every 10 seconds and offers a reload when it changes.",
  context: ({ input }) => ({ currentBuild: input.currentBuild, latestBuild: null }),
  initial: "waiting",
  states: {
    waiting: { after: { pollInterval: "checking" } },
    checking: {
      invoke: {
        id: "fetchLatestBuild",
        src: "fetchLatestBuild",
        onDone: [
          {
            guard: { type: "isNewBuild", params: ({ event }) => ({ build: event.output }) },
            target: "updateAvailable",
            actions: assign({ latestBuild: ({ event }) => event.output }),
          },
          { target: "waiting" },
        ],
        // Offline or mid-deploy: try again at the next tick.
        onError: "waiting",
      },
    },
    updateAvailable: {
      description: "A newer build is deployed; the app shows a reload banner.",
      on: { "version.reload": "reloading", "version.dismiss": "dismissed" },
    },
    dismissed: {
      description: "The user chose to finish what they were doing; reloads on the next navigation.",
    },
    reloading: { entry: "reloadPage", type: "final" },
  },
});
