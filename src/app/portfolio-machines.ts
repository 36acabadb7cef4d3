import { fromPromise } from "xstate";
import { portfolioLifecycleMachine } from "../../machines/portfolio-lifecycle.machine.ts";
import { portfolioWizardMachine } from "../../machines/portfolio-wizard.machine.ts";
import type { HttpClient } from "../client/http.ts";
import { endpoints } from "../contract/endpoints.ts";
import { orFailure } from "./session/session-actor.ts";

/**
 * The portfolio machines with their API calls, in their own chunk: the first page does not need
 * them (src/app/portfolio-workspace.ts loads them for the routes whose screens start them).
 */
export function wizardMachine(http: HttpClient) {
  return portfolioWizardMachine.provide({
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
) {
  return portfolioLifecycleMachine.provide({
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
      exportPortfolio: fromPromise(async ({ input }) => {
        const blob = await orFailure(() =>
          http.download(`/portfolios/${input.id}/export.${input.format}`),
        );
        saveFile(blob, `portfolio-${input.id}.${input.format}`);
      }),
    },
  });
}
