// A signed-in client with a saved portfolio written straight into the database, as a save leaves
// it: the set-up of the server tests that read a saved portfolio (its past, its PDF report) without
// going through the save itself (tests/server/portfolios.test.ts covers that).
import type { Holding } from "../../src/contract/analytics.ts";
import type { Product } from "../../src/contract/common.ts";
import type { Database } from "../../src/server/db/database.ts";
import { portfolioAssets, portfolios } from "../../src/server/db/schema.ts";
import { signedInClient } from "./databases.ts";

/** The market day the saved portfolios are priced on (the simulated dataset's last day). */
export const SAVED_ON = "2026-11-20";

/** The holdings of a saved portfolio unless a test gives others: US and Madrid stocks, a bond fund. */
export const SAVED_HOLDINGS: readonly Holding[] = [
  { symbol: "AAPL", investedAmount: 6000 },
  { symbol: "SAN.MC", investedAmount: 3000 },
  { symbol: "TLT", investedAmount: 1000 },
];

export interface SavedPortfolioOptions {
  readonly product?: Product;
  readonly name?: string;
  readonly currency?: "EUR" | "USD";
  readonly benchmark?: number;
  readonly holdings?: readonly Holding[];
}

/** A saved portfolio of `clientId` (any product, whatever the plan); its id. */
export async function insertSavedPortfolio(
  database: Database,
  clientId: number,
  options: SavedPortfolioOptions = {},
): Promise<number> {
  const holdings = options.holdings ?? SAVED_HOLDINGS;
  const total = holdings.reduce((s, h) => s + h.investedAmount, 0);
  const [row] = await database.db
    .insert(portfolios)
    .values({
      clientId,
      product: options.product ?? "simAssets",
      name: options.name ?? "Saved",
      currency: options.currency ?? "EUR",
      benchmark: options.benchmark ?? 5,
      saved: true,
      totalInvested: total,
      initialInvested: total,
      pricedOn: SAVED_ON,
    })
    .returning({ id: portfolios.id });
  await database.db.insert(portfolioAssets).values(
    holdings.map((h, position) => ({
      portfolioId: row!.id,
      symbol: h.symbol,
      investedAmount: h.investedAmount,
      position,
    })),
  );
  return row!.id;
}

/**
 * A new client signed in at `tier` for `product`, with one saved portfolio of that product: the
 * client (its id and session token) and the portfolio's id.
 */
export async function clientWithSavedPortfolio(
  database: Database,
  product: Product,
  tier: "free" | "standard" | "advanced",
  options: Omit<SavedPortfolioOptions, "product"> = {},
): Promise<{ client: { id: number; token: string }; id: number }> {
  const client = await signedInClient(database, { [product]: tier });
  const id = await insertSavedPortfolio(database, client.id, { ...options, product });
  return { client, id };
}
