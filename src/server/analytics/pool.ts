import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { EngineErrorCode } from "../../engine/errors.ts";
import type { MarketSnapshot, SnapshotTransfer } from "../market/snapshot.ts";
import { transferOf } from "../market/snapshot.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { POOL_DEFAULTS } from "./pool-limits.ts";
import type { TaskName } from "./task-names.ts";

export { POOL_DEFAULTS };

/** A failure inside a task, with the engine's error code when it was an EngineError. */
export class TaskError extends Error {
  readonly code: EngineErrorCode | null;
  constructor(name: string, message: string, code: EngineErrorCode | null) {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/**
 * The queue cannot take the job in time (full, or its wait would pass the budget, or it did): the
 * caller should answer 503 with Retry-After.
 */
export class PoolBusy extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("the analytics queue is full");
    this.name = "PoolBusy";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The account already has its share of the pool (queued and running jobs): 429 with Retry-After. */
export class PoolShareUsed extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("the account has its share of the analytics pool");
    this.name = "PoolShareUsed";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The caller went away (its request was aborted): the job was dropped, or its result will be. */
export class PoolCallerGone extends Error {
  constructor() {
    super("the caller of the analytics job has gone");
    this.name = "PoolCallerGone";
  }
}

/** Who waits for a job: a request of an account. */
export interface Caller {
  /** The account whose share the job counts in. */
  readonly account: string | number;
  /** The request's signal: aborted when its client has gone. */
  readonly signal?: AbortSignal;
}

export interface RunOptions {
  /** A long job (many assets, many paths): at most all workers but one run such jobs at once. */
  readonly heavy?: boolean;
  /**
   * The request the job answers: its wait is bounded (it would otherwise outlast the client), it
   * counts in its account's share, and it is dropped when the request is aborted. Without one
   * (background work such as the valuations) a job waits its turn.
   */
  readonly caller?: Caller;
}

/** What the pool holds now (for tests and logs). */
export interface PoolLoad {
  readonly running: number;
  readonly queued: number;
}

export interface AnalyticsPool {
  run<T>(task: TaskName, input: unknown, options?: RunOptions): Promise<T>;
  /** Sends the market's snapshot to every worker (once per version; its buffers are shared). */
  useSnapshot(snapshot: MarketSnapshot): void;
  close(): Promise<void>;
}

/** The pool of worker threads, and what it holds now. */
export interface WorkerPool extends AnalyticsPool {
  load(): PoolLoad;
}

/** What the pool needs of a worker thread (tests give one they drive). */
export interface PoolWorker {
  postMessage(message: unknown): void;
  on(event: "message", listener: (message: WorkerReply) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  terminate(): Promise<unknown>;
  unref(): void;
}

/** A worker's answer to a job. */
export interface WorkerReply {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: {
    readonly name: string;
    readonly message: string;
    readonly code: EngineErrorCode | null;
    readonly api?: Pick<ApiFailure, "status" | "msgCode" | "issues" | "headers">;
  };
}

export interface PoolOptions {
  readonly size?: number;
  /** Jobs waiting beyond this are refused at once (PoolBusy), never left to wait without bound. */
  readonly maxQueued?: number;
  /**
   * The longest a caller's job may wait for a worker: refused at once when the estimated wait is
   * longer, given up (PoolBusy) when it has waited that long.
   */
  readonly maxWaitMs?: number;
  /** Jobs (queued and running) one account may have at once; beyond, PoolShareUsed. */
  readonly perAccount?: number;
  /** What a light and a heavy job take before one of their task has been measured, in ms. */
  readonly expectedMs?: { readonly light: number; readonly heavy: number };
  /** Milliseconds of a monotonic clock (tests drive it). */
  readonly now?: () => number;
  /** Runs `fire` after `ms` unless cancelled (tests fire it themselves). */
  readonly setTimer?: (ms: number, fire: () => void) => () => void;
  /** Starts a worker thread (tests give one they drive). */
  readonly spawnWorker?: () => PoolWorker;
}

interface Job {
  readonly id: number;
  readonly task: TaskName;
  readonly input: unknown;
  readonly heavy: boolean;
  readonly account: string | number | null;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  /** When it was posted to a worker. */
  startedAt: number;
  /** Its caller has gone: nothing waits for its result. */
  abandoned: boolean;
  /** Cancels the timer of its longest wait (once it runs or leaves the queue). */
  cancelWait: () => void;
  /** Stops listening to its caller's signal (once it ends or leaves the queue). */
  stopWatching: () => void;
}

/** Weight of the last measured duration in a task's expected duration. */
const SMOOTHING = 0.3;

const defaultTimer = (ms: number, fire: () => void) => {
  const timer = setTimeout(fire, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * When `target` would start (ms from now) if the workers, busy for `busyFor` ms (0: idle) with a
 * heavy job or not, took the queued jobs in order, as `dispatch` does: a heavy job waits while
 * `maxHeavy` heavy ones run, a light one behind it goes first.
 */
export function estimateStart<J extends { readonly heavy: boolean; readonly expected: number }>(
  workers: readonly { readonly busyFor: number; readonly heavy: boolean }[],
  queue: readonly J[],
  target: J,
  maxHeavy: number,
): number {
  const slots = workers.map((w) => ({ until: w.busyFor, heavy: w.heavy }));
  const pending = [...queue];
  let now = 0;
  for (;;) {
    for (const slot of slots) {
      if (slot.until > now) continue;
      const heavyBusy = slots.filter((s) => s.until > now && s.heavy).length;
      const at = heavyBusy >= maxHeavy ? pending.findIndex((j) => !j.heavy) : 0;
      if (at < 0) break;
      const job = pending.splice(at, 1)[0]!;
      if (job === target) return now;
      slot.until = now + Math.max(1, job.expected);
      slot.heavy = job.heavy;
    }
    // A job took every free worker it could: the next moment one ends.
    const later = slots.filter((s) => s.until > now).map((s) => s.until);
    if (later.length === 0) return now; // no worker at all (cannot happen with size ≥ 1)
    now = Math.min(...later);
  }
}

/**
 * Worker threads that run the engine, so a long computation (Monte Carlo, a large optimisation)
 * never delays another request: the HTTP thread only queues jobs and answers. The queue is
 * bounded in length and, for a request's job, in time: the wait is estimated from the jobs ahead
 * and the measured duration of each task, and a job that would wait (or has waited) longer than
 * `maxWaitMs` is refused, so the app gets a 503 with Retry-After before it gives up. An account
 * holds at most `perAccount` jobs; a job whose request is aborted leaves the queue, and a running
 * one's result is discarded (a worker thread cannot be interrupted but by terminating it; its job
 * is short and its replacement would reload the engine). Heavy jobs never take every worker, so a
 * short job always finds one soon. A crashed worker is replaced and its job fails; queued jobs go
 * on.
 */
export function createAnalyticsPool(options: PoolOptions | number = {}): WorkerPool {
  const {
    size = Math.max(2, availableParallelism()),
    maxQueued = POOL_DEFAULTS.maxQueued,
    maxWaitMs = POOL_DEFAULTS.maxWaitMs,
    perAccount = POOL_DEFAULTS.perAccount,
    expectedMs = POOL_DEFAULTS.expectedMs,
    now = () => performance.now(),
    setTimer = defaultTimer,
    // A path, not a URL: under a DOM environment (route-level tests of the app with the server
    // in-process) the global URL is the DOM's, which Node's Worker does not take.
    spawnWorker = () => new Worker(path.join(import.meta.dirname, "worker.ts")),
  } = typeof options === "number" ? { size: options } : options;
  const maxHeavy = Math.max(1, size - 1);
  const queue: Job[] = [];
  const idle: PoolWorker[] = [];
  const busy = new Map<PoolWorker, Job>();
  /** Queued and running jobs of each account. */
  const held = new Map<string | number, number>();
  /** Measured duration of each task, light and heavy apart. */
  const measured = new Map<string, number>();
  let nextId = 1;
  let closed = false;
  let market: SnapshotTransfer | null = null;
  const workers = new Set<PoolWorker>();

  const kindOf = (job: Pick<Job, "task" | "heavy">) =>
    `${job.task}:${job.heavy ? "heavy" : "light"}`;
  const expected = (job: Pick<Job, "task" | "heavy">) =>
    measured.get(kindOf(job)) ?? (job.heavy ? expectedMs.heavy : expectedMs.light);

  /** The estimated wait of `job` (queued or about to be) behind the running and queued jobs. */
  const waitOf = (job: Job, ahead: readonly Job[]) => {
    const t = now();
    const running = [...workers].map((w) => {
      const j = busy.get(w);
      return j
        ? { busyFor: Math.max(0, expected(j) - (t - j.startedAt)), heavy: j.heavy }
        : { busyFor: 0, heavy: false };
    });
    const entry = (j: Job) => ({ heavy: j.heavy, expected: expected(j), job: j });
    const pending = ahead.map(entry);
    const target = entry(job);
    return estimateStart(running, [...pending, target], target, maxHeavy);
  };
  /** Seconds until a job refused after an estimated wait of `wait` ms may be taken. */
  const retryAfter = (wait: number) => Math.max(1, Math.ceil((wait - maxWaitMs) / 1000));

  const release = (job: Job) => {
    job.cancelWait();
    job.stopWatching();
    if (job.account === null) return;
    const n = (held.get(job.account) ?? 1) - 1;
    if (n > 0) held.set(job.account, n);
    else held.delete(job.account);
  };
  const unqueue = (job: Job) => {
    const at = queue.indexOf(job);
    if (at < 0) return false;
    queue.splice(at, 1);
    release(job);
    return true;
  };

  const finished = (worker: PoolWorker, message: WorkerReply) => {
    const job = busy.get(worker);
    busy.delete(worker);
    if (job && job.id === message.id) {
      const took = now() - job.startedAt;
      const before = measured.get(kindOf(job));
      measured.set(kindOf(job), before === undefined ? took : before + SMOOTHING * (took - before));
      release(job);
      const e = message.error;
      // A caller that has gone was answered already: the result is dropped.
      if (!job.abandoned) {
        if (e?.api)
          job.reject(new ApiFailure(e.api.status, e.api.msgCode, e.api.issues, e.api.headers));
        else if (e) job.reject(new TaskError(e.name, e.message, e.code));
        else job.resolve(message.result);
      }
    }
    idle.push(worker);
    dispatch();
  };

  const spawn = () => {
    const worker = spawnWorker();
    workers.add(worker);
    worker.on("message", (message: WorkerReply) => finished(worker, message));
    worker.on("error", (error: Error) => {
      workers.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        release(job);
        job.reject(error);
      }
      if (!closed) {
        spawn();
        dispatch();
      }
    });
    worker.unref();
    if (market) worker.postMessage({ snapshot: market });
    idle.push(worker);
  };

  const heavyRunning = () => {
    let n = 0;
    for (const job of busy.values()) if (job.heavy) n++;
    return n;
  };

  const dispatch = () => {
    while (idle.length && queue.length) {
      // The first job that may run: a heavy one waits while the other heavy ones fill their share.
      const at = heavyRunning() >= maxHeavy ? queue.findIndex((j) => !j.heavy) : 0;
      if (at < 0) return;
      const [job] = queue.splice(at, 1);
      const worker = idle.pop()!;
      job!.startedAt = now();
      job!.cancelWait();
      busy.set(worker, job!);
      worker.postMessage({ id: job!.id, task: job!.task, input: job!.input });
    }
  };

  for (let i = 0; i < size; i++) spawn();

  return {
    run<T>(task: TaskName, input: unknown, runOptions: RunOptions = {}) {
      if (closed) return Promise.reject(new Error("the analytics pool is closed"));
      const caller = runOptions.caller;
      if (caller?.signal?.aborted) return Promise.reject(new PoolCallerGone());
      return new Promise<T>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          task,
          input,
          heavy: runOptions.heavy ?? false,
          account: caller?.account ?? null,
          resolve: resolve as (v: unknown) => void,
          reject,
          startedAt: 0,
          abandoned: false,
          cancelWait: () => {},
          stopWatching: () => {},
        };
        if (caller) {
          const mine = held.get(caller.account) ?? 0;
          if (mine >= perAccount) {
            // Until the first of the account's jobs is expected to end.
            const t = now();
            const ends = [...busy.values()]
              .filter((j) => j.account === caller.account)
              .map((j) => expected(j) - (t - j.startedAt));
            const first = ends.length ? Math.min(...ends) : expected(job);
            reject(new PoolShareUsed(Math.max(1, Math.ceil(first / 1000))));
            return;
          }
          const wait = waitOf(job, queue);
          if (wait > maxWaitMs) {
            reject(new PoolBusy(retryAfter(wait)));
            return;
          }
        }
        if (job.account !== null) held.set(job.account, (held.get(job.account) ?? 0) + 1);
        queue.push(job);
        dispatch();
        const queued = queue.includes(job);
        // Still waiting, and the queue is over its bound (the last guard; the wait is the real
        // bound): refused at once, to retry soon, as a queue this long moves (50 jobs a worker).
        if (queued && queue.length > maxQueued) {
          unqueue(job);
          reject(new PoolBusy(Math.max(1, Math.ceil(queue.length / (size * 50)))));
          return;
        }
        if (!caller) return;
        if (caller.signal) job.stopWatching = watchCaller(job, caller.signal);
        // A request's job waits at most maxWaitMs: then its client is near its own timeout.
        if (queued)
          job.cancelWait = setTimer(maxWaitMs, () => {
            const at = queue.indexOf(job);
            if (at < 0) return;
            const wait = waitOf(job, queue.slice(0, at));
            unqueue(job);
            reject(new PoolBusy(retryAfter(wait + maxWaitMs)));
          });
      });
    },
    useSnapshot(snapshot: MarketSnapshot) {
      if (market?.version === snapshot.version) return;
      market = transferOf(snapshot);
      // Messages are handled in order: every task posted after this sees the new snapshot.
      for (const worker of workers) worker.postMessage({ snapshot: market });
    },
    load() {
      return { running: busy.size, queued: queue.length };
    },
    async close() {
      closed = true;
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };

  /**
   * Drops the job when its caller goes: a queued one leaves the queue (it never runs), a running
   * one is answered now and its result discarded when its worker is done.
   */
  function watchCaller(job: Job, signal: AbortSignal) {
    const gone = () => {
      if (unqueue(job)) job.reject(new PoolCallerGone());
      else if (!job.abandoned && [...busy.values()].includes(job)) {
        job.abandoned = true;
        job.reject(new PoolCallerGone());
      }
    };
    signal.addEventListener("abort", gone, { once: true });
    return () => signal.removeEventListener("abort", gone);
  }
}
