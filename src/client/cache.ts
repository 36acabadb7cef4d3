/** Default lifetime of a cached answer (specification section 9). */
export const CACHE_LIFETIME_MS = 10 * 60_000;

interface Entry {
  readonly value: unknown;
  readonly expires: number;
}

/**
 * A small cache of API answers kept in session storage (e.g. the education sections), so a reload
 * does not fetch them again; cleared on sign-out.
 */
export function createCache(
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">,
  now = () => Date.now(),
) {
  const prefix = "cache:";
  return {
    get<T>(key: string): T | undefined {
      const raw = storage.getItem(prefix + key);
      if (!raw) return undefined;
      const entry = JSON.parse(raw) as Entry;
      if (entry.expires <= now()) {
        storage.removeItem(prefix + key);
        return undefined;
      }
      return entry.value as T;
    },
    set(key: string, value: unknown, lifetimeMs = CACHE_LIFETIME_MS): void {
      storage.setItem(
        prefix + key,
        JSON.stringify({ value, expires: now() + lifetimeMs } satisfies Entry),
      );
    },
    clear(): void {
      const keys: string[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key?.startsWith(prefix)) keys.push(key);
      }
      for (const key of keys) storage.removeItem(key);
    },
  };
}

export type Cache = ReturnType<typeof createCache>;
