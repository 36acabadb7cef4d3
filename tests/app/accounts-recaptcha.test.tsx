// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The loader keeps one actor per page: each test loads a fresh copy of the module. */
async function freshLoader() {
  vi.resetModules();
  return import("../../src/app/recaptcha.ts");
}

const scripts = () =>
  [...document.head.querySelectorAll("script")].filter((s) =>
    s.src.startsWith("https://www.google.com/recaptcha/api.js"),
  );

/** Plays Google's script: it defines grecaptcha and fires load. */
function scriptLoads(execute = vi.fn(async () => "g-token")) {
  window.grecaptcha = { ready: (callback) => callback(), execute };
  const [script] = scripts();
  script!.onload!(new Event("load"));
  return execute;
}

beforeEach(() => {
  document.head.innerHTML = "";
  delete window.grecaptcha;
});
afterEach(() => {
  document.head.innerHTML = "";
  delete window.grecaptcha;
});

describe("loading reCAPTCHA in the browser", () => {
  it("injects Google's script for the site key once and gives a signup token", async () => {
    const { recaptchaToken } = await freshLoader();
    const token = recaptchaToken("site key/1");
    await vi.waitFor(() => expect(scripts()).toHaveLength(1));
    expect(scripts()[0]!.src).toBe("https://www.google.com/recaptcha/api.js?render=site%20key%2F1");
    expect(scripts()[0]!.async).toBe(true);

    const execute = scriptLoads();

    await expect(token).resolves.toBe("g-token");
    expect(execute).toHaveBeenCalledWith("site key/1", { action: "signup" });
  });

  it("does not inject the script again for the same key", async () => {
    const { loadRecaptcha } = await freshLoader();
    const first = loadRecaptcha("key-1");
    await vi.waitFor(() => expect(scripts()).toHaveLength(1));
    scriptLoads();
    await first;

    await expect(loadRecaptcha("key-1")).resolves.toBe(window.grecaptcha);
    expect(scripts()).toHaveLength(1);
  });

  it("rejects another site key with the specification's message", async () => {
    const { loadRecaptcha } = await freshLoader();
    const first = loadRecaptcha("key-1");
    await vi.waitFor(() => expect(scripts()).toHaveLength(1));
    scriptLoads();
    await first;

    await expect(loadRecaptcha("key-2")).rejects.toThrow(
      "reCAPTCHA already loaded with different site key!",
    );
    expect(scripts()).toHaveLength(1);
  });
});
