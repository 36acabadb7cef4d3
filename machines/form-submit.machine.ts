import { assign, fromPromise, setup } from "xstate";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import { SessionFailure } from "./session.machine.ts";

export type FormSubmitEvent = { type: "form.submit"; values: unknown } | { type: "form.edit" };

interface FormSubmitContext {
  readonly values: unknown;
  readonly error: MsgCode | null;
  readonly result: unknown;
}

const msgCodeOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

/**
 * A form that is sent once per submit: idle, submitting, succeeded, or back to idle with the
 * msgCode of the failure. The `submit` actor is abstract; each screen provides its call.
 */
export const formSubmitMachine = setup({
  types: { context: {} as FormSubmitContext, events: {} as FormSubmitEvent },
  actors: {
    submit: fromPromise<unknown, unknown>(async () => {
      throw new Error("submit must be provided");
    }),
  },
  actions: {
    takeValues: assign({
      values: ({ event }) => (event.type === "form.submit" ? event.values : null),
      error: null,
    }),
  },
}).createMachine({
  id: "formSubmit",
  description: "The reusable submit cycle behind the account forms.",
  context: { values: null, error: null, result: null },
  initial: "idle",
  states: {
    idle: {
      on: {
        "form.submit": { target: "submitting", actions: "takeValues" },
        "form.edit": { actions: assign({ error: null }) },
      },
    },
    submitting: {
      invoke: {
        id: "submit",
        src: "submit",
        input: ({ context }: { context: FormSubmitContext }) => context.values,
        onDone: { target: "succeeded", actions: assign({ result: ({ event }) => event.output }) },
        onError: {
          target: "idle",
          actions: assign({ error: ({ event }) => msgCodeOf(event.error) }),
        },
      },
    },
    succeeded: {
      on: { "form.submit": { target: "submitting", actions: "takeValues" }, "form.edit": "idle" },
    },
  },
});
