import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import type { Locale, Product } from "../contract/common.ts";
import { unlockingTier, type PermissionPath } from "../contract/permissions.ts";
import { tierNames } from "../ui/plan-names.ts";
import { pathFor } from "./paths.ts";

/**
 * Which plan includes a locked block, with a link to that plan: one lock for every screen (a figure
 * the server left out, a what-if kind, an optimisation level, the videos and courses, the banana
 * ranking), the tier read from the one permissions table.
 */
export function PlanLock({
  product,
  permission,
  locale,
}: {
  product: Product;
  permission: PermissionPath;
  locale: Locale;
}) {
  const { i18n } = useLingui();
  const tier = unlockingTier(product, permission);
  if (!tier)
    return (
      <span data-testid="plan-lock">
        <Trans>Not included in any plan of this product.</Trans>
      </span>
    );
  const tierName = i18n._(tierNames[tier]);
  return (
    <span data-testid="plan-lock" data-tier={tier}>
      <Trans>Included in the {tierName} plan.</Trans>{" "}
      <Link to={`${pathFor("choose-your-plan", locale)}?${new URLSearchParams({ product, tier })}`}>
        <Trans>See the {tierName} plan</Trans>
      </Link>
    </span>
  );
}
