/**
 * The names a person sees for the editions' brands, the products and the plans' tiers
 * (PRODUCT.md, "Names a person sees"): internal codes (`simAssets`, `simIndices`, `simMonk`) never
 * reach a screen, an email or a PDF. The server writes these words itself (emails, invoices, the
 * portfolio's PDF); the screens say the same through their catalogs, and a test holds the two to
 * the same words in both languages and editions.
 */
import type { Edition, Locale, Product } from "./common.ts";
import type { Tier } from "./permissions.ts";

/** Brand names are not translated. */
export const brandNames: Record<Edition, string> = { ht: "hollytools", tt: "TwoTails" };

/** Product names with `{brand}` where the edition's brand goes. */
export const productNameTemplates: Record<Locale, Record<Product, string>> = {
  en: {
    simAssets: "{brand} Stocks",
    simIndices: "{brand} Index funds",
    simMonk: "Banana challenge",
  },
  es: {
    simAssets: "{brand} Acciones",
    simIndices: "{brand} Fondos indexados",
    simMonk: "Banana challenge",
  },
};

export const productName = (locale: Locale, edition: Edition, product: Product): string =>
  productNameTemplates[locale][product].replace("{brand}", brandNames[edition]);

export const tierNamesIn: Record<Locale, Record<Tier, string>> = {
  en: { free: "Free", standard: "Standard", advanced: "Advanced" },
  es: { free: "Gratis", standard: "Estándar", advanced: "Avanzado" },
};

export const tierName = (locale: Locale, tier: Tier): string => tierNamesIn[locale][tier];
