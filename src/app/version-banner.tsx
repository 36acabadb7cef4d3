import { Trans } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";
import { fromPromise } from "xstate";
import { versionCheckMachine } from "../../machines/version-check.machine.ts";
import { useServices } from "./services.tsx";
import { useAppMachine } from "./use-app-machine.ts";

const latestBuild = fromPromise<string>(async () => {
  const response = await fetch(`/builds/latest.json?t=${Date.now()}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`builds/latest.json: ${response.status}`);
  const body = (await response.json()) as { build?: unknown };
  if (typeof body.build !== "string") throw new Error("builds/latest.json has no build");
  return body.build;
});

const machine = versionCheckMachine.provide({
  actors: { fetchLatestBuild: latestBuild },
  actions: { reloadPage: () => window.location.reload() },
});

/** Offers a reload when a newer build is deployed (production builds only). */
export function VersionBanner() {
  if (!import.meta.env.PROD) return null;
  return <VersionWatcher />;
}

function VersionWatcher() {
  const brandName = useServices().brand.name;
  const [snapshot, send] = useAppMachine(machine, { input: { currentBuild: __BUILD_ID__ } });
  const location = useLocation();
  const firstPath = useRef(location.pathname);
  const dismissed = snapshot.matches("dismissed");
  useEffect(() => {
    // After "later", the next navigation loads the new build instead of a stale chunk.
    if (dismissed && location.pathname !== firstPath.current) window.location.reload();
    firstPath.current = location.pathname;
  }, [dismissed, location.pathname]);

  if (!snapshot.matches("updateAvailable")) return null;
  return (
    <div className="version-banner" role="status">
      <p>
        <Trans>A new version of {brandName} is available.</Trans>
      </p>
      <button
        type="button"
        className="button primary"
        onClick={() => send({ type: "version.reload" })}
      >
        <Trans>Reload</Trans>
      </button>
      <button
        type="button"
        className="button ghost"
        onClick={() => send({ type: "version.dismiss" })}
      >
        <Trans>Later</Trans>
      </button>
    </div>
  );
}
