import { useState } from "react";
import { fromPromise } from "xstate";
import {
  investmentSimulatorMachine,
  type SimulatorPortfolio,
  type SimulatorSources,
} from "../../../machines/investment-simulator.machine.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useAppMachine } from "../../app/use-app-machine.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { Portfolio } from "../../contract/portfolios.ts";

/** A saved portfolio as the simulator uses it: its currency, window and amounts. */
export function simulatorPortfolioOf(p: Portfolio): SimulatorPortfolio {
  return {
    id: p.id,
    name: p.name,
    currency: p.currency,
    benchmark: p.benchmark,
    assets: p.assets.flatMap((g) =>
      g.assets.map((a) => ({ symbol: a.id, amount: a.investedAmount })),
    ),
    totalInvested: p.totalInvested,
  };
}

/** The investment simulator machine with its calls: the saved portfolios and assets, and the run. */
export function useSimulator(portfolioId: number | null) {
  const { http } = useServices();
  const [machine] = useState(() =>
    investmentSimulatorMachine.provide({
      actors: {
        loadSources: fromPromise(async (): Promise<SimulatorSources> => {
          const [list, market] = await Promise.all([
            orFailure(() => http.call(endpoints.portfolios)),
            orFailure(() => http.call(endpoints.marketAssets)),
          ]);
          return {
            portfolios: list.portfolios
              .filter((p) => p.saved && p.assets.some((g) => g.assets.length > 0))
              .map(simulatorPortfolioOf),
            assets: market.assets
              .filter((a) => !a.stale)
              .map((a) => ({ symbol: a.symbol, name: a.name, currency: a.currency })),
          };
        }),
        simulate: fromPromise(({ input, signal }) =>
          orFailure(() => http.call(endpoints.simulate, { body: input, signal })),
        ),
      },
    }),
  );
  return useAppMachine(machine, { input: { portfolioId } });
}
