import { Trans } from "@lingui/react/macro";
import { useEffect, useState, type ReactNode } from "react";
import type { Locale } from "../contract/common.ts";
import { formatNumber } from "./format.ts";

/** Whole seconds since `since` (epoch ms; the first render when absent), ticking every second. */
export function useElapsedSeconds(since?: number | null): number {
  const [start] = useState(() => since ?? Date.now());
  const from = since ?? start;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((now - from) / 1000));
}

/**
 * Long work under way on the server, one panel for the what-if, the optimisation and the
 * simulator: what runs (`children`, said once by the polite status region), a progress bar named
 * `label`, the seconds so far (shown, kept out of the live region so that a screen reader is not
 * told every second) and a way to stop it.
 */
export function ProgressPanel({
  label,
  locale,
  startedAt,
  onCancel,
  children,
}: {
  label: string;
  locale: Locale;
  /** When the work started (epoch ms), if it may have started before the panel was shown. */
  startedAt?: number | null;
  onCancel: () => void;
  children: ReactNode;
}) {
  const seconds = useElapsedSeconds(startedAt);
  return (
    <div className="card progress-panel">
      <span className="spinner-dot" aria-hidden="true" />
      <p role="status" aria-live="polite" className="progress-panel-text">
        {children}
      </p>
      <progress aria-label={label} />
      <span className="progress-panel-elapsed" aria-hidden="true" data-testid="elapsed">
        {formatNumber(seconds, locale, { maximumFractionDigits: 0 })} s
      </span>
      <button type="button" className="button secondary" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </button>
    </div>
  );
}
