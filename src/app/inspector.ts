import type { InspectionEvent, Observer } from "xstate";

let inspect: Observer<InspectionEvent> | undefined;

/**
 * In development, `?inspect` in the URL opens the Stately inspector and streams every machine's
 * events to it. The package is loaded only then, so production builds never contain it.
 */
export async function startInspector(): Promise<void> {
  if (!new URLSearchParams(location.search).has("inspect")) return;
  const { createBrowserInspector } = await import("@statelyai/inspect");
  const inspector = createBrowserInspector();
  inspector.start();
  inspect = inspector.inspect;
}

/** The observer every actor of the app is created with (undefined unless the inspector is open). */
export const inspectObserver = (): Observer<InspectionEvent> | undefined => inspect;
