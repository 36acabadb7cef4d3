/**
 * The products' and tiers' names in the person's language (PRODUCT.md, "Names a person sees"): one
 * table for every screen. The server writes the same words from `contract/names.ts` (emails,
 * invoices, PDFs); tests/contract/names.test.ts holds the catalogs to them.
 */
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { Edition, Product } from "../contract/common.ts";
import { brandNames } from "../contract/names.ts";
import type { Tier } from "../contract/permissions.ts";

export const tierNames: Record<Tier, MessageDescriptor> = {
  free: msg`Free`,
  standard: msg`Standard`,
  advanced: msg`Advanced`,
};

/** `{brand}` is the edition's brand (hollytools or TwoTails), never translated. */
export const productNames: Record<Product, MessageDescriptor> = {
  simAssets: msg({
    message: "{brand} Stocks",
    comment: "Product name; {brand} is hollytools or TwoTails",
  }),
  simIndices: msg({
    message: "{brand} Index funds",
    comment: "Product name; {brand} is hollytools or TwoTails",
  }),
  simMonk: msg`Banana challenge`,
};

export const productNameOf = (i18n: I18n, edition: Edition, product: Product): string =>
  i18n._({ ...productNames[product], values: { brand: brandNames[edition] } });

export const tierNameOf = (i18n: I18n, tier: Tier): string => i18n._(tierNames[tier]);
