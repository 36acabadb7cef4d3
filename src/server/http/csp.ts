/**
 * The Content-Security-Policy of every answer (docs/api.md, "Security headers"): only what the app
 * needs. Scripts from the app itself; the edition's marketing script's origin when one is
 * configured (the app loads it only after consent); Google's bot check when its keys are set. Styles
 * may be inline (the inlined entry stylesheet, the consent banner's and the bot check's). The bot
 * check's proof of work runs in workers made from blob: and data: URLs.
 */
import type { ServerConfig } from "../config.ts";

export function contentSecurityPolicy(
  config: Pick<ServerConfig, "marketingScriptUrl" | "recaptchaSiteKey" | "recaptchaSecret">,
) {
  const marketing = config.marketingScriptUrl ? [new URL(config.marketingScriptUrl).origin] : [];
  const google =
    config.recaptchaSiteKey && config.recaptchaSecret
      ? ["https://www.google.com", "https://www.gstatic.com"]
      : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...marketing, ...google],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", ...marketing],
    fontSrc: ["'self'", "data:"],
    connectSrc: ["'self'", ...marketing, ...google],
    workerSrc: ["'self'", "blob:", "data:"],
    frameSrc: [...marketing, ...google].length ? [...marketing, ...google] : ["'none'"],
    mediaSrc: ["'self'", "blob:"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}
