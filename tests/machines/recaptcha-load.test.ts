import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createActor } from "xstate";
import {
  RECAPTCHA_POLL_MS,
  RECAPTCHA_TIMEOUT_MS,
  recaptchaErrors,
  recaptchaLoadMachine,
} from "../../machines/recaptcha-load.machine.ts";

/** The machine with a fake script tag and readiness check; a browser unless told otherwise. */
function start(options: { readyAfterMs?: number; isBrowser?: boolean } = {}) {
  const injectScript = vi.fn();
  const started = Date.now();
  const isReady = vi.fn(
    () => options.readyAfterMs !== undefined && Date.now() - started >= options.readyAfterMs,
  );
  const actor = createActor(
    recaptchaLoadMachine.provide({
      actions: { injectScript: (_, params) => injectScript(params) },
      guards: { isReady, isBrowser: () => options.isBrowser ?? true },
    }),
  ).start();
  return { actor, injectScript, isReady };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("recaptchaLoadMachine", () => {
  it("polls every 25 ms (specification section 9)", () => {
    expect(RECAPTCHA_POLL_MS).toBe(25);
  });

  it("has the specification's messages", () => {
    expect(recaptchaErrors.notBrowser).toBe("This is a library for the browser!");
    expect(recaptchaErrors.differentKey).toBe("reCAPTCHA already loaded with different site key!");
  });

  it("starts not loaded and injects nothing until asked", () => {
    const { actor, injectScript } = start({ readyAfterMs: 0 });
    expect(actor.getSnapshot().value).toBe("notLoaded");
    expect(injectScript).not.toHaveBeenCalled();
  });

  it("loads at once when the script is already ready", () => {
    const { actor, injectScript } = start({ readyAfterMs: 0 });
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    expect(injectScript).toHaveBeenCalledTimes(1);
    expect(injectScript).toHaveBeenCalledWith({ siteKey: "key-1" });
    expect(actor.getSnapshot().value).toBe("loaded");
    expect(actor.getSnapshot().context.siteKey).toBe("key-1");
  });

  it.each([1, 2, 4, 10])("is loaded after %i polls of 25 ms, not before", async (polls) => {
    const { actor, injectScript } = start({ readyAfterMs: polls * 25 });
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    expect(actor.getSnapshot().value).toBe("loading");

    await vi.advanceTimersByTimeAsync(polls * 25 - 1);
    expect(actor.getSnapshot().value).toBe("loading");
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe("loaded");
    expect(actor.getSnapshot().context.waitedMs).toBe(polls * 25);
    expect(injectScript).toHaveBeenCalledTimes(1);
  });

  it("checks readiness once per poll while loading", async () => {
    const { actor, isReady } = start();
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    const atStart = isReady.mock.calls.length;
    await vi.advanceTimersByTimeAsync(250);
    // Ten polls; xstate may evaluate an eventless guard more than once per step, never less.
    expect(isReady.mock.calls.length - atStart).toBeGreaterThanOrEqual(10);
    expect(actor.getSnapshot().context.waitedMs).toBe(250);
  });

  it("loads once: a second load with the same key is a no-op, while loading and once loaded", async () => {
    const { actor, injectScript } = start({ readyAfterMs: 50 });
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    expect(actor.getSnapshot().context.rejection).toBeNull();
    await vi.advanceTimersByTimeAsync(50);
    expect(actor.getSnapshot().value).toBe("loaded");

    actor.send({ type: "recaptcha.load", siteKey: "key-1" });

    expect(injectScript).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe("loaded");
    expect(actor.getSnapshot().context.rejection).toBeNull();
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it("rejects another site key once loaded, keeping the first one loaded", () => {
    const { actor, injectScript } = start({ readyAfterMs: 0 });
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });

    actor.send({ type: "recaptcha.load", siteKey: "key-2" });

    expect(actor.getSnapshot().context.rejection).toEqual({
      siteKey: "key-2",
      error: "reCAPTCHA already loaded with different site key!",
    });
    expect(actor.getSnapshot().value).toBe("loaded");
    expect(actor.getSnapshot().context.siteKey).toBe("key-1");
    expect(injectScript).toHaveBeenCalledTimes(1);
  });

  it("rejects another site key while the first is still loading", async () => {
    const { actor, injectScript } = start({ readyAfterMs: 100 });
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    actor.send({ type: "recaptcha.load", siteKey: "key-2" });
    expect(actor.getSnapshot().context.rejection).toEqual({
      siteKey: "key-2",
      error: recaptchaErrors.differentKey,
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(actor.getSnapshot().value).toBe("loaded");
    expect(actor.getSnapshot().context.siteKey).toBe("key-1");
    expect(injectScript).toHaveBeenCalledTimes(1);
  });

  it('fails outside a browser with "This is a library for the browser!", injecting nothing', () => {
    const { actor, injectScript } = start({ readyAfterMs: 0, isBrowser: false });
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    expect(actor.getSnapshot().value).toBe("failed");
    expect(actor.getSnapshot().context.error).toBe("This is a library for the browser!");
    expect(actor.getSnapshot().context.rejection).toEqual({
      siteKey: "key-1",
      error: "This is a library for the browser!",
    });
    expect(injectScript).not.toHaveBeenCalled();
  });

  it("is not a browser by default in Node (the real isBrowser guard)", () => {
    const actor = createActor(
      recaptchaLoadMachine.provide({
        actions: { injectScript: () => {} },
        guards: { isReady: () => true },
      }),
    ).start();
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    expect(actor.getSnapshot().context.error).toBe(recaptchaErrors.notBrowser);
  });

  it("gives up after 15 seconds without the script, and can be asked again", async () => {
    const { actor, injectScript } = start();
    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    await vi.advanceTimersByTimeAsync(RECAPTCHA_TIMEOUT_MS - 25);
    expect(actor.getSnapshot().value).toBe("loading");
    await vi.advanceTimersByTimeAsync(25);
    expect(actor.getSnapshot().value).toBe("failed");
    expect(actor.getSnapshot().context.error).toBe("reCAPTCHA could not be loaded");

    actor.send({ type: "recaptcha.load", siteKey: "key-1" });
    expect(actor.getSnapshot().value).toBe("loading");
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(actor.getSnapshot().context.waitedMs).toBe(0);
    expect(injectScript).toHaveBeenCalledTimes(2);
  });
});
