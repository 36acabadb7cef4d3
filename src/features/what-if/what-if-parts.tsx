import { Plural, Trans, useLingui } from "@lingui/react/macro";
import type { WhatIfContext } from "../../../machines/what-if.machine.ts";
import type { Locale } from "../../contract/common.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { PlanLock } from "../../app/plan-lock.tsx";
import { usePermissions } from "./from-portfolios.ts";
import { kindNames, permissionOf, problemText } from "./what-if-texts.ts";

/** A run under way: what it is doing and a way to stop it. */
export function RunProgress({ count, onCancel }: { count: number; onCancel: () => void }) {
  const { t } = useLingui();
  return (
    <div className="what-if-progress actions-row">
      <Spinner label={t`Running the what-if…`} />
      <span>
        <Plural
          value={count}
          one="Running the what-if on # asset…"
          other="Running the what-if on # assets…"
        />
      </span>
      <button type="button" className="button secondary" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </button>
    </div>
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
