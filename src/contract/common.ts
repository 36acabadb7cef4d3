import { Schema } from "effect";

/** Languages of the product; the first segment of every localised path. */
export const Locale = Schema.Literals(["en", "es"]);
export type Locale = typeof Locale.Type;
export const locales: readonly Locale[] = ["en", "es"];
export const defaultLocale: Locale = "en";

/** The two branded editions (web-context setting `ctx`). */
export const Edition = Schema.Literals(["ht", "tt"]);
export type Edition = typeof Edition.Type;

/** Products (portfolio types, `stc`). */
export const Product = Schema.Literals(["simAssets", "simIndices", "simMonk"]);
export type Product = typeof Product.Type;
export const products: readonly Product[] = ["simAssets", "simIndices", "simMonk"];
export const defaultProduct: Product = "simAssets";

/** Query parameters that every API request carries (specification, section 7). */
export const CommonQuery = Schema.Struct({
  lang: Schema.optional(Locale),
  ctx: Schema.optional(Edition),
  stc: Schema.optional(Product),
});
export type CommonQuery = typeof CommonQuery.Type;
