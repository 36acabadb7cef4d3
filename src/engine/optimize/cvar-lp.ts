/**
 * Bounded-variable revised primal simplex for the Rockafellar–Uryasev CVaR linear programme,
 * specialised to its structure (Rockafellar & Uryasev 2000; simplex as in Maros, Computational
 * Techniques of the Simplex Method, 2003).
 *
 * Variables: weights w (n, lo ≤ w ≤ hi), the VaR level ζ (free), tail excesses u_s ≥ 0 (S) and one
 * logical σ_i per row. Rows (M = S + 2):
 *
 *   scenario s:  −r_s'w − ζ − u_s + σ_s = 0,     σ_s ≥ 0        (u_s ≥ loss_s − ζ)
 *   cvar:        ζ + c Σ_s u_s + σ_cv = cap,      σ_cv ≥ 0 (free in the min-CVaR problem)
 *   budget:      Σ_j w_j + σ_bud = 1,             σ_bud = 0
 *
 * with c = 1 / ((1 − β) S). Objective: min ζ + c Σ u (minimum CVaR) or min −μ'w (maximum return
 * under the cap).
 *
 * The basis is factorised through its structure: a basic logical σ_i "homes" row i, a basic u_s
 * homes row s when σ_s is not basic; these columns are (signed) unit columns apart from the u's
 * entry in the cvar row, which a Schur complement absorbs. What remains is a dense kernel over the
 * basic w's and ζ (and any u that could not be homed) against the rows nobody homes: its size is
 * about the number of assets strictly between their bounds, not S. Basis changes between
 * refactorisations are kept as a product-form eta file. Each iteration costs about
 * O(S·k + M·etas + nnz(y)·n) with k the kernel size.
 *
 * Pricing is Dantzig's rule with Bland's rule after a run of degenerate pivots (anti-cycling); the
 * ratio test is Harris's two-pass test. At exit the basis is refactorised, primal and dual
 * feasibility are re-measured from scratch and a Lagrangian lower bound y'b + Σ_j min d_j x_j over
 * the bounds gives the duality gap.
 *
 * Everything here is in scaled units: scenario returns divided by their largest magnitude.
 */

const BASIC = 0;
const AT_LOWER = 1;
const AT_UPPER = 2;
const FREE_NONBASIC = 3;

const ETA_LIMIT = 64;
const PIVOT_TOLERANCE = 1e-9;
const HARRIS_TOLERANCE = 1e-11;
const PRICING_TOLERANCE = 1e-11;
const BLAND_AFTER = 60;

export interface CvarLpData {
  readonly n: number;
  readonly S: number;
  /** Scaled scenario returns, column-major by asset: returns[j * S + s]. */
  readonly returns: Float64Array;
  readonly beta: number;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

export type LpStatus = "optimal" | "stopped" | "iterationLimit" | "unbounded" | "singular";

export interface LpCertificate {
  /** max |A x − b| over all rows and max bound violation, recomputed from scratch. */
  readonly primalInfeasibility: number;
  /** Largest reduced cost of the wrong sign. */
  readonly dualInfeasibility: number;
  /** Objective minus the Lagrangian lower bound of the final duals (≥ 0 up to rounding). */
  readonly dualityGap: number;
  readonly objective: number;
}

export interface CvarLp {
  /** Starts from the vertex w0 (at most one weight strictly between its bounds), ζ at its VaR. */
  crash(w0: Float64Array): void;
  /** Objective ζ + cΣu, the cvar row free. */
  configureMinCvar(): void;
  /** Objective −μ'w under ζ + cΣu ≤ cap. */
  configureMaxReturn(mu: Float64Array, cap: number): void;
  /** Runs the simplex; `stopBelow` ends it as soon as the objective is at or below that value. */
  run(options?: { stopBelow?: number; maxIterations?: number }): LpStatus;
  objective(): number;
  /** Current value of ζ + cΣu (the LP's CVaR bound of the current weights). */
  cvarValue(): number;
  /** The weights, clamped to their bounds (they are within 1e-11 already). */
  weights(): Float64Array;
  /** Refactorises and measures primal and dual infeasibility and the duality gap afresh. */
  certificate(): LpCertificate;
  readonly iterations: () => number;
}

export function createCvarLp(data: CvarLpData): CvarLp {
  const { n, S, returns: R, beta, lower, upper } = data;
  const c = 1 / ((1 - beta) * S);
  const M = S + 2;
  const CV = S;
  const BUD = S + 1;
  const Z = n;
  const U0 = n + 1;
  const SIG0 = n + 1 + S;
  const N = SIG0 + M;

  const lb = new Float64Array(N);
  const ub = new Float64Array(N);
  const cost = new Float64Array(N);
  const x = new Float64Array(N);
  const status = new Int8Array(N);
  const b = new Float64Array(M);
  const head = new Int32Array(M);

  for (let j = 0; j < n; j++) {
    lb[j] = lower[j]!;
    ub[j] = upper[j]!;
  }
  lb[Z] = -Infinity;
  ub[Z] = Infinity;
  for (let s = 0; s < S; s++) {
    lb[U0 + s] = 0;
    ub[U0 + s] = Infinity;
    lb[SIG0 + s] = 0;
    ub[SIG0 + s] = Infinity;
  }
  lb[SIG0 + CV] = -Infinity;
  ub[SIG0 + CV] = Infinity;
  lb[SIG0 + BUD] = 0;
  ub[SIG0 + BUD] = 0;
  b[BUD] = 1;

  /** Entry of column v in row i. */
  const entry = (i: number, v: number): number => {
    if (v < n) return i < S ? -R[v * S + i]! : i === CV ? 0 : 1;
    if (v === Z) return i < S ? -1 : i === CV ? 1 : 0;
    if (v < SIG0) return i === v - U0 ? -1 : i === CV ? c : 0;
    return i === v - SIG0 ? 1 : 0;
  };

  // ---- Factorisation of the basis at the last refactorisation (B0) ----
  const home = new Int32Array(M);
  const head0 = new Int32Array(M);
  const pos0 = new Int32Array(N);
  let dense = new Int32Array(0);
  let openRows = new Int32Array(0);
  let uHomed = new Int32Array(0);
  let k = 0;
  let lu = new Float64Array(0);
  let perm = new Int32Array(0);
  let cvOpen = false;
  // Eta file, stored sparse: eta e replaced position etaPos[e]; its nonzeros (pivot excluded) are
  // etaIdx/etaVal[etaStart[e] .. etaStart[e + 1]) and its pivot etaPivot[e].
  const etaPos = new Int32Array(ETA_LIMIT);
  const etaPivot = new Float64Array(ETA_LIMIT);
  const etaStart = new Int32Array(ETA_LIMIT + 1);
  let etaIdx = new Int32Array(4 * M);
  let etaVal = new Float64Array(4 * M);
  let etaCount = 0;
  const pushEta = (p: number, alpha: Float64Array) => {
    let at = etaStart[etaCount]!;
    if (etaIdx.length - at < M) {
      const idx = new Int32Array(2 * etaIdx.length + M);
      idx.set(etaIdx);
      const val = new Float64Array(idx.length);
      val.set(etaVal);
      etaIdx = idx;
      etaVal = val;
    }
    for (let i = 0; i < M; i++) {
      const a = alpha[i]!;
      if (a === 0 || i === p) continue;
      etaIdx[at] = i;
      etaVal[at++] = a;
    }
    etaPos[etaCount] = p;
    etaPivot[etaCount] = alpha[p]!;
    etaStart[++etaCount] = at;
  };

  const kernelEntry = (i: number, v: number): number => {
    if (i !== CV) return entry(i, v);
    let s0 = entry(CV, v);
    if (v < n) {
      const base = v * S;
      let t = 0;
      for (let a = 0; a < uHomed.length; a++) t += R[base + uHomed[a]!]!;
      s0 -= c * t;
    } else if (v === Z) s0 -= c * uHomed.length;
    return s0;
  };

  let singular = false;
  const refactor = () => {
    head0.set(head);
    pos0.fill(-1);
    for (let p = 0; p < M; p++) pos0[head[p]!] = p;
    home.fill(-1);
    for (let p = 0; p < M; p++) {
      const v = head[p]!;
      if (v >= SIG0) home[v - SIG0] = v;
    }
    const denseList: number[] = [];
    const uList: number[] = [];
    for (let p = 0; p < M; p++) {
      const v = head[p]!;
      if (v >= SIG0) continue;
      if (v >= U0 && home[v - U0] === -1) {
        home[v - U0] = v;
        uList.push(v - U0);
      } else denseList.push(v);
    }
    const rows: number[] = [];
    for (let i = 0; i < M; i++) if (home[i] === -1) rows.push(i);
    dense = Int32Array.from(denseList);
    openRows = Int32Array.from(rows);
    uHomed = Int32Array.from(uList);
    k = dense.length;
    cvOpen = home[CV] === -1;
    if (rows.length !== k) {
      singular = true;
      return;
    }
    lu = new Float64Array(k * k);
    perm = new Int32Array(k);
    for (let r = 0; r < k; r++)
      for (let d = 0; d < k; d++) lu[r * k + d] = kernelEntry(openRows[r]!, dense[d]!);
    // LU with partial pivoting, P K = L U.
    for (let r = 0; r < k; r++) perm[r] = r;
    for (let col = 0; col < k; col++) {
      let piv = col;
      let best = Math.abs(lu[col * k + col]!);
      for (let r = col + 1; r < k; r++) {
        const v = Math.abs(lu[r * k + col]!);
        if (v > best) {
          best = v;
          piv = r;
        }
      }
      if (best < 1e-13) {
        singular = true;
        return;
      }
      if (piv !== col) {
        for (let t = 0; t < k; t++) {
          const tmp = lu[col * k + t]!;
          lu[col * k + t] = lu[piv * k + t]!;
          lu[piv * k + t] = tmp;
        }
        const tp = perm[col]!;
        perm[col] = perm[piv]!;
        perm[piv] = tp;
      }
      const d = lu[col * k + col]!;
      for (let r = col + 1; r < k; r++) {
        const f = lu[r * k + col]! / d;
        if (f === 0) continue;
        lu[r * k + col] = f;
        for (let t = col + 1; t < k; t++) lu[r * k + t]! -= f * lu[col * k + t]!;
      }
    }
    etaCount = 0;
    etaStart[0] = 0;
  };

  const kbuf = new Float64Array(M);
  const kbuf2 = new Float64Array(M);
  /** Solves K z = rhs in place (rhs length k). */
  const kernelSolve = (rhs: Float64Array) => {
    for (let r = 0; r < k; r++) kbuf[r] = rhs[perm[r]!]!;
    for (let r = 0; r < k; r++) {
      let s = kbuf[r]!;
      for (let t = 0; t < r; t++) s -= lu[r * k + t]! * kbuf[t]!;
      kbuf[r] = s;
    }
    for (let r = k - 1; r >= 0; r--) {
      let s = kbuf[r]!;
      for (let t = r + 1; t < k; t++) s -= lu[r * k + t]! * kbuf[t]!;
      kbuf[r] = s / lu[r * k + r]!;
    }
    for (let r = 0; r < k; r++) rhs[r] = kbuf[r]!;
  };
  /** Solves K' z = rhs in place. */
  const kernelSolveT = (rhs: Float64Array) => {
    for (let r = 0; r < k; r++) {
      let s = rhs[r]!;
      for (let t = 0; t < r; t++) s -= lu[t * k + r]! * kbuf2[t]!;
      kbuf2[r] = s / lu[r * k + r]!;
    }
    for (let r = k - 1; r >= 0; r--) {
      let s = kbuf2[r]!;
      for (let t = r + 1; t < k; t++) s -= lu[t * k + r]! * kbuf2[t]!;
      kbuf2[r] = s;
    }
    for (let r = 0; r < k; r++) rhs[perm[r]!] = kbuf2[r]!;
  };

  const tScen = new Float64Array(S);
  const kRhs = new Float64Array(M);
  /** x = B⁻¹ a, a by rows, x by basis position. */
  const ftran = (a: Float64Array, out: Float64Array) => {
    let uSum = 0;
    if (cvOpen) for (let t = 0; t < uHomed.length; t++) uSum += a[uHomed[t]!]!;
    for (let r = 0; r < k; r++) {
      const i = openRows[r]!;
      kRhs[r] = i === CV ? a[i]! + c * uSum : a[i]!;
    }
    kernelSolve(kRhs);
    tScen.fill(0);
    let tcv = 0;
    let tbud = 0;
    for (let d = 0; d < k; d++) {
      const v = dense[d]!;
      const val = kRhs[d]!;
      out[pos0[v]!] = val;
      if (val === 0) continue;
      if (v < n) {
        const base = v * S;
        for (let s = 0; s < S; s++) tScen[s]! -= R[base + s]! * val;
        tbud += val;
      } else if (v === Z) {
        for (let s = 0; s < S; s++) tScen[s]! -= val;
        tcv += val;
      } else {
        tScen[v - U0]! -= val;
        tcv += c * val;
      }
    }
    let uHomedSum = 0;
    for (let s = 0; s < S; s++) {
      const h = home[s]!;
      if (h < 0) continue;
      if (h >= SIG0) out[pos0[h]!] = a[s]! - tScen[s]!;
      else {
        const val = tScen[s]! - a[s]!;
        out[pos0[h]!] = val;
        uHomedSum += val;
      }
    }
    if (!cvOpen) out[pos0[home[CV]!]!] = a[CV]! - tcv - c * uHomedSum;
    if (home[BUD]! >= 0) out[pos0[home[BUD]!]!] = a[BUD]! - tbud;
    for (let e = 0; e < etaCount; e++) {
      const p = etaPos[e]!;
      const xp = out[p]! / etaPivot[e]!;
      out[p] = xp;
      if (xp === 0) continue;
      const end = etaStart[e + 1]!;
      for (let t = etaStart[e]!; t < end; t++) out[etaIdx[t]!]! -= etaVal[t]! * xp;
    }
  };

  const gamma = new Float64Array(M);
  const sigNonzero: number[] = [];
  /** y = B⁻ᵀ cB, cB by basis position, y by rows. */
  const btran = (cB: Float64Array, y: Float64Array) => {
    gamma.set(cB);
    for (let e = etaCount - 1; e >= 0; e--) {
      const p = etaPos[e]!;
      let s = gamma[p]!;
      const end = etaStart[e + 1]!;
      for (let t = etaStart[e]!; t < end; t++) s -= etaVal[t]! * gamma[etaIdx[t]!]!;
      gamma[p] = s / etaPivot[e]!;
    }
    const g = (v: number) => gamma[pos0[v]!]!;
    sigNonzero.length = 0;
    for (let s = 0; s < S; s++) {
      const h = home[s]!;
      if (h >= SIG0 && g(h) !== 0) sigNonzero.push(s);
    }
    const gcv = cvOpen ? 0 : g(home[CV]!);
    const gbud = home[BUD]! >= 0 ? g(home[BUD]!) : 0;
    for (let d = 0; d < k; d++) {
      const v = dense[d]!;
      let rhs = g(v);
      for (const s of sigNonzero) rhs -= entry(s, v) * g(home[s]!);
      // Σ_{s homed by u} B_sv γ(u_s) and Σ B_sv
      let sumBg = 0;
      let sumB = 0;
      if (v < n) {
        const base = v * S;
        for (let t = 0; t < uHomed.length; t++) {
          const s = uHomed[t]!;
          const bsv = -R[base + s]!;
          sumBg += bsv * g(U0 + s);
          sumB += bsv;
        }
      } else if (v === Z) {
        for (let t = 0; t < uHomed.length; t++) sumBg -= g(U0 + uHomed[t]!);
        sumB = -uHomed.length;
      }
      rhs += sumBg;
      if (!cvOpen) rhs -= (entry(CV, v) + c * sumB) * gcv;
      if (home[BUD]! >= 0) rhs -= entry(BUD, v) * gbud;
      kRhs[d] = rhs;
    }
    kernelSolveT(kRhs);
    for (let r = 0; r < k; r++) y[openRows[r]!] = kRhs[r]!;
    const ycv = cvOpen ? y[CV]! : gcv;
    for (let s = 0; s < S; s++) {
      const h = home[s]!;
      if (h < 0) continue;
      y[s] = h >= SIG0 ? g(h) : c * ycv - g(h);
    }
    if (!cvOpen) y[CV] = gcv;
    if (home[BUD]! >= 0) y[BUD] = gbud;
  };

  const column = (v: number, out: Float64Array) => {
    out.fill(0);
    if (v < n) {
      const base = v * S;
      for (let s = 0; s < S; s++) out[s] = -R[base + s]!;
      out[BUD] = 1;
    } else if (v === Z) {
      for (let s = 0; s < S; s++) out[s] = -1;
      out[CV] = 1;
    } else if (v < SIG0) {
      out[v - U0] = -1;
      out[CV] = c;
    } else out[v - SIG0] = 1;
  };

  const work = new Float64Array(M);
  const alphaBuf = new Float64Array(M);
  const cB = new Float64Array(M);
  const y = new Float64Array(M);
  const dj = new Float64Array(N);
  const yNonzero: number[] = [];

  /** x_B = B⁻¹ (b − N x_N) */
  const recomputeBasics = () => {
    work.set(b);
    for (let v = 0; v < N; v++) {
      if (status[v] === BASIC) continue;
      const xv = x[v]!;
      if (xv === 0) continue;
      if (v < n) {
        const base = v * S;
        for (let s = 0; s < S; s++) work[s]! += R[base + s]! * xv;
        work[BUD]! -= xv;
      } else if (v === Z) {
        for (let s = 0; s < S; s++) work[s]! += xv;
        work[CV]! -= xv;
      } else if (v < SIG0) {
        work[v - U0]! += xv;
        work[CV]! -= c * xv;
      } else work[v - SIG0]! -= xv;
    }
    ftran(work, alphaBuf);
    for (let p = 0; p < M; p++) x[head[p]!] = alphaBuf[p]!;
  };

  const computeDuals = () => {
    for (let p = 0; p < M; p++) cB[p] = cost[head[p]!]!;
    btran(cB, y);
    yNonzero.length = 0;
    for (let s = 0; s < S; s++) if (y[s] !== 0) yNonzero.push(s);
  };

  const reducedCost = (v: number): number => {
    if (v < n) {
      const base = v * S;
      let s0 = y[BUD]!;
      for (let t = 0; t < yNonzero.length; t++) {
        const s = yNonzero[t]!;
        s0 -= R[base + s]! * y[s]!;
      }
      return cost[v]! - s0;
    }
    if (v === Z) {
      let s0 = y[CV]!;
      for (let t = 0; t < yNonzero.length; t++) s0 -= y[yNonzero[t]!]!;
      return cost[v]! - s0;
    }
    if (v < SIG0) return cost[v]! - (-y[v - U0]! + c * y[CV]!);
    return cost[v]! - y[v - SIG0]!;
  };

  const computeReducedCosts = () => {
    for (let v = 0; v < N; v++) dj[v] = status[v] === BASIC ? 0 : reducedCost(v);
  };

  let iterationCount = 0;

  const setNonbasicStatus = (v: number) => {
    if (lb[v] === -Infinity && ub[v] === Infinity) status[v] = FREE_NONBASIC;
    else if (x[v]! >= ub[v]!) {
      status[v] = AT_UPPER;
      x[v] = ub[v]!;
    } else {
      status[v] = AT_LOWER;
      x[v] = lb[v] === -Infinity ? ub[v]! : lb[v]!;
    }
  };

  const api: CvarLp = {
    iterations: () => iterationCount,

    crash(w0) {
      x.fill(0);
      const loss = new Float64Array(S);
      for (let j = 0; j < n; j++) {
        const wj = w0[j]!;
        x[j] = wj;
        if (wj === 0) continue;
        const base = j * S;
        for (let s = 0; s < S; s++) loss[s]! -= R[base + s]! * wj;
      }
      const order = Array.from({ length: S }, (_, s) => s).sort(
        (a, bb) => loss[a]! - loss[bb]! || a - bb,
      );
      const star = order[Math.max(0, Math.ceil(beta * S - 1e-9) - 1)]!;
      const zeta = loss[star]!;
      let p = 0;
      const makeBasic = (v: number) => {
        status[v] = BASIC;
        head[p++] = v;
      };
      for (let v = 0; v < N; v++) status[v] = AT_LOWER;
      let fractional = -1;
      for (let j = 0; j < n; j++) {
        if (fractional < 0 && w0[j]! > lb[j]! && w0[j]! < ub[j]!) {
          fractional = j;
          makeBasic(j);
        } else setNonbasicStatus(j);
      }
      x[Z] = zeta;
      makeBasic(Z);
      for (let s = 0; s < S; s++) {
        if (s === star) {
          x[U0 + s] = 0;
          x[SIG0 + s] = 0;
          continue;
        }
        if (loss[s]! > zeta) {
          x[U0 + s] = loss[s]! - zeta;
          makeBasic(U0 + s);
        } else {
          x[SIG0 + s] = zeta - loss[s]!;
          makeBasic(SIG0 + s);
        }
      }
      makeBasic(SIG0 + CV);
      if (fractional < 0) makeBasic(SIG0 + BUD);
      singular = false;
      refactor();
      if (!singular) recomputeBasics();
    },

    configureMinCvar() {
      cost.fill(0);
      cost[Z] = 1;
      for (let s = 0; s < S; s++) cost[U0 + s] = c;
      lb[SIG0 + CV] = -Infinity;
      b[CV] = 0;
      if (status[SIG0 + CV] !== BASIC) status[SIG0 + CV] = FREE_NONBASIC;
    },

    configureMaxReturn(mu, cap) {
      cost.fill(0);
      for (let j = 0; j < n; j++) cost[j] = -mu[j]!;
      lb[SIG0 + CV] = 0;
      b[CV] = cap;
      if (status[SIG0 + CV] !== BASIC) setNonbasicStatus(SIG0 + CV);
      refactor();
      if (!singular) recomputeBasics();
    },

    run(options = {}) {
      const maxIterations = options.maxIterations ?? 10 * (M + n) + 1000;
      const stopBelow = options.stopBelow;
      let degenerate = 0;
      let verifications = 0;
      refactor();
      if (singular) return "singular";
      recomputeBasics();
      for (;;) {
        if (stopBelow !== undefined && api.objective() <= stopBelow) return "stopped";
        if (iterationCount >= maxIterations) return "iterationLimit";
        computeDuals();
        const bland = degenerate > BLAND_AFTER;
        let q = -1;
        let best = 0;
        for (let v = 0; v < N; v++) {
          const st = status[v]!;
          if (st === BASIC || lb[v] === ub[v]) continue;
          const d = reducedCost(v);
          dj[v] = d;
          let score = 0;
          if (st === AT_LOWER) score = -d;
          else if (st === AT_UPPER) score = d;
          else score = Math.abs(d);
          if (score <= PRICING_TOLERANCE) continue;
          if (bland) {
            q = v;
            break;
          }
          if (score > best) {
            best = score;
            q = v;
          }
        }
        if (q < 0) {
          // Candidate optimum: refactorise, recompute and price again from scratch.
          if (verifications++ > 2) return "optimal";
          refactor();
          if (singular) return "singular";
          recomputeBasics();
          computeDuals();
          let worst = 0;
          for (let v = 0; v < N; v++) {
            const st = status[v]!;
            if (st === BASIC || lb[v] === ub[v]) continue;
            const d = reducedCost(v);
            const viol = st === AT_LOWER ? -d : st === AT_UPPER ? d : Math.abs(d);
            worst = Math.max(worst, viol);
          }
          if (worst <= PRICING_TOLERANCE) return "optimal";
          continue;
        }
        iterationCount++;
        const dq = dj[q]!;
        const dir =
          status[q] === FREE_NONBASIC ? (dq < 0 ? 1 : -1) : status[q] === AT_LOWER ? 1 : -1;
        column(q, work);
        ftran(work, alphaBuf);
        // Harris pass 1: the largest step keeping basics within bounds plus a tolerance.
        let thetaMax = Infinity;
        for (let p = 0; p < M; p++) {
          const a = alphaBuf[p]!;
          if (Math.abs(a) <= PIVOT_TOLERANCE) continue;
          const v = head[p]!;
          const rate = -dir * a;
          if (rate < 0 && lb[v] !== -Infinity) {
            const t = (x[v]! - lb[v]! + HARRIS_TOLERANCE) / -rate;
            if (t < thetaMax) thetaMax = t;
          } else if (rate > 0 && ub[v] !== Infinity) {
            const t = (ub[v]! - x[v]! + HARRIS_TOLERANCE) / rate;
            if (t < thetaMax) thetaMax = t;
          }
        }
        // Pass 2: among rows whose exact ratio is within thetaMax, the largest pivot.
        let leave = -1;
        let leaveTheta = Infinity;
        let bestPivot = 0;
        for (let p = 0; p < M; p++) {
          const a = alphaBuf[p]!;
          if (Math.abs(a) <= PIVOT_TOLERANCE) continue;
          const v = head[p]!;
          const rate = -dir * a;
          let t: number;
          if (rate < 0 && lb[v] !== -Infinity) t = Math.max(0, (x[v]! - lb[v]!) / -rate);
          else if (rate > 0 && ub[v] !== Infinity) t = Math.max(0, (ub[v]! - x[v]!) / rate);
          else continue;
          if (t > thetaMax) continue;
          const mag = Math.abs(a);
          if (bland ? leave < 0 || head[p]! < head[leave]! : mag > bestPivot) {
            bestPivot = mag;
            leave = p;
            leaveTheta = t;
          }
        }
        const flip = ub[q]! - lb[q]!;
        if (leave < 0 && !Number.isFinite(flip)) return "unbounded";
        if (flip <= leaveTheta) {
          // Bound flip of the entering variable: no basis change.
          for (let p = 0; p < M; p++) {
            const a = alphaBuf[p]!;
            if (a !== 0) x[head[p]!]! -= dir * flip * a;
          }
          x[q] = dir > 0 ? ub[q]! : lb[q]!;
          status[q] = dir > 0 ? AT_UPPER : AT_LOWER;
          degenerate = 0;
          continue;
        }
        const theta = leaveTheta;
        degenerate = theta <= 1e-12 ? degenerate + 1 : 0;
        for (let p = 0; p < M; p++) {
          const a = alphaBuf[p]!;
          if (a !== 0) x[head[p]!]! -= dir * theta * a;
        }
        x[q]! += dir * theta;
        const out = head[leave]!;
        const rate = -dir * alphaBuf[leave]!;
        x[out] = rate < 0 ? lb[out]! : ub[out]!;
        status[out] = rate < 0 ? AT_LOWER : AT_UPPER;
        head[leave] = q;
        status[q] = BASIC;
        pushEta(leave, alphaBuf);
        // Refactorise when carrying the eta file (its nonzeros, in every ftran and btran) has cost
        // about as much as a refactorisation (kernel LU k³/3 plus the S·k structured solve).
        const nnz = etaStart[etaCount]!;
        const refactorCost = (k * k * k) / 3 + S * (k + 2);
        if (etaCount === ETA_LIMIT || (etaCount * nnz) / 2 > refactorCost) {
          refactor();
          if (singular) return "singular";
          recomputeBasics();
        }
      }
    },

    objective() {
      let s = 0;
      for (let v = 0; v < N; v++) if (cost[v] !== 0) s += cost[v]! * x[v]!;
      return s;
    },

    cvarValue() {
      let s = x[Z]!;
      for (let t = 0; t < S; t++) s += c * x[U0 + t]!;
      return s;
    },

    weights() {
      const w = new Float64Array(n);
      for (let j = 0; j < n; j++) w[j] = Math.min(ub[j]!, Math.max(lb[j]!, x[j]!));
      return w;
    },

    certificate() {
      refactor();
      recomputeBasics();
      computeDuals();
      computeReducedCosts();
      // Primal: rows recomputed from the variables, and bounds.
      let primal = 0;
      for (let v = 0; v < N; v++) primal = Math.max(primal, lb[v]! - x[v]!, x[v]! - ub[v]!);
      const rowVal = new Float64Array(M);
      let uSum = 0;
      for (let s = 0; s < S; s++) {
        rowVal[s] = -x[Z]! - x[U0 + s]! + x[SIG0 + s]!;
        uSum += x[U0 + s]!;
      }
      for (let j = 0; j < n; j++) {
        const xj = x[j]!;
        rowVal[BUD]! += xj;
        if (xj === 0) continue;
        const base = j * S;
        for (let s = 0; s < S; s++) rowVal[s]! -= R[base + s]! * xj;
      }
      rowVal[CV] = x[Z]! + c * uSum + x[SIG0 + CV]!;
      rowVal[BUD]! += x[SIG0 + BUD]!;
      for (let i = 0; i < M; i++) primal = Math.max(primal, Math.abs(rowVal[i]! - b[i]!));
      // Dual: signs of reduced costs, and the Lagrangian bound y'b + Σ min over bounds of d_v x_v.
      let dual = 0;
      let bound = 0;
      for (let i = 0; i < M; i++) bound += y[i]! * b[i]!;
      for (let v = 0; v < N; v++) {
        const d = status[v] === BASIC ? reducedCost(v) : dj[v]!;
        const st = status[v]!;
        if (lb[v] !== ub[v]) {
          const viol =
            st === BASIC || st === FREE_NONBASIC ? Math.abs(d) : st === AT_LOWER ? -d : d;
          dual = Math.max(dual, viol);
        }
        if (d > 0) bound += lb[v] === -Infinity ? 0 : d * lb[v]!;
        else if (d < 0) bound += ub[v] === Infinity ? 0 : d * ub[v]!;
      }
      const objective = api.objective();
      return {
        primalInfeasibility: primal,
        dualInfeasibility: dual,
        dualityGap: objective - bound,
        objective,
      };
    },
  };
  return api;
}
