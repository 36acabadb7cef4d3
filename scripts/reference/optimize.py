#!/usr/bin/python3
"""Reference solutions for the portfolio optimiser (src/engine/optimize).

Writes tests/engine/reference/optimize.json: seeded, deterministic problems with their inputs and
the reference objective and weights, solved independently of the TypeScript code:

  - minimum risk and frontier QPs: cvxopt.solvers.qp (interior point), then polished by solving
    the KKT system on the active set it identifies (numpy), which gives the objective to ~1e-15;
    the KKT conditions of the polished point are checked before it is written;
  - the two-asset case also against the closed form
    w1 = (s2^2 - rho s1 s2) / (s1^2 + s2^2 - 2 rho s1 s2), clipped to the bounds;
  - CVaR LPs (Rockafellar-Uryasev): scipy.optimize.linprog with HiGHS, tight tolerances;
  - cardinality: brute-force enumeration of every admissible subset, each subset a polished QP.

Run with Debian's Python (cvxopt, numpy and scipy from apt):
    apt-get install -y python3-cvxopt python3-numpy python3-scipy
    /usr/bin/python3 scripts/reference/optimize.py
Covariances are stored as factor models (loadings B, specific variances d): Σ = B Bᵀ + diag(d),
which both sides compute. Scenario returns are stored rounded to 6 decimals and solved as stored.
"""

import itertools
import json
import math
import os

import cvxopt
import numpy as np
from cvxopt import matrix, solvers
from scipy.optimize import linprog

solvers.options["show_progress"] = False
solvers.options["abstol"] = 1e-12
solvers.options["reltol"] = 1e-12
solvers.options["feastol"] = 1e-12
solvers.options["maxiters"] = 200

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "engine", "reference", "optimize.json")


def factor_model(n, k, seed, kind="market"):
    """Loadings and specific variances of a daily-return factor model."""
    rng = np.random.default_rng(seed)
    if kind == "market":
        B = np.empty((n, k))
        B[:, 0] = 0.01 * (1.0 + 0.3 * rng.standard_normal(n))
        B[:, 1:] = 0.004 * rng.standard_normal((n, k - 1))
    else:  # zero-mean loadings: long-short hedges make the minimum-variance support dense
        B = 0.01 * rng.standard_normal((n, k))
    d = 1e-4 * (0.5 + rng.random(n))
    return B, d


def covariance(B, d):
    return B @ B.T + np.diag(d)


def qp_min_variance(S, lo, hi, eqs=(), rhs=()):
    """min w'Sw s.t. sum w = 1, extra equalities, lo <= w <= hi. Returns (polished w, ok)."""
    n = S.shape[0]
    scale = max(float(np.mean(np.diag(S))), 1e-300)
    P = matrix(2.0 * S / scale)
    q = matrix(np.zeros(n))
    G = matrix(np.vstack([-np.eye(n), np.eye(n)]))
    h = matrix(np.concatenate([-lo, hi]))
    rows, vals = [np.ones(n)], [1.0]
    for e, r in zip(eqs, rhs):
        e = np.asarray(e, float)
        k = np.max(np.abs(e)) or 1.0
        rows.append(e / k)
        vals.append(r / k)
    A = np.vstack(rows)
    b = np.array(vals)
    sol = solvers.qp(P, q, G, h, matrix(A), matrix(b))
    w = np.array(sol["x"]).ravel()
    return polish(S, lo, hi, A, b, w)


def polish(S, lo, hi, A, b, w0):
    """Primal active-set iterations from the active set guessed from w0, until the KKT
    conditions hold to 1e-9 (scaled); returns (w, True) or (w0, False)."""
    n = len(w0)
    m = A.shape[0]
    scale = max(float(np.mean(np.diag(S))), 1e-300)
    fixed = hi - lo <= 0
    for tol in (1e-6, 1e-8, 1e-4):
        at_lo = ((w0 <= lo + tol) | fixed).copy()
        at_hi = (w0 >= hi - tol) & ~at_lo
        for _ in range(4 * n + 20):
            free = ~(at_lo | at_hi)
            w = np.where(at_hi, hi, lo).astype(float)
            F = np.where(free)[0]
            K = np.zeros((len(F) + m, len(F) + m))
            K[: len(F), : len(F)] = 2.0 * S[np.ix_(F, F)] / scale
            K[: len(F), len(F):] = -A[:, F].T
            K[len(F):, : len(F)] = A[:, F]
            r = np.concatenate([-2.0 * S[np.ix_(F, ~free)] @ w[~free] / scale, b - A[:, ~free] @ w[~free]])
            sol, *_ = np.linalg.lstsq(K, r, rcond=None)
            w[F] = sol[: len(F)]
            nu = sol[len(F):]
            g = 2.0 * S @ w / scale
            if len(F) == 0 and m == 1:
                # No free variable: any budget multiplier between the bound gradients certifies.
                nu = np.array([np.max(g[at_hi]) if at_hi.any() else np.min(g[at_lo]) if at_lo.any() else 0.0])
            z = g - A.T @ nu
            below = free & (w < lo - 1e-13)
            above = free & (w > hi + 1e-13)
            if below.any() or above.any():
                # Fix the worst bound violation and solve again.
                viol = np.where(below, lo - w, 0) + np.where(above, w - hi, 0)
                i = int(np.argmax(viol))
                if below[i]:
                    at_lo[i] = True
                else:
                    at_hi[i] = True
                continue
            wrong = np.where(at_lo & ~fixed, -z, 0) + np.where(at_hi, z, 0)
            i = int(np.argmax(wrong))
            if wrong[i] > 1e-10:
                at_lo[i] = at_hi[i] = False
                continue
            ok = np.max(np.abs(A @ w - b)) <= 1e-12 and (len(F) == 0 or np.max(np.abs(z[F])) <= 1e-9)
            if ok:
                return np.clip(w, lo, hi), True
            break
    return w0, False


def feasible(w, lo, hi, A, b):
    return np.all(w >= lo - 1e-9) and np.all(w <= hi + 1e-9) and np.max(np.abs(A @ w - b)) <= 1e-9


def solve_min_risk(S, lo, hi):
    w, ok = qp_min_variance(S, lo, hi)
    assert ok, "polish failed"
    return w


# ---------------------------------------------------------------- minimum risk


def qp_cases():
    cases = []

    def add(name, B, d, lo=None, hi=None):
        n = len(d)
        S = covariance(B, d)
        lo_v = np.zeros(n) if lo is None else np.asarray(lo, float)
        hi_v = np.ones(n) if hi is None else np.asarray(hi, float)
        w = solve_min_risk(S, lo_v, hi_v)
        cases.append(
            {
                "name": name,
                "factors": B.tolist(),
                "specific": d.tolist(),
                "lower": None if lo is None else lo_v.tolist(),
                "upper": None if hi is None else hi_v.tolist(),
                "objective": float(w @ S @ w),
                "weights": w.tolist(),
            }
        )

    for n, seed in ((5, 11), (10, 12), (50, 13), (200, 14)):
        B, d = factor_model(n, 4, seed)
        add(f"market n={n} long-only", B, d)
    for n, seed in ((5, 21), (10, 22), (50, 23)):
        B, d = factor_model(n, 4, seed, kind="dense")
        add(f"dense n={n} long-only", B, d)
    B, d = factor_model(5, 3, 31)
    add("n=5 bounds", B, d, lo=[0.05, 0.0, 0.1, 0.0, 0.0], hi=[0.4, 0.3, 0.5, 0.2, 0.6])
    B, d = factor_model(10, 4, 32, kind="dense")
    add("n=10 bounds 0.02..0.25", B, d, lo=[0.02] * 10, hi=[0.25] * 10)
    B, d = factor_model(50, 4, 33)
    lo = np.zeros(50)
    hi = np.full(50, 0.1)
    lo[[3, 17, 40]] = 0.05  # kept assets with a minimum
    hi[[3, 17, 40]] = [0.3, 0.2, 0.15]
    add("n=50 kept assets, others at most 10%", B, d, lo=lo.tolist(), hi=hi.tolist())
    B, d = factor_model(200, 5, 34)
    add("n=200 at most 5%", B, d, hi=[0.05] * 200)
    B, d = factor_model(200, 5, 35, kind="dense")
    add("dense n=200 long-only", B, d)
    # Degenerate inputs.
    B, _ = factor_model(10, 3, 41)
    add("singular n=10 rank 3", B, np.zeros(10))
    B, d = factor_model(5, 3, 42)
    B[3] = B[1]
    d[3] = d[1]
    add("identical assets 1 and 3", B, d)
    B, d = factor_model(5, 3, 43)
    B[4] = 0.0
    d[4] = 0.0
    add("zero-variance asset", B, d)
    add("zero-variance asset capped at 30%", B, d, hi=[1, 1, 1, 1, 0.3])
    add("one asset", np.array([[0.01, 0.002]]), np.array([1e-4]))
    B, _ = factor_model(6, 2, 44)
    add("singular n=6 rank 2 with bounds", B, np.zeros(6), lo=[0.05] * 6, hi=[0.4] * 6)
    return cases


def two_asset_cases():
    cases = []
    for s1, s2, rho, lo, hi in (
        (0.2, 0.3, 0.3, (0, 0), (1, 1)),
        (0.2, 0.3, -0.5, (0, 0), (1, 1)),
        (0.2, 0.25, 0.95, (0, 0), (1, 1)),  # unconstrained w2 < 0: clipped
        (0.15, 0.3, 0.2, (0, 0.3), (1, 1)),
        (0.15, 0.3, 0.2, (0, 0), (0.6, 1)),
        (0.2, 0.2, 1.0, (0, 0), (1, 1)),  # perfectly correlated, equal: any split
    ):
        S = np.array([[s1 * s1, rho * s1 * s2], [rho * s1 * s2, s2 * s2]])
        lo_v, hi_v = np.array(lo, float), np.array(hi, float)
        den = s1 * s1 + s2 * s2 - 2 * rho * s1 * s2
        w1 = 0.5 if den == 0 else (s2 * s2 - rho * s1 * s2) / den
        w1 = min(max(w1, lo_v[0], 1 - hi_v[1]), hi_v[0], 1 - lo_v[1])
        closed = np.array([w1, 1 - w1])
        w = solve_min_risk(S, lo_v, hi_v)
        assert abs(w @ S @ w - closed @ S @ closed) <= 1e-12, (w, closed)
        cases.append(
            {
                "name": f"s1={s1} s2={s2} rho={rho} lo={lo} hi={hi}",
                "sigma1": s1,
                "sigma2": s2,
                "rho": rho,
                "lower": list(lo_v),
                "upper": list(hi_v),
                "closedFormW1": w1,
                "objective": float(closed @ S @ closed),
            }
        )
    return cases


# ---------------------------------------------------------------- frontier


def frontier_cases():
    cases = []
    for n, seed, kind, lo, hi in (
        (5, 51, "market", None, None),
        (10, 52, "dense", None, [0.3] * 10),
        (50, 53, "market", [0.0] * 50, [0.1] * 50),
    ):
        B, d = factor_model(n, 4, seed, kind)
        rng = np.random.default_rng(seed + 1000)
        mu = 0.0003 + 0.0004 * rng.standard_normal(n)
        S = covariance(B, d)
        lo_v = np.zeros(n) if lo is None else np.array(lo, float)
        hi_v = np.ones(n) if hi is None else np.array(hi, float)
        w0 = solve_min_risk(S, lo_v, hi_v)
        r0 = float(mu @ w0)
        # Maximum return: greedy by mu.
        w1 = lo_v.copy()
        rest = 1 - w1.sum()
        for i in np.argsort(-mu, kind="stable"):
            add = min(hi_v[i] - lo_v[i], rest)
            w1[i] += add
            rest -= add
        r1 = float(mu @ w1)
        N = 20
        targets = [r0 + (r1 - r0) * k / (N - 1) for k in range(N)]
        targets[-1] = r1
        objectives, weights = [], []
        for k, t in enumerate(targets):
            if k == 0:
                w = w0
            elif k == N - 1:
                # Distinct expected returns: the maximum-return portfolio is unique (the greedy one).
                assert len(set(mu.tolist())) == n
                w = w1
            else:
                w, ok = qp_min_variance(S, lo_v, hi_v, eqs=[mu], rhs=[t])
                assert ok, ("frontier polish failed", n, k)
            objectives.append(float(w @ S @ w))
            weights.append(w.tolist())
        cases.append(
            {
                "name": f"frontier n={n} {kind}",
                "factors": B.tolist(),
                "specific": d.tolist(),
                "expectedReturns": mu.tolist(),
                "lower": None if lo is None else lo_v.tolist(),
                "upper": None if hi is None else hi_v.tolist(),
                "points": N,
                "targets": targets,
                "objectives": objectives,
                "weights": weights,
            }
        )
    return cases


# ---------------------------------------------------------------- CVaR


def scenarios(n, S, seed):
    rng = np.random.default_rng(seed)
    k = 4
    B = np.empty((n, k))
    B[:, 0] = 1.0 + 0.3 * rng.standard_normal(n)
    B[:, 1:] = 0.4 * rng.standard_normal((n, k - 1))
    vol = np.array([0.01, 0.005, 0.005, 0.005])
    mean = 0.0003 + 0.0004 * rng.standard_normal(n)
    spec = 0.01 + 0.01 * rng.random(n)
    # Fat tails: factor returns from a Student t with 4 degrees of freedom.
    f = rng.standard_t(4, size=(S, k)) * vol / math.sqrt(2)
    R = mean + f @ B.T + rng.standard_normal((S, n)) * spec
    return np.round(R, 6)


def cvar_lp(R, beta, lo, hi, mu=None, cap=None):
    """Rockafellar-Uryasev LP. mu None: min CVaR; else max mu'w s.t. CVaR <= cap."""
    S, n = R.shape
    c_u = 1.0 / ((1 - beta) * S)
    nv = n + 1 + S
    obj = np.zeros(nv)
    if mu is None:
        obj[n] = 1.0
        obj[n + 1:] = c_u
    else:
        obj[:n] = -mu
    A_ub = np.zeros((S + (0 if cap is None else 1), nv))
    A_ub[:S, :n] = -R
    A_ub[:S, n] = -1.0
    A_ub[:S, n + 1:] = -np.eye(S)
    b_ub = np.zeros(A_ub.shape[0])
    if cap is not None:
        A_ub[S, n] = 1.0
        A_ub[S, n + 1:] = c_u
        b_ub[S] = cap
    A_eq = np.zeros((1, nv))
    A_eq[0, :n] = 1.0
    bounds = [(lo[j], hi[j]) for j in range(n)] + [(None, None)] + [(0, None)] * S
    res = linprog(
        obj,
        A_ub=A_ub,
        b_ub=b_ub,
        A_eq=A_eq,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    return res


def historical(R, w, beta):
    loss = -(R @ w)
    srt = np.sort(loss)
    k = min(len(loss), max(1, math.ceil(beta * len(loss) - 1e-9)))
    var = srt[k - 1]
    cvar = var + np.sum(np.maximum(loss - var, 0)) / ((1 - beta) * len(loss))
    return float(var), float(cvar)


def cvar_cases():
    cases = []
    for n, S, seed, lo, hi in (
        (5, 250, 61, None, None),
        (10, 500, 62, [0.05] + [0.0] * 9, [0.3] * 10),
        (20, 1260, 63, None, None),
        (50, 400, 64, None, [0.15] * 50),
    ):
        R = scenarios(n, S, seed)
        beta = 0.95
        lo_v = np.zeros(n) if lo is None else np.array(lo, float)
        hi_v = np.ones(n) if hi is None else np.array(hi, float)
        mu = R.mean(axis=0)
        res = cvar_lp(R, beta, lo_v, hi_v)
        assert res.status == 0, res.message
        w_min = res.x[:n]
        min_cvar = float(res.fun)
        _, hist = historical(R, w_min, beta)
        assert abs(hist - min_cvar) <= 1e-9, (hist, min_cvar)
        # Maximum return vertex and its CVaR: caps between the minimum and that.
        w_max = lo_v.copy()
        rest = 1 - w_max.sum()
        for i in np.argsort(-mu, kind="stable"):
            add = min(hi_v[i] - lo_v[i], rest)
            w_max[i] += add
            rest -= add
        _, cvar_max = historical(R, w_max, beta)
        capped = []
        for frac in (0.1, 0.5, 0.9, 1.2):
            cap = min_cvar + frac * (cvar_max - min_cvar)
            r = cvar_lp(R, beta, lo_v, hi_v, mu=mu, cap=cap)
            assert r.status == 0, r.message
            w = r.x[:n]
            var, cv = historical(R, w, beta)
            assert cv <= cap + 1e-8, (cv, cap)
            capped.append(
                {"cap": cap, "expectedReturn": float(mu @ w), "cvar": cv, "var": var, "weights": w.tolist()}
            )
        cases.append(
            {
                "name": f"cvar n={n} S={S}",
                "scenarios": R.tolist(),
                "confidence": beta,
                "lower": None if lo is None else lo_v.tolist(),
                "upper": None if hi is None else hi_v.tolist(),
                "minimumCvar": min_cvar,
                "minimumCvarWeights": w_min.tolist(),
                "capped": capped,
                "infeasibleCap": min_cvar * 0.98 if min_cvar > 0 else min_cvar - 1e-3,
            }
        )
    return cases


def cvar_random_cases():
    """Small degenerate LPs: ties (returns rounded to 1%), identical and riskless assets, a tail
    of 1 or a fractional number of scenarios, other confidence levels."""
    rng = np.random.default_rng(65)
    cases = []
    while len(cases) < 40:
        n = int(rng.integers(1, 13))
        S = int(rng.choice([7, 20, 33, 50, 101]))
        beta = float(rng.choice([0.95, 0.9, 0.99]))
        R = np.round(rng.standard_normal((S, n)) * 0.02 + 0.001 * rng.standard_normal(n), 5)
        if n > 2 and rng.random() < 0.3:
            R[:, 1] = R[:, 0]
        if n > 3 and rng.random() < 0.3:
            R[:, 2] = 0.0001
        if rng.random() < 0.3:
            R = np.round(R, 2)
        lo, hi = np.zeros(n), np.ones(n)
        if rng.random() < 0.5:
            hi = np.minimum(1, np.maximum(1.0 / n, rng.random(n) * 3 / n))
            if hi.sum() < 1:
                hi[:] = 1
            lo = np.where(rng.random(n) < 0.2, np.minimum(hi, 0.5 / n), 0)
        mu = R.mean(axis=0)
        r1 = cvar_lp(R, beta, lo, hi)
        assert r1.status == 0, r1.message
        min_cvar = float(r1.fun)
        capped = []
        for f in (0.0, 0.3, 1.0):
            cap = min_cvar + f * (abs(min_cvar) * 0.5 + 0.005)
            r2 = cvar_lp(R, beta, lo, hi, mu=mu, cap=cap)
            assert r2.status == 0, r2.message
            w = r2.x[:n]
            var, cv = historical(R, w, beta)
            capped.append({"cap": cap, "expectedReturn": float(mu @ w), "cvar": cv, "var": var})
        cases.append(
            {
                "name": f"random {len(cases)}: n={n} S={S} beta={beta}",
                "scenarios": R.tolist(),
                "confidence": beta,
                "lower": lo.tolist(),
                "upper": hi.tolist(),
                "minimumCvar": min_cvar,
                "capped": capped,
            }
        )
    return cases


# ---------------------------------------------------------------- cardinality


def cardinality_cases():
    cases = []

    def brute(S, K, mode, lo, hi, keep, min_holding, group=None, group_max=None):
        n = S.shape[0]
        lo_held = np.maximum(lo, min_holding if mode == "exactly" else 0.0)
        best, best_w, best_set = math.inf, None, None
        sizes = [K] if mode == "exactly" else range(1, K + 1)
        for k in sizes:
            for T in itertools.combinations(range(n), k):
                if not set(keep) <= set(T):
                    continue
                if group is not None and len(set(T) & set(group)) > group_max:
                    continue
                T = list(T)
                l, h = lo_held[T], hi[T]
                if l.sum() > 1 + 1e-12 or h.sum() < 1 - 1e-12:
                    continue
                w_T, ok = qp_min_variance(S[np.ix_(T, T)], l, h)
                assert ok
                v = float(w_T @ S[np.ix_(T, T)] @ w_T)
                if v < best - 1e-15:
                    best, best_set = v, T
                    best_w = np.zeros(n)
                    best_w[T] = w_T
        return best, best_w, best_set

    specs = [
        ("n=8 K=2 at most", 8, 2, "atMost", 71, "market", None, None, [], None, None),
        ("n=10 K=3 exactly", 10, 3, "exactly", 72, "market", None, None, [], None, None),
        ("dense n=12 K=3 at most", 12, 3, "atMost", 73, "dense", None, None, [], None, None),
        (
            "n=12 K=4 at most, min 5% max 50%, asset 0 kept within 10-40%",
            12, 4, "atMost", 74, "market",
            [0.1] + [0.05] * 11, [0.4] + [0.5] * 11, [0], None, None,
        ),
        ("n=12 K=4 exactly, assets 2 and 5 kept", 12, 4, "exactly", 75, "dense", None, None, [2, 5], None, None),
        (
            "new assets: universe 10, current 0-4, at most 2 new, at most 5 held, asset 1 kept 10-50%",
            10, 5, "atMost", 76, "market",
            [0, 0.1] + [0] * 8, [1, 0.5] + [1] * 8, [1], list(range(5, 10)), 2,
        ),
    ]
    for name, n, K, mode, seed, kind, lo, hi, keep, group, group_max in specs:
        B, d = factor_model(n, 4, seed, kind)
        S = covariance(B, d)
        lo_v = np.zeros(n) if lo is None else np.array(lo, float)
        hi_v = np.ones(n) if hi is None else np.array(hi, float)
        min_holding = 1.0 / (10 * K) if mode == "exactly" else 0.0
        v, w, T = brute(S, K, mode, lo_v, hi_v, keep, min_holding, group, group_max)
        assert w is not None
        cases.append(
            {
                "name": name,
                "factors": B.tolist(),
                "specific": d.tolist(),
                "maxAssets": K,
                "mode": mode,
                "lower": None if lo is None else lo_v.tolist(),
                "upper": None if hi is None else hi_v.tolist(),
                "keep": keep,
                "minHolding": min_holding,
                "group": None if group is None else {"members": group, "max": group_max},
                "objective": v,
                "weights": w.tolist(),
                "held": T,
            }
        )
    return cases


def main():
    data = {
        "generator": "scripts/reference/optimize.py",
        "solvers": {
            "qp": f"cvxopt {cvxopt.__version__} solvers.qp + KKT polish (numpy {np.__version__})",
            "lp": "scipy.optimize.linprog method=highs",
            "cardinality": "brute-force enumeration of subsets",
        },
        "minimumRisk": qp_cases(),
        "twoAsset": two_asset_cases(),
        "frontier": frontier_cases(),
        "cvar": cvar_cases(),
        "cvarRandom": cvar_random_cases(),
        "cardinality": cardinality_cases(),
    }
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.normpath(OUT), os.path.getsize(OUT), "bytes")


if __name__ == "__main__":
    main()
