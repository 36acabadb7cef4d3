/**
 * Primal active-set method for convex quadratic programmes with box bounds and a few equalities:
 *
 *   minimise ½ x'Gx + c'x   subject to   A x = b (m rows, m small),   lo ≤ x ≤ hi,
 *
 * with G symmetric positive semidefinite. The working set is the set of variables held at a bound;
 * the free variables F carry a Cholesky factor of G_FF that is updated in O(|F|²) when a variable
 * joins (bordering) or leaves (plane rotations of the trailing block). Each iteration solves the
 * equality-constrained subproblem on F through the Schur complement A_F G_FF⁻¹ A_F' (m × m), takes
 * the longest feasible step along it, and releases bounds whose multipliers have the wrong sign
 * when the step is zero (Nocedal & Wright, Numerical Optimization, 2nd ed., §16.5, Algorithm 16.3;
 * the same subproblems as Markowitz's critical line method).
 *
 * Semidefinite G (singular covariances, identical or riskless assets): a Cholesky pivot below
 * PIVOT_FLOOR (1e-8 of the mean variance) is replaced by the floor. This regularises only the
 * directions of (near) zero curvature, so a subproblem unbounded along such a direction gives a
 * long step that the ratio test cuts at a bound, as the exact method does along a direction of
 * zero curvature. Because G_FF⁻¹ is then badly conditioned, the step is refined (iterative
 * refinement), projected back onto the equalities (Euclidean, well conditioned), and the
 * multipliers are also computed by least squares on A_F. Stationarity is tested on the reduced
 * gradient g_F − A_F'ν, which does not involve the regularisation: the KKT conditions verified at
 * exit are those of the unregularised problem.
 *
 * Callers scale G so that its mean diagonal is about 1: the tolerances are absolute in those units.
 */

export interface QpProblem {
  readonly n: number;
  /** Symmetric positive semidefinite G, row-major n × n. */
  readonly hessian: Float64Array;
  /** Linear term c; zero when absent. */
  readonly linear?: Float64Array;
  /** Rows of A (each of length n). */
  readonly equalities: readonly Float64Array[];
  readonly rhs: readonly number[];
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

export interface QpOptions {
  /** KKT tolerance verified at exit (absolute, in the scaled units of G). Default 1e-9. */
  readonly tolerance?: number;
  readonly maxIterations?: number;
}

export interface KktReport {
  /** max |g_i − (A'ν)_i| over free variables. */
  readonly stationarity: number;
  /** Largest wrong-signed bound multiplier (0 when all signs are right). */
  readonly dualInfeasibility: number;
  /** max of |A x − b| and of bound violations. */
  readonly primalInfeasibility: number;
}

export interface QpSolution {
  /** "optimal" only when the KKT test passed at the tolerance. */
  readonly status: "optimal" | "iterationLimit";
  readonly x: Float64Array;
  /** ½ x'Gx + c'x */
  readonly objective: number;
  /** G x + c */
  readonly gradient: Float64Array;
  /** Multipliers ν of the equalities (g = A'ν + z at the solution). */
  readonly multipliers: Float64Array;
  /** Variables strictly inside their bounds at exit (the final free set). */
  readonly free: Int32Array;
  readonly iterations: number;
  readonly kkt: KktReport;
}

const FREE = 0;
const AT_LOWER = 1;
const AT_UPPER = 2;
const FIXED = 3;

/**
 * Pivots of G_FF below this value are regularised (G has unit mean diagonal). Large enough that
 * rounding (about 1e-10 after a few near-dependent columns) cannot make a later pivot explode.
 */
export const PIVOT_FLOOR = 1e-8;

/**
 * Solves the QP from a feasible start x0 (A x0 = b within rounding, lo ≤ x0 ≤ hi). Variables of x0
 * strictly inside their bounds start free. x0 and the problem arrays are not modified.
 */
export function solveQp(problem: QpProblem, x0: Float64Array, options: QpOptions = {}): QpSolution {
  const { n, hessian: G, lower: lo, upper: hi, equalities: A, rhs } = problem;
  const c = problem.linear;
  const m = A.length;
  const tol = options.tolerance ?? 1e-9;
  const innerTol = tol * 1e-2;
  const maxIterations = options.maxIterations ?? 20 * n + 200;

  const x = Float64Array.from(x0);
  const state = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    if (hi[i]! - lo[i]! <= 0) {
      state[i] = FIXED;
      x[i] = lo[i]!;
    } else if (x[i]! <= lo[i]!) {
      state[i] = AT_LOWER;
      x[i] = lo[i]!;
    } else if (x[i]! >= hi[i]!) {
      state[i] = AT_UPPER;
      x[i] = hi[i]!;
    } else state[i] = FREE;
  }

  const g = new Float64Array(n);
  const refreshGradient = () => {
    if (c) g.set(c);
    else g.fill(0);
    for (let j = 0; j < n; j++) {
      const xj = x[j]!;
      if (xj === 0) continue;
      const base = j * n;
      for (let i = 0; i < n; i++) g[i]! += G[base + i]! * xj;
    }
  };
  refreshGradient();

  // Cholesky factor of G_FF, lower triangular, row stride `cap`.
  let cap = Math.min(n, 32);
  let L = new Float64Array(cap * cap);
  const F = new Int32Array(n);
  let fs = 0;

  const grow = () => {
    const next = Math.min(n, cap * 2);
    const bigger = new Float64Array(next * next);
    for (let i = 0; i < fs; i++) bigger.set(L.subarray(i * cap, i * cap + i + 1), i * next);
    L = bigger;
    cap = next;
  };

  const appendFree = (q: number) => {
    if (fs === cap) grow();
    const row = fs * cap;
    let d = G[q * n + q]!;
    for (let k = 0; k < fs; k++) {
      let s = G[F[k]! * n + q]!;
      const rk = k * cap;
      for (let j = 0; j < k; j++) s -= L[rk + j]! * L[row + j]!;
      const v = s / L[rk + k]!;
      L[row + k] = v;
      d -= v * v;
    }
    L[row + fs] = Math.sqrt(d > PIVOT_FLOOR ? d : PIVOT_FLOOR);
    F[fs++] = q;
    state[q] = FREE;
  };

  /** Removes the variable at position k of F; L stays the Cholesky factor of the new G_FF. */
  const removeFree = (k: number) => {
    // Trailing block: L33 L33' + v v' where v is column k below the diagonal.
    const r = fs - k - 1;
    const v = new Float64Array(r);
    for (let i = 0; i < r; i++) v[i] = L[(k + 1 + i) * cap + k]!;
    // Plane rotations of (column j, v) that zero v_j: orthogonal, hence stable even when a
    // pivot is tiny (a regularised one).
    for (let j = 0; j < r; j++) {
      const tj = (k + 1 + j) * cap + (k + 1 + j);
      const a = L[tj]!;
      const b = v[j]!;
      if (b === 0) continue;
      const rr = Math.hypot(a, b);
      const cc = a / rr;
      const ss = b / rr;
      L[tj] = rr;
      for (let i = j + 1; i < r; i++) {
        const ti = (k + 1 + i) * cap + (k + 1 + j);
        const lij = L[ti]!;
        const vi = v[i]!;
        L[ti] = cc * lij + ss * vi;
        v[i] = cc * vi - ss * lij;
      }
    }
    for (let i = k + 1; i < fs; i++) {
      const src = i * cap;
      const dst = (i - 1) * cap;
      for (let j = 0; j < k; j++) L[dst + j] = L[src + j]!;
      for (let j = k + 1; j <= i; j++) L[dst + j - 1] = L[src + j]!;
      F[i - 1] = F[i]!;
    }
    fs--;
  };

  // Workspace of the subproblem.
  const zhat = new Float64Array(n);
  const yhat = Array.from({ length: m }, () => new Float64Array(n));
  const step = new Float64Array(n);
  const nu = new Float64Array(m);
  const resid = new Float64Array(m);
  const S = new Float64Array(m * m);
  const sRhs = new Float64Array(m);
  let stationarity = 0;

  const forward = (src: (k: number) => number, out: Float64Array) => {
    for (let k = 0; k < fs; k++) {
      let s = src(k);
      const rk = k * cap;
      for (let j = 0; j < k; j++) s -= L[rk + j]! * out[j]!;
      out[k] = s / L[rk + k]!;
    }
  };

  const equalityResidual = () => {
    let worst = 0;
    for (let r = 0; r < m; r++) {
      const a = A[r]!;
      let s = -rhs[r]!;
      for (let i = 0; i < n; i++) s += a[i]! * x[i]!;
      resid[r] = s;
      worst = Math.max(worst, Math.abs(s));
    }
    return worst;
  };

  /**
   * Equality-constrained subproblem on F: G_FF p − A_F'ν = −g_F, A_F p = −(A x − b).
   * Sets `step` (by position in F), `nu` and `stationarity` = max |g_F − A_F'ν|.
   *
   * The range-space solution (through G_FF⁻¹) loses accuracy when G_FF is (nearly) singular: its
   * regularised pivots make G_FF⁻¹ huge while the answer is moderate. Two safeguards keep the
   * equalities and the multipliers exact whatever G_FF is:
   *  - the multipliers are also computed by least squares on A_F (Euclidean, well conditioned);
   *    the set with the smaller stationarity residual is kept;
   *  - the step is projected (Euclidean) onto A_F p = −(A x − b), which also restores feasibility.
   * At a stationary point the step is the restoration alone.
   */
  const zeroE = new Float64Array(m);
  const nuE = new Float64Array(m);
  const gv = new Float64Array(m);
  const gamma = new Float64Array(m);
  const computeStep = () => {
    equalityResidual();
    findIndependentRows();
    for (let r = 0; r < m; r++) {
      const a = A[r]!;
      forward((k) => a[F[k]!]!, yhat[r]!);
    }
    for (let r = 0; r < m; r++) {
      const yr = yhat[r]!;
      for (let t = 0; t <= r; t++) {
        const yt = yhat[t]!;
        let s = 0;
        for (let k = 0; k < fs; k++) s += yr[k]! * yt[k]!;
        S[r * m + t] = s;
        S[t * m + r] = s;
      }
    }
    solveKkt((k) => g[F[k]!]!, zeroE, step, nu);
    refine();
    // Least-squares multipliers: min |g_F − A_F'ν|.
    for (let r = 0; r < m; r++) {
      const a = A[r]!;
      let s = 0;
      for (let k = 0; k < fs; k++) s += a[F[k]!]! * g[F[k]!]!;
      gv[r] = s;
    }
    gramSolve(gv, nuE);
    let rG = 0;
    let rE = 0;
    for (let k = 0; k < fs; k++) {
      const i = F[k]!;
      let sG = g[i]!;
      let sE = g[i]!;
      for (let r = 0; r < m; r++) {
        sG -= nu[r]! * A[r]![i]!;
        sE -= nuE[r]! * A[r]![i]!;
      }
      rG = Math.max(rG, Math.abs(sG));
      rE = Math.max(rE, Math.abs(sE));
    }
    if (rE < rG) nu.set(nuE);
    stationarity = Math.min(rG, rE);
    if (stationarity <= 0.1 * tol) step.fill(0, 0, fs);
    // Projection onto A_F p = −e.
    for (let r = 0; r < m; r++) {
      const a = A[r]!;
      let s = resid[r]!;
      for (let k = 0; k < fs; k++) s += a[F[k]!]! * step[k]!;
      gv[r] = s;
    }
    gramSolve(gv, gamma);
    for (let k = 0; k < fs; k++) {
      let s = 0;
      for (let r = 0; r < m; r++) s += A[r]![F[k]!]! * gamma[r]!;
      step[k]! -= s;
    }
  };

  /**
   * Iterative refinement of the range-space solution of G_FF p − A_F'ν = −g_F, A_F p = 0: a nearly
   * singular G_FF makes it lose digits through cancellation. A round is kept only when it reduces
   * the residual (it cannot when the residual is rounding noise amplified by G_FF⁻¹).
   */
  const r1 = new Float64Array(n);
  const r2 = new Float64Array(m);
  const dp = new Float64Array(n);
  const dnu = new Float64Array(m);
  const trialStep = new Float64Array(n);
  const trialNu = new Float64Array(m);
  const kktResidual = (p: Float64Array, v: Float64Array) => {
    let worst = 0;
    for (let k = 0; k < fs; k++) {
      const i = F[k]!;
      const base = i * n;
      let s = -g[i]!;
      for (let j = 0; j < fs; j++) s -= G[base + F[j]!]! * p[j]!;
      for (let r = 0; r < m; r++) s += A[r]![i]! * v[r]!;
      r1[k] = s;
      worst = Math.max(worst, Math.abs(s));
    }
    for (let r = 0; r < m; r++) {
      if (!independent[r]) {
        r2[r] = 0;
        continue;
      }
      const a = A[r]!;
      let s = 0;
      for (let k = 0; k < fs; k++) s -= a[F[k]!]! * p[k]!;
      r2[r] = s;
      worst = Math.max(worst, Math.abs(s));
    }
    return worst;
  };
  const refine = () => {
    let res = kktResidual(step, nu);
    for (let round = 0; round < 3 && res > 1e-14; round++) {
      for (let r = 0; r < m; r++) r2[r] = -r2[r]!;
      solveKkt((k) => -r1[k]!, r2, dp, dnu);
      for (let k = 0; k < fs; k++) trialStep[k] = step[k]! + dp[k]!;
      for (let r = 0; r < m; r++) trialNu[r] = nu[r]! + dnu[r]!;
      const next = kktResidual(trialStep, trialNu);
      if (!(next < res)) break;
      step.set(trialStep.subarray(0, fs));
      nu.set(trialNu);
      res = next;
    }
  };

  /** Solves (A_F A_F') γ = v over the independent rows (γ = 0 on dependent ones). */
  const gramSolve = (v: Float64Array, out: Float64Array) => {
    const Wc = Float64Array.from(gram);
    const rhs = Float64Array.from(v);
    const rows: number[] = [];
    for (let r = 0; r < m; r++) if (independent[r]) rows.push(r);
    out.fill(0);
    for (let a = 0; a < rows.length; a++) {
      const p = rows[a]!;
      const piv = Wc[p * m + p]!;
      for (let b = a + 1; b < rows.length; b++) {
        const r = rows[b]!;
        const f = Wc[r * m + p]! / piv;
        for (let t = 0; t < m; t++) Wc[r * m + t]! -= f * Wc[p * m + t]!;
        rhs[r]! -= f * rhs[p]!;
      }
    }
    for (let a = rows.length - 1; a >= 0; a--) {
      const p = rows[a]!;
      let s = rhs[p]!;
      for (let b = a + 1; b < rows.length; b++) s -= Wc[p * m + rows[b]!]! * out[rows[b]!]!;
      out[p] = s / Wc[p * m + p]!;
    }
  };

  /** Range-space solve of G_FF p − A_F'ν = −h, A_F p = −e with the current factor and Ŷ. */
  const solveKkt = (
    h: (k: number) => number,
    e: Float64Array,
    outStep: Float64Array,
    outNu: Float64Array,
  ) => {
    forward(h, zhat);
    for (let r = 0; r < m; r++) {
      const yr = yhat[r]!;
      let rhsR = -e[r]!;
      for (let k = 0; k < fs; k++) rhsR += yr[k]! * zhat[k]!;
      sRhs[r] = rhsR;
    }
    solveSchur();
    outNu.set(schurSol);
    for (let k = 0; k < fs; k++) {
      let t = zhat[k]!;
      for (let r = 0; r < m; r++) t -= yhat[r]![k]! * outNu[r]!;
      outStep[k] = t;
    }
    // Back substitution with L': step = −L⁻ᵀ(ẑ − Ŷν); outStep[j] (j > k) already holds −q_j.
    for (let k = fs - 1; k >= 0; k--) {
      let s = outStep[k]!;
      for (let j = k + 1; j < fs; j++) s += L[j * cap + k]! * outStep[j]!;
      outStep[k] = -s / L[k * cap + k]!;
    }
  };

  /**
   * Solves S ν = sRhs by symmetric Gaussian elimination with diagonal pivoting, over the rows of A
   * that are linearly independent on F. Independence is judged on A_F itself (Euclidean Gram
   * matrix), not on S, whose scale the regularised pivots of a semidefinite G_FF can distort. A
   * dependent row is implied by the others on F: its multiplier is set to 0.
   */
  const pivots: number[] = [];
  const remaining = new Uint8Array(m);
  const M = new Float64Array(m * m);
  const W = new Float64Array(m * m);
  const gram = new Float64Array(m * m);
  const rhsC = new Float64Array(m);
  const schurSol = new Float64Array(m);
  const independent = new Uint8Array(m);
  const findIndependentRows = () => {
    for (let r = 0; r < m; r++)
      for (let t = 0; t <= r; t++) {
        const ar = A[r]!;
        const at = A[t]!;
        let s = 0;
        for (let k = 0; k < fs; k++) s += ar[F[k]!]! * at[F[k]!]!;
        W[r * m + t] = s;
        W[t * m + r] = s;
      }
    gram.set(W);
    const diag = new Float64Array(m);
    for (let r = 0; r < m; r++) diag[r] = W[r * m + r]!;
    independent.fill(0);
    for (;;) {
      let best = -1;
      let bestRatio = 1e-14;
      for (let r = 0; r < m; r++) {
        if (independent[r] || !(diag[r]! > 0)) continue;
        const ratio = W[r * m + r]! / diag[r]!;
        if (ratio > bestRatio) {
          bestRatio = ratio;
          best = r;
        }
      }
      if (best < 0) break;
      independent[best] = 1;
      const pivot = W[best * m + best]!;
      for (let r = 0; r < m; r++) {
        if (independent[r]) continue;
        const f = W[r * m + best]! / pivot;
        for (let t = 0; t < m; t++) W[r * m + t]! -= f * W[best * m + t]!;
      }
    }
  };
  const solveSchur = () => {
    M.set(S);
    rhsC.set(sRhs);
    schurSol.fill(0);
    for (let r = 0; r < m; r++) remaining[r] = independent[r]!;
    pivots.length = 0;
    for (;;) {
      let best = -1;
      let bestVal = 0;
      for (let r = 0; r < m; r++)
        if (remaining[r] && M[r * m + r]! > bestVal) {
          bestVal = M[r * m + r]!;
          best = r;
        }
      if (best < 0 || !Number.isFinite(bestVal)) break;
      pivots.push(best);
      remaining[best] = 0;
      for (let r = 0; r < m; r++) {
        if (!remaining[r]) continue;
        const f = M[r * m + best]! / bestVal;
        if (f === 0) continue;
        for (let t = 0; t < m; t++) M[r * m + t]! -= f * M[best * m + t]!;
        rhsC[r]! -= f * rhsC[best]!;
      }
    }
    for (let k = pivots.length - 1; k >= 0; k--) {
      const r = pivots[k]!;
      let s = rhsC[r]!;
      for (let j = k + 1; j < pivots.length; j++)
        s -= M[r * m + pivots[j]!]! * schurSol[pivots[j]!]!;
      schurSol[r] = s / M[r * m + r]!;
    }
  };

  /**
   * Bound multipliers z = g − A'ν with the wrong sign beyond `threshold`: fills `candidates` with
   * their indices (most violated first when more than `limit`) and sets `worstViolation`.
   */
  let worstViolation = 0;
  const violation = new Float64Array(n);
  const candidates: number[] = [];
  const collectViolations = (threshold: number, limit: number) => {
    worstViolation = 0;
    candidates.length = 0;
    for (let i = 0; i < n; i++) {
      const st = state[i]!;
      if (st === FREE || st === FIXED) continue;
      let z = g[i]!;
      for (let r = 0; r < m; r++) z -= nu[r]! * A[r]![i]!;
      const v = st === AT_LOWER ? -z : z;
      if (v > worstViolation) worstViolation = v;
      if (v > threshold) {
        violation[i] = v;
        candidates.push(i);
      }
    }
    if (candidates.length > limit) {
      candidates.sort((a, b) => violation[b]! - violation[a]! || a - b);
      candidates.length = limit;
    }
  };

  /**
   * When F makes one equality row depend on another (one free asset, or equal expected returns
   * among the free assets), the pair of multipliers is not unique: t moves along
   * ν_dep += t, ν_other −= λt (λ from a_dep,F = λ a_other,F), which keeps g_F = A_F'ν. Choose t so
   * that the bound multipliers have the right sign if possible (an interval of t), else to split
   * the disagreement; otherwise a bound would be released on the strength of an arbitrary ν.
   */
  const adjustDependentMultiplier = () => {
    if (m !== 2 || fs === 0) return;
    const dep = independent[0] ? (independent[1] ? -1 : 1) : independent[1] ? 0 : -1;
    if (dep < 0) return;
    const other = 1 - dep;
    const ad = A[dep]!;
    const ao = A[other]!;
    let num = 0;
    let den = 0;
    for (let k = 0; k < fs; k++) {
      num += ad[F[k]!]! * ao[F[k]!]!;
      den += ao[F[k]!]! ** 2;
    }
    if (!(den > 0)) return;
    const lambda = num / den;
    let tLo = -Infinity;
    let tHi = Infinity;
    for (let i = 0; i < n; i++) {
      const st = state[i]!;
      if (st === FREE || st === FIXED) continue;
      const ci = ad[i]! - lambda * ao[i]!;
      if (Math.abs(ci) <= 1e-14) continue;
      const z0 = g[i]! - nu[0]! * A[0]![i]! - nu[1]! * A[1]![i]!;
      const t = z0 / ci;
      // At the lower bound z0 − t·c ≥ 0, at the upper bound ≤ 0.
      if ((st === AT_LOWER) === ci > 0) tHi = Math.min(tHi, t);
      else tLo = Math.max(tLo, t);
    }
    let t: number;
    if (tLo <= tHi) t = Math.min(Math.max(0, tLo), tHi);
    else t = (tLo + tHi) / 2;
    if (!Number.isFinite(t) || t === 0) return;
    nu[dep]! += t;
    nu[other]! -= lambda * t;
  };

  // Variables are released in batches whose size adapts: it doubles while the released variables
  // stay free until the next stationary point and halves when most of them are pushed back.
  let batch = 1;
  const releasedNow = new Uint8Array(n);
  let releasedCount = 0;
  let pushedBack = 0;

  for (let i = 0; i < n; i++) if (state[i] === FREE) appendFree(i);

  let iterations = 0;
  let refreshes = 0;
  let verified = false;
  while (iterations < maxIterations) {
    iterations++;
    if (fs === 0) {
      // No free variable: the multipliers are undetermined, free the most promising one.
      let q = -1;
      for (let i = 0; i < n; i++) if (state[i] === AT_LOWER && (q < 0 || g[i]! < g[q]!)) q = i;
      if (q < 0)
        for (let i = 0; i < n; i++) if (state[i] === AT_UPPER && (q < 0 || g[i]! > g[q]!)) q = i;
      if (q < 0) {
        verified = equalityResidual() <= tol;
        break;
      }
      appendFree(q);
      continue;
    }
    computeStep();
    let maxEq = 0;
    for (let r = 0; r < m; r++) maxEq = Math.max(maxEq, Math.abs(resid[r]!));
    if (stationarity <= 0.1 * tol && maxEq <= innerTol) {
      adjustDependentMultiplier();
      if (releasedCount > 0) {
        if (pushedBack === 0) batch = Math.min(2 * batch, n);
        else if (2 * pushedBack > releasedCount) batch = Math.max(1, batch >> 1);
        for (let k = 0; k < fs; k++) releasedNow[F[k]!] = 0;
        releasedCount = 0;
        pushedBack = 0;
      }
      collectViolations(innerTol, batch);
      if (candidates.length > 0) {
        for (const q of candidates) {
          appendFree(q);
          releasedNow[q] = 1;
        }
        releasedCount = candidates.length;
        continue;
      }
      // Candidate optimum: verify with a gradient computed afresh.
      refreshGradient();
      computeStep();
      maxEq = 0;
      for (let r = 0; r < m; r++) maxEq = Math.max(maxEq, Math.abs(resid[r]!));
      adjustDependentMultiplier();
      collectViolations(Infinity, 0);
      if (stationarity <= tol && maxEq <= tol && worstViolation <= tol) {
        verified = true;
        break;
      }
      if (++refreshes > 3) break;
      continue;
    }
    // Ratio test along the step.
    let alpha = 1;
    let block = -1;
    for (let k = 0; k < fs; k++) {
      const i = F[k]!;
      const pk = step[k]!;
      let a: number;
      if (pk < 0) a = Math.max(x[i]! - lo[i]!, 0) / -pk;
      else if (pk > 0) a = Math.max(hi[i]! - x[i]!, 0) / pk;
      else continue;
      if (a < alpha || (a === alpha && block >= 0 && Math.abs(pk) > Math.abs(step[block]!))) {
        alpha = a;
        block = k;
      }
    }
    for (let k = 0; k < fs; k++) {
      const i = F[k]!;
      const dx = alpha * step[k]!;
      if (dx === 0) continue;
      x[i]! += dx;
      const base = i * n;
      for (let j = 0; j < n; j++) g[j]! += G[base + j]! * dx;
    }
    if (block >= 0) {
      const i = F[block]!;
      if (step[block]! < 0) {
        x[i] = lo[i]!;
        state[i] = AT_LOWER;
      } else {
        x[i] = hi[i]!;
        state[i] = AT_UPPER;
      }
      if (releasedNow[i]) {
        releasedNow[i] = 0;
        pushedBack++;
      }
      removeFree(block);
    }
    if (iterations % 64 === 0) refreshGradient();
  }

  // Final report on the unregularised problem.
  if (!verified) {
    refreshGradient();
    if (fs > 0) {
      computeStep();
      adjustDependentMultiplier();
    }
  }
  let primal = equalityResidual();
  for (let i = 0; i < n; i++) primal = Math.max(primal, lo[i]! - x[i]!, x[i]! - hi[i]!);
  collectViolations(Infinity, 0);
  let objective = 0;
  for (let i = 0; i < n; i++) objective += 0.5 * x[i]! * (g[i]! + (c ? c[i]! : 0));
  return {
    status: verified ? "optimal" : "iterationLimit",
    x,
    objective,
    gradient: g,
    multipliers: Float64Array.from(nu),
    free: F.slice(0, fs),
    iterations,
    kkt: {
      stationarity: fs > 0 ? stationarity : 0,
      dualInfeasibility: worstViolation,
      primalInfeasibility: primal,
    },
  };
}
