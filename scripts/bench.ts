// `npm run bench`: median timings of the analytics. Each file in scripts/bench/ exports `cases`;
// `npm run bench -- <filter>` runs the cases whose name contains the filter.
// `npm run bench:numpy` (`npm run bench -- --numpy [filter]`): only the cases that have a numpy
// reference, each followed by that reference timed by Debian's python3 + numpy on the same inputs
// (written to a temporary folder that scripts/reference/bench_numpy.py reads), side by side.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";

/** What the numpy side computes (scripts/reference/bench_numpy.py) and on which arrays. */
export interface NumpyTask {
  readonly task:
    "cov" | "lw" | "lw-same-algebra" | "full" | "full-all" | "full-same-algebra" | "history";
  /** Shown in the side-by-side table after the case's name. */
  readonly label: string;
  readonly assets: number;
  readonly days: number;
  /** Full analysis: the window taken from the end of the panel. */
  readonly window?: number;
  /** `panel` (days x assets, row-major) and whatever the task needs, as float64. */
  readonly arrays: Readonly<Record<string, ArrayLike<number>>>;
  /** The figure of our result that numpy's `check` must match (shows the inputs are the same). */
  readonly check: (result: unknown) => number;
}

export interface BenchCase {
  readonly name: string;
  /** Prepares inputs (not timed) and returns the function to time. */
  readonly setup: () => () => unknown;
  /** Timed runs (default 15); the median is reported. */
  readonly runs?: number;
  /** Target median in milliseconds, when the issue sets one. */
  readonly targetMs?: number;
  /** The numpy reference of the same computation on the same inputs (`--numpy`). */
  readonly numpy?: () => readonly NumpyTask[];
}

const args = process.argv.slice(2);
const sideBySide = args.includes("--numpy");
const filter = args.find((a) => !a.startsWith("--")) ?? "";
const dir = path.join(import.meta.dirname, "bench");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .sort();

// Debian's python3 with python3-numpy and python3-scipy; BENCH_PYTHON names another one (a
// machine whose numpy and SciPy live elsewhere, e.g. under pyenv).
const PYTHON = process.env.BENCH_PYTHON ?? "/usr/bin/python3";
const NUMPY_SCRIPT = path.join(import.meta.dirname, "reference", "bench_numpy.py");
// Set on some machines for old OpenBLAS builds; they slow a current numpy. Unset for this
// benchmark's python only (never in tests or CI): docs/performance.md, "Engine".
const BLAS_OVERRIDES = ["OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"] as const;
const pythonEnv = { ...process.env };
for (const v of BLAS_OVERRIDES) delete pythonEnv[v];

function python(argv: string[], threads?: number): string {
  const env = threads ? { ...pythonEnv, OPENBLAS_NUM_THREADS: String(threads) } : pythonEnv;
  const r = spawnSync(PYTHON, [NUMPY_SCRIPT, ...argv], { env, encoding: "utf8" });
  if (r.status !== 0)
    throw new Error(
      `${PYTHON} ${NUMPY_SCRIPT} failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr}` +
        "\nThe side-by-side benchmark needs Debian's python3-numpy and python3-scipy " +
        "(apt-get install python3-numpy python3-scipy python3-threadpoolctl).",
    );
  return r.stdout;
}

interface NumpyTiming {
  median: number;
  min: number;
  max: number;
  check: number;
}

/** numpy's timing of a task with BLAS's own thread count, and with one thread (as the engine). */
function runNumpy(task: NumpyTask, runs: number): [NumpyTiming, NumpyTiming] {
  const folder = mkdtempSync(path.join(tmpdir(), "bench-numpy-"));
  try {
    for (const [name, values] of Object.entries(task.arrays))
      writeFileSync(
        path.join(folder, `${name}.f64`),
        new Uint8Array(Float64Array.from(values).buffer),
      );
    writeFileSync(
      path.join(folder, "case.json"),
      JSON.stringify({
        task: task.task,
        assets: task.assets,
        days: task.days,
        window: task.window,
        runs,
        arrays: Object.keys(task.arrays),
      }),
    );
    return [
      JSON.parse(python([folder])) as NumpyTiming,
      JSON.parse(python([folder], 1)) as NumpyTiming,
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (sideBySide) {
  const info = JSON.parse(python(["--info"])) as { numpy: string; blas: string };
  const was = BLAS_OVERRIDES.map((v) => `${v}=${process.env[v] ?? "(unset)"}`).join(", ");
  const one = JSON.parse(python(["--info"], 1)) as { blas: string };
  console.log(`numpy ${info.numpy}: ${info.blas}`);
  console.log(`numpy 1t column, OPENBLAS_NUM_THREADS=1: ${one.blas}`);
  console.log(`python runs with ${BLAS_OVERRIDES.join(" and ")} unset (this shell: ${was}).`);
  console.log(
    `Load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
}

const rows: string[][] = [];
const sideRows: string[] = [];
let missed = 0;
for (const file of files) {
  const { cases } = (await import(path.join(dir, file))) as { cases: readonly BenchCase[] };
  for (const c of cases) {
    if (!c.name.includes(filter)) continue;
    if (sideBySide && !c.numpy) continue;
    const fn = c.setup();
    let result = fn(); // warm-up: JIT and caches
    const times: number[] = [];
    for (let i = 0; i < (c.runs ?? 15); i++) {
      const started = performance.now();
      result = fn();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const verdict =
      c.targetMs === undefined
        ? ""
        : median <= c.targetMs
          ? `≤ ${c.targetMs} ms ✔`
          : `> ${c.targetMs} ms ✘`;
    if (c.targetMs !== undefined && median > c.targetMs) missed++;
    rows.push([
      c.name,
      median.toFixed(2),
      times[0]!.toFixed(2),
      times[times.length - 1]!.toFixed(2),
      verdict,
    ]);
    console.log(
      `${c.name.padEnd(58)} median ${median.toFixed(2).padStart(9)} ms   min ${times[0]!.toFixed(2)}   max ${times.at(-1)!.toFixed(2)}   ${verdict}`,
    );
    if (sideBySide && c.numpy)
      for (const task of c.numpy()) {
        const [np, np1] = runNumpy(task, c.runs ?? 15);
        const ours = task.check(result);
        const agree = Math.abs(ours - np.check) / Math.max(Math.abs(np.check), 1e-300);
        console.log(
          `  numpy ${task.label}: median ${np.median.toFixed(2)} ms (min ${np.min.toFixed(2)}), ` +
            `1 thread ${np1.median.toFixed(2)} ms (min ${np1.min.toFixed(2)})`,
        );
        sideRows.push(
          `${task.label.padEnd(66)} ${median.toFixed(2).padStart(8)} ${np.median.toFixed(2).padStart(8)} ` +
            `${(median / np.median).toFixed(2).padStart(6)}x ${np1.median.toFixed(2).padStart(8)} ` +
            `${(median / np1.median).toFixed(2).padStart(6)}x   ${agree.toExponential(0)}`,
        );
      }
  }
}
if (sideBySide) {
  console.log(
    `\n${"median ms, same inputs; ratio = ours / numpy".padEnd(66)} ${"ours".padStart(8)} ` +
      `${"numpy".padStart(8)} ${"ratio".padStart(7)} ${"numpy 1t".padStart(8)} ${"ratio".padStart(7)}` +
      "   same result (relative difference)",
  );
  for (const line of sideRows) console.log(line);
  console.log(
    `Load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}
console.log(
  `\n${rows.length} cases, ${missed} over target. Node ${process.version}, ${cpus().length} cores.`,
);
