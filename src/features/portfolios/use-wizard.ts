import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useSelector } from "@xstate/react";
import { useSyncExternalStore } from "react";
import type { WizardPage, WizardProblem } from "../../../machines/portfolio-wizard.machine.ts";
import type { WizardActor } from "../../app/portfolio-workspace.ts";
import { useServices } from "../../app/services.tsx";
import { useWorkspace } from "../../app/use-workspace.ts";
import { useSession } from "../../app/session/use-session.ts";
import { usePage } from "../../app/use-page.ts";
import type { Product } from "../../contract/common.ts";
import type { MsgCode } from "../../contract/msg-codes.ts";
import { defaultPermissions, type ProductPermissions } from "../../contract/permissions.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";

export type WizardStep = WizardPage;

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

/** The root's wizard actor (re-rendered when it is replaced). */
export function useWizardActor(): WizardActor | null {
  return useWorkspace().wizard;
}

/** A wizard kept in this tab is being brought back (after a reload): start no other meanwhile. */
export function useRestoringWizard(): boolean {
  return useWorkspace().restoring;
}

/**
 * The wizard as a screen sees it. The URL follows the machine: the screen tells the wizard its page
 * is open (`page.opened`), and the machine takes the person to its step's page or steps back to
 * the page opened (the browser's back button); the screen never navigates.
 */
export function useWizardStep(step: WizardStep) {
  const wizard = useWizardActor();
  const snapshot = useSelector(wizard ?? undefined, (s) => s);
  const state = snapshot ? String(snapshot.value) : null;
  usePage(wizard, step);
  return { wizard, snapshot, state };
}
