import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { EngineErrorCode } from "../../engine/errors.ts";
import type { MarketSnapshot, SnapshotTransfer } from "../market/snapshot.ts";
import { transferOf } from "../market/snapshot.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { TaskName } from "./tasks.ts";

/** A failure inside a task, with the engine's error code when it was an EngineError. */
export class TaskError extends Error {
  readonly code: EngineErrorCode | null;
  constructor(name: string, message: string, code: EngineErrorCode | null) {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/** The queue is full: the caller should answer 503 with Retry-After. */
export class PoolBusy extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("the analytics queue is full");
    this.name = "PoolBusy";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Job {
  readonly id: number;
  readonly task: TaskName;
  readonly input: unknown;
  readonly heavy: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

export interface RunOptions {
  /** A long job (many assets, many paths): at most all workers but one run such jobs at once. */
  readonly heavy?: boolean;
}

export interface AnalyticsPool {
  run<T>(task: TaskName, input: unknown, options?: RunOptions): Promise<T>;
  /** Sends the market's snapshot to every worker (once per version; its buffers are shared). */
  useSnapshot(snapshot: MarketSnapshot): void;
  close(): Promise<void>;
}

export interface PoolOptions {
  readonly size?: number;
  /** Jobs waiting beyond this are refused at once (PoolBusy), never left to wait without bound. */
  readonly maxQueued?: number;
}

/**
 * Worker threads that run the engine, so a long computation (Monte Carlo, a large optimisation)
 * never delays another request: the HTTP thread only queues jobs and answers. The queue is
 * bounded (a full queue refuses at once), and heavy jobs never take every worker, so a short job
 * always finds one soon. A crashed worker is replaced and its job fails; queued jobs go on.
 */
export function createAnalyticsPool(options: PoolOptions | number = {}): AnalyticsPool {
  const { size = Math.max(2, availableParallelism()), maxQueued = 256 } =
    typeof options === "number" ? { size: options } : options;
  const maxHeavy = Math.max(1, size - 1);
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  let nextId = 1;
  let closed = false;
  let market: SnapshotTransfer | null = null;
  const workers = new Set<Worker>();

  const spawn = () => {
    const worker = new Worker(new URL("./worker.ts", import.meta.url));
    workers.add(worker);
    worker.on(
      "message",
      (message: {
        id: number;
        result?: unknown;
        error?: {
          name: string;
          message: string;
          code: EngineErrorCode | null;
          api?: Pick<ApiFailure, "status" | "msgCode" | "issues" | "headers">;
        };
      }) => {
        const job = busy.get(worker);
        busy.delete(worker);
        if (job && job.id === message.id) {
          const e = message.error;
          if (e?.api)
            job.reject(new ApiFailure(e.api.status, e.api.msgCode, e.api.issues, e.api.headers));
          else if (e) job.reject(new TaskError(e.name, e.message, e.code));
          else job.resolve(message.result);
        }
        idle.push(worker);
        dispatch();
      },
    );
    worker.on("error", (error) => {
      workers.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(error);
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
      busy.set(worker, job!);
      worker.postMessage({ id: job!.id, task: job!.task, input: job!.input });
    }
  };

  for (let i = 0; i < size; i++) spawn();

  return {
    run<T>(task: TaskName, input: unknown, runOptions: RunOptions = {}) {
      if (closed) return Promise.reject(new Error("the analytics pool is closed"));
      return new Promise<T>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          task,
          input,
          heavy: runOptions.heavy ?? false,
          resolve: resolve as (v: unknown) => void,
          reject,
        };
        queue.push(job);
        dispatch();
        // Still waiting, and the queue is over its bound: refused at once.
        if (queue.length > maxQueued && queue.includes(job)) {
          queue.splice(queue.indexOf(job), 1);
          reject(new PoolBusy(Math.max(1, Math.ceil(queue.length / (size * 50)))));
        }
      });
    },
    useSnapshot(snapshot: MarketSnapshot) {
      if (market?.version === snapshot.version) return;
      market = transferOf(snapshot);
      // Messages are handled in order: every task posted after this sees the new snapshot.
      for (const worker of workers) worker.postMessage({ snapshot: market });
    },
    async close() {
      closed = true;
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}
