// After a save (answered once committed), the app reads the portfolio again until its first
// valuation is there: waits between reads, a failed read retried, and an end when the screen goes.
import { describe, expect, it } from "vitest";
import { awaitValuation, VALUATION_WAITS_MS } from "../../src/app/portfolio-machines.ts";
import type { Portfolio } from "../../src/contract/portfolios.ts";

const valuation = {
  date: "2026-11-20",
  value: 10_000,
  return: 0,
  risk: 0.1,
  score: 5,
  communityPercentile: 100,
};
const unvalued = { id: 7, valuation: null } as unknown as Portfolio;
const valued = { id: 7, valuation } as unknown as Portfolio;

describe("awaitValuation", () => {
  it("reads again after each wait until the valuation is there", async () => {
    const waits: number[] = [];
    const answers = [
      () => unvalued,
      () => {
        throw new Error("offline");
      },
      () => valued,
    ];
    let reads = 0;
    const got = await awaitValuation(
      async () => answers[reads++]!(),
      new AbortController().signal,
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(got).toBe(valued);
    expect(reads).toBe(3);
    expect(waits).toEqual(VALUATION_WAITS_MS.slice(0, 3));
  });

  it("gives up after its last wait with null", async () => {
    let reads = 0;
    const got = await awaitValuation(
      async () => {
        reads++;
        return unvalued;
      },
      new AbortController().signal,
      async () => {},
    );
    expect(got).toBeNull();
    expect(reads).toBe(VALUATION_WAITS_MS.length);
  });

  it("stops when the screen goes away", async () => {
    const controller = new AbortController();
    let reads = 0;
    const got = await awaitValuation(
      async () => {
        reads++;
        return unvalued;
      },
      controller.signal,
      async () => controller.abort(),
    );
    expect([got, reads]).toEqual([null, 0]);
  });
});
