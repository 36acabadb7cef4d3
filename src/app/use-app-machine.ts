import { useMachine } from "@xstate/react";
import type { ActorOptions, AnyStateMachine } from "xstate";
import { inspectObserver } from "./inspector.ts";

/** `useMachine` with the Stately inspector attached when it is open (development, `?inspect`). */
export function useAppMachine<M extends AnyStateMachine>(
  machine: M,
  options: ActorOptions<M> = {} as ActorOptions<M>,
) {
  const inspect = inspectObserver();
  return useMachine(machine, (inspect ? { ...options, inspect } : options) as never) as ReturnType<
    typeof useMachine<M>
  >;
}
