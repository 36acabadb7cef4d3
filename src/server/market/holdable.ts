/**
 * What a portfolio may hold (docs/market-data.md, "Holdable instruments"; issue 24). Portfolios
 * are in EUR or USD and the data converts between the two with EUR/USD only: an instrument quoted
 * in any other currency (FTSE 100 in GBP, Nikkei 225 in JPY) cannot be valued in the portfolio's
 * currency, and a yield (`kind = rate`, a level in percent that can be negative) is not a price at
 * all. Both stay on the markets page in their own terms; neither is offered for a portfolio, and
 * the API refuses them with their own codes.
 */
import type { MarketView } from "./market-view.ts";

export const PORTFOLIO_CURRENCIES = ["EUR", "USD"] as const;
export type PortfolioCurrency = (typeof PORTFOLIO_CURRENCIES)[number];

export type HoldingProblem = "YIELD_NOT_HOLDABLE" | "CURRENCY_NOT_CONVERTIBLE";

const isPortfolioCurrency = (c: string): c is PortfolioCurrency =>
  (PORTFOLIO_CURRENCIES as readonly string[]).includes(c);

/** Whether the market has an EUR/USD rate on or before its today (to convert between the two). */
export function hasEurUsd(view: MarketView): boolean {
  const i = view.snapshot.index.get("EURUSD");
  const first = i === undefined ? -1 : view.snapshot.first[i]!;
  return first >= 0 && view.todayIndex >= 0 && first <= view.todayIndex;
}

/**
 * Why an instrument cannot be held in a portfolio of `currency` (any portfolio currency when
 * null), or null when it can: a yield never; another currency only when EUR/USD converts it.
 */
export function holdingProblem(
  meta: { readonly kind: string; readonly currency: string },
  currency: PortfolioCurrency | null,
  eurUsd: boolean,
): HoldingProblem | null {
  if (meta.kind === "rate") return "YIELD_NOT_HOLDABLE";
  if (!isPortfolioCurrency(meta.currency)) return "CURRENCY_NOT_CONVERTIBLE";
  if (currency === null || meta.currency === currency || eurUsd) return null;
  return "CURRENCY_NOT_CONVERTIBLE";
}
