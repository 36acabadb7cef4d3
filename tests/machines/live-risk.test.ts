import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createActor, fromPromise } from "xstate";
import {
  LIVE_RISK_DEBOUNCE_MS,
  liveRiskMachine,
  type LiveRiskInput,
} from "../../machines/live-risk.machine.ts";
import { SessionFailure } from "../../machines/session.machine.ts";
import type { AnalysisResponse } from "../../src/contract/analytics.ts";

const answer = (varAmount: number) =>
  ({ volatility: { annual: 0.2 }, var: { historical: { varAmount } } }) as AnalysisResponse;

const holdings = (...amounts: number[]): LiveRiskInput => ({
  currency: "EUR",
  assets: amounts.map((investedAmount, i) => ({ id: `A${i}`, investedAmount })),
});

/** The machine with a fake API: each call waits for the test to answer it. */
function start() {
  const calls: {
    input: LiveRiskInput;
    signal: AbortSignal;
    resolve: (a: AnalysisResponse) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const reported: AnalysisResponse[] = [];
  const actor = createActor(
    liveRiskMachine.provide({
      actors: {
        measure: fromPromise<AnalysisResponse, LiveRiskInput>(
          ({ input, signal }) =>
            new Promise((resolve, reject) => calls.push({ input, signal, resolve, reject })),
        ),
      },
      actions: { "analysis.report": (_, a) => void reported.push(a) },
    }),
  ).start();
  return { actor, calls, reported };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("liveRiskMachine", () => {
  it("asks once the person pauses, with only the holdings above zero", async () => {
    const { actor, calls, reported } = start();
    actor.send({ type: "holdings.change", input: holdings(6000, 0, 4000) });
    expect(actor.getSnapshot().value).toBe("waiting");
    await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS - 1);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe("measuring");
    expect(calls.map((c) => c.input.assets.map((a) => a.investedAmount))).toEqual([[6000, 4000]]);
    calls[0]!.resolve(answer(500));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe("idle");
    expect(actor.getSnapshot().context.current).toEqual(answer(500));
    expect(reported).toEqual([answer(500)]);
  });

  it("waits again on each change: typing fast asks once", async () => {
    const { actor, calls } = start();
    for (const amount of [1, 12, 123, 1234]) {
      actor.send({ type: "holdings.change", input: holdings(amount) });
      await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS / 2);
    }
    await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS);
    expect(calls.map((c) => c.input.assets[0]!.investedAmount)).toEqual([1234]);
  });

  it("cancels an answer on its way when the holdings change, and never shows it", async () => {
    const { actor, calls, reported } = start();
    actor.send({ type: "holdings.change", input: holdings(100) });
    await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS);
    actor.send({ type: "holdings.change", input: holdings(200) });
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.resolve(answer(1));
    await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS);
    calls[1]!.resolve(answer(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(reported).toEqual([answer(2)]);
    expect(actor.getSnapshot().context.current).toEqual(answer(2));
  });

  it("keeps the answer before, for the change the last edit made", async () => {
    const { actor, calls } = start();
    for (const [i, amount] of [100, 200].entries()) {
      actor.send({ type: "holdings.change", input: holdings(amount) });
      await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS);
      calls[i]!.resolve(answer(amount));
      await vi.advanceTimersByTimeAsync(0);
    }
    const { current, previous } = actor.getSnapshot().context;
    expect([previous, current]).toEqual([answer(100), answer(200)]);
  });

  it("measures nothing when no holding is above zero", async () => {
    const { actor, calls } = start();
    actor.send({ type: "holdings.change", input: holdings(0, 0) });
    await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS * 2);
    expect(actor.getSnapshot().value).toBe("idle");
    expect(actor.getSnapshot().context.input).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it("says the API's reason when the call fails, and clears it with the next answer", async () => {
    const { actor, calls } = start();
    actor.send({ type: "holdings.change", input: holdings(100) });
    await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS);
    calls[0]!.reject(new SessionFailure("PLAN_FEATURE_LOCKED"));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.error).toBe("PLAN_FEATURE_LOCKED");
    actor.send({ type: "holdings.change", input: holdings(150) });
    await vi.advanceTimersByTimeAsync(LIVE_RISK_DEBOUNCE_MS);
    calls[1]!.resolve(answer(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
