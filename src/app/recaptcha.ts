import { createActor, waitFor } from "xstate";
import { recaptchaErrors, recaptchaLoadMachine } from "../../machines/recaptcha-load.machine.ts";

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let actor: ReturnType<typeof createRecaptchaActor> | null = null;
let ready = false;

function createRecaptchaActor() {
  return createActor(
    recaptchaLoadMachine.provide({
      actions: {
        injectScript: (_, { siteKey }) => {
          const script = document.createElement("script");
          script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
          script.async = true;
          script.onload = () => window.grecaptcha?.ready(() => (ready = true));
          document.head.appendChild(script);
        },
      },
      guards: { isReady: () => ready },
    }),
  ).start();
}

/**
 * Loads Google's script for a site key (once); rejects with the specification's messages when
 * another key is already loaded or outside a browser.
 */
export async function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  if (typeof window === "undefined") throw new Error(recaptchaErrors.notBrowser);
  actor ??= createRecaptchaActor();
  actor.send({ type: "recaptcha.load", siteKey });
  const snapshot = await waitFor(
    actor,
    (s) => s.matches("loaded") || s.matches("failed") || s.context.rejection?.siteKey === siteKey,
    { timeout: 20_000 },
  );
  if (snapshot.context.rejection?.siteKey === siteKey)
    throw new Error(snapshot.context.rejection.error);
  if (!snapshot.matches("loaded") || !window.grecaptcha)
    throw new Error(snapshot.context.error ?? recaptchaErrors.timeout);
  return window.grecaptcha;
}

/** A token for the sign-up action. */
export async function recaptchaToken(siteKey: string): Promise<string> {
  const grecaptcha = await loadRecaptcha(siteKey);
  return grecaptcha.execute(siteKey, { action: "signup" });
}
