// A worker thread of the analytics pool: runs engine tasks, and whole API requests on the market
// snapshot the pool sent it, off the request thread.
import { parentPort } from "node:worker_threads";
import { EngineError } from "../../engine/errors.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { SnapshotTransfer } from "../market/snapshot.ts";
import { tasks, type TaskName } from "./tasks.ts";
import { receiveSnapshot } from "./worker-market.ts";

type Message = { snapshot: SnapshotTransfer } | { id: number; task: TaskName; input: unknown };

parentPort?.on("message", async (message: Message) => {
  if ("snapshot" in message) {
    receiveSnapshot(message.snapshot);
    return;
  }
  try {
    const result = await (tasks[message.task] as (input: unknown) => unknown)(message.input);
    parentPort!.postMessage({ id: message.id, result });
  } catch (error) {
    parentPort!.postMessage({
      id: message.id,
      error: {
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
        code: error instanceof EngineError ? error.code : null,
        ...(error instanceof ApiFailure
          ? {
              api: {
                status: error.status,
                msgCode: error.msgCode,
                issues: error.issues,
                headers: error.headers,
              },
            }
          : {}),
      },
    });
  }
});
