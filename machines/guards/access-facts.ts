import type { Edition, Product } from "../../src/contract/common.ts";

/** Restricted account kinds provisioned through each edition's partner (PRODUCT.md, "People"). */
export type AccountKind = "standard" | "HT" | "TT";

/** What the signed-in user is, as far as the route guards need to know. */
export interface AccountFacts {
  readonly kind: AccountKind;
  readonly trial: boolean;
  /** Products with an active paid subscription (tier standard or advanced). */
  readonly subscribedProducts: readonly Product[];
  /** The banana permission: simMonk's simulator permission. */
  readonly bananaPermission: boolean;
  readonly policiesAccepted: boolean;
}

/** Everything a route guard may look at. `session: "unknown"` means it is still being restored. */
export interface AccessFacts {
  readonly edition: Edition;
  /** The current product (`stc`). */
  readonly product: Product;
  readonly session: "unknown" | "signedOut" | "signedIn";
  readonly account: AccountFacts | null;
  /** A creation or edition process is under way. */
  readonly creationInProgress: boolean;
  /** A portfolio is loaded (created, or opened from my portfolios). */
  readonly portfolioLoaded: boolean;
}

export const signedOutFacts = (edition: Edition, product: Product): AccessFacts => ({
  edition,
  product,
  session: "signedOut",
  account: null,
  creationInProgress: false,
  portfolioLoaded: false,
});
