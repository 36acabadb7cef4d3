import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useSelector } from "@xstate/react";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useNavigate } from "react-router-dom";
import type { WizardProblem } from "../../../machines/portfolio-wizard.machine.ts";
import { pathFor } from "../../app/paths.ts";
import type { RouteId } from "../../app/route-table.ts";
import type { WizardActor } from "../../app/portfolio-workspace.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import type { Locale, Product } from "../../contract/common.ts";
import type { MsgCode } from "../../contract/msg-codes.ts";
import { defaultPermissions, type ProductPermissions } from "../../contract/permissions.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";

export type WizardStep = "q1" | "q2" | "q3" | "summary";

const routeOfState: Record<string, RouteId> = {
  q1: "create-q1",
  q2: "create-q2",
  q3: "create-q3",
  summary: "create-summary",
};
const order: Record<string, number> = { q1: 1, q2: 2, q3: 3, proposing: 3.5, summary: 4, done: 5 };

/** The problems of the wizard the screens explain (the others are msgCodes). */
const wizardProblemText: Record<Exclude<WizardProblem, MsgCode>, MessageDescriptor> = {
  LAZY_NOT_ALLOWED: msg`Lazy portfolios are not included in your plan.`,
  MAX_TO_LOSE_NOT_POSITIVE: msg`Enter an amount above zero, or leave it empty if you prefer not to say.`,
  ORDERING_NOT_ALLOWED: msg`That priority is not included in your plan. Choose another one.`,
  ASSET_LEVEL_NOT_OFFERED: msg`Your plan does not allow that many assets. Choose fewer.`,
};

/** The text of a wizard problem or of a failed call. */
export function problemText(problem: WizardProblem | MsgCode): MessageDescriptor {
  return problem in wizardProblemText
    ? wizardProblemText[problem as keyof typeof wizardProblemText]
    : msgCodeText[problem as MsgCode];
}

/** The current product's permissions of the signed-in client (the defaults while loading). */
export function usePermissions(): { product: Product; permissions: ProductPermissions } {
  const { product, products } = useServices();
  const [client] = useSession((s) => s.context.client);
  const p = useSyncExternalStore(products?.subscribe ?? (() => () => {}), product);
  return { product: p, permissions: client?.permissions[p] ?? defaultPermissions };
}

/** The workspace's wizard actor (re-rendered when it is replaced). */
export function useWizardActor(): WizardActor | null {
  const { portfolios } = useServices();
  return useSyncExternalStore(
    portfolios?.subscribe ?? (() => () => {}),
    () => portfolios?.getState().wizard ?? null,
  );
}

/** A wizard kept in this tab is being brought back (after a reload): start no other meanwhile. */
export function useRestoringWizard(): boolean {
  const { portfolios } = useServices();
  return useSyncExternalStore(
    portfolios?.subscribe ?? (() => () => {}),
    () => portfolios?.getState().restoring ?? false,
  );
}

/**
 * The wizard as a screen sees it. The URL follows the machine: when the machine moves on (or
 * back), the screen navigates to the step's route; a screen opened on an earlier step (the
 * browser's back button) steps the machine back to it.
 */
export function useWizardStep(step: WizardStep, locale: Locale) {
  const wizard = useWizardActor();
  const navigate = useNavigate();
  const snapshot = useSelector(wizard ?? undefined, (s) => s);
  const state = snapshot ? String(snapshot.value) : null;
  const opened = useRef(true);
  useEffect(() => {
    if (!wizard || !state || !snapshot || snapshot.status !== "active") return;
    const justOpened = opened.current;
    opened.current = false;
    if (justOpened && order[state]! > order[step]! && state !== "proposing") {
      // The page was opened on an earlier question (the browser's back button, a link to q1, a
      // reload there with the tab's draft further on): the machine steps back to it, one question
      // at a time, and stops where it cannot go back further.
      for (let s = wizard.getSnapshot(); ;) {
        const at = String(s.value);
        if (s.status !== "active" || at === "proposing" || order[at]! <= order[step]!) break;
        wizard.send({ type: "back" });
        const next = wizard.getSnapshot();
        if (next === s) break;
        s = next;
      }
      return;
    }
    if (justOpened && order[state]! > order[step]!) return;
    const route = routeOfState[state];
    if (route && state !== step) void navigate(pathFor(route, locale), { replace: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only state changes move the page
  }, [state]);
  return { wizard, snapshot, state };
}
