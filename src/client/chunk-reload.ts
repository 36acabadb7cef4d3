/** At most one automatic reload per path in this window (specification section 8). */
export const CHUNK_RELOAD_WINDOW_MS = 10_000;

const KEY_PREFIX = "chunk-reload:";

/** True for the errors browsers raise when a lazily loaded chunk is gone (typically after a deploy). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === "ChunkLoadError" ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

export interface ReloadEnvironment {
  readonly storage: Pick<Storage, "getItem" | "setItem">;
  readonly now: () => number;
  readonly reload: () => void;
}

/**
 * Reloads the page to fetch the new build's chunks, unless this path was already reloaded within the
 * window (then the error is real and the caller shows the error screen). Returns whether it reloaded.
 */
export function reloadAfterChunkError(path: string, env: ReloadEnvironment): boolean {
  const key = KEY_PREFIX + path;
  const last = Number(env.storage.getItem(key) ?? 0);
  const now = env.now();
  if (now - last < CHUNK_RELOAD_WINDOW_MS) return false;
  env.storage.setItem(key, String(now));
  env.reload();
  return true;
}

export const browserReloadEnvironment = (): ReloadEnvironment => ({
  storage: sessionStorage,
  now: () => Date.now(),
  reload: () => window.location.reload(),
});
