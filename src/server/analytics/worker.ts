// A worker thread of the analytics pool: runs engine tasks off the request thread.
import { parentPort } from "node:worker_threads";
import { EngineError } from "../../engine/errors.ts";
import { tasks, type TaskName } from "./tasks.ts";

parentPort?.on("message", (message: { id: number; task: TaskName; input: unknown }) => {
  try {
    const result = tasks[message.task](message.input as never);
    parentPort!.postMessage({ id: message.id, result });
  } catch (error) {
    parentPort!.postMessage({
      id: message.id,
      error: {
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
        code: error instanceof EngineError ? error.code : null,
      },
    });
  }
});
