import { useEffect, useMemo, useRef } from "react";
import { fromPromise } from "xstate";
import { dataLoadMachine } from "../../machines/data-load.machine.ts";
import { ApiCallError } from "../client/http.ts";
import type { MsgCode } from "../contract/msg-codes.ts";
import { useAppMachine } from "./use-app-machine.ts";

export interface DataState<T> {
  readonly data: T | null;
  readonly loading: boolean;
  /** The msgCode of a failed load (NETWORK_ERROR when the server could not be reached). */
  readonly error: MsgCode | null;
  readonly status: number | null;
  readonly retry: () => void;
  readonly refresh: () => void;
}

/**
 * One API load for a screen, through the data-load machine (loading, loaded, failed; retry and
 * refresh). `key` names the inputs: a new key starts a new load.
 */
export function useData<T>(key: string, load: () => Promise<T>): DataState<T> {
  const latest = useRef(load);
  useEffect(() => {
    latest.current = load;
  });
  const machine = useMemo(
    () =>
      dataLoadMachine.provide({
        // The load actor runs after render and reads the latest load function then.
        // eslint-disable-next-line react-hooks/refs
        actors: { load: fromPromise<unknown>(() => latest.current()) },
      }),
    [],
  );
  const [snapshot, send] = useAppMachine(machine);
  const firstKey = useRef(key);
  useEffect(() => {
    if (key === firstKey.current) return;
    firstKey.current = key;
    send({ type: snapshot.matches("failed") ? "data.retry" : "data.refresh" });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new key reloads
  }, [key]);
  const error = snapshot.context.error;
  const failure = error instanceof ApiCallError ? error.failure : null;
  return {
    data: snapshot.matches("loaded") ? (snapshot.context.data as T) : null,
    loading: snapshot.matches("loading"),
    error: snapshot.matches("failed")
      ? failure?.kind === "http"
        ? failure.msgCode
        : failure?.kind === "network"
          ? "NETWORK_ERROR"
          : "INTERNAL_ERROR"
      : null,
    status: failure?.kind === "http" ? failure.status : null,
    retry: () => send({ type: "data.retry" }),
    refresh: () => send({ type: "data.refresh" }),
  };
}
