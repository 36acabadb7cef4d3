/**
 * Minimum risk with a desired number of assets (desiredAssetsAmount), and with new assets taken
 * from a larger universe:
 *
 *   min w'Σw   subject to   Σw = 1,   w_i = 0 or lo'_i ≤ w_i ≤ hi_i,   kept assets held,
 *              at most (or exactly) K assets held,   at most G held from a group (new assets),
 *
 * where lo'_i is the asset's minimum weight (mode "atMost") or max(minimum, minHolding) (mode
 * "exactly": each of the K assets holds at least minHolding, default 1/(10K)).
 *
 * Method (docs/optimisation.md):
 *  1. The continuous relaxation (cardinality and minimum weights of assets not kept dropped) is a
 *     valid lower bound; when its solution already meets the constraints it is optimal.
 *  2. Heuristic: backward elimination from the relaxation's support (drop the smallest weight,
 *     re-optimise), then a local search over swaps / additions / removals ranked by the reduced
 *     gradient, and seeded perturbation restarts (iterated local search).
 *  3. Exact: depth-first branch and bound whose nodes solve the relaxation with the decided assets
 *     in or out; used when the universe is small (≤ exactUpTo assets) and finished within the node
 *     budget. Otherwise the answer is the heuristic's, with the gap to the best lower bound.
 */
import { dot, quadForm, type Matrix } from "../linalg.ts";
import { createRandom } from "../random.ts";
import { solveQp } from "./active-set-qp.ts";
import { boundsWithKeptAssets, type KeptAsset } from "./bounds.ts";
import { type PortfolioSolution } from "./min-risk.ts";
import {
  BUDGET_TOLERANCE,
  budgetRow,
  checkCovariance,
  checkVector,
  fillByPriority,
  isFailure,
  scaledHessian,
} from "./problem.ts";
import { fail, succeed, type OptimizationResult } from "./result.ts";

/** Weights at or below this are "not held". */
const HELD = 1e-12;
/** Relative tolerance of the bound test in branch and bound. */
const PRUNE = 1e-9;

export interface AssetGroupLimit {
  /** Indices of the assets of the group (e.g. the assets new to the portfolio). */
  readonly members: readonly number[];
  /** At most this many of them held. */
  readonly max: number;
}

export interface CardinalityRequest {
  readonly covariance: Matrix;
  /** K: the desired number of assets. */
  readonly maxAssets: number;
  /** "atMost" (default): at most K assets held; "exactly": exactly K, each ≥ minHolding. */
  readonly mode?: "atMost" | "exactly";
  /** Minimum weight of an asset when held (default 0). */
  readonly lower?: Float64Array;
  /** Maximum weight (default 1). */
  readonly upper?: Float64Array;
  /** Assets that must be held (they count towards K). */
  readonly keep?: readonly number[];
  /** Smallest weight of a held asset in mode "exactly" (default 1/(10K)). */
  readonly minHolding?: number;
  readonly group?: AssetGroupLimit;
  /** Expected returns, only to report the portfolio's expected return. */
  readonly expectedReturns?: Float64Array;
  /** Seed of the perturbation restarts of the heuristic (default 1). */
  readonly seed?: number;
  /** Branch and bound is tried when at most this many assets can be held (default 40). */
  readonly exactUpTo?: number;
  /** Node budget of branch and bound (default 5000). */
  readonly nodeLimit?: number;
}

export interface CardinalitySolution extends Omit<PortfolioSolution, "kkt" | "iterations"> {
  /** Indices of the assets held (kept ones included). */
  readonly held: readonly number[];
  readonly method: "relaxation" | "branchAndBound" | "heuristic";
  /** True when the answer is proven optimal (relative tolerance 1e-9). */
  readonly provenOptimal: boolean;
  /** A valid lower bound on the optimal variance. */
  readonly lowerBound: number;
  /** (variance − lowerBound) / variance; 0 when proven optimal. */
  readonly gap: number;
  readonly nodes: number;
}

interface Evaluation {
  /** x'Gx (scaled variance); Infinity when the set cannot satisfy the bounds. */
  readonly value: number;
  /** Weights over the universe. */
  readonly x: Float64Array;
  /** Budget multiplier (gradient units of ½x'Gx). */
  readonly nu: number;
}

const INFEASIBLE: Evaluation = { value: Infinity, x: new Float64Array(0), nu: 0 };

export function minimumRiskWithCardinality(
  request: CardinalityRequest,
): OptimizationResult<CardinalitySolution> {
  const cov = request.covariance;
  const bad =
    checkCovariance(cov) ??
    checkVector(request.lower, cov.rows) ??
    checkVector(request.upper, cov.rows) ??
    checkVector(request.expectedReturns, cov.rows);
  if (bad) return fail(bad.code, bad.detail);
  const n = cov.rows;
  const K = request.maxAssets;
  if (!Number.isInteger(K) || K < 1) return fail("INVALID_INPUT", { maxAssets: K });
  const exactly = request.mode === "exactly";
  const minHolding = exactly ? (request.minHolding ?? 1 / (10 * K)) : 0;
  if (!(minHolding >= 0 && minHolding <= 1)) return fail("INVALID_INPUT", { minHolding });

  const hi = request.upper ? Float64Array.from(request.upper) : new Float64Array(n).fill(1);
  const loHeld = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const l = request.lower ? request.lower[i]! : 0;
    if (l < 0 || hi[i]! > 1) return fail("INVALID_INPUT", { asset: i, lower: l, upper: hi[i]! });
    loHeld[i] = Math.max(l, minHolding);
  }
  const kept = new Uint8Array(n);
  for (const i of request.keep ?? []) {
    if (!Number.isInteger(i) || i < 0 || i >= n || kept[i])
      return fail("INVALID_INPUT", { keptIndex: i });
    kept[i] = 1;
  }
  const inGroup = new Uint8Array(n);
  let groupMax = n;
  if (request.group) {
    groupMax = request.group.max;
    if (!Number.isInteger(groupMax) || groupMax < 0) return fail("INVALID_INPUT", { groupMax });
    for (const i of request.group.members) {
      if (!Number.isInteger(i) || i < 0 || i >= n) return fail("INVALID_INPUT", { memberIndex: i });
      inGroup[i] = 1;
    }
  }

  // Feasibility tests that do not need a search.
  let keptCount = 0;
  let keptInGroup = 0;
  let keptLo = 0;
  let keptHi = 0;
  const allowed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (kept[i]) {
      if (loHeld[i]! > hi[i]!)
        return fail("BOUNDS_INFEASIBLE", { asset: i, lower: loHeld[i]!, upper: hi[i]! });
      keptCount++;
      keptInGroup += inGroup[i]!;
      keptLo += loHeld[i]!;
      keptHi += hi[i]!;
      allowed[i] = 1;
    } else allowed[i] = hi[i]! > 0 && loHeld[i]! <= hi[i]! ? 1 : 0;
  }
  if (keptCount > K) return fail("CARDINALITY_INFEASIBLE", { maxAssets: K, keptAssets: keptCount });
  if (keptInGroup > groupMax) return fail("CARDINALITY_INFEASIBLE", { groupMax, keptInGroup });
  if (keptLo > 1 + BUDGET_TOLERANCE) return fail("BOUNDS_INFEASIBLE", { sumOfMinimums: keptLo });
  const slots = K - keptCount;
  const others = Array.from({ length: n }, (_, i) => i).filter((i) => allowed[i] && !kept[i]);
  const pick = (order: number[]) => {
    const chosen: number[] = [];
    let groupLeft = groupMax - keptInGroup;
    for (const i of order) {
      if (chosen.length === slots) break;
      if (inGroup[i]) {
        if (groupLeft === 0) continue;
        groupLeft--;
      }
      chosen.push(i);
    }
    return chosen;
  };
  const widest = pick([...others].sort((a, b) => hi[b]! - hi[a]! || a - b));
  const maximumTotalWeight = keptHi + widest.reduce((s, i) => s + hi[i]!, 0);
  if (maximumTotalWeight < 1 - BUDGET_TOLERANCE)
    return fail("CARDINALITY_INFEASIBLE", { maxAssets: K, maximumTotalWeight });
  const narrowest = pick([...others].sort((a, b) => loHeld[a]! - loHeld[b]! || a - b));
  const keptList = Array.from({ length: n }, (_, i) => i).filter((i) => kept[i]);
  if (exactly) {
    if (widest.length < slots)
      return fail("CARDINALITY_INFEASIBLE", {
        maxAssets: K,
        availableAssets: keptCount + widest.length,
      });
    const minimumTotalWeight = keptLo + narrowest.reduce((s, i) => s + loHeld[i]!, 0);
    if (minimumTotalWeight > 1 + BUDGET_TOLERANCE)
      return fail("CARDINALITY_INFEASIBLE", { maxAssets: K, minimumTotalWeight });
  }

  const { G, scale } = scaledHessian(cov);
  const diag = new Float64Array(n);
  for (let i = 0; i < n; i++) diag[i] = G[i * n + i]!;

  /** Minimum of x'Gx over the assets `vars`, with lower bounds `loOf(i)`, others at 0. */
  const solveOn = (vars: readonly number[], loOf: (i: number) => number): Evaluation => {
    const k = vars.length;
    if (k === 0) return INFEASIBLE;
    const lo = new Float64Array(k);
    const up = new Float64Array(k);
    const d = new Float64Array(k);
    let sumLo = 0;
    let sumHi = 0;
    for (let a = 0; a < k; a++) {
      lo[a] = loOf(vars[a]!);
      up[a] = hi[vars[a]!]!;
      d[a] = diag[vars[a]!]!;
      sumLo += lo[a]!;
      sumHi += up[a]!;
    }
    if (sumLo > 1 + BUDGET_TOLERANCE || sumHi < 1 - BUDGET_TOLERANCE) return INFEASIBLE;
    const sub = new Float64Array(k * k);
    for (let a = 0; a < k; a++) {
      const base = vars[a]! * n;
      for (let b = 0; b < k; b++) sub[a * k + b] = G[base + vars[b]!]!;
    }
    const qp = solveQp(
      { n: k, hessian: sub, equalities: [budgetRow(k)], rhs: [1], lower: lo, upper: up },
      fillByPriority(lo, up, d),
    );
    if (qp.status !== "optimal") {
      converged = false;
      return INFEASIBLE;
    }
    const x = new Float64Array(n);
    for (let a = 0; a < k; a++) x[vars[a]!] = qp.x[a]!;
    return { value: 2 * qp.objective, x, nu: qp.multipliers[0]! };
  };
  let converged = true;

  const cache = new Map<string, Evaluation>();
  /** A held set: every member within [lo', hi]. */
  const evaluate = (set: readonly number[]): Evaluation => {
    const sorted = [...set].sort((a, b) => a - b);
    const key = sorted.join(",");
    let e = cache.get(key);
    if (!e) {
      e = solveOn(sorted, (i) => loHeld[i]!);
      cache.set(key, e);
    }
    return e;
  };
  const countGroup = (set: readonly number[]) => set.reduce((s, i) => s + inGroup[i]!, 0);
  const isFeasibleSet = (set: readonly number[]) =>
    (exactly ? set.length === K : set.length <= K) && countGroup(set) <= groupMax;

  // 1. Continuous relaxation.
  const allowedList = Array.from({ length: n }, (_, i) => i).filter((i) => allowed[i]);
  const root = solveOn(allowedList, (i) => (kept[i] ? loHeld[i]! : 0));
  if (!converged) return fail("NOT_CONVERGED", { stage: 0 });
  if (root.value === Infinity) return fail("CARDINALITY_INFEASIBLE", { maxAssets: K });
  let lowerBound = root.value;
  const heldOf = (x: Float64Array) =>
    Array.from({ length: n }, (_, i) => i).filter((i) => kept[i] || x[i]! > HELD);
  const relaxedHeld = heldOf(root.x);
  const rootFeasible =
    isFeasibleSet(relaxedHeld) &&
    relaxedHeld.every((i) => kept[i] || root.x[i]! >= loHeld[i]! - HELD);

  let best: { set: number[]; e: Evaluation } | null = null;
  let method: CardinalitySolution["method"] = "heuristic";
  let proven = false;
  let nodes = 0;

  if (rootFeasible) {
    best = { set: relaxedHeld, e: root };
    method = "relaxation";
    proven = true;
  } else {
    best = heuristic();
    if (!converged) return fail("NOT_CONVERGED", { stage: 1 });
    if (allowedList.length <= (request.exactUpTo ?? 40)) {
      const outcome = branchAndBound(best ? best.e.value : Infinity);
      if (!converged) return fail("NOT_CONVERGED", { stage: 2 });
      if (outcome.best && (!best || outcome.best.e.value < best.e.value)) best = outcome.best;
      nodes = outcome.nodes;
      if (outcome.complete) {
        proven = true;
        method = "branchAndBound";
        if (best) lowerBound = best.e.value;
      } else
        lowerBound = Math.max(lowerBound, Math.min(outcome.openBound, best?.e.value ?? Infinity));
    }
  }
  if (!best || best.e.value === Infinity) return fail("CARDINALITY_INFEASIBLE", { maxAssets: K });

  // Final polish on the assets actually held (drops weights that are zero to rounding).
  const heldSet = heldOf(best.e.x);
  const polished = method === "relaxation" ? best.e : solveOn(heldSet, (i) => loHeld[i]!);
  const finalE = polished.value <= best.e.value * (1 + 1e-12) ? polished : best.e;
  const weights = finalE.x;
  const held = heldOf(weights);
  const variance = Math.max(0, quadForm(cov, weights));
  const lb = Math.min(variance, Math.max(0, lowerBound * scale));
  return succeed({
    weights,
    variance,
    risk: Math.sqrt(variance),
    expectedReturn: request.expectedReturns ? dot(request.expectedReturns, weights) : null,
    held,
    method,
    provenOptimal: proven,
    lowerBound: proven ? variance : lb,
    gap: proven || variance === 0 ? 0 : (variance - lb) / variance,
    nodes,
  });

  function gradientScores(e: Evaluation, set: readonly number[]) {
    const g = new Float64Array(n);
    for (const t of set) {
      const xt = e.x[t]!;
      if (xt === 0) continue;
      const base = t * n;
      for (let j = 0; j < n; j++) g[j]! += G[base + j]! * xt;
    }
    for (let j = 0; j < n; j++) g[j]! -= e.nu;
    return g;
  }

  function heuristic(): { set: number[]; e: Evaluation } | null {
    // 2a. Backward elimination from the relaxation's support.
    let set = relaxedHeld.slice();
    let relaxed = root;
    while (set.length > K || countGroup(set) > groupMax) {
      const tooMany = set.length > K;
      const removable = set.filter((i) => !kept[i] && (tooMany || inGroup[i]));
      if (removable.length === 0) break;
      removable.sort((a, b) => relaxed.x[a]! - relaxed.x[b]! || a - b);
      // Far from K a third of the excess goes at once (re-optimising after each cut), one at a
      // time near K; assets already at zero go first.
      const excess = tooMany ? set.length - K : countGroup(set) - groupMax;
      const zeros = removable.filter((i) => relaxed.x[i]! <= HELD);
      const cut = Math.max(1, Math.ceil(excess / 3));
      const drop = new Set(zeros.length > 0 ? zeros.slice(0, excess) : removable.slice(0, cut));
      let next = set.filter((i) => !drop.has(i));
      let e = solveOn(next, (i) => (kept[i] ? loHeld[i]! : 0));
      // The cut leaves bounds that cannot reach the budget: drop single assets instead, the
      // smallest weight whose removal keeps the problem feasible.
      for (let t = 0; t < removable.length && e.value === Infinity; t++) {
        next = set.filter((i) => i !== removable[t]!);
        e = solveOn(next, (i) => (kept[i] ? loHeld[i]! : 0));
      }
      if (e.value === Infinity) break;
      set = next;
      relaxed = e;
    }
    // Keep only what the relaxed solve still holds (plus kept), then complete for "exactly".
    set = set.filter((i) => kept[i] || relaxed.x[i]! > HELD || exactly);
    let current = evaluate(set);
    if (exactly)
      while (set.length < K) {
        const scores = gradientScores(current.value < Infinity ? current : relaxed, set);
        const inSet = new Set(set);
        const groupFull = countGroup(set) >= groupMax;
        let j = -1;
        for (const c of others)
          if (!inSet.has(c) && !(groupFull && inGroup[c]) && (j < 0 || scores[c]! < scores[j]!))
            j = c;
        if (j < 0) break;
        set = [...set, j];
        current = evaluate(set);
      }
    let incumbent = isFeasibleSet(set) && current.value < Infinity ? { set, e: current } : null;
    if (!incumbent)
      // Fallbacks that the feasibility tests above built: kept assets with the widest maximums,
      // or (mode "exactly") with the smallest minimums.
      for (const extra of [widest, exactly ? narrowest : []]) {
        const candidate = [...keptList, ...extra];
        if (candidate.length === 0 || !isFeasibleSet(candidate)) continue;
        const e = evaluate(candidate);
        if (e.value < (incumbent?.e.value ?? Infinity)) incumbent = { set: candidate, e };
      }
    if (incumbent) incumbent = localSearch(incumbent);
    // 2b. Seeded perturbation restarts.
    const random = createRandom(request.seed ?? 1);
    for (let round = 0; round < 3 && incumbent; round++) {
      const removable = incumbent.set.filter((i) => !kept[i]);
      if (removable.length === 0) break;
      const count = Math.max(1, Math.ceil(removable.length / 4));
      const trial = new Set(incumbent.set);
      for (let t = 0; t < count; t++) {
        const pool = [...trial].filter((i) => !kept[i]);
        trial.delete(pool[Math.floor(random.next() * pool.length)]!);
      }
      let guard = 0;
      while (trial.size < incumbent.set.length && guard++ < 10 * n) {
        const c = others[Math.floor(random.next() * others.length)]!;
        if (trial.has(c)) continue;
        if (inGroup[c] && countGroup([...trial]) >= groupMax) continue;
        trial.add(c);
      }
      const tSet = [...trial];
      if (!isFeasibleSet(tSet)) continue;
      const e = evaluate(tSet);
      if (e.value === Infinity) continue;
      const improved = localSearch({ set: tSet, e });
      if (improved.e.value < incumbent.e.value * (1 - 1e-12)) incumbent = improved;
    }
    return incumbent;
  }

  function localSearch(start: { set: number[]; e: Evaluation }) {
    let cur = start;
    for (let move = 0; move < 200; move++) {
      const scores = gradientScores(cur.e.value < Infinity ? cur.e : root, cur.set);
      const inSet = new Set(cur.set);
      const candidates = others
        .filter((j) => !inSet.has(j))
        .sort((a, b) => scores[a]! - scores[b]! || a - b)
        .slice(0, 8);
      const outs = cur.set
        .filter((i) => !kept[i])
        .sort((a, b) => cur.e.x[a]! - cur.e.x[b]! || a - b);
      const groupCount = countGroup(cur.set);
      let found: { set: number[]; e: Evaluation } | null = null;
      const tryMove = (set: number[]) => {
        if (!isFeasibleSet(set)) return false;
        const e = evaluate(set);
        if (e.value < cur.e.value * (1 - 1e-12) - 1e-300) {
          found = { set, e };
          return true;
        }
        return false;
      };
      search: {
        if (!exactly && cur.set.length < K)
          for (const j of candidates)
            if ((!inGroup[j] || groupCount < groupMax) && tryMove([...cur.set, j])) break search;
        for (const i of outs)
          for (const j of candidates) {
            if (inGroup[j] && !inGroup[i] && groupCount >= groupMax) continue;
            if (tryMove([...cur.set.filter((t) => t !== i), j])) break search;
          }
        if (!exactly)
          for (const i of outs)
            if (loHeld[i]! > 0 && tryMove(cur.set.filter((t) => t !== i))) break search;
      }
      if (!found) break;
      cur = found;
    }
    return cur;
  }

  function branchAndBound(initial: number) {
    interface NodeState {
      readonly states: Int8Array; // 0 undecided, 1 in, 2 out
      readonly bound: number;
    }
    let incumbentValue = initial;
    let incumbent: { set: number[]; e: Evaluation } | null = null;
    const limit = request.nodeLimit ?? 5000;
    const rootStates = new Int8Array(n);
    for (let i = 0; i < n; i++) rootStates[i] = kept[i] ? 1 : allowed[i] ? 0 : 2;
    const stack: NodeState[] = [{ states: rootStates, bound: root.value }];
    let count = 0;
    const pruned = (v: number) => v >= incumbentValue * (1 - PRUNE) - 1e-300;
    while (stack.length > 0) {
      if (count >= limit) break;
      const node = stack.pop()!;
      if (pruned(node.bound)) continue;
      count++;
      const st = node.states;
      let inCount = 0;
      let inGroupCount = 0;
      for (let i = 0; i < n; i++)
        if (st[i] === 1) {
          inCount++;
          inGroupCount += inGroup[i]!;
        }
      if (inCount > K || inGroupCount > groupMax) continue;
      let undecided = 0;
      let undecidedGroup = 0;
      for (let i = 0; i < n; i++) {
        if (st[i] !== 0) continue;
        if (inCount === K || (inGroup[i] && inGroupCount === groupMax)) st[i] = 2;
        else {
          undecided++;
          undecidedGroup += inGroup[i]!;
        }
      }
      if (
        exactly &&
        inCount + undecided - undecidedGroup + Math.min(undecidedGroup, groupMax - inGroupCount) < K
      )
        continue;
      const vars: number[] = [];
      for (let i = 0; i < n; i++) if (st[i] !== 2) vars.push(i);
      const e = solveOn(vars, (i) => (st[i] === 1 ? loHeld[i]! : 0));
      if (e.value === Infinity || pruned(e.value)) continue;
      const held = vars.filter((i) => st[i] === 1 || e.x[i]! > HELD);
      let branchOn = -1;
      // Minimum weight of a held, undecided asset violated: branch on the worst.
      let worst = HELD;
      for (const i of held)
        if (st[i] === 0 && loHeld[i]! - e.x[i]! > worst) {
          worst = loHeld[i]! - e.x[i]!;
          branchOn = i;
        }
      if (branchOn < 0) {
        const groupHeld = countGroup(held);
        if (held.length > K || groupHeld > groupMax) {
          let w = -1;
          for (const i of held)
            if (st[i] === 0 && (held.length > K || inGroup[i]) && e.x[i]! > w) {
              w = e.x[i]!;
              branchOn = i;
            }
        } else if (exactly && held.length < K) {
          const scores = gradientScores(e, vars);
          for (const i of vars)
            if (st[i] === 0 && e.x[i]! <= HELD && (branchOn < 0 || scores[i]! < scores[branchOn]!))
              branchOn = i;
        } else {
          incumbentValue = e.value;
          incumbent = { set: held, e };
          continue;
        }
      }
      if (branchOn < 0) continue;
      const out = Int8Array.from(st);
      out[branchOn] = 2;
      const inn = Int8Array.from(st);
      inn[branchOn] = 1;
      stack.push({ states: out, bound: e.value }, { states: inn, bound: e.value });
    }
    let openBound = Infinity;
    for (const node of stack) openBound = Math.min(openBound, node.bound);
    const complete = stack.every((node) => pruned(node.bound));
    return {
      best: incumbent as { set: number[]; e: Evaluation } | null,
      nodes: count,
      complete,
      openBound,
    };
  }
}

export interface NewAssetsRequest {
  /** Covariance over the universe (current assets and candidates). */
  readonly covariance: Matrix;
  /** Universe indices of the assets of the current portfolio. */
  readonly current: readonly number[];
  /** Kept assets with their minimum and maximum weights (held whatever happens). */
  readonly keep?: readonly KeptAsset[];
  /** At most this many assets not in the current portfolio may be added. */
  readonly maxNewAssets: number;
  /** Limit on the number of assets held in total (default: current count + maxNewAssets). */
  readonly maxAssets?: number;
  /** Upper bound of the assets not kept (default 1). */
  readonly othersMax?: number;
  readonly mode?: "atMost" | "exactly";
  readonly minHolding?: number;
  readonly expectedReturns?: Float64Array;
  readonly seed?: number;
  readonly exactUpTo?: number;
  readonly nodeLimit?: number;
}

/**
 * The minimum-risk portfolio over the current assets and the universe, adding at most
 * maxNewAssets new ones: the cardinality problem over the union, with kept assets forced in.
 */
export function minimumRiskWithNewAssets(
  request: NewAssetsRequest,
): OptimizationResult<CardinalitySolution> {
  const n = request.covariance.rows;
  const bounds = boundsWithKeptAssets(n, request.keep ?? [], {
    othersMax: request.othersMax ?? 1,
  });
  if (isFailure(bounds)) return fail(bounds.code, bounds.detail);
  const current = new Set(request.current);
  for (const i of current)
    if (!Number.isInteger(i) || i < 0 || i >= n) return fail("INVALID_INPUT", { currentIndex: i });
  const members = Array.from({ length: n }, (_, i) => i).filter((i) => !current.has(i));
  if (!Number.isInteger(request.maxNewAssets) || request.maxNewAssets < 0)
    return fail("INVALID_INPUT", { maxNewAssets: request.maxNewAssets });
  return minimumRiskWithCardinality({
    covariance: request.covariance,
    maxAssets: request.maxAssets ?? current.size + request.maxNewAssets,
    mode: request.mode ?? "atMost",
    lower: bounds.lower,
    upper: bounds.upper,
    keep: bounds.kept,
    group: { members, max: request.maxNewAssets },
    ...(request.minHolding !== undefined ? { minHolding: request.minHolding } : {}),
    ...(request.expectedReturns !== undefined ? { expectedReturns: request.expectedReturns } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.exactUpTo !== undefined ? { exactUpTo: request.exactUpTo } : {}),
    ...(request.nodeLimit !== undefined ? { nodeLimit: request.nodeLimit } : {}),
  });
}
