import { describe, expect, it, vi } from "vitest";
import {
  CHUNK_RELOAD_WINDOW_MS,
  isChunkLoadError,
  reloadAfterChunkError,
  type ReloadEnvironment,
} from "../../src/client/chunk-reload.ts";

function environment(start = 1_000_000) {
  const store = new Map<string, string>();
  let now = start;
  const reload = vi.fn();
  const env: ReloadEnvironment = {
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    now: () => now,
    reload,
  };
  return { env, reload, store, advance: (ms: number) => (now += ms) };
}

describe("isChunkLoadError", () => {
  it.each([
    [
      "Chrome",
      new TypeError(
        "Failed to fetch dynamically imported module: https://app.test/assets/page-1a2b.js",
      ),
    ],
    [
      "Firefox",
      new TypeError(
        "error loading dynamically imported module: https://app.test/assets/page-1a2b.js",
      ),
    ],
    ["Safari", new TypeError("Importing a module script failed.")],
    ["Vite CSS preload", new Error("Unable to preload CSS for /assets/page-1a2b.css")],
  ])("recognises the %s message", (_browser, error) => {
    expect(isChunkLoadError(error)).toBe(true);
  });

  it("recognises an error named ChunkLoadError", () => {
    const error = new Error("Loading chunk 42 failed.");
    error.name = "ChunkLoadError";
    expect(isChunkLoadError(error)).toBe(true);
  });

  it.each([
    ["an ordinary error", new Error("Cannot read properties of undefined")],
    ["a network failure of an API call", new TypeError("Failed to fetch")],
  ])("rejects %s", (_what, error) => {
    expect(isChunkLoadError(error)).toBe(false);
  });

  it.each([
    ["a string with the message", "Failed to fetch dynamically imported module: x.js"],
    [
      "an object with the message",
      { name: "ChunkLoadError", message: "Importing a module script failed." },
    ],
    ["null", null],
    ["undefined", undefined],
    ["a number", 404],
  ])("rejects non-errors: %s", (_what, value) => {
    expect(isChunkLoadError(value)).toBe(false);
  });
});

describe("reloadAfterChunkError", () => {
  it("uses a 10 second window", () => {
    expect(CHUNK_RELOAD_WINDOW_MS).toBe(10_000);
  });

  it("reloads the first time", () => {
    const { env, reload } = environment();
    expect(reloadAfterChunkError("/en/markets", env)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("refuses a second reload of the same path within 10 000 ms", () => {
    const { env, reload, advance } = environment();
    reloadAfterChunkError("/en/markets", env);
    advance(9_999);
    expect(reloadAfterChunkError("/en/markets", env)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("allows another path within the window", () => {
    const { env, reload, advance } = environment();
    reloadAfterChunkError("/en/markets", env);
    advance(1_000);
    expect(reloadAfterChunkError("/es/mercados", env)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("allows the same path again after 10 s", () => {
    const { env, reload, advance } = environment();
    reloadAfterChunkError("/en/markets", env);
    advance(10_000);
    expect(reloadAfterChunkError("/en/markets", env)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("counts the window from the last reload, not from a refused attempt", () => {
    const { env, reload, advance } = environment();
    reloadAfterChunkError("/p", env); // t = 0
    advance(6_000);
    expect(reloadAfterChunkError("/p", env)).toBe(false); // t = 6 s, refused: must not restart the window
    advance(4_000);
    expect(reloadAfterChunkError("/p", env)).toBe(true); // t = 10 s
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("remembers the reload in the storage it is given (it survives the reload)", () => {
    const first = environment();
    reloadAfterChunkError("/en/markets", first.env);
    // A new page load: same session storage, fresh environment otherwise.
    const second = environment();
    for (const [k, v] of first.store) second.env.storage.setItem(k, v);
    expect(reloadAfterChunkError("/en/markets", second.env)).toBe(false);
    expect(second.reload).not.toHaveBeenCalled();
  });
});
