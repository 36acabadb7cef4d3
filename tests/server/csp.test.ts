// The Content-Security-Policy allows exactly the origins the configuration names.
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../src/server/http/csp.ts";

describe("the content security policy", () => {
  it("allows only the app itself without a marketing script or bot-check keys", () => {
    const csp = contentSecurityPolicy({
      marketingScriptUrl: null,
      recaptchaSiteKey: null,
      recaptchaSecret: null,
    });
    expect(csp.scriptSrc).toEqual(["'self'"]);
    expect(csp.connectSrc).toEqual(["'self'"]);
    expect(csp.frameSrc).toEqual(["'none'"]);
    expect(csp.objectSrc).toEqual(["'none'"]);
    expect(csp.frameAncestors).toEqual(["'none'"]);
  });

  it("adds the marketing script's origin, and Google's only with both keys", () => {
    const csp = contentSecurityPolicy({
      marketingScriptUrl: "https://chat.example.com/widget/v2.js",
      recaptchaSiteKey: "site",
      recaptchaSecret: null,
    });
    expect(csp.scriptSrc).toEqual(["'self'", "https://chat.example.com"]);
    const withGoogle = contentSecurityPolicy({
      marketingScriptUrl: null,
      recaptchaSiteKey: "site",
      recaptchaSecret: "secret",
    });
    expect(withGoogle.scriptSrc).toContain("https://www.google.com");
    expect(withGoogle.frameSrc).toContain("https://www.google.com");
  });
});
