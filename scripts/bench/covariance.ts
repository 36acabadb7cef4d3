// Covariance estimators on 5 years (1260 days) of the seeded factor model of risk.ts: the sample
// covariance and Ledoit-Wolf (constant correlation), each with its numpy reference on the same
// panel for `npm run bench:numpy` (refmath.sample_cov and refmath.ledoit_wolf_cc).
import type { BenchCase } from "../bench.ts";
import { ledoitWolfCovariance, sampleCovariance } from "../../src/engine/covariance.ts";
import type { Matrix } from "../../src/engine/linalg.ts";
import type { ReturnsPanel } from "../../src/engine/panel.ts";
import { syntheticMarket } from "../../src/engine/synthetic.ts";

const SIZES = [10, 50, 200, 500] as const;
/** The sizes compared with numpy. */
const NUMPY_SIZES: readonly number[] = [50, 500];
const DAYS = 1260;

const panelOf = (n: number): ReturnsPanel =>
  syntheticMarket({ assets: n, days: DAYS, seed: 7, foreignShare: 0.3 }).panel;

export const cases: BenchCase[] = SIZES.flatMap((n): BenchCase[] => {
  let panel: ReturnsPanel | undefined;
  const once = () => (panel ??= panelOf(n));
  const numpyTasks = (
    tasks: readonly (readonly ["cov" | "lw" | "lw-same-algebra", string])[],
    check: (result: unknown) => number,
  ) =>
    NUMPY_SIZES.includes(n)
      ? () =>
          tasks.map(([task, label]) => ({
            task,
            label: `${label}, ${n} assets, ${DAYS} days`,
            assets: n,
            days: DAYS,
            arrays: { panel: once().data },
            check,
          }))
      : undefined;
  return [
    {
      name: `covariance: sample, ${n} assets, ${DAYS} days`,
      runs: n >= 200 ? 15 : 41,
      setup: () => {
        const p = once();
        return () => sampleCovariance(p);
      },
      numpy: numpyTasks([["cov", "sample covariance (np.cov)"]], (r) =>
        (r as Matrix).data.reduce((a, b) => a + b, 0),
      ),
    },
    {
      name: `covariance: Ledoit-Wolf, ${n} assets, ${DAYS} days`,
      runs: n >= 200 ? 15 : 41,
      setup: () => {
        const p = once();
        return () => ledoitWolfCovariance(p);
      },
      numpy: numpyTasks(
        [
          ["lw", "Ledoit-Wolf (refmath.ledoit_wolf_cc)"],
          ["lw-same-algebra", "Ledoit-Wolf (numpy, the engine's algebra)"],
        ],
        (r) => (r as { shrinkage: number }).shrinkage,
      ),
    },
  ];
});
