import { useState } from "react";
import { fromPromise } from "xstate";
import { formSubmitMachine } from "../../machines/form-submit.machine.ts";
import { useAppMachine } from "./use-app-machine.ts";

/** Binds the form-submit machine to a call; returns its state and a submit function. */
export function useFormSubmit<V, R>(call: (values: V) => Promise<R>) {
  // The machine is made once per screen; the call it makes is the one of the first render (screens
  // pass functions of stable services).
  const [machine] = useState(() =>
    formSubmitMachine.provide({
      actors: { submit: fromPromise(async ({ input }) => call(input as V)) },
    }),
  );
  const [snapshot, send] = useAppMachine(machine);
  return {
    submitting: snapshot.matches("submitting"),
    succeeded: snapshot.matches("succeeded"),
    error: snapshot.context.error,
    result: snapshot.context.result as R | null,
    submit: (values: V) => send({ type: "form.submit", values }),
    edit: () => send({ type: "form.edit" }),
  };
}
