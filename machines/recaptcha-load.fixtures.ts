// The recaptcha-load machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { recaptchaErrors, recaptchaLoadMachine } from "./recaptcha-load.machine.ts";

/** The recaptcha-load machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const recaptchaLoadEntry: MachineEntry = {
  // Explored as in a browser whose script is ready after one poll; the key "outside-browser"
  // stands for a call made outside a browser.
  machine: recaptchaLoadMachine.provide({
    guards: {
      isBrowser: ({ event }) => event.siteKey !== "outside-browser",
      isReady: ({ context }) => context.waitedMs >= 25,
    },
  }),
  title: "reCAPTCHA load",
  guards: {
    isBrowser: `Runs only in a browser; elsewhere loading fails with "${recaptchaErrors.notBrowser}".`,
    isReady: "The script has loaded and grecaptcha is ready (checked every 25 ms).",
    differentKey: `Already loading or loaded with another site key: "${recaptchaErrors.differentKey}".`,
    timedOut: "The script was not ready after 15 seconds.",
  },
  pathEvents: [
    { type: "recaptcha.load", siteKey: "key-a" },
    { type: "recaptcha.load", siteKey: "key-b" },
    { type: "recaptcha.load", siteKey: "outside-browser" },
    { type: "xstate.after.poll.recaptchaLoad.loading" },
  ],
};
