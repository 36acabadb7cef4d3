// Heavy work bounded (issue 23): the analytics queue answers 503 with Retry-After before the app's
// timeout, drops the work of a caller that has gone, and keeps one account from filling it. The
// workers here are held by the test (they run a job, in this thread, only when it says so) and the
// pool's clock stands still, so every wait and estimate is exact: nothing depends on timing.
import { EventEmitter } from "node:events";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AnalysisResponse } from "../../src/contract/analytics.ts";
import { decode } from "../../src/contract/decode.ts";
import {
  createAnalyticsPool,
  estimateStart,
  PoolBusy,
  type PoolOptions,
  type PoolWorker,
  type WorkerPool,
  type WorkerReply,
} from "../../src/server/analytics/pool.ts";
import { tasks, type TaskName } from "../../src/server/analytics/tasks.ts";
import { receiveSnapshot } from "../../src/server/analytics/worker-market.ts";
import type { SnapshotTransfer } from "../../src/server/market/snapshot.ts";
import { createApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import type { Database } from "../../src/server/db/database.ts";
import { createLogger } from "../../src/server/logger.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";

interface Posted {
  readonly id: number;
  readonly task: TaskName;
  readonly input: unknown;
}

/** A worker thread stand-in: keeps the job it is given until `finish`, then runs it here. */
class HeldWorker extends EventEmitter implements PoolWorker {
  job: Posted | null = null;
  private readonly posted: Posted[];
  constructor(posted: Posted[]) {
    super();
    this.posted = posted;
  }
  postMessage(message: unknown) {
    if (typeof message === "object" && message !== null && "snapshot" in message) {
      receiveSnapshot((message as { snapshot: SnapshotTransfer }).snapshot);
      return;
    }
    this.job = message as Posted;
    this.posted.push(this.job);
  }
  async finish() {
    const job = this.job!;
    this.job = null;
    let reply: WorkerReply;
    try {
      reply = { id: job.id, result: await (tasks[job.task] as (i: unknown) => unknown)(job.input) };
    } catch (error) {
      reply = { id: job.id, error: { name: "Error", message: String(error), code: null } };
    }
    this.emit("message", reply);
  }
  async terminate() {
    return 0;
  }
  unref() {}
}

/** A pool on held workers, with a clock that stands still and timers only the test fires. */
function heldPool(options: PoolOptions) {
  const posted: Posted[] = [];
  const workers: HeldWorker[] = [];
  const timers: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  const pool = createAnalyticsPool({
    now: () => 0,
    setTimer: (ms, fire) => {
      const timer = { ms, fire, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    spawnWorker: () => {
      const worker = new HeldWorker(posted);
      workers.push(worker);
      return worker;
    },
    ...options,
  });
  return {
    pool,
    posted,
    timers,
    /** Lets every worker finish its job, and the jobs queued behind, until none is left. */
    async releaseAll() {
      for (
        let busy = workers.filter((w) => w.job);
        busy.length;
        busy = workers.filter((w) => w.job)
      )
        for (const worker of busy) await worker.finish();
    },
  };
}

/** Waits (on the condition, not a delay) until the pool holds this much. */
const holds = (pool: WorkerPool, load: { running: number; queued: number }) =>
  vi.waitFor(() => expect(pool.load()).toEqual(load), { timeout: 20_000, interval: 5 });

describe("the estimated wait of a job (the pool's dispatch order)", () => {
  it("adds up the work ahead on the free workers, a light job passing heavy ones held back", () => {
    const heavy = (expected: number) => ({ heavy: true, expected });
    const light = (expected: number) => ({ heavy: false, expected });
    const workers = [
      { busyFor: 4000, heavy: true },
      { busyFor: 100, heavy: false },
    ];
    // Two workers, one heavy job at a time: a heavy job waits for the running heavy one.
    const h = heavy(4000);
    expect(estimateStart(workers, [h], h, 1)).toBe(4000);
    const h2 = heavy(4000);
    expect(estimateStart(workers, [heavy(4000), h2], h2, 1)).toBe(8000);
    // A light job behind them takes the light worker as soon as it is free.
    const l = light(300);
    expect(estimateStart(workers, [heavy(4000), heavy(4000), l], l, 1)).toBe(100);
    // Light jobs share both workers once nothing heavy holds one.
    const l2 = light(300);
    expect(
      estimateStart(
        [
          { busyFor: 0, heavy: false },
          { busyFor: 0, heavy: false },
        ],
        [light(300), light(300), l2],
        l2,
        1,
      ),
    ).toBe(300);
  });
});

describe("a queued job of a request waits at most the budget", () => {
  it("is given up with PoolBusy when its wait reaches the budget, and never runs", async () => {
    const { pool, posted, timers, releaseAll } = heldPool({ size: 1, maxWaitMs: 6000 });
    try {
      const first = pool.run("portfolioRisk", {}, { caller: { account: 1 } });
      const second = pool.run("portfolioRisk", {}, { caller: { account: 2 } });
      expect(pool.load()).toEqual({ running: 1, queued: 1 });
      // The running job has no wait to bound; the queued one's timer is the budget.
      expect(timers.map((t) => t.ms)).toEqual([6000]);
      timers[0]!.fire();
      await expect(second).rejects.toBeInstanceOf(PoolBusy);
      expect(pool.load()).toEqual({ running: 1, queued: 0 });
      await releaseAll();
      await first.catch(() => {});
      expect(posted).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it("background work (no caller) is neither timed nor counted in a share", async () => {
    const { pool, timers, releaseAll } = heldPool({ size: 1, perAccount: 1, maxWaitMs: 1 });
    try {
      const jobs = [1, 2, 3].map(() => pool.run("portfolioRisk", {}).catch(() => "failed"));
      expect(pool.load()).toEqual({ running: 1, queued: 2 });
      expect(timers).toEqual([]);
      await releaseAll();
      expect(await Promise.all(jobs)).toEqual(["failed", "failed", "failed"]); // the task's own error
    } finally {
      await pool.close();
    }
  });
});

const target = databaseTargets[0]!;

describe(`heavy work bounded, through the API on ${target.name}`, () => {
  let database: Database;
  let drop: () => Promise<void>;
  let alice: string;
  let bob: string;
  let current: ReturnType<typeof heldPool> | null = null;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(
      database.db,
      simulatedDataset({ end: "2026-11-20", days: 500 }),
      "simulated",
    );
    alice = (await signedInClient(database, { simAssets: "advanced" })).token;
    bob = (await signedInClient(database, { simAssets: "advanced" })).token;
  }, 180_000);
  afterEach(async () => {
    await current?.releaseAll();
    await current?.pool.close();
    current = null;
  });
  afterAll(async () => {
    await drop?.();
  });

  const withPool = (options: PoolOptions) => {
    current = heldPool(options);
    const app = createApp({
      config: loadConfig({}),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
      pool: current.pool,
    });
    const analyse = (token: string, signal?: AbortSignal) =>
      app.request("/api/analytics/analyse", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          currency: "EUR",
          benchmark: 4,
          assets: [
            { symbol: "AAPL", investedAmount: 6000 },
            { symbol: "TLT", investedAmount: 4000 },
          ],
        }),
        ...(signal ? { signal } : {}),
      });
    return { ...current, analyse };
  };

  const answered = async (res: Response) => {
    expect(res.status).toBe(200);
    expect(decode(AnalysisResponse, await res.json()).ok).toBe(true);
  };

  it("refuses at admission with 503 and Retry-After when the estimated wait passes the budget", async () => {
    // One worker, 5 s per analysis, a 6 s budget: the second call would wait 5 s (taken), the
    // third 10 s (refused: retry once 4 s of work are done).
    const { pool, posted, releaseAll, analyse } = withPool({
      size: 1,
      maxWaitMs: 6000,
      expectedMs: { light: 5000, heavy: 5000 },
      perAccount: 10,
    });
    const first = analyse(alice);
    await holds(pool, { running: 1, queued: 0 });
    const second = analyse(alice);
    await holds(pool, { running: 1, queued: 1 });
    const third = await analyse(alice);
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBe("4");
    expect(await third.json()).toEqual({ msgCode: "SERVER_BUSY" });
    expect(pool.load()).toEqual({ running: 1, queued: 1 });
    await releaseAll();
    await answered(await first);
    await answered(await second);
    // The refused call never reached a worker.
    expect(posted).toHaveLength(2);
  });

  it("drops a queued job whose request is aborted (it never runs), and discards a running one's result", async () => {
    const { pool, posted, releaseAll, analyse } = withPool({ size: 1 });
    const first = analyse(alice);
    await holds(pool, { running: 1, queued: 0 });
    const leaving = new AbortController();
    const second = analyse(alice, leaving.signal);
    await holds(pool, { running: 1, queued: 1 });
    leaving.abort();
    // Answered at once (the log's "client closed request"), out of the queue.
    expect((await second).status).toBe(499);
    expect(pool.load()).toEqual({ running: 1, queued: 0 });
    await releaseAll();
    await answered(await first);
    expect(posted).toHaveLength(1);

    // A running job cannot be stopped in its worker: its caller is answered now, the result dropped.
    const running = new AbortController();
    const third = analyse(alice, running.signal);
    await holds(pool, { running: 1, queued: 0 });
    running.abort();
    expect((await third).status).toBe(499);
    expect(pool.load()).toEqual({ running: 1, queued: 0 });
    await releaseAll();
    expect(posted).toHaveLength(2);
    expect(pool.load()).toEqual({ running: 0, queued: 0 });
    const last = analyse(alice);
    await holds(pool, { running: 1, queued: 0 });
    await releaseAll();
    await answered(await last);
  });

  it("keeps an account to its share (429 with Retry-After) while another account is served", async () => {
    const { pool, posted, releaseAll, analyse } = withPool({
      size: 1,
      perAccount: 2,
      expectedMs: { light: 2500, heavy: 5000 },
    });
    const aliceFirst = analyse(alice);
    await holds(pool, { running: 1, queued: 0 });
    const aliceSecond = analyse(alice);
    await holds(pool, { running: 1, queued: 1 });
    const aliceThird = await analyse(alice);
    expect(aliceThird.status).toBe(429);
    // Until her running job is expected to end.
    expect(aliceThird.headers.get("retry-after")).toBe("3");
    expect(await aliceThird.json()).toEqual({ msgCode: "TOO_MANY_CALCULATIONS" });
    // Bob is taken behind her jobs and answered.
    const bobFirst = analyse(bob);
    await holds(pool, { running: 1, queued: 2 });
    await releaseAll();
    await answered(await aliceFirst);
    await answered(await aliceSecond);
    await answered(await bobFirst);
    expect(posted).toHaveLength(3);
    // Her share is back once her jobs are done.
    const again = analyse(alice);
    await holds(pool, { running: 1, queued: 0 });
    await releaseAll();
    await answered(await again);
  });
});
