// `npm test`: the whole suite, as CI runs it. Static checks first (fast), then unit, server and
// browser tests. Ends with one "N passed, N failed" line over every test that ran.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { run } from "./lib/run.ts";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const node = process.execPath;
const reports = mkdtempSync(path.join(tmpdir(), "test-reports-"));
const vitestReport = path.join(reports, "vitest.json");
const playwrightReport = path.join(reports, "playwright.json");

const steps: { name: string; cmd: string; args: string[]; env?: NodeJS.ProcessEnv }[] = [
  { name: "translations extracted", cmd: bin("lingui"), args: ["extract", "--clean"] },
  { name: "no untranslated Spanish entry", cmd: node, args: ["scripts/i18n-check.ts"] },
  {
    name: "machine documents up to date",
    cmd: node,
    args: ["scripts/machines-docs.ts", "--check"],
  },
  {
    name: "typecheck",
    cmd: node,
    args: ["node_modules/typescript-native/bin/tsc", "-p", "tsconfig.json"],
  },
  { name: "lint", cmd: bin("eslint"), args: [".", "--max-warnings", "0"] },
  { name: "format", cmd: bin("prettier"), args: ["--check", ".", "--log-level", "warn"] },
  {
    name: "build",
    cmd: node,
    args: ["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"],
  },
  {
    name: "unit and server tests",
    cmd: bin("vitest"),
    args: ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`],
  },
  {
    name: "end-to-end tests",
    cmd: bin("playwright"),
    args: ["test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
  },
];

const failed: string[] = [];
for (const step of steps) {
  console.log(`\n▶ ${step.name}`);
  const started = Date.now();
  const code = await run(step.cmd, step.args, step.env);
  console.log(
    `${code === 0 ? "✔" : "✘"} ${step.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  if (code !== 0) failed.push(step.name);
}

function counts(): { passed: number; failed: number; skipped: number } {
  const total = { passed: 0, failed: 0, skipped: 0 };
  try {
    const v = JSON.parse(readFileSync(vitestReport, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
    };
    total.passed += v.numPassedTests;
    total.failed += v.numFailedTests;
    total.skipped += v.numPendingTests + v.numTodoTests;
  } catch {}
  try {
    const p = JSON.parse(readFileSync(playwrightReport, "utf8")) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    };
    total.passed += p.stats.expected + p.stats.flaky;
    total.failed += p.stats.unexpected;
    total.skipped += p.stats.skipped;
  } catch {}
  return total;
}

const total = counts();
console.log(failed.length ? `\nFailed steps: ${failed.join(", ")}` : "\nEvery step passed.");
// A failed static check counts as a failure even when no test failed.
const failures = total.failed + (failed.length && total.failed === 0 ? failed.length : 0);
console.log(`${total.passed} passed, ${failures} failed, ${total.skipped} skipped`);
process.exit(failed.length ? 1 : 0);
