import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import {
  editWindowOpen,
  nextWindowChange,
  type EditWindow as EditWindowState,
} from "../../contract/banana.ts";
import type { Locale } from "../../contract/common.ts";
import { localMoment, timeLeft } from "./banana-format.ts";

/** The time now, again every `everyMs` (the window's countdown). */
export function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * The editing window as the page shows it: the server's answer (its clock is the authority)
 * until the moment it said the window changes; from then on the same rule on this clock, until
 * the page asks the server again.
 */
export function currentWindow(server: EditWindowState, now: Date): EditWindowState {
  if (now.getTime() < Date.parse(server.changesAt)) return server;
  return { open: editWindowOpen(now), changesAt: nextWindowChange(now).toISOString() };
}

/**
 * Whether the portfolio can be edited now, and until or from when, in the user's time zone (the
 * rule of section 6: 10:00 to 22:00 UTC).
 */
export function EditWindowNotice({
  window,
  now,
  locale,
  timeZone,
}: {
  window: EditWindowState;
  now: Date;
  locale: Locale;
  /** The zone to show the times in; the browser's by default (tests pass one). */
  timeZone?: string;
}) {
  const { i18n } = useLingui();
  const at = localMoment(window.changesAt, locale, timeZone);
  const left = timeLeft(window.changesAt, now, i18n);
  return (
    <p
      className={window.open ? "notice banana-window open" : "notice banana-window closed"}
      data-testid="edit-window"
      data-open={window.open}
    >
      {window.open ? (
        <Trans>
          Editing is open until {at} ({left} left). Changes sell and buy at the day&apos;s close.
        </Trans>
      ) : (
        <Trans>
          Editing is closed now: it opens {at} (in {left}). Banana portfolios can be changed every
          day between 10:00 and 22:00 UTC.
        </Trans>
      )}
    </p>
  );
}
