import { describe, expect, it } from "vitest";
import { products, type Product } from "../../src/contract/common.ts";
import { decode } from "../../src/contract/decode.ts";
import {
  compareTiers,
  defaultPermissions,
  permissionsByTier,
  permissionsFor,
  ProductPermissions,
  tiersByProduct,
  type Tier,
} from "../../src/contract/permissions.ts";

type Leaf = [path: string, value: boolean | number];

/** Every leaf of a permissions object, as "group.name" (or "group.name.region") and its value. */
function leaves(value: unknown, prefix = ""): Leaf[] {
  if (typeof value === "boolean" || typeof value === "number") return [[prefix, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    leaves(v, prefix ? `${prefix}.${k}` : k),
  );
}

const entries = products.flatMap((product) =>
  tiersByProduct[product].map((tier) => [product, tier as Tier] as const),
);

describe("the permissions table", () => {
  it("has an entry for every tier of every product, and nothing else", () => {
    for (const product of products) {
      expect(Object.keys(permissionsByTier[product]).sort()).toEqual(
        [...tiersByProduct[product]].sort(),
      );
    }
    expect(tiersByProduct).toEqual({
      simAssets: ["free", "standard", "advanced"],
      simMonk: ["free", "standard", "advanced"],
      simIndices: ["free", "advanced"],
    });
  });

  it.each(entries)("%s %s decodes with ProductPermissions, without extra keys", (product, tier) => {
    const permissions = permissionsByTier[product][tier];
    const decoded = decode(ProductPermissions, permissions);
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
    // Decoding drops unknown keys: equality means there were none.
    expect(decoded.value).toEqual(permissions);
    expect(leaves(permissions).map(([p]) => p)).toEqual(leaves(defaultPermissions).map(([p]) => p));
  });

  it.each(products)("the free tier of %s is the specification's defaults", (product) => {
    expect(permissionsByTier[product].free).toEqual(defaultPermissions);
    const granted = leaves(defaultPermissions)
      .filter(([, v]) => v === true)
      .map(([p]) => p);
    expect(granted.sort()).toEqual(
      [
        "analysis.breakdown",
        "analysis.diversificationRisk",
        "scoring.global",
        "competition.bananaPortfolios",
      ].sort(),
    );
    expect(defaultPermissions.construction.maxAssets).toBe(5);
    const limits = leaves(defaultPermissions).filter(
      ([p, v]) => typeof v === "number" && p !== "construction.maxAssets",
    );
    expect(limits).toEqual([
      ["construction.saveLimit", 0],
      ["construction.saveLimitPerRegion.eu", 0],
      ["construction.saveLimitPerRegion.usa", 0],
      ["management.editLimit", 0],
    ]);
  });

  it.each(products)(
    "never removes a permission of a lower tier of %s in a higher one (monotonic)",
    (product: Product) => {
      const tiers = tiersByProduct[product];
      for (let i = 0; i < tiers.length; i++) {
        for (let j = i + 1; j < tiers.length; j++) {
          const lower = new Map(leaves(permissionsByTier[product][tiers[i] as Tier]));
          const higher = new Map(leaves(permissionsByTier[product][tiers[j] as Tier]));
          for (const [path, value] of lower) {
            const above = higher.get(path)!;
            const where = `${product}: ${tiers[i]} → ${tiers[j]}, ${path}`;
            if (typeof value === "boolean") {
              if (value) expect(above, where).toBe(true);
            } else {
              expect(above, where).toBeGreaterThanOrEqual(value);
            }
          }
        }
      }
    },
  );

  it("gives a paid tier more than the free tier in every product", () => {
    for (const product of products) {
      const [, ...paid] = tiersByProduct[product];
      for (const tier of paid) {
        expect(permissionsByTier[product][tier as Tier]).not.toEqual(defaultPermissions);
      }
    }
  });

  it("gives the banana permission (simMonk simulator) to simMonk's paid tiers only", () => {
    expect(permissionsFor("simMonk", "free").construction.simulator).toBe(false);
    expect(permissionsFor("simMonk", "standard").construction.simulator).toBe(true);
    expect(permissionsFor("simMonk", "advanced").construction.simulator).toBe(true);
    expect(permissionsFor("simMonk", "standard").construction.maxAssets).toBe(50);
  });

  it("falls back to the defaults for no tier and for a tier the product lacks", () => {
    expect(permissionsFor("simAssets", null)).toEqual(defaultPermissions);
    expect(permissionsFor("simIndices", "standard")).toEqual(defaultPermissions);
  });
});

describe("compareTiers (specification section 4)", () => {
  it.each([
    ["simAssets", "free", "standard", "upgrade"],
    ["simAssets", "free", "advanced", "upgrade"],
    ["simAssets", "standard", "advanced", "upgrade"],
    ["simAssets", "advanced", "standard", "downgrade"],
    ["simAssets", "advanced", "free", "downgrade"],
    ["simAssets", "standard", "free", "downgrade"],
    ["simAssets", "standard", "standard", "current"],
    ["simAssets", "free", "free", "current"],
    ["simMonk", "free", "standard", "upgrade"],
    ["simMonk", "standard", "advanced", "upgrade"],
    ["simMonk", "advanced", "free", "downgrade"],
    ["simMonk", "advanced", "advanced", "current"],
    ["simIndices", "free", "advanced", "upgrade"],
    ["simIndices", "advanced", "free", "downgrade"],
    ["simIndices", "advanced", "advanced", "current"],
    ["simIndices", "free", "standard", "invalid"],
    ["simIndices", "standard", "advanced", "invalid"],
    ["simIndices", "standard", "standard", "invalid"],
    ["simAssets", "free", "premium", "invalid"],
    ["simMonk", "gold", "free", "invalid"],
    ["simAssets", "", "free", "invalid"],
  ] as const)("%s: %s → %s is %s", (product, current, target, expected) => {
    expect(compareTiers(product, current, target)).toBe(expected);
  });
});
