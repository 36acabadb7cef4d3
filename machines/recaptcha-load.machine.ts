import { assign, setup } from "xstate";

/** Delay between two checks that the script is ready (specification section 9). */
export const RECAPTCHA_POLL_MS = 25;
/** Give up after this long (a blocked or offline script). */
export const RECAPTCHA_TIMEOUT_MS = 15_000;

export const recaptchaErrors = {
  notBrowser: "This is a library for the browser!",
  differentKey: "reCAPTCHA already loaded with different site key!",
  timeout: "reCAPTCHA could not be loaded",
} as const;

export type RecaptchaEvent = { type: "recaptcha.load"; siteKey: string };

interface RecaptchaContext {
  readonly siteKey: string | null;
  /** The last request refused, and why (a different key, or not a browser). */
  readonly rejection: { readonly siteKey: string; readonly error: string } | null;
  readonly error: string | null;
  readonly waitedMs: number;
}

/**
 * Loading of the bot-protection script (specification section 4): not loaded, loading, loaded;
 * loading with a different site key is rejected; outside a browser it fails. The script tag and the
 * readiness check are abstract (`injectScript`, `isReady`); `isBrowser` can be replaced in tests.
 */
export const recaptchaLoadMachine = setup({
  types: { context: {} as RecaptchaContext, events: {} as RecaptchaEvent },
  actions: {
    injectScript: (_, _params: { siteKey: string }) => {
      throw new Error("injectScript must be provided");
    },
    startLoading: assign({
      siteKey: ({ event }) => event.siteKey,
      rejection: null,
      error: null,
      waitedMs: 0,
    }),
    rejectDifferentKey: assign({
      rejection: ({ event }) => ({ siteKey: event.siteKey, error: recaptchaErrors.differentKey }),
    }),
    rejectNotBrowser: assign({
      rejection: ({ event }) => ({ siteKey: event.siteKey, error: recaptchaErrors.notBrowser }),
      error: recaptchaErrors.notBrowser,
    }),
  },
  guards: {
    isBrowser: () => typeof window !== "undefined" && typeof document !== "undefined",
    isReady: () => {
      throw new Error("isReady must be provided");
    },
    differentKey: ({ context, event }) =>
      context.siteKey !== null && context.siteKey !== event.siteKey,
    timedOut: ({ context }) => context.waitedMs >= RECAPTCHA_TIMEOUT_MS,
  },
  delays: { poll: RECAPTCHA_POLL_MS },
}).createMachine({
  id: "recaptchaLoad",
  description: "Loads Google's score-based bot check once, for one site key.",
  context: { siteKey: null, rejection: null, error: null, waitedMs: 0 },
  initial: "notLoaded",
  states: {
    notLoaded: {
      on: {
        "recaptcha.load": [
          {
            guard: "isBrowser",
            target: "loading",
            actions: [
              "startLoading",
              { type: "injectScript", params: ({ event }) => ({ siteKey: event.siteKey }) },
            ],
          },
          { target: "failed", actions: "rejectNotBrowser" },
        ],
      },
    },
    loading: {
      always: [
        { guard: "isReady", target: "loaded" },
        {
          guard: "timedOut",
          target: "failed",
          actions: assign({ error: recaptchaErrors.timeout }),
        },
      ],
      after: {
        poll: {
          target: "loading",
          reenter: true,
          actions: assign({ waitedMs: ({ context }) => context.waitedMs + RECAPTCHA_POLL_MS }),
        },
      },
      on: { "recaptcha.load": { guard: "differentKey", actions: "rejectDifferentKey" } },
    },
    loaded: {
      on: { "recaptcha.load": { guard: "differentKey", actions: "rejectDifferentKey" } },
    },
    failed: {
      on: {
        "recaptcha.load": [
          {
            guard: "isBrowser",
            target: "loading",
            actions: [
              "startLoading",
              { type: "injectScript", params: ({ event }) => ({ siteKey: event.siteKey }) },
            ],
          },
          { actions: "rejectNotBrowser" },
        ],
      },
    },
  },
});
