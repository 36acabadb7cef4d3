// `npm run bench`: median timings of the analytics. Each file in scripts/bench/ exports `cases`;
// `npm run bench -- <filter>` runs the cases whose name contains the filter.
import { readdirSync } from "node:fs";
import path from "node:path";

export interface BenchCase {
  readonly name: string;
  /** Prepares inputs (not timed) and returns the function to time. */
  readonly setup: () => () => unknown;
  /** Timed runs (default 15); the median is reported. */
  readonly runs?: number;
  /** Target median in milliseconds, when the issue sets one. */
  readonly targetMs?: number;
}

const filter = process.argv[2] ?? "";
const dir = path.join(import.meta.dirname, "bench");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .sort();
const rows: string[][] = [];
let missed = 0;
for (const file of files) {
  const { cases } = (await import(path.join(dir, file))) as { cases: readonly BenchCase[] };
  for (const c of cases) {
    if (!c.name.includes(filter)) continue;
    const fn = c.setup();
    fn(); // warm-up: JIT and caches
    const times: number[] = [];
    for (let i = 0; i < (c.runs ?? 15); i++) {
      const started = performance.now();
      fn();
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
  }
}
console.log(
  `\n${rows.length} cases, ${missed} over target. Node ${process.version}, ${(await import("node:os")).cpus().length} cores.`,
);
