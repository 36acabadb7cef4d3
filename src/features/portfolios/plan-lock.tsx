import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import { tierNames } from "../../ui/plan-names.ts";
import type { Locale, Product } from "../../contract/common.ts";
import { unlockingTier, type PermissionPath } from "./figure-notes.ts";

/** Which plan includes a locked figure, with a link to it (the server left the figure out). */
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
  const tierName = tier ? i18n._(tierNames[tier]) : "";
  return (
    <>
      {tier ? (
        <Trans>Included in the {tierName} plan.</Trans>
      ) : (
        <Trans>Not included in any plan of this product.</Trans>
      )}{" "}
      {tier ? (
        <Link
          to={`${pathFor("choose-your-plan", locale)}?${new URLSearchParams({ product, tier })}`}
        >
          <Trans>See the {tierName} plan</Trans>
        </Link>
      ) : null}
    </>
  );
}
