import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { EngineErrorCode } from "../../engine/errors.ts";
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

interface Job {
  readonly id: number;
  readonly task: TaskName;
  readonly input: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

export interface AnalyticsPool {
  run<T>(task: TaskName, input: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * Worker threads that run the engine, so a long computation (Monte Carlo, a large optimisation)
 * never delays another request: the HTTP thread only queues jobs and answers. A crashed worker is
 * replaced and its job fails; queued jobs go on.
 */
export function createAnalyticsPool(size = Math.max(2, availableParallelism())): AnalyticsPool {
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  let nextId = 1;
  let closed = false;

  const spawn = () => {
    const worker = new Worker(new URL("./worker.ts", import.meta.url));
    worker.on(
      "message",
      (message: {
        id: number;
        result?: unknown;
        error?: { name: string; message: string; code: EngineErrorCode | null };
      }) => {
        const job = busy.get(worker);
        busy.delete(worker);
        if (job && job.id === message.id) {
          if (message.error)
            job.reject(
              new TaskError(message.error.name, message.error.message, message.error.code),
            );
          else job.resolve(message.result);
        }
        idle.push(worker);
        dispatch();
      },
    );
    worker.on("error", (error) => {
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(error);
      if (!closed) {
        spawn();
        dispatch();
      }
    });
    worker.unref();
    idle.push(worker);
  };

  const dispatch = () => {
    while (idle.length && queue.length) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.postMessage({ id: job.id, task: job.task, input: job.input });
    }
  };

  for (let i = 0; i < size; i++) spawn();

  return {
    run<T>(task: TaskName, input: unknown) {
      if (closed) return Promise.reject(new Error("the analytics pool is closed"));
      return new Promise<T>((resolve, reject) => {
        queue.push({ id: nextId++, task, input, resolve: resolve as (v: unknown) => void, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}
