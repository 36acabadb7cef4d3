import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import type { E2eOptions } from "./tests/e2e/fixtures.ts";

/**
 * End-to-end tests: the built app (dist/) served by the real server, one per edition, each with
 * a fresh embedded database. The config does not build: run `vite build` first.
 */
const root = path.dirname(fileURLToPath(import.meta.url));

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  throw new Error(
    `The e2e tests need Node >= 22.18 (the server is TypeScript run by node); this is ${process.version}. ` +
      "Put node_modules/.bin first on PATH or run `npm run test:e2e`.",
  );
}

// E2E_DIST_DIR and E2E_PORT let several checkouts' runs share a machine (each its own build and
// ports); by default dist/ and ports 4310 (ht) and 4311 (tt).
const distDir = path.resolve(root, process.env.E2E_DIST_DIR || "dist");
const basePort = Number(process.env.E2E_PORT || 4310);

if (!existsSync(path.join(distDir, "index.html"))) {
  throw new Error(
    "dist/index.html is missing: build the app first (`npx vite build` or `npm run build`).",
  );
}

// One temporary folder per run, shared with the workers through the environment (they load this
// file again) and removed when the main process ends.
const dataRootVariable = "E2E_DATA_ROOT";
let dataRoot = process.env[dataRootVariable];
if (!dataRoot) {
  dataRoot = mkdtempSync(path.join(os.tmpdir(), "e2e-data-"));
  process.env[dataRootVariable] = dataRoot;
  const created = dataRoot;
  process.on("exit", () => rmSync(created, { recursive: true, force: true }));
}

export const MARKETING_SCRIPT_URL = "https://marketing.example.test/chat.js";

// Debian's headless shell (`chromium-headless-shell`: the build Playwright itself runs for headless
// Chromium) draws the same pages as the full browser with less CPU, which is what a 2-core run is
// short of; the full browser when the shell is not installed. E2E_CHROMIUM names another.
const executablePath =
  process.env.E2E_CHROMIUM ||
  (existsSync("/usr/bin/chromium-headless-shell")
    ? "/usr/bin/chromium-headless-shell"
    : "/usr/bin/chromium");

const chromium = {
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

const editions = {
  ht: { port: basePort, marketingScriptUrl: MARKETING_SCRIPT_URL },
  tt: { port: basePort + 1, marketingScriptUrl: "" },
} as const;

function server(edition: keyof typeof editions) {
  const { port, marketingScriptUrl } = editions[edition];
  const dataDir = path.join(dataRoot!, edition);
  mkdirSync(dataDir, { recursive: true });
  return {
    command: `"${process.execPath}" src/server/main.ts`,
    cwd: root,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    // Generous: on a busy 2-core machine the server and its workers take a while to start.
    timeout: 180_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      EDITION: edition,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      MARKETING_SCRIPT_URL: marketingScriptUrl,
      // Empty means unset for the server: always the embedded database; dist/ unless E2E_DIST_DIR.
      DATABASE_URL: "",
      DIST_DIR: process.env.E2E_DIST_DIR ? distDir : "",
      API_BASE: "",
      // The simulated market starts in a second; the real dataset is covered by the server tests.
      MARKET_DATA_DIR: "",
      MARKET_AS_OF: "",
      // A light proof of work keeps sign-up tests quick; the check itself is the same.
      CAPTCHA_COST: "20",
      CAPTCHA_MAX_COUNTER: "100",
      // Every test signs up from this one address: the per-address sign-up limit is lifted here
      // (tests/server/rate-limits.test.ts checks it).
      RATE_LIMIT_SIGNUPS_PER_HOUR: "10000",
    },
  };
}

export default defineConfig<E2eOptions>({
  testDir: "tests/e2e",
  fullyParallel: false,
  // One worker per core: each drives a browser against the two servers, which wait as often as
  // they compute.
  workers: os.availableParallelism(),
  // In CI a failed test is run once more, so that one flake does not stop a landing; `npm test`
  // lists every test that needed it, as a defect to fix (a retried test is never silent).
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  // A test's own budget, not a check: on a 2-core machine with two workers, both servers and two
  // browsers, a full page load can take 2-4 s when the host is busy (seen in CI); tests that load
  // many pages set their own.
  timeout: 60_000,
  // A condition's budget (a heading shown, a figure answered), not a pause: a passing wait ends as
  // soon as its condition holds. Five seconds (Playwright's default) was exceeded in CI with one
  // core taken by another job, when a saved portfolio's page waits for its analysis.
  expect: { timeout: 15_000 },
  use: {
    headless: true,
    locale: "en-US",
    launchOptions: chromium,
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "ht",
      use: { baseURL: `http://127.0.0.1:${editions.ht.port}`, edition: "ht" },
    },
    {
      name: "tt",
      use: { baseURL: `http://127.0.0.1:${editions.tt.port}`, edition: "tt" },
    },
  ],
  webServer: [server("ht"), server("tt")],
});
