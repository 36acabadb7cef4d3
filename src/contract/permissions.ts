import { Schema } from "effect";
import type { Product } from "./common.ts";

/** Subscription tiers in order, per product (specification section 4). */
export const tiersByProduct = {
  simAssets: ["free", "standard", "advanced"],
  simMonk: ["free", "standard", "advanced"],
  simIndices: ["free", "advanced"],
} as const satisfies Record<Product, readonly string[]>;

export const Tier = Schema.Literals(["free", "standard", "advanced"]);
export type Tier = typeof Tier.Type;
export const paidTiers: readonly Tier[] = ["standard", "advanced"];

export type TierChange = "upgrade" | "downgrade" | "current" | "invalid";

/** Compares a current and a target tier of a product (specification section 4). */
export function compareTiers(product: Product, current: string, target: string): TierChange {
  const order: readonly string[] = tiersByProduct[product];
  const from = order.indexOf(current);
  const to = order.indexOf(target);
  if (from < 0 || to < 0) return "invalid";
  return to > from ? "upgrade" : to < from ? "downgrade" : "current";
}

const Limit = Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)));
export const RegionLimits = Schema.Struct({ eu: Limit, usa: Limit });
export type RegionLimits = typeof RegionLimits.Type;

/** The permissions of one product, with exactly the groups and names of the specification (section 3). */
export const ProductPermissions = Schema.Struct({
  construction: Schema.Struct({
    simulator: Schema.Boolean,
    maxAssets: Limit,
    orderByMarketRisk: Schema.Boolean,
    save: Schema.Boolean,
    saveLimit: Limit,
    orderByExpectedReturn: Schema.Boolean,
    orderByRiskReturn: Schema.Boolean,
    minimization: Schema.Boolean,
    autoCreate: Schema.Boolean,
    lazyPortfolios: Schema.Boolean,
    saveLimitPerRegion: RegionLimits,
  }),
  management: Schema.Struct({
    delete: Schema.Boolean,
    edit: Schema.Boolean,
    editLimit: Limit,
    export: Schema.Boolean,
  }),
  analysis: Schema.Struct({
    breakdown: Schema.Boolean,
    diversificationRisk: Schema.Boolean,
    diversificationRiskReduction: Schema.Boolean,
    requiredReturns: Schema.Boolean,
    expectedReturns: Schema.Boolean,
    requiredReturnsOptimPortfolio: Schema.Boolean,
    expectedReturnsOptimPortfolio: Schema.Boolean,
    var: Schema.Boolean,
    componentRisk1: Schema.Boolean,
    componentRisk2: Schema.Boolean,
    currencyRisk: Schema.Boolean,
  }),
  scoring: Schema.Struct({
    global: Schema.Boolean,
    riskReturn: Schema.Boolean,
    diversification: Schema.Boolean,
    marketRisk: Schema.Boolean,
    communityGlobal: Schema.Boolean,
  }),
  monitoring: Schema.Struct({
    portfolioRisk: Schema.Boolean,
    portfolioReturn: Schema.Boolean,
    portfolioRiskReturn: Schema.Boolean,
  }),
  competition: Schema.Struct({
    communityRanking: Schema.Boolean,
    communityPortfolio: Schema.Boolean,
    bananaPortfolios: Schema.Boolean,
  }),
  optimization: Schema.Struct({
    portfolio: Schema.Boolean,
    construction: Schema.Boolean,
    constructionFixAssets: Schema.Boolean,
  }),
  whatIf: Schema.Struct({
    marketScenarios: Schema.Boolean,
    realLifeScenarios: Schema.Boolean,
    backTesting: Schema.Boolean,
  }),
  hollypedia: Schema.Struct({
    videoTutorials: Schema.Boolean,
    courses: Schema.Boolean,
  }),
});
export type ProductPermissions = typeof ProductPermissions.Type;

export const Permissions = Schema.Struct({
  simAssets: ProductPermissions,
  simMonk: ProductPermissions,
  simIndices: ProductPermissions,
});
export type Permissions = typeof Permissions.Type;

/** The specification's defaults: all false except breakdown, diversificationRisk, scoring.global and bananaPortfolios; limits 0; maxAssets 5. */
export const defaultPermissions: ProductPermissions = {
  construction: {
    simulator: false,
    maxAssets: 5,
    orderByMarketRisk: false,
    save: false,
    saveLimit: 0,
    orderByExpectedReturn: false,
    orderByRiskReturn: false,
    minimization: false,
    autoCreate: false,
    lazyPortfolios: false,
    saveLimitPerRegion: { eu: 0, usa: 0 },
  },
  management: { delete: false, edit: false, editLimit: 0, export: false },
  analysis: {
    breakdown: true,
    diversificationRisk: true,
    diversificationRiskReduction: false,
    requiredReturns: false,
    expectedReturns: false,
    requiredReturnsOptimPortfolio: false,
    expectedReturnsOptimPortfolio: false,
    var: false,
    componentRisk1: false,
    componentRisk2: false,
    currencyRisk: false,
  },
  scoring: {
    global: true,
    riskReturn: false,
    diversification: false,
    marketRisk: false,
    communityGlobal: false,
  },
  monitoring: { portfolioRisk: false, portfolioReturn: false, portfolioRiskReturn: false },
  competition: { communityRanking: false, communityPortfolio: false, bananaPortfolios: true },
  optimization: { portfolio: false, construction: false, constructionFixAssets: false },
  whatIf: { marketScenarios: false, realLifeScenarios: false, backTesting: false },
  hollypedia: { videoTutorials: false, courses: false },
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? Partial<T[K]> : T[K] };

const withGrants = (grants: DeepPartial<ProductPermissions>): ProductPermissions => {
  const out = structuredClone(defaultPermissions) as {
    -readonly [K in keyof ProductPermissions]: ProductPermissions[K];
  };
  for (const key of Object.keys(grants) as (keyof ProductPermissions)[]) {
    Object.assign(out[key], grants[key]);
  }
  return out;
};

const allAnalysis = {
  breakdown: true,
  diversificationRisk: true,
  diversificationRiskReduction: true,
  requiredReturns: true,
  expectedReturns: true,
  requiredReturnsOptimPortfolio: true,
  expectedReturnsOptimPortfolio: true,
  var: true,
  componentRisk1: true,
  componentRisk2: true,
  currencyRisk: true,
};

const standardPortfolioTier = withGrants({
  construction: {
    simulator: true,
    maxAssets: 10,
    orderByMarketRisk: true,
    orderByExpectedReturn: true,
    save: true,
    saveLimit: 5,
  },
  management: { delete: true, edit: true, editLimit: 3, export: true },
  analysis: {
    diversificationRiskReduction: true,
    requiredReturns: true,
    expectedReturns: true,
    var: true,
    componentRisk1: true,
  },
  scoring: { riskReturn: true, diversification: true, marketRisk: true },
  monitoring: { portfolioRisk: true, portfolioReturn: true },
  optimization: { portfolio: true },
  whatIf: { marketScenarios: true },
  hollypedia: { videoTutorials: true },
});

const advancedPortfolioTier = withGrants({
  construction: {
    simulator: true,
    maxAssets: 30,
    orderByMarketRisk: true,
    orderByExpectedReturn: true,
    orderByRiskReturn: true,
    minimization: true,
    autoCreate: true,
    lazyPortfolios: true,
    save: true,
    saveLimit: 20,
  },
  management: { delete: true, edit: true, editLimit: 20, export: true },
  analysis: allAnalysis,
  scoring: { riskReturn: true, diversification: true, marketRisk: true, communityGlobal: true },
  monitoring: { portfolioRisk: true, portfolioReturn: true, portfolioRiskReturn: true },
  optimization: { portfolio: true, construction: true, constructionFixAssets: true },
  whatIf: { marketScenarios: true, realLifeScenarios: true, backTesting: true },
  hollypedia: { videoTutorials: true, courses: true },
});

/**
 * The one table from tier to permissions (docs/permissions.md). The free tier is the
 * specification's defaults; simIndices has no standard tier.
 */
export const permissionsByTier: {
  readonly [P in Product]: Partial<Record<Tier, ProductPermissions>>;
} = {
  simAssets: {
    free: defaultPermissions,
    standard: standardPortfolioTier,
    advanced: advancedPortfolioTier,
  },
  simIndices: { free: defaultPermissions, advanced: advancedPortfolioTier },
  simMonk: {
    free: defaultPermissions,
    standard: withGrants({
      construction: {
        simulator: true,
        maxAssets: 50,
        save: true,
        saveLimitPerRegion: { eu: 1, usa: 1 },
      },
      management: { edit: true, editLimit: 5, delete: true },
      competition: { communityRanking: true },
      scoring: { riskReturn: true },
    }),
    advanced: withGrants({
      construction: {
        simulator: true,
        maxAssets: 50,
        save: true,
        saveLimitPerRegion: { eu: 3, usa: 3 },
      },
      management: { edit: true, editLimit: 20, delete: true, export: true },
      competition: { communityRanking: true, communityPortfolio: true },
      scoring: { riskReturn: true, diversification: true, marketRisk: true, communityGlobal: true },
      analysis: { var: true, componentRisk1: true },
    }),
  },
};

export function permissionsFor(product: Product, tier: Tier | null): ProductPermissions {
  return (tier && permissionsByTier[product][tier]) || defaultPermissions;
}

/** A permission by its path in the table ("analysis.var", "competition.communityRanking"). */
export type PermissionPath = {
  [G in keyof ProductPermissions]: `${G & string}.${keyof ProductPermissions[G] & string}`;
}[keyof ProductPermissions];

/** Whether a plan's permissions grant one (a limit counts when above zero). */
export function hasPermission(p: ProductPermissions, path: PermissionPath): boolean {
  const [group, name] = path.split(".") as [keyof ProductPermissions, string];
  return Boolean((p[group] as Record<string, unknown>)[name]);
}

/**
 * The lowest tier of the product that grants a permission: what the screens' plan locks name, from
 * the one permissions table the server's redaction reads.
 */
export function unlockingTier(product: Product, path: PermissionPath): Tier | null {
  for (const tier of ["free", "standard", "advanced"] as const) {
    const p = permissionsByTier[product][tier];
    if (p && hasPermission(p, path)) return tier;
  }
  return null;
}
