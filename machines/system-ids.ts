/**
 * The ids of the app's long-lived actors, in one place (issue 26, after KittyCAD modeling-app's
 * `ACTOR_IDS`): the root app machine (machines/app.machine.ts) spawns each with its id as both its
 * child id and its `systemId`, and the app reads them from the root's snapshot (`children[id]`)
 * or its system (`system.get(id)`).
 */
export const systemIds = {
  /** The session (sign-in, the client, sign-out). */
  session: "session",
  /** The creation wizard of the portfolio being created (q1 to its summary). */
  portfolioWizard: "portfolioWizard",
  /** The save-and-edit lifecycle of the portfolio composed or opened from my portfolios. */
  portfolioLifecycle: "portfolioLifecycle",
  /** The optimisation of the portfolio in the workspace (o1 to its adoption). */
  optimise: "optimise",
  /** The what-if of the signed-in client (its scenarios and its assessment). */
  whatIf: "whatIf",
} as const;

export type SystemId = (typeof systemIds)[keyof typeof systemIds];
