import { fromPromise } from "xstate";
import type { Portfolio } from "../contract/portfolios.ts";
import { portfolioLifecycleMachine } from "../../machines/portfolio-lifecycle.machine.ts";
import { portfolioWizardMachine } from "../../machines/portfolio-wizard.machine.ts";
import { optimiseMachine as optimiseMachineOf } from "../../machines/optimise.machine.ts";
import { systemIds } from "../../machines/system-ids.ts";
import { whatIfMachine as whatIfMachineOf } from "../../machines/what-if.machine.ts";
import { adoptInto } from "./adopt-optimised.ts";
import type { AppActor } from "./app-actor.ts";
import type { HttpClient } from "../client/http.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { RouteTarget } from "./route-follow.ts";
import { orFailure } from "./session/session-actor.ts";

/**
 * The portfolio machines with their API calls, in their own chunk: the first page does not need
 * them (src/app/portfolio-workspace.ts loads them for the routes whose screens start them).
 */
export function wizardMachine(http: HttpClient, follow: (target: RouteTarget) => void) {
  return portfolioWizardMachine.provide({
    actions: { follow: (_, target) => follow(target) },
    actors: {
      propose: fromPromise(({ input: body }) =>
        orFailure(() => http.call(endpoints.proposePortfolio, { body })),
      ),
    },
  });
}

export function lifecycleMachine(
  http: HttpClient,
  saveFile: (blob: Blob, fileName: string) => void,
  follow: (target: RouteTarget) => void,
) {
  return portfolioLifecycleMachine.provide({
    actions: { follow: (_, target) => follow(target) },
    actors: {
      savePortfolio: fromPromise(({ input: body }) =>
        orFailure(() => http.call(endpoints.savePortfolio, { body })),
      ),
      updatePortfolio: fromPromise(({ input }) =>
        orFailure(() =>
          http.call(endpoints.updatePortfolio, { params: { id: input.id }, body: input.request }),
        ),
      ),
      loadPortfolio: fromPromise(({ input }) =>
        orFailure(() => http.call(endpoints.portfolio, { params: { id: input.id } })),
      ),
      deletePortfolio: fromPromise(async ({ input }) => {
        await orFailure(() => http.call(endpoints.deletePortfolio, { params: { id: input.id } }));
      }),
      awaitValuation: fromPromise(({ input, signal }) =>
        input.valued
          ? Promise.resolve(null)
          : awaitValuation(
              () => http.call(endpoints.portfolio, { params: { id: input.id } }),
              signal,
            ),
      ),
      exportPortfolio: fromPromise(async ({ input }) => {
        const blob = await orFailure(() =>
          http.download(`/portfolios/${input.id}/export.${input.format}`),
        );
        saveFile(blob, `portfolio-${input.id}.${input.format}`);
      }),
    },
  });
}

/**
 * The optimisation with its call and its adoption (the optimised amounts handed to the portfolio's
 * own machine among the root's children, src/app/adopt-optimised.ts); in this chunk, which every
 * optimisation route loads.
 */
export function optimiseMachine(
  http: HttpClient,
  app: AppActor,
  follow: (target: RouteTarget) => void,
) {
  return optimiseMachineOf.provide({
    actors: {
      optimise: fromPromise(({ input: body, signal }) =>
        orFailure(() => http.call(endpoints.optimise, { body, signal })),
      ),
      adopt: fromPromise(({ input: { answer, portfolio } }) => {
        // The names of the assets an adoption adds: the optimised universe is the portfolio's
        // assets and the new ones chosen, each with its name.
        const optimisation = app.getSnapshot().children[systemIds.optimise]?.getSnapshot();
        const chosen = optimisation?.context.newAssets ?? [];
        const names = new Map([...portfolio.assets, ...chosen].map((a) => [a.symbol, a.name]));
        return adoptInto(app, answer, names);
      }),
    },
    actions: { follow: (_, target) => follow(target) },
  });
}

/** The what-if with its call (in this chunk, which the what-if routes load). */
export function whatIfMachine(http: HttpClient, follow: (target: RouteTarget) => void) {
  return whatIfMachineOf.provide({
    actors: {
      runWhatIf: fromPromise(({ input, signal }) =>
        orFailure(() => http.call(endpoints.whatIf, { body: input, signal })),
      ),
    },
    actions: { follow: (_, target) => follow(target) },
  });
}

/** The waits between reads of a saved portfolio until its first valuation is there (about 30 s in all). */
export const VALUATION_WAITS_MS = [500, 1000, 2000, 4000, 8000, 15_000] as const;

/**
 * Reads a portfolio again until it has a valuation (the save's answer came before it): the read
 * portfolio, or null when none came in time or the screen went away (`signal`).
 */
export async function awaitValuation(
  read: () => Promise<Portfolio>,
  signal: AbortSignal,
  wait: (ms: number, signal: AbortSignal) => Promise<void> = delay,
): Promise<Portfolio | null> {
  for (const ms of VALUATION_WAITS_MS) {
    await wait(ms, signal);
    if (signal.aborted) return null;
    try {
      const portfolio = await read();
      if (portfolio.valuation !== null) return portfolio;
    } catch {
      // A failed read is tried again at the next wait.
    }
  }
  return null;
}

const delay = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
