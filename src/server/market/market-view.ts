/**
 * The market as requests see it (docs/market-data.md, "In memory" and "Market clock"): the
 * snapshot of the current data version, and the market's "today" on it.
 *
 * - The data version is a value in app_meta that every import changes in its own transaction.
 *   Each instance checks it at most once a second (one indexed read) and loads the new snapshot
 *   when it changed, so an import on one instance is seen by every other. A snapshot is immutable:
 *   one is kept per database, replaced whole.
 * - On imported data, "today" is a replay date (PRODUCT.md, "Market clock on historical data"):
 *   by default the latest day on which at least three quarters of the instruments had a price in
 *   the 14 days before it, moving forward one trading day per calendar day (MARKET_REPLAY_SPEED)
 *   from the moment it was first fixed, kept in app_meta so every instance agrees. Prices after
 *   "today" are invisible. MARKET_AS_OF fixes "today" instead. The simulated market's "today" is
 *   its last day.
 */
import { and, eq, sql } from "drizzle-orm";
import { dayNumber, isoDate } from "../../engine/dates.ts";
import type { Db } from "../db/database.ts";
import { appMeta } from "../db/schema.ts";
import { loadSnapshot, type MarketSnapshot, type SnapshotSource } from "./snapshot.ts";

export const VERSION_KEY = "market_version";
export const CLOCK_KEY = "market_clock";
/** Share of the instruments that must have a recent price on the default replay date. */
export const REPLAY_COVERAGE = 0.75;
export const REPLAY_LOOKBACK_DAYS = 14;

export interface MarketView {
  readonly snapshot: MarketSnapshot;
  /** Calendar index of the market's today, or -1 when there is no data. */
  readonly todayIndex: number;
  readonly today: string | null;
  readonly source: SnapshotSource;
}

export interface MarketClockOptions {
  /** Trading days the replay moves per calendar day. */
  readonly speed: number;
  /** A fixed "today" (ISO day): no replay. */
  readonly asOf: string | null;
  readonly now: () => Date;
  /** How often the data version is checked, at most (ms). */
  readonly pollMs: number;
}

const defaults: MarketClockOptions = {
  speed: 1,
  asOf: null,
  now: () => new Date(),
  pollMs: 1000,
};

interface Anchor {
  readonly asOf: string;
  readonly startedAt: string;
}

interface Cache {
  options: MarketClockOptions;
  snapshot: MarketSnapshot | null;
  anchor: Anchor | null;
  checkedAt: number;
  loading: Promise<MarketSnapshot> | null;
}

const caches = new WeakMap<Db, Cache>();

const cacheOf = (db: Db): Cache => {
  let c = caches.get(db);
  if (!c)
    caches.set(
      db,
      (c = { options: defaults, snapshot: null, anchor: null, checkedAt: 0, loading: null }),
    );
  return c;
};

/** Sets the clock of a database's market (the server does it once at start). */
export function configureMarket(db: Db, options: Partial<MarketClockOptions>): void {
  const c = cacheOf(db);
  c.options = { ...defaults, ...options };
  c.anchor = null;
}

/** Forgets the snapshot (after an import by this process), so the next request loads the new one. */
export function invalidateMarket(db: Db): void {
  const c = cacheOf(db);
  c.checkedAt = 0;
  c.anchor = null;
}

/** Gives the data a new version (inside the import's transaction). */
export async function bumpMarketVersion(tx: Db): Promise<void> {
  const version = `${Date.now().toString(36)}-${crypto.randomUUID()}`;
  await tx
    .insert(appMeta)
    .values({ key: VERSION_KEY, value: version })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: version, updatedAt: sql`now()` } });
}

const readMetaValue = async (db: Db, key: string) =>
  (await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key)))[0]?.value ??
  null;

async function currentSnapshot(db: Db, c: Cache): Promise<MarketSnapshot> {
  const now = Date.now();
  if (c.snapshot && now - c.checkedAt < c.options.pollMs) return c.snapshot;
  if (c.loading) return c.loading;
  c.loading = (async () => {
    try {
      const version = (await readMetaValue(db, VERSION_KEY)) ?? "0";
      if (c.snapshot && c.snapshot.version === version) {
        c.checkedAt = Date.now();
        return c.snapshot;
      }
      // Checked only once the new version is in memory: until then, requests wait for this load
      // rather than get the previous snapshot (after a first import, an empty market).
      const source = ((await readMetaValue(db, "market_source")) ?? "imported") as SnapshotSource;
      c.snapshot = await loadSnapshot(db, version, source);
      c.checkedAt = Date.now();
      c.anchor = null;
      return c.snapshot;
    } finally {
      c.loading = null;
    }
  })();
  return c.loading;
}

/**
 * The default replay date: the latest calendar day on which at least REPLAY_COVERAGE of the
 * instruments with prices had one within the REPLAY_LOOKBACK_DAYS before it (a series counts from
 * its first day to its last day plus the lookback).
 */
export function defaultReplayIndex(s: MarketSnapshot): number {
  const T = s.calendar.length;
  if (T === 0) return -1;
  const listed: { from: number; to: number }[] = [];
  for (let i = 0; i < s.assets.length; i++) {
    if (s.first[i]! < 0) continue;
    listed.push({
      from: s.calendar[s.first[i]!]!,
      to: s.calendar[s.last[i]!]! + REPLAY_LOOKBACK_DAYS,
    });
  }
  const need = Math.ceil(listed.length * REPLAY_COVERAGE);
  for (let k = T - 1; k >= 0; k--) {
    const day = s.calendar[k]!;
    let live = 0;
    for (const l of listed) if (l.from <= day && day <= l.to) live++;
    if (live >= need) return k;
  }
  return T - 1;
}

const replayIndex = (s: MarketSnapshot, anchor: Anchor, now: Date, speed: number) => {
  const start = s.indexAtOrBefore(dayNumber(anchor.asOf));
  const elapsedDays = Math.max(0, (now.getTime() - Date.parse(anchor.startedAt)) / 86_400_000);
  return Math.min(s.calendar.length - 1, start + Math.floor(elapsedDays * speed));
};

/**
 * The replay's anchor: fixed by the first instance that needs it, and moved (never back) when new
 * data puts the default replay date after the replay's current day, e.g. an import with a later
 * --as-of. The move is a compare-and-set, so instances agree.
 */
async function anchorOf(db: Db, c: Cache, s: MarketSnapshot): Promise<Anchor> {
  if (c.anchor) return c.anchor;
  const now = c.options.now();
  const proposed: Anchor = {
    asOf: isoDate(s.calendar[defaultReplayIndex(s)]!),
    startedAt: now.toISOString(),
  };
  await db
    .insert(appMeta)
    .values({ key: CLOCK_KEY, value: JSON.stringify(proposed) })
    .onConflictDoNothing();
  let stored = await readMetaValue(db, CLOCK_KEY);
  const current = stored ? (JSON.parse(stored) as Anchor) : proposed;
  if (
    current !== proposed &&
    replayIndex(s, current, now, c.options.speed) < defaultReplayIndex(s)
  ) {
    await db
      .update(appMeta)
      .set({ value: JSON.stringify(proposed), updatedAt: sql`now()` })
      .where(and(eq(appMeta.key, CLOCK_KEY), eq(appMeta.value, stored!)));
    stored = await readMetaValue(db, CLOCK_KEY);
  }
  c.anchor = stored ? (JSON.parse(stored) as Anchor) : proposed;
  return c.anchor;
}

/** The market of a database as of now. */
export async function marketView(db: Db): Promise<MarketView> {
  const c = cacheOf(db);
  const s = await currentSnapshot(db, c);
  const T = s.calendar.length;
  if (T === 0) return { snapshot: s, todayIndex: -1, today: null, source: "empty" };
  let todayIndex = T - 1;
  if (c.options.asOf) {
    todayIndex = s.indexAtOrBefore(dayNumber(c.options.asOf));
  } else if (s.source === "imported") {
    todayIndex = replayIndex(s, await anchorOf(db, c, s), c.options.now(), c.options.speed);
  }
  if (todayIndex < 0) return { snapshot: s, todayIndex: -1, today: null, source: "empty" };
  return { snapshot: s, todayIndex, today: isoDate(s.calendar[todayIndex]!), source: s.source };
}

/**
 * The market day after today and the calendar moment it becomes today on the replay clock
 * (`at`: the replay's start plus the trading days moved, divided by the replay speed). Null when
 * the clock does not move: no data, a fixed MARKET_AS_OF, the simulated market (today is its last
 * day), or a replay at the last day of its data (the next day comes with an import, whose day
 * nobody can tell).
 */
export async function nextMarketDay(db: Db): Promise<{ date: string; at: string } | null> {
  const c = cacheOf(db);
  const view = await marketView(db);
  const s = view.snapshot;
  if (view.todayIndex < 0 || c.options.asOf || s.source !== "imported") return null;
  if (view.todayIndex + 1 >= s.calendar.length || c.options.speed <= 0) return null;
  const anchor = await anchorOf(db, c, s);
  const steps = view.todayIndex + 1 - s.indexAtOrBefore(dayNumber(anchor.asOf));
  const at = Date.parse(anchor.startedAt) + (steps / c.options.speed) * 86_400_000;
  return { date: isoDate(s.calendar[view.todayIndex + 1]!), at: new Date(at).toISOString() };
}
