import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createActor, fromPromise } from "xstate";
import {
  VERSION_CHECK_INTERVAL_MS,
  versionCheckMachine,
} from "../../machines/version-check.machine.ts";

const CURRENT = "build-1";

/** A versionCheck actor whose fetch answers from `answers` in turn (the last one repeats). */
function startWith(answers: readonly (string | Error)[]) {
  let calls = 0;
  const reloadPage = vi.fn();
  const machine = versionCheckMachine.provide({
    actors: {
      fetchLatestBuild: fromPromise<string>(async () => {
        const answer = answers[Math.min(calls, answers.length - 1)];
        calls++;
        if (answer instanceof Error) throw answer;
        return answer ?? CURRENT;
      }),
    },
    actions: { reloadPage },
  });
  const actor = createActor(machine, { input: { currentBuild: CURRENT } });
  actor.start();
  return { actor, reloadPage, calls: () => calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("versionCheckMachine", () => {
  it("polls every 10 seconds", () => {
    expect(VERSION_CHECK_INTERVAL_MS).toBe(10_000);
  });

  it("waits, and does not fetch before the first interval", async () => {
    const { actor, calls } = startWith([CURRENT]);
    expect(actor.getSnapshot().value).toBe("waiting");
    await vi.advanceTimersByTimeAsync(9_999);
    expect(calls()).toBe(0);
    expect(actor.getSnapshot().value).toBe("waiting");
    actor.stop();
  });

  it("goes back to waiting on the same build and polls again every 10 000 ms", async () => {
    const { actor, calls } = startWith([CURRENT]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(1);
    expect(actor.getSnapshot().value).toBe("waiting");
    expect(actor.getSnapshot().context.latestBuild).toBeNull();

    await vi.advanceTimersByTimeAsync(20_000);
    expect(calls()).toBe(3);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(calls()).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls()).toBe(4);
    expect(actor.getSnapshot().value).toBe("waiting");
    actor.stop();
  });

  it("counts three fetches in 30 seconds", async () => {
    const { actor, calls } = startWith([CURRENT]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls()).toBe(3);
    actor.stop();
  });

  it("offers the update when another build is deployed, and stops polling", async () => {
    const { actor, calls } = startWith([CURRENT, "build-2"]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(calls()).toBe(2);
    expect(actor.getSnapshot().value).toBe("updateAvailable");
    expect(actor.getSnapshot().context.latestBuild).toBe("build-2");

    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls()).toBe(2);
    expect(actor.getSnapshot().value).toBe("updateAvailable");
    actor.stop();
  });

  it("goes back to waiting when the fetch fails, and tries again at the next tick", async () => {
    const { actor, calls } = startWith([new Error("offline"), CURRENT]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(1);
    expect(actor.getSnapshot().value).toBe("waiting");
    expect(actor.getSnapshot().status).toBe("active");

    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(2);
    expect(actor.getSnapshot().value).toBe("waiting");
    actor.stop();
  });

  it("still finds a new build after a failed fetch", async () => {
    const { actor } = startWith([new Error("mid-deploy"), "build-3"]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(actor.getSnapshot().value).toBe("updateAvailable");
    expect(actor.getSnapshot().context.latestBuild).toBe("build-3");
    actor.stop();
  });

  it("runs the provided reloadPage action on version.reload, once, and finishes", async () => {
    const { actor, reloadPage } = startWith(["build-2"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(actor.getSnapshot().value).toBe("updateAvailable");
    expect(reloadPage).not.toHaveBeenCalled();

    actor.send({ type: "version.reload" });
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe("reloading");
    expect(actor.getSnapshot().status).toBe("done");
  });

  it("ignores version.reload while no update is offered", async () => {
    const { actor, reloadPage } = startWith([CURRENT]);
    actor.send({ type: "version.reload" });
    await vi.advanceTimersByTimeAsync(10_000);
    actor.send({ type: "version.reload" });
    expect(reloadPage).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe("waiting");
    actor.stop();
  });

  it("is dismissed on version.dismiss, without reloading or polling again", async () => {
    const { actor, reloadPage, calls } = startWith(["build-2"]);
    await vi.advanceTimersByTimeAsync(10_000);
    actor.send({ type: "version.dismiss" });
    expect(actor.getSnapshot().value).toBe("dismissed");
    expect(reloadPage).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls()).toBe(1);
    expect(actor.getSnapshot().value).toBe("dismissed");
    actor.stop();
  });
});
