import { useState } from "react";
import { fromPromise } from "xstate";
import { bananaMachine, type BananaInput } from "../../../machines/banana.machine.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useAppMachine } from "../../app/use-app-machine.ts";
import { endpoints } from "../../contract/endpoints.ts";

/** The banana machine with its calls: capacity, the region's stocks, create and edit. */
export function useBanana(input: BananaInput) {
  const { http } = useServices();
  const [machine] = useState(() =>
    bananaMachine.provide({
      actors: {
        loadCapacity: fromPromise(() => orFailure(() => http.call(endpoints.bananaPortfolios))),
        loadUniverse: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.bananaUniverse, { query: { region: input.region } })),
        ),
        create: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.createBanana, { body: input })),
        ),
        update: fromPromise(({ input }) =>
          orFailure(() =>
            http.call(endpoints.updateBanana, { params: { id: input.id }, body: input.body }),
          ),
        ),
      },
    }),
  );
  return useAppMachine(machine, { input });
}
