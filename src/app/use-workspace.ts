import { useSelector } from "@xstate/react";
import { useMemo } from "react";
import type { AppSnapshot } from "./app-actor.ts";
import { workspaceFacts, workspaceOf, type WorkspaceState } from "./portfolio-workspace.ts";
import { useServices } from "./services.tsx";

const none: WorkspaceState = { wizard: null, lifecycle: null, restoring: false };

const sameWorkspace = (a: WorkspaceState, b: WorkspaceState) =>
  a.wizard === b.wizard && a.lifecycle === b.lifecycle && a.restoring === b.restoring;

/**
 * The portfolio actors of the app's root (the wizard, the lifecycle, whether a stored wizard is
 * coming back), read with `useSelector`: re-rendered when one is started, replaced or cleared.
 */
export function useWorkspace(): WorkspaceState {
  const { app } = useServices();
  return useSelector(
    app ?? undefined,
    (s: AppSnapshot | undefined) => (s ? workspaceOf(s) : none),
    sameWorkspace,
  );
}

/**
 * The route guards' portfolio facts (creation in progress, a portfolio loaded) from the root's
 * wizard and lifecycle, or the stored wizard coming back; re-rendered when any of them changes.
 */
export function useWorkspaceFacts() {
  const { app } = useServices();
  const { wizard, lifecycle } = useWorkspace();
  const stored = useSelector(
    app ?? undefined,
    (s: AppSnapshot | undefined) => s?.context.storedWizard ?? null,
  );
  const w = useSelector(wizard ?? undefined, (s) => s);
  const l = useSelector(lifecycle ?? undefined, (s) => s);
  const { creationInProgress, portfolioLoaded } = workspaceFacts(stored, w, l);
  return useMemo(
    () => ({ creationInProgress, portfolioLoaded }),
    [creationInProgress, portfolioLoaded],
  );
}
