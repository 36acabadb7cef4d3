import { useState } from "react";
import { fromPromise } from "xstate";
import {
  investmentSimulatorMachine,
  type SimulatorAsset,
  type SimulatorPortfolio,
  type SimulatorSources,
} from "../../../machines/investment-simulator.machine.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useAppMachine } from "../../app/use-app-machine.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { Currency } from "../../contract/analytics.ts";
import type { AssetSummary } from "../../contract/market.ts";
import { toHolding, type Portfolio } from "../../contract/portfolios.ts";

/** A saved portfolio as the simulator uses it: its currency, window and holdings. */
export function simulatorPortfolioOf(p: Portfolio): SimulatorPortfolio {
  return {
    id: p.id,
    name: p.name,
    currency: p.currency,
    benchmark: p.benchmark,
    assets: p.assets.flatMap((g) => g.assets.map(toHolding)),
    totalInvested: p.totalInvested,
  };
}

/**
 * The assets the simulator offers on the spot, each with the portfolio currencies that can hold it,
 * from the lists the server answers per currency (`GET /market/assets?currency=`); stale ones out.
 */
export function holdableAssets(
  lists: Record<Currency, readonly AssetSummary[]>,
): readonly SimulatorAsset[] {
  const bySymbol = new Map<string, SimulatorAsset>();
  for (const currency of ["EUR", "USD"] as const)
    for (const a of lists[currency]) {
      if (a.stale) continue;
      const known = bySymbol.get(a.symbol);
      bySymbol.set(a.symbol, {
        symbol: a.symbol,
        name: a.name,
        currency: a.currency,
        holdableIn: [...(known?.holdableIn ?? []), currency],
      });
    }
  return [...bySymbol.values()];
}

/** The investment simulator machine with its calls: the saved portfolios and assets, and the run. */
export function useSimulator(portfolioId: number | null) {
  const { http } = useServices();
  const [machine] = useState(() =>
    investmentSimulatorMachine.provide({
      actors: {
        loadSources: fromPromise(async (): Promise<SimulatorSources> => {
          // The assets a portfolio in each currency can hold (the server leaves out yields and
          // currencies it cannot convert into that one: docs/market-data.md, "Holdable instruments").
          const [list, eur, usd] = await Promise.all([
            orFailure(() => http.call(endpoints.portfolios)),
            orFailure(() => http.call(endpoints.marketAssets, { query: { currency: "EUR" } })),
            orFailure(() => http.call(endpoints.marketAssets, { query: { currency: "USD" } })),
          ]);
          return {
            portfolios: list.portfolios
              .filter((p) => p.saved && p.assets.some((g) => g.assets.length > 0))
              .map(simulatorPortfolioOf),
            assets: holdableAssets({ EUR: eur.assets, USD: usd.assets }),
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
