// `npm test`: the whole suite, as CI runs it. The static checks and the build first, side by side
// on every core (each one's output printed whole when it ends); then the unit and server tests,
// then the browser tests. Prints each step's time, the tests Playwright had to retry (a defect to
// fix, never hidden), and ends with one "N passed, N failed" line over every test that ran.
import { mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { run, runQuietly } from "./lib/run.ts";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const node = process.execPath;
const reports = mkdtempSync(path.join(tmpdir(), "test-reports-"));
const vitestReport = path.join(reports, "vitest.json");
const playwrightReport = path.join(reports, "playwright.json");

interface Step {
  readonly name: string;
  readonly cmd: string;
  readonly args: string[];
  readonly env?: NodeJS.ProcessEnv;
}

/** First, alone: the catalogs the checks and the build read are rewritten from the code. */
const extract: Step = {
  name: "translations extracted",
  cmd: bin("lingui"),
  args: ["extract", "--clean"],
};

/** Then independent chains of static checks: each chain's steps in order, the chains side by side. */
const staticChains: Step[][] = [
  [
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
  ],
  [{ name: "lint", cmd: bin("eslint"), args: [".", "--max-warnings", "0"] }],
  [{ name: "format", cmd: bin("prettier"), args: ["--check", ".", "--log-level", "warn"] }],
  [
    {
      name: "build",
      cmd: node,
      args: ["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"],
    },
  ],
];

const testSteps: Step[] = [
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
const times: { name: string; seconds: number }[] = [];
const seconds = (since: number) => (Date.now() - since) / 1000;

function record(name: string, code: number, started: number) {
  const took = seconds(started);
  times.push({ name, seconds: took });
  console.log(`${code === 0 ? "✔" : "✘"} ${name} (${took.toFixed(1)} s)`);
  if (code !== 0) failed.push(name);
}

/** Runs the chains with at most `parallel` at a time; a chain stops at its first failure. */
async function runChains(chains: Step[][], parallel: number) {
  const queue = [...chains];
  const worker = async () => {
    for (let chain = queue.shift(); chain; chain = queue.shift()) {
      for (const step of chain) {
        const started = Date.now();
        const { code, output } = await runQuietly(step.cmd, step.args, step.env);
        console.log(`\n▶ ${step.name}`);
        if (output.trim()) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
        record(step.name, code, started);
        if (code !== 0) break;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, chains.length) }, worker));
}

const began = Date.now();
const staticStarted = Date.now();
await runChains([[extract]], 1);
await runChains(staticChains, availableParallelism());
times.push({ name: "static checks and build (side by side)", seconds: seconds(staticStarted) });

for (const step of testSteps) {
  console.log(`\n▶ ${step.name}`);
  const started = Date.now();
  record(step.name, await run(step.cmd, step.args, step.env), started);
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  retried: string[];
}

interface PlaywrightSuite {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    tests: { projectName: string; status: string; results: { retry: number }[] }[];
  }[];
}

function counts(): Counts {
  const total: Counts = { passed: 0, failed: 0, skipped: 0, retried: [] };
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
      suites: PlaywrightSuite[];
    };
    total.passed += p.stats.expected + p.stats.flaky;
    total.failed += p.stats.unexpected;
    total.skipped += p.stats.skipped;
    const walk = (suite: PlaywrightSuite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests)
          if (t.results.length > 1)
            total.retried.push(`[${t.projectName}] ${spec.file} › ${spec.title} (${t.status})`);
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of p.suites) walk(s);
  } catch {}
  return total;
}

const total = counts();
console.log("\nTimes:");
for (const t of times) console.log(`  ${t.name.padEnd(40)} ${t.seconds.toFixed(1).padStart(7)} s`);
console.log(`  ${"whole run".padEnd(40)} ${seconds(began).toFixed(1).padStart(7)} s`);
if (total.retried.length) {
  console.log(`\nRetried (each a defect to fix): ${total.retried.length}`);
  for (const r of total.retried) console.log(`  ${r}`);
} else console.log("\nNo test needed a retry.");
console.log(failed.length ? `\nFailed steps: ${failed.join(", ")}` : "\nEvery step passed.");
// A failed static check counts as a failure even when no test failed.
const failures = total.failed + (failed.length && total.failed === 0 ? failed.length : 0);
console.log(`${total.passed} passed, ${failures} failed, ${total.skipped} skipped`);
process.exit(failed.length ? 1 : 0);
