// The names a person sees (PRODUCT.md, "Names a person sees"): the screens' catalogs and the
// server's own texts (emails, invoices, PDFs) say the same product and plan names, in both
// languages and editions, and no internal code reaches either.
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { locales, products, type Edition } from "../../src/contract/common.ts";
import { productName, tierName } from "../../src/contract/names.ts";
import type { Tier } from "../../src/contract/permissions.ts";
import { planName } from "../../src/server/billing/texts.ts";
import { productNameOf, tierNameOf } from "../../src/ui/plan-names.ts";

afterEach(() => activateLocale("en"));

const editions: readonly Edition[] = ["ht", "tt"];
const tiers: readonly Tier[] = ["free", "standard", "advanced"];

const internalCode = /\bsim[A-Z]\w*|\b[a-z]+[A-Z]\w*\b/;

describe("product and tier names", () => {
  it("read as PRODUCT.md names them", () => {
    expect(productName("en", "ht", "simAssets")).toBe("hollytools Stocks");
    expect(productName("es", "ht", "simAssets")).toBe("hollytools Acciones");
    expect(productName("en", "ht", "simIndices")).toBe("hollytools Index funds");
    expect(productName("es", "ht", "simIndices")).toBe("hollytools Fondos indexados");
    expect(productName("en", "tt", "simIndices")).toBe("TwoTails Index funds");
    expect(productName("es", "tt", "simAssets")).toBe("TwoTails Acciones");
    expect(productName("es", "ht", "simMonk")).toBe("Banana challenge");
    expect(tierName("es", "free")).toBe("Gratis");
    expect(tierName("es", "standard")).toBe("Estándar");
    expect(tierName("en", "advanced")).toBe("Advanced");
  });

  it.each(locales)("are the same on the screens and in the server's texts (%s)", async (locale) => {
    await activateLocale(locale);
    for (const edition of editions)
      for (const product of products) {
        const onScreen = productNameOf(i18n, edition, product);
        expect(onScreen).toBe(productName(locale, edition, product));
        expect(onScreen).not.toMatch(internalCode);
      }
    for (const tier of tiers) expect(tierNameOf(i18n, tier)).toBe(tierName(locale, tier));
  });

  it("name a plan in an email or an invoice with the edition's brand", () => {
    expect(planName("en", "tt", "simIndices", "advanced", "annual")).toBe(
      "TwoTails Index funds Advanced (annual)",
    );
    expect(planName("es", "ht", "simAssets", "standard", "monthly")).toBe(
      "hollytools Acciones Estándar (mensual)",
    );
    for (const locale of locales)
      for (const edition of editions)
        for (const product of products)
          expect(planName(locale, edition, product, "advanced", "monthly")).not.toMatch(
            internalCode,
          );
  });
});
