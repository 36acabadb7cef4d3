/**
 * The market inside an analytics worker: the snapshots the pool sent (their buffers are shared
 * with the request thread, not copied), and the view a task asks for by version and day.
 */
import { isoDate } from "../../engine/dates.ts";
import type { MarketView } from "../market/market-view.ts";
import { snapshotOf, type MarketSnapshot, type SnapshotTransfer } from "../market/snapshot.ts";

/** What a task names of the market: the snapshot's version and the market's today on it. */
export interface MarketRef {
  readonly version: string;
  readonly todayIndex: number;
}

export const refOf = (view: MarketView): MarketRef => ({
  version: view.snapshot.version,
  todayIndex: view.todayIndex,
});

const snapshots = new Map<string, MarketSnapshot>();

/** Keeps a snapshot sent by the pool; the two newest are kept (a task may name the previous one). */
export function receiveSnapshot(transfer: SnapshotTransfer): void {
  snapshots.set(transfer.version, snapshotOf(transfer));
  while (snapshots.size > 2) snapshots.delete(snapshots.keys().next().value!);
}

export function viewOfRef(ref: MarketRef): MarketView {
  const snapshot = snapshots.get(ref.version);
  if (!snapshot) throw new Error(`market snapshot ${ref.version} was not sent to this worker`);
  return ref.todayIndex < 0
    ? { snapshot, todayIndex: -1, today: null, source: "empty" }
    : {
        snapshot,
        todayIndex: ref.todayIndex,
        today: isoDate(snapshot.calendar[ref.todayIndex]!),
        source: snapshot.source,
      };
}
