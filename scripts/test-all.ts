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
const times: { name: string; seconds: number; busy?: number }[] = [];
const seconds = (since: number) => (Date.now() - since) / 1000;

/**
 * The machine's CPU time so far (Linux's /proc/stat, in clock ticks): busy and all. A step's share
 * of busy cores says whether it waits (room for more workers) or computes (none).
 */
function cpuTicks(): { busy: number; all: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.slice(1).map(Number);
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy, all: busy + idle! + iowait! };
  } catch {
    return null;
  }
}

function busyShare(since: ReturnType<typeof cpuTicks>): number | undefined {
  const now = cpuTicks();
  if (!since || !now || now.all === since.all) return undefined;
  return (now.busy - since.busy) / (now.all - since.all);
}

function record(name: string, code: number, started: number, busy?: number) {
  const took = seconds(started);
  times.push({ name, seconds: took, ...(busy === undefined ? {} : { busy }) });
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
  const cpu = cpuTicks();
  const code = await run(step.cmd, step.args, step.env);
  record(step.name, code, started, busyShare(cpu));
}

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
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

/** A JSON report, or null when its step did not write one. */
function report<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

/** Each test step's tally, and the browser tests that needed a retry. */
function counts(): { vitest: Tally | null; playwright: Tally | null; retried: string[] } {
  const v = report<{
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  }>(vitestReport);
  const p = report<{
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites: PlaywrightSuite[];
  }>(playwrightReport);
  const retried: string[] = [];
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        if (t.results.length > 1)
          retried.push(`[${t.projectName}] ${spec.file} › ${spec.title} (${t.status})`);
    for (const s of suite.suites ?? []) walk(s);
  };
  for (const s of p?.suites ?? []) walk(s);
  return {
    vitest: v && {
      passed: v.numPassedTests,
      failed: v.numFailedTests,
      skipped: v.numPendingTests + v.numTodoTests,
    },
    playwright: p && {
      passed: p.stats.expected + p.stats.flaky,
      failed: p.stats.unexpected,
      skipped: p.stats.skipped,
    },
    retried,
  };
}

const tallyLine = (t: Tally | null) =>
  t ? `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped` : "no report";

const { vitest, playwright, retried } = counts();
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
for (const t of [vitest, playwright])
  if (t) for (const k of ["passed", "failed", "skipped"] as const) total[k] += t[k];
console.log("\nTimes:");
for (const t of times)
  console.log(
    `  ${t.name.padEnd(40)} ${t.seconds.toFixed(1).padStart(7)} s${
      t.busy === undefined ? "" : `  (cores busy ${(t.busy * 100).toFixed(0)}%)`
    }`,
  );
console.log(`  ${"whole run".padEnd(40)} ${seconds(began).toFixed(1).padStart(7)} s`);
console.log(`\nUnit and server tests: ${tallyLine(vitest)}`);
console.log(`End-to-end tests: ${tallyLine(playwright)}`);
if (retried.length) {
  console.log(`\nRetried (each a defect to fix): ${retried.length}`);
  for (const r of retried) console.log(`  ${r}`);
} else console.log("\nNo test needed a retry.");
console.log(failed.length ? `\nFailed steps: ${failed.join(", ")}` : "\nEvery step passed.");
// A failed static check counts as a failure even when no test failed.
const failures = total.failed + (failed.length && total.failed === 0 ? failed.length : 0);
console.log(`${total.passed} passed, ${failures} failed, ${total.skipped} skipped`);
process.exit(failed.length ? 1 : 0);
