import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { Locale, Product } from "../../contract/common.ts";
import {
  type PermissionPath,
  permissionsFor,
  tiersByProduct,
  type ProductPermissions,
  type Tier,
} from "../../contract/permissions.ts";
import { formatNumber } from "../../ui/format.ts";

/** A feature of the plans tables is a permission of the one table. */
export type FeaturePath = PermissionPath;

/** Every permission of the specification (section 3) in words; the plan tables list those that differ. */
export const featureLabels: Record<FeaturePath, MessageDescriptor> = {
  "construction.simulator": msg`Build portfolios`,
  "construction.maxAssets": msg`Assets per portfolio`,
  "construction.orderByMarketRisk": msg`Order by lowest market risk`,
  "construction.save": msg`Save portfolios`,
  "construction.saveLimit": msg`Saved portfolios`,
  "construction.orderByExpectedReturn": msg`Order by highest expected return`,
  "construction.orderByRiskReturn": msg`Order by best risk-return`,
  "construction.minimization": msg`Risk minimisation`,
  "construction.autoCreate": msg`Automatic weights for the proposal`,
  "construction.lazyPortfolios": msg`Lazy (model) portfolios`,
  "construction.saveLimitPerRegion": msg`Banana portfolios per region`,
  "management.delete": msg`Delete portfolios`,
  "management.edit": msg`Edit saved portfolios`,
  "management.editLimit": msg`Edits per portfolio`,
  "management.export": msg`Export to CSV and PDF`,
  "analysis.breakdown": msg`Breakdown`,
  "analysis.diversificationRisk": msg`Diversification risk`,
  "analysis.diversificationRiskReduction": msg`Risk reduced by diversification`,
  "analysis.requiredReturns": msg`Required returns`,
  "analysis.expectedReturns": msg`Expected returns`,
  "analysis.requiredReturnsOptimPortfolio": msg`Required returns of the optimised portfolio`,
  "analysis.expectedReturnsOptimPortfolio": msg`Expected returns of the optimised portfolio`,
  "analysis.var": msg`Value at risk (VaR and CVaR 95%)`,
  "analysis.componentRisk1": msg`Marginal risk of each asset`,
  "analysis.componentRisk2": msg`Risk contribution of each asset`,
  "analysis.currencyRisk": msg`Currency risk`,
  "scoring.global": msg`Global score`,
  "scoring.riskReturn": msg`Risk-return score`,
  "scoring.diversification": msg`Diversification score`,
  "scoring.marketRisk": msg`Market risk score`,
  "scoring.communityGlobal": msg`Community percentile`,
  "monitoring.portfolioRisk": msg`Risk over time`,
  "monitoring.portfolioReturn": msg`Return over time`,
  "monitoring.portfolioRiskReturn": msg`Risk-return over time`,
  "competition.communityRanking": msg`Community ranking`,
  "competition.communityPortfolio": msg`Community portfolios`,
  "competition.bananaPortfolios": msg`Banana portfolios`,
  "optimization.portfolio": msg`Optimise your assets`,
  "optimization.construction": msg`Optimise with new assets`,
  "optimization.constructionFixAssets": msg`Optimise to a number of assets`,
  "whatIf.marketScenarios": msg`What-if: market shocks`,
  "whatIf.realLifeScenarios": msg`What-if: real crises`,
  "whatIf.backTesting": msg`Backtesting`,
  "hollypedia.videoTutorials": msg`Video tutorials`,
  "hollypedia.courses": msg`Courses`,
};

const featurePaths = Object.keys(featureLabels) as FeaturePath[];

type FeatureValue = boolean | number | { readonly eu: number; readonly usa: number };

export function featureValue(p: ProductPermissions, path: FeaturePath): FeatureValue {
  const [group, name] = path.split(".") as [keyof ProductPermissions, string];
  return (p[group] as Record<string, FeatureValue>)[name]!;
}

const same = (a: FeatureValue, b: FeatureValue) => JSON.stringify(a) === JSON.stringify(b);

/** The features whose value differs between the product's tiers: what a plan changes. */
export function differingFeatures(product: Product): FeaturePath[] {
  const tiers = tiersByProduct[product].map((t) => permissionsFor(product, t));
  return featurePaths.filter((path) => {
    const values = tiers.map((p) => featureValue(p, path));
    return values.some((v) => !same(v, values[0]!));
  });
}

/** Whether a value gives more than another (a feature switched on or a higher limit). */
function gives(more: FeatureValue, than: FeatureValue): boolean {
  if (typeof more === "boolean") return more && !than;
  if (typeof more === "number") return more > (than as number);
  const t = than as { eu: number; usa: number };
  return more.eu > t.eu || more.usa > t.usa;
}

/** What moving from one tier to another unlocks, from the one permissions table. */
export function featuresGained(product: Product, from: Tier, to: Tier): FeaturePath[] {
  const before = permissionsFor(product, from);
  const after = permissionsFor(product, to);
  return featurePaths.filter((path) =>
    gives(featureValue(after, path), featureValue(before, path)),
  );
}

/** A feature's value in words: "Included", "—", a count, or per region. */
export function describeValue(value: FeatureValue, i18n: I18n, locale: Locale): string {
  if (typeof value === "boolean") return value ? i18n._(msg`Included`) : i18n._(msg`Not included`);
  if (typeof value === "number") return formatNumber(value, locale);
  const eu = formatNumber(value.eu, locale);
  const usa = formatNumber(value.usa, locale);
  return i18n._(msg`${eu} in Europe, ${usa} in the United States`);
}

/** "Saved portfolios: 5", or the label alone for a feature switched on. */
export function describeGain(
  product: Product,
  tier: Tier,
  path: FeaturePath,
  i18n: I18n,
  locale: Locale,
): string {
  const label = i18n._(featureLabels[path]);
  const value = featureValue(permissionsFor(product, tier), path);
  return typeof value === "boolean" ? label : `${label}: ${describeValue(value, i18n, locale)}`;
}

/** Where in the app a gained feature is used, for the links after a payment. */
export type FeatureHome = "create-q1" | "account-portfolios" | "banana-challenge";

export function homeOfFeature(path: FeaturePath): FeatureHome {
  if (path.startsWith("competition.")) return "banana-challenge";
  if (path.startsWith("management.") || path.startsWith("monitoring.")) return "account-portfolios";
  return "create-q1";
}
