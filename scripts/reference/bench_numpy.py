"""The numpy side of `npm run bench:numpy` (scripts/bench.ts --numpy): times the numpy reference of
one benchmark case on the very inputs the TypeScript case used, written by bench.ts to a folder:
case.json (task, shape, runs, arrays) and one little-endian float64 file per array.

  python3 bench_numpy.py --info      BLAS, its kernel and threads (threadpoolctl, else show_config)
  python3 bench_numpy.py DIR         {"median": ms, "min": ms, "max": ms, "check": number}

Tasks (figures as in refmath.py, docs/analytics.md):
  cov       np.cov of the panel (refmath.sample_cov)
  lw        Ledoit-Wolf towards constant correlation (refmath.ledoit_wolf_cc)
  full      the full analysis's risk figures on the last `window` days: Ledoit-Wolf covariance,
            parametric and historical VaR/CVaR, component risk, diversification
  full-all  the same plus every other figure analysePortfolio returns: the Cholesky factor,
            expected returns (CAPM prior, Bayes-Stein), required returns, currency risk
  history   the holdings' past without the regression (scripts/reference/history.py's functions):
            growth of the portfolio and the benchmark, calendar years, rolling 252-day return and
            volatility, underwater series and worst falls of both, np.corrcoef of the last `window`
            days with SciPy's average linkage and leaf order
  lw-same-algebra, full-same-algebra
            lw and full-all with Ledoit-Wolf computed by the engine's algebra (one X'X product and
            sums over days): how much of the difference is the algorithm, how much the BLAS
`check` is one figure of the result, compared by bench.ts with its own to show the inputs match.
"""
import io
import json
import math
import os
import sys
import time
from contextlib import redirect_stdout

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refmath import (  # noqa: E402
    YEAR,
    components,
    currency,
    diversification,
    historical,
    ledoit_wolf_cc,
    parametric,
    required,
    sample_cov,
)


def blas_info():
    try:
        from threadpoolctl import threadpool_info

        pools = [p for p in threadpool_info() if p.get("user_api") == "blas"]
        if pools:
            return ", ".join(
                f"{p['internal_api']} {p.get('version')} kernel {p.get('architecture')} "
                f"{p['num_threads']} threads ({p.get('threading_layer')})"
                for p in pools
            )
    except ImportError:
        pass
    buf = io.StringIO()
    with redirect_stdout(buf):
        np.show_config()
    lines = [ln.strip() for ln in buf.getvalue().splitlines() if "blas" in ln.lower() or "name" in ln.lower()]
    return "numpy.show_config: " + "; ".join(lines[:6])


def ledoit_wolf_cc_same_algebra(r):
    """refmath.ledoit_wolf_cc with the engine's algebra (docs/analytics.md, "Covariance"): one
    product X'X, pi and theta as sums over days instead of the products (X^2)'(X^2) and (X^3)'X."""
    t, n = r.shape
    x = r - r.mean(axis=0)
    s = x.T @ x / t
    var = np.diag(s).copy()
    sd = np.sqrt(var)
    valid = var > 0
    sdv = np.where(valid, sd, 0.0)
    inv = np.divide(1.0, sd, out=np.zeros(n), where=valid)
    x2 = x * x
    pi_hat = float((x2.sum(axis=1) ** 2).sum()) / t - float((s * s).sum())
    rho_diag = float(((x2 * x2).sum(axis=0) / t - var**2).sum())
    u = x @ sdv
    theta = float(((x2 * x * inv) * (u[:, None] - x * sdv)).sum()) / t - float(
        sdv @ s @ sdv - (sdv**2 * var).sum()
    )
    m = int(valid.sum())
    corr = s * np.outer(inv, inv)
    rbar = (float(corr.sum()) - m) / (m * (m - 1)) if m > 1 else 0.0
    f = rbar * np.outer(sd, sd)
    np.fill_diagonal(f, var)
    gamma = float(((f - s) ** 2).sum())
    rho = rho_diag + rbar * theta
    delta = max(0.0, min(1.0, (pi_hat - rho) / gamma / t)) if gamma > 0 else 0.0
    return delta * f + (1 - delta) * s, delta


def expected_vec(r, chol, market, rf=0.02, erp=0.05):
    """refmath.expected with the given market series, betas computed for all assets at once."""
    t, n = r.shape
    mu = r.mean(axis=0)
    dm = market - market.mean()
    beta = (r - mu).T @ dm / (dm @ dm)
    eq = rf + beta * erp
    d = mu - eq / YEAR
    y = np.linalg.solve(chol, d)  # L y = d, so d' Sigma^-1 d = y'y
    s = (n + 2) / (n + 2 + t * max(0.0, float(y @ y)))
    return (1 - s) * mu * YEAR + s * eq


def full(r, w, fx, foreign, market, everything, same_algebra=False):
    cov, delta = (ledoit_wolf_cc_same_algebra if same_algebra else ledoit_wolf_cc)(r)
    out = {
        "parametric": parametric(cov, w),
        "historical": historical(r, w),
        "components": components(cov, w),
        "diversification": diversification(cov, w),
    }
    if everything:
        chol = np.linalg.cholesky(cov)
        out["expected"] = expected_vec(r, chol, market)
        out["required"] = required(cov, w)
        out["currency"] = currency(r, w, fx, foreign)
    return out


def history(panel, amounts, dates, bench, window):
    """The history figures of scripts/reference/history.py (imported only for this task: SciPy)."""
    from history import calendar_years, correlation, growth, rolling, underwater, worst

    rp = panel @ (amounts / amounts.sum())
    v = growth(rp, float(amounts.sum()))
    b = growth(bench, float(amounts.sum()))
    falls = worst(v)
    return {
        "years": calendar_years(dates.astype(np.int64), rp),
        "rolling": [rolling(rp), rolling(bench)],
        "underwater": [underwater(v), underwater(b)],
        "worst": [falls, worst(b)],
        "correlation": correlation(panel[-window:]),
        "maxDrawdown": falls[0]["depth"] if falls else 0.0,
    }


def main():
    if sys.argv[1] == "--info":
        print(json.dumps({"numpy": np.__version__, "blas": blas_info()}))
        return
    folder = sys.argv[1]
    with open(os.path.join(folder, "case.json")) as f:
        spec = json.load(f)
    arrays = {
        name: np.fromfile(os.path.join(folder, name + ".f64"), dtype="<f8") for name in spec["arrays"]
    }
    n, t = spec["assets"], spec["days"]
    panel = arrays["panel"].reshape(t, n)
    task = spec["task"]
    if task == "cov":
        fn = lambda: sample_cov(panel)  # noqa: E731
        check = lambda res: float(res.sum())  # noqa: E731
    elif task in ("lw", "lw-same-algebra"):
        lw = ledoit_wolf_cc if task == "lw" else ledoit_wolf_cc_same_algebra
        fn = lambda: lw(panel)  # noqa: E731
        check = lambda res: float(res[1])  # noqa: E731
    elif task in ("full", "full-all", "full-same-algebra"):
        window = spec["window"]
        amounts = arrays["amounts"]
        w = amounts / amounts.sum()
        r = panel[-window:]
        fx = arrays["fx"][-window:]
        foreign = arrays["foreign"]
        market = arrays["market"][-window:]
        fn = lambda: full(r, w, fx, foreign, market, task != "full", task == "full-same-algebra")  # noqa: E731
        check = lambda res: float(res["parametric"]["var"])  # noqa: E731
    elif task == "history":
        fn = lambda: history(panel, arrays["amounts"], arrays["dates"], arrays["benchmark"], spec["window"])  # noqa: E731
        check = lambda res: res["maxDrawdown"]  # noqa: E731
    else:
        raise SystemExit(f"unknown task {task}")
    result = fn()  # warm-up, as bench.ts does
    times = []
    for _ in range(spec["runs"]):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    print(
        json.dumps(
            {"median": times[len(times) // 2], "min": times[0], "max": times[-1], "check": check(result)}
        )
    )


if __name__ == "__main__":
    main()
