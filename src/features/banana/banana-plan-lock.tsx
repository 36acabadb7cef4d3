import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import { tierNames } from "../../ui/plan-names.ts";
import type { Locale } from "../../contract/common.ts";
import { permissionsByTier, type Tier } from "../../contract/permissions.ts";

export type CompetitionPermission = "communityRanking" | "communityPortfolio";

/** The lowest simMonk tier whose plan includes a competition permission. */
export function unlockingTier(permission: CompetitionPermission): Tier | null {
  for (const tier of ["free", "standard", "advanced"] as const)
    if (permissionsByTier.simMonk[tier]?.competition[permission]) return tier;
  return null;
}

/** Which simMonk plan unlocks the ranking or other members' portfolios, with a link to it. */
export function BananaPlanLock({
  permission,
  locale,
}: {
  permission: CompetitionPermission;
  locale: Locale;
}) {
  const { i18n } = useLingui();
  const tier = unlockingTier(permission);
  const tierName = tier ? i18n._(tierNames[tier]) : "";
  if (!tier) return <Trans>No plan of this product includes it.</Trans>;
  const product = "simMonk";
  return (
    <span data-testid="plan-lock" data-tier={tier}>
      <Trans>Included in the {tierName} plan.</Trans>{" "}
      <Link to={`${pathFor("choose-your-plan", locale)}?${new URLSearchParams({ product, tier })}`}>
        <Trans>See the {tierName} plan</Trans>
      </Link>
    </span>
  );
}
