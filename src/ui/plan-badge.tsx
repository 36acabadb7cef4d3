import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { Tier } from "../contract/permissions.ts";
import { LockIcon } from "./lock-icon.tsx";

const tierNames = {
  free: msg`Free`,
  standard: msg`Standard`,
  advanced: msg`Advanced`,
} as const satisfies Record<Tier, unknown>;

/**
 * The lock beside a link to a screen the person's plan does not include: the plan that unlocks it
 * by name, read out as "Needs the Standard plan".
 */
export function PlanBadge({ tier }: { tier: Tier }) {
  const { t, i18n } = useLingui();
  const tierName = i18n._(tierNames[tier]);
  const label = t`Needs the ${tierName} plan`;
  return (
    <span className="plan-badge" role="img" aria-label={label} title={label} data-tier={tier}>
      <LockIcon />
      <span>{tierName}</span>
    </span>
  );
}
