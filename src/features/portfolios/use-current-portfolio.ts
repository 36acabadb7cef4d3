import { useSelector } from "@xstate/react";
import { useWorkspace } from "../../app/use-workspace.ts";
import type { Currency } from "../../contract/analytics.ts";

export interface CurrentPortfolio {
  readonly name: string | null;
  readonly currency: Currency;
  readonly benchmark?: 1 | 2 | 3 | 4 | 5 | 6;
  /** The saved portfolio's stored benchmark (issue 27; null or absent: the market of its currency). */
  readonly benchmarkSeries?: string | null;
  /** Each holding with its name as the portfolio has it (a screen shows names, not symbols). */
  readonly assets: readonly {
    readonly id: string;
    readonly name: string;
    readonly investedAmount: number;
  }[];
  /** Set when the portfolio is saved and shown as saved (not being edited). */
  readonly savedId: number | null;
  readonly maxToLose95: number | null;
}

/**
 * The portfolio the analysis screens look at: the one being edited or saved in the lifecycle, or
 * the wizard's summary. Null when there is none (the route guards keep the screens away then).
 */
export function useCurrentPortfolio(): CurrentPortfolio | null {
  const state = useWorkspace();
  const life = useSelector(state.lifecycle ?? undefined, (s) => s);
  const wizard = useSelector(state.wizard ?? undefined, (s) => s);
  if (life && life.status === "active") {
    const c = life.context;
    const p = c.portfolio;
    const editing = c.draft !== null;
    const currency = (editing ? c.draft!.currency : p?.currency) ?? null;
    if (currency === "EUR" || currency === "USD") {
      const assets = editing
        ? c.draft!.assets
        : (p?.assets.flatMap((g) =>
            g.assets.map((a) => ({ id: a.id, name: a.name, investedAmount: a.investedAmount })),
          ) ?? []);
      return {
        name: p?.name ?? c.name,
        currency,
        ...(p ? { benchmark: p.benchmark, benchmarkSeries: p.benchmarkSeries } : {}),
        assets: assets.filter((a) => a.investedAmount > 0),
        savedId: p && !editing ? p.id : null,
        maxToLose95: (editing ? c.draft!.answers?.maxToLose95 : p?.answers?.maxToLose95) ?? null,
      };
    }
  }
  if (wizard && (wizard.status === "active" || wizard.status === "done")) {
    const c = wizard.context;
    const currency = c.answers.currency;
    if ((currency === "EUR" || currency === "USD") && c.assets.length > 0)
      return {
        name: null,
        currency,
        assets: c.assets.filter((a) => a.investedAmount > 0),
        savedId: null,
        maxToLose95: c.answers.maxToLose95,
      };
  }
  return null;
}
