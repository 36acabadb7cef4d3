import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import type { ScreenProps } from "../../app/route-table.ts";
import type { Locale, Product } from "../../contract/common.ts";
import type { ProductPermissions } from "../../contract/permissions.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { levelPermission, type OptimisationLevel } from "../../../machines/optimise.machine.ts";
import type { OptimiseActor } from "./optimise-store.ts";
import { OptimisePage } from "./parts.tsx";
import { PlanLock } from "../../app/plan-lock.tsx";
import type { PermissionPath } from "../../contract/permissions.ts";
import { useOptimise } from "./use-optimise.ts";
import { LockIcon } from "../../ui/lock-icon.tsx";

/**
 * The three levels, named by what they do (PRODUCT.md "Names a person sees"): o1, o2 and o3 stay
 * in the URLs and the code, never on a screen.
 */
export const levelTexts: Record<
  OptimisationLevel,
  { title: MessageDescriptor; text: MessageDescriptor; permission: PermissionPath }
> = {
  1: {
    title: msg`Lower the risk of my assets`,
    text: msg`The same assets, new weights: the lowest risk, or the highest expected return within the maximum loss at 95% you accept.`,
    permission: "optimization.portfolio",
  },
  2: {
    title: msg`Add new assets`,
    text: msg`Add assets from the market and keep the ones you choose within a minimum and a maximum weight.`,
    permission: "optimization.construction",
  },
  3: {
    title: msg`Choose how many assets`,
    text: msg`Say how many assets you want: the optimiser picks them, with the ones you keep among them.`,
    permission: "optimization.constructionFixAssets",
  },
};

/** The three levels; one the plan lacks is locked and names the plan that unlocks it. */
export function LevelChoice({
  actor,
  permissions,
  product,
  locale,
  lockedLevel,
}: {
  actor: OptimiseActor;
  permissions: ProductPermissions;
  product: Product;
  locale: Locale;
  lockedLevel: OptimisationLevel | null;
}) {
  const { t, i18n } = useLingui();
  return (
    <ul className="optimise-levels">
      {([1, 2, 3] as const).map((level) => {
        const allowed = levelPermission(permissions, level);
        const texts = levelTexts[level];
        const title = i18n._(texts.title);
        return (
          <li
            key={level}
            className={`card optimise-level${allowed ? "" : " locked"}`}
            data-level={level}
            data-locked={allowed ? "false" : "true"}
          >
            <h2>
              {allowed ? null : (
                <>
                  <LockIcon />{" "}
                </>
              )}
              {title}
            </h2>
            <p>{i18n._(texts.text)}</p>
            {allowed ? (
              <button
                type="button"
                className="button"
                aria-label={t`Choose: ${title}`}
                onClick={() => actor.send({ type: "level.choose", level })}
              >
                <Trans>Choose</Trans>
              </button>
            ) : (
              <p
                className={lockedLevel === level ? "form-message error" : "plan-lock"}
                role={lockedLevel === level ? "alert" : undefined}
              >
                <PlanLock product={product} permission={texts.permission} locale={locale} />
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** optimize/choose: how to optimise the portfolio being built or saved. */
export default function ChooseScreen({ locale }: ScreenProps) {
  const { t } = useLingui();
  const o = useOptimise("choose");
  if (!o.actor || !o.snapshot) return <Spinner label={t`Loading…`} />;
  return (
    <OptimisePage
      title={t`Optimise your portfolio`}
      summary={t`Choose how to optimise your portfolio.`}
      name={o.current?.name ?? null}
    >
      <LevelChoice
        actor={o.actor}
        permissions={o.permissions}
        product={o.product}
        locale={locale}
        lockedLevel={o.snapshot.context.lockedLevel}
      />
    </OptimisePage>
  );
}
