import { Plural, Trans, useLingui } from "@lingui/react/macro";
import type { WhatIfContext } from "../../../machines/what-if.machine.ts";
import type { Locale } from "../../contract/common.ts";
import { ProgressPanel } from "../../ui/progress-panel.tsx";
import { PlanLock } from "../../app/plan-lock.tsx";
import { usePermissions } from "./from-portfolios.ts";
import { kindNames, permissionOf, problemText } from "./what-if-texts.ts";

/** A run under way: what it is doing, for how long, and a way to stop it. */
export function RunProgress({
  count,
  locale,
  onCancel,
}: {
  count: number;
  locale: Locale;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  return (
    <ProgressPanel label={t`Running the what-if…`} locale={locale} onCancel={onCancel}>
      <Plural
        value={count}
        one="Running the what-if on # asset on the server…"
        other="Running the what-if on # assets on the server…"
      />
    </ProgressPanel>
  );
}

/** Why the last run was not sent or failed, or which plan unlocks the kind asked for. */
export function WhatIfProblemNote({
  context: c,
  state,
  locale,
  onRetry,
}: {
  context: WhatIfContext;
  state: string;
  locale: Locale;
  onRetry?: () => void;
}) {
  const { i18n } = useLingui();
  const { product } = usePermissions();
  if (state === "locked" && c.locked) {
    const kindName = i18n._(kindNames[c.locked]);
    return (
      <p className="form-message error" role="alert" data-lock={c.locked}>
        <Trans>Your plan does not include this kind of what-if ({kindName}).</Trans>{" "}
        <PlanLock product={product} permission={permissionOf(c.locked)} locale={locale} />
      </p>
    );
  }
  if (!c.problem) return null;
  return (
    <p className="form-message error" role="alert">
      {i18n._(problemText(c.problem))}
      {state === "failed" && onRetry ? (
        <>
          {" "}
          <button type="button" className="link-button" onClick={onRetry}>
            <Trans>Try again</Trans>
          </button>
        </>
      ) : null}
    </p>
  );
}
