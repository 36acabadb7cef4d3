import { assign, fromPromise, setup } from "xstate";
import type { AnalysisResponse } from "../src/contract/analytics.ts";
import type { MsgCode } from "../src/contract/msg-codes.ts";
import { SessionFailure } from "./session.machine.ts";

/** The portfolio as it stands in the form: what the risk is measured of. */
export interface LiveRiskInput {
  readonly currency: "EUR" | "USD";
  readonly benchmark?: 1 | 2 | 3 | 4 | 5 | 6;
  readonly assets: readonly { readonly id: string; readonly investedAmount: number }[];
}

export interface LiveRiskContext {
  /** The holdings last told, with an amount above zero. */
  readonly input: LiveRiskInput | null;
  readonly current: AnalysisResponse | null;
  /** The answer before `current`: the change the last edit made is their difference. */
  readonly previous: AnalysisResponse | null;
  readonly error: MsgCode | null;
}

export type LiveRiskEvent = { type: "holdings.change"; input: LiveRiskInput };

/** Waits this long after the last change before asking for the risk again. */
export const LIVE_RISK_DEBOUNCE_MS = 350;

/** The holdings that count: those with an amount above zero. */
const held = (input: LiveRiskInput): LiveRiskInput => ({
  ...input,
  assets: input.assets.filter((a) => a.investedAmount > 0),
});

/** Failures of `measure` carry the API's message code (`SessionFailure`). */
const codeOf = (error: unknown): MsgCode =>
  error instanceof SessionFailure ? error.msgCode : "INTERNAL_ERROR";

/**
 * The risk of a portfolio while it is being edited (the summary and the edit form): every change
 * of the holdings waits for the person to pause, then asks the API once; a change while an answer
 * is on its way cancels it (leaving `measuring` stops the call), so a late answer never overwrites
 * a newer one. `measure` is abstract: the screen provides the call; `analysis.report` hands each
 * answer to the screen that reuses it.
 */
export const liveRiskMachine = setup({
  types: {
    context: {} as LiveRiskContext,
    events: {} as LiveRiskEvent,
  },
  actors: {
    measure: fromPromise<AnalysisResponse, LiveRiskInput>(async () => {
      throw new Error("measure must be provided");
    }),
  },
  actions: {
    "analysis.report": (_, _analysis: AnalysisResponse) => {},
  },
  guards: {
    nothingHeld: ({ event }) => held(event.input).assets.length === 0,
  },
  delays: { pause: LIVE_RISK_DEBOUNCE_MS },
}).createMachine({
  id: "liveRisk",
  description:
    "The risk of the portfolio being edited, measured again once the person pauses; stale answers are cancelled.",
  context: { input: null, current: null, previous: null, error: null },
  initial: "idle",
  on: {
    "holdings.change": [
      { guard: "nothingHeld", target: ".idle", actions: assign({ input: null }) },
      {
        target: ".waiting",
        reenter: true,
        actions: assign({ input: ({ event }) => held(event.input) }),
      },
    ],
  },
  states: {
    idle: {},
    waiting: { after: { pause: "measuring" } },
    measuring: {
      invoke: {
        id: "measure",
        src: "measure",
        input: ({ context }) => context.input!,
        onDone: {
          target: "idle",
          actions: [
            assign({
              previous: ({ context }) => context.current,
              current: ({ event }) => event.output,
              error: null,
            }),
            { type: "analysis.report", params: ({ event }) => event.output },
          ],
        },
        onError: { target: "idle", actions: assign({ error: ({ event }) => codeOf(event.error) }) },
      },
    },
  },
});
