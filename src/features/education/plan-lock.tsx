import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import { tierNames } from "../../ui/plan-names.ts";
import type { Locale, Product } from "../../contract/common.ts";
import { permissionsByTier, type Tier } from "../../contract/permissions.ts";

/** The lowest tier of the product whose plan includes a hollypedia permission. */
export function unlockingTier(
  product: Product,
  permission: "videoTutorials" | "courses",
): Tier | null {
  for (const tier of ["free", "standard", "advanced"] as const)
    if (permissionsByTier[product][tier]?.hollypedia[permission]) return tier;
  return null;
}

/** Which plan unlocks the video tutorials or the courses, with a link to it. */
export function EducationPlanLock({
  product,
  permission,
  locale,
}: {
  product: Product;
  permission: "videoTutorials" | "courses";
  locale: Locale;
}) {
  const { i18n } = useLingui();
  const tier = unlockingTier(product, permission);
  const tierName = tier ? i18n._(tierNames[tier]) : "";
  if (!tier) return <Trans>No plan of this product includes them.</Trans>;
  return (
    <span data-testid="plan-lock" data-tier={tier}>
      <Trans>Included in the {tierName} plan.</Trans>{" "}
      <Link to={`${pathFor("choose-your-plan", locale)}?${new URLSearchParams({ product, tier })}`}>
        <Trans>See the {tierName} plan</Trans>
      </Link>
    </span>
  );
}
