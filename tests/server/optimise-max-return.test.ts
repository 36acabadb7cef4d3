// Issue 24, o1 "highest expected return": the linear programme maximises the engine's expected
// returns (Bayes-Stein towards the CAPM against the market's index, as the full analysis and the
// summary show them), not the window's historical means. Checked on the simulated market, without a
// database, against independent computations: the closed form when the loss cap does not bind
// (everything in the asset of the largest expected return), a bisection on the CVaR of two assets
// when it binds, and the current portfolio's expected return when the current portfolio meets the
// cap.
import { beforeAll, describe, expect, it } from "vitest";
import type { OptimiseRequest, OptimiseResponse } from "../../src/contract/analytics.ts";
import { benchmarkWindowDays, lastObservations } from "../../src/engine/panel.ts";
import { prepareAt, type Runner } from "../../src/server/analytics/analyse.ts";
import { optimiseAt, returnsAndFrontier } from "../../src/server/analytics/optimise.ts";
import { tasks } from "../../src/server/analytics/tasks.ts";
import type { MarketView } from "../../src/server/market/market-view.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { isoOf, snapshotFromDataset } from "../../src/server/market/snapshot.ts";

const direct: Runner = async <T>(task: keyof typeof tasks, input: unknown) =>
  (tasks[task] as (i: unknown) => T)(input);

let view: MarketView;
beforeAll(() => {
  const snapshot = snapshotFromDataset(
    simulatedDataset({ end: "2026-11-20" }),
    "test",
    "simulated",
  );
  const todayIndex = snapshot.calendar.length - 1;
  view = { snapshot, todayIndex, today: isoOf(snapshot, todayIndex), source: "simulated" };
});

/** The request's panel and the engine's expected returns of its assets (the summary's measure). */
function measure(request: OptimiseRequest) {
  const p = prepareAt(view, request);
  const n = request.assets.length;
  const { mu } = returnsAndFrontier(
    p.aligned.panel,
    p.benchmark,
    new Float64Array(n),
    new Float64Array(n).fill(1),
    p.market?.returns ?? null,
  );
  expect(p.market).not.toBeNull();
  const window = lastObservations(p.aligned.panel, benchmarkWindowDays(p.benchmark));
  return { mu, scenarios: scenariosOf(window) };
}

/** Overlapping 21-day compounded returns of each asset (rows: scenarios). */
function scenariosOf(w: { assets: number; observations: number; data: Float64Array }) {
  const rows: number[][] = [];
  for (let k = 0; k + 21 <= w.observations; k++) {
    const row: number[] = [];
    for (let i = 0; i < w.assets; i++) {
      let g = 1;
      for (let t = k; t < k + 21; t++) g *= 1 + w.data[t * w.assets + i]!;
      row.push(g - 1);
    }
    rows.push(row);
  }
  return rows;
}

/** CVaR 95 of the losses (Rockafellar-Uryasev): VaR + Σ (L − VaR)⁺ / ((1 − β) S). */
function cvar95(scenarios: number[][], w: readonly number[]): number {
  const losses = scenarios
    .map((r) => -r.reduce((s, v, i) => s + v * w[i]!, 0))
    .sort((a, b) => a - b);
  const S = losses.length;
  const varIndex = Math.ceil(0.95 * S) - 1;
  const v = losses[varIndex]!;
  const excess = losses.reduce((s, l) => s + Math.max(l - v, 0), 0);
  return v + excess / (0.05 * S);
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

async function optimal(request: OptimiseRequest) {
  const answer: OptimiseResponse = await optimiseAt(view, direct, request);
  if (answer.status !== "optimal") throw new Error(`not optimal: ${JSON.stringify(answer)}`);
  return answer;
}

const close = (value: number, expected: number, tolerance = 1e-9) =>
  expect(Math.abs(value - expected)).toBeLessThanOrEqual(
    tolerance * Math.max(1, Math.abs(expected)),
  );

describe("o1's highest expected return maximises the engine's expected return", () => {
  it("without a binding cap: everything in the asset of the largest expected return (closed form)", async () => {
    const symbols = ["AAPL", "DIS", "JPM", "TLT"];
    const request: OptimiseRequest = {
      currency: "USD",
      assets: symbols.map((symbol) => ({ symbol, investedAmount: 2500 })),
      maxToLose95: 10_000,
      objective: "maximum-return",
    };
    const { mu, scenarios } = measure(request);
    const best = mu.indexOf(Math.max(...mu));
    // The case tells the two objectives apart: the largest historical mean is another asset.
    const means = symbols.map(
      (_, i) => scenarios.reduce((s, r) => s + r[i]!, 0) / scenarios.length,
    );
    expect(means.indexOf(Math.max(...means))).not.toBe(best);

    const answer = await optimal(request);
    expect(answer.method).toBe("cvar-cap");
    close(answer.assets[best]!.weight, 1);
    close(answer.expectedReturn!, mu[best]!);
    // The quantity maximised is the one the summary shows: the top of the frontier, and at least
    // the current portfolio's.
    close(answer.expectedReturn!, answer.frontier.at(-1)!.expectedReturn);
    close(answer.current.expectedReturn!, dot(mu, [0.25, 0.25, 0.25, 0.25]));
    expect(answer.expectedReturn!).toBeGreaterThanOrEqual(answer.current.expectedReturn!);
  });

  it("with a binding cap on two assets: the end of the feasible interval (bisection on the CVaR)", async () => {
    const request: OptimiseRequest = {
      currency: "USD",
      assets: [
        { symbol: "TLT", investedAmount: 5000 },
        { symbol: "NVDA", investedAmount: 5000 },
      ],
      objective: "maximum-return",
    };
    const { mu, scenarios } = measure(request);
    const f = (x: number) => cvar95(scenarios, [x, 1 - x]);
    // x: the weight of the first asset; towards the asset of the larger expected return.
    const towards = mu[0]! > mu[1]! ? 1 : 0;
    // The least CVaR (a convex function of x): golden-section search.
    let a = 0;
    let b = 1;
    for (let k = 0; k < 200; k++) {
      const c = a + (b - a) * 0.382;
      const d = a + (b - a) * 0.618;
      if (f(c) <= f(d)) b = d;
      else a = c;
    }
    const least = (a + b) / 2;
    const cap = (f(least) + f(towards)) / 2;
    expect(f(towards)).toBeGreaterThan(cap);
    // The largest step from the least-CVaR mix towards that asset within the cap.
    let inside = least;
    let outside = towards;
    for (let k = 0; k < 200; k++) {
      const m = (inside + outside) / 2;
      if (f(m) <= cap) inside = m;
      else outside = m;
    }
    const expected = dot(mu, [inside, 1 - inside]);

    const answer = await optimal({ ...request, maxToLose95: cap * 10_000 });
    expect(answer.method).toBe("cvar-cap");
    // The case tells the two objectives apart: the historical means rank the two the other way.
    const means = [0, 1].map((i) => scenarios.reduce((s, r) => s + r[i]!, 0) / scenarios.length);
    expect(means[0]! > means[1]!).toBe(mu[0]! < mu[1]!);
    close(answer.assets[0]!.weight, inside, 1e-6);
    close(answer.expectedReturn!, expected, 1e-7);
    expect(answer.cvar95).toBeLessThanOrEqual(cap + 1e-9);
  });

  it("within a cap the current portfolio meets, it never expects less than the current portfolio", async () => {
    const symbols = ["TLT", "NVDA", "KO", "JPM", "DIS"];
    const amounts = [1000, 3000, 2500, 2000, 1500];
    const request: OptimiseRequest = {
      currency: "USD",
      assets: symbols.map((symbol, i) => ({ symbol, investedAmount: amounts[i]! })),
      objective: "maximum-return",
    };
    const { mu, scenarios } = measure(request);
    const current = amounts.map((a) => a / 10_000);
    const cap = cvar95(scenarios, current);
    const answer = await optimal({ ...request, maxToLose95: cap * 10_000 * (1 + 1e-9) });
    close(answer.current.expectedReturn!, dot(mu, current));
    close(
      answer.expectedReturn!,
      dot(
        mu,
        answer.assets.map((a) => a.weight),
      ),
    );
    expect(answer.expectedReturn!).toBeGreaterThanOrEqual(answer.current.expectedReturn! - 1e-12);
    expect(answer.cvar95).toBeLessThanOrEqual(cap * (1 + 1e-9) + 1e-9);
  });
});
