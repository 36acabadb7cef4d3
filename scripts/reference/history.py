"""Reference figures for the holdings' past (src/engine/history, tests/engine/history*.test.ts).

Generates a seeded, deterministic fixture with numpy (8 assets in three sectors, 1,400 weekday
returns from 2015-07-15, so the first and last calendar years are partial; a fall at the end that
does not recover; a benchmark that starts 300 days later; five what-if factor level series, one of
them starting inside the regression window), computes every figure independently of the
TypeScript with numpy and scipy, and writes tests/engine/reference/history.json (inputs rounded
to 10 decimals, so the JSON holds exactly what the figures were computed from, and outputs).

  - portfolio returns R @ w (today's weights every day), growth by np.cumprod;
  - calendar years grouped by the year of the day each return ends on, np.prod; partial when the
    year's first close is inside the year or the history ends before the year's last weekday;
  - rolling 252-day return np.prod and volatility np.std(ddof=1) * sqrt(252) over
    sliding_window_view;
  - underwater V / np.maximum.accumulate(V) - 1; falls = maximal runs below 0, trough np.argmin;
  - np.corrcoef over the analysis window (756 days); scipy.cluster.hierarchy.linkage(method=
    "average") on squareform(1 - corr) and leaves_list;
  - OLS of weekly (5-day, counted back from the last) portfolio returns on the factors' weekly
    changes with an intercept, np.linalg.lstsq, standard errors sqrt(diag(s^2 inv(X'X))).

Run: python3 scripts/reference/history.py (numpy 2.4 and scipy 1.17 were used). The JSON stays on
one line (tests/engine/reference is outside prettier, like optimize.json).
"""
import datetime as dt
import json
import math
import os

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from scipy.cluster.hierarchy import leaves_list, linkage
from scipy.spatial.distance import squareform

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "engine", "reference", "history.json")
YEAR = 252
EPOCH = dt.date(1970, 1, 1)
rng = np.random.default_rng(20261127)

# ---------------------------------------------------------------- inputs
N, T = 8, 1400
WINDOW = 756  # benchmark 5: the analysis window
ROLLING = 252
REGRESSION = 1260
BENCH_START = 300
CRYPTO_START = 600  # the crypto factor's first level: after the regression window starts

start = np.datetime64("2015-07-15")
days = np.arange(start, start + np.timedelta64(3 * T, "D"), dtype="datetime64[D]")
DATES = days[np.is_busday(days)][: T + 1]
DAYNUM = DATES.astype(int)  # days since 1970-01-01, as the engine's day numbers

mkt = 0.0004 + 0.009 * rng.standard_normal(T)
mkt[400:460] -= 0.006  # a fall the portfolio recovers from
mkt[1280:1360] -= 0.005  # a fall at the end it does not recover from
mkt[1360:] += 0.001
sectors = 0.005 * rng.standard_normal((T, 3))
SECTOR = np.array([0, 1, 2, 0, 1, 2, 0, 1])  # related assets are not next to each other
beta = rng.uniform(0.4, 1.4, N)
load = rng.uniform(0.5, 1.2, N)
idio = rng.uniform(0.004, 0.012, N)
R = 0.0001 + mkt[:, None] * beta + sectors[:, SECTOR] * load + idio * rng.standard_normal((T, N))
R = np.round(R, 10)
AMOUNTS = np.round(rng.uniform(500, 3000, N), 2)
W = AMOUNTS / AMOUNTS.sum()
TOTAL = float(AMOUNTS.sum())

BENCH = np.round(0.0002 + mkt[BENCH_START:] + 0.003 * rng.standard_normal(T - BENCH_START), 10)

# Factor levels on the calendar (return factors: an index; level factors: a rate in points).
fchg = {
    "market": mkt + 0.002 * rng.standard_normal(T),
    "rates": 0.05 * rng.standard_normal(T),
    "crypto": 0.04 * rng.standard_normal(T),
    "commodities": 0.015 * rng.standard_normal(T),
}
LEVELS = {
    "market": np.round(1000 * np.concatenate([[1.0], np.cumprod(1 + fchg["market"])]), 10),
    "rates": np.round(2 + np.concatenate([[0.0], np.cumsum(fchg["rates"])]), 10),
    "crypto": np.round(500 * np.concatenate([[1.0], np.cumprod(1 + fchg["crypto"])]), 10)[CRYPTO_START:],
    "commodities": np.round(80 * np.concatenate([[1.0], np.cumprod(1 + fchg["commodities"])]), 10),
}
LEVEL_DATES = {f: DAYNUM if f != "crypto" else DAYNUM[CRYPTO_START:] for f in LEVELS}
# Inflation: a monthly series dated on the first of each month, from the month before the start.
months = np.arange(np.datetime64("2015-06"), np.datetime64("2021-12"), dtype="datetime64[M]")
INFL_DATES = months.astype("datetime64[D]").astype(int)
INFL = np.round(1.5 + np.cumsum(0.15 * rng.standard_normal(len(months))), 10)
LEVELS["inflation"] = INFL
LEVEL_DATES["inflation"] = INFL_DATES
FACTORS = ["market", "rates", "crypto", "commodities", "inflation"]
KIND = {"market": "return", "rates": "level", "crypto": "return", "commodities": "return", "inflation": "level"}


# ---------------------------------------------------------------- figures
def growth(r, v0):
    return np.cumprod(np.concatenate([[v0], 1 + r]))


def year_of(d):
    return (EPOCH + dt.timedelta(days=int(d))).year


def last_weekday(year):
    d = dt.date(year, 12, 31)
    while d.weekday() >= 5:
        d -= dt.timedelta(days=1)
    return (d - EPOCH).days


def calendar_years(dates, r):
    ends = np.array([year_of(d) for d in dates[1:]])
    rows = []
    for y in sorted(set(ends)):
        idx = np.nonzero(ends == y)[0]
        first, last = int(idx[0]), int(idx[-1])
        partial = year_of(dates[first]) == y or (last == len(r) - 1 and dates[-1] < last_weekday(y))
        rows.append({"year": int(y), "first": first, "last": last, "return": float(np.prod(1 + r[idx]) - 1),
                     "partial": bool(partial)})
    return rows


def rolling(r, w=ROLLING):
    if len(r) < w:
        return {"returns": [], "volatility": []}
    win = sliding_window_view(r, w)
    return {"returns": (np.prod(1 + win, axis=1) - 1).tolist(),
            "volatility": (np.std(win, axis=1, ddof=1) * math.sqrt(YEAR)).tolist()}


def underwater(v):
    return v / np.maximum.accumulate(v) - 1


def drawdowns(v):
    """Every fall: a maximal run of days below the previous high."""
    dd = underwater(v)
    below = dd < 0
    out = []
    t = 0
    while t < len(v):
        if not below[t]:
            t += 1
            continue
        s = t
        while t < len(v) and below[t]:
            t += 1
        trough = s + int(np.argmin(dd[s:t]))
        recovery = t if t < len(v) else None
        peak = s - 1
        out.append({"peak": peak, "trough": trough, "recovery": recovery, "depth": float(-dd[trough]),
                    "length": (recovery if recovery is not None else len(v) - 1) - peak,
                    "toTrough": trough - peak, "toRecovery": None if recovery is None else recovery - trough})
    return out


def worst(v, count=5):
    eps = drawdowns(v)
    return sorted(eps, key=lambda e: (-e["depth"], e["peak"]))[:count]


def correlation(r):
    c = np.corrcoef(r, rowvar=False)
    n = c.shape[0]
    z = linkage(squareform(1 - c, checks=False), method="average")
    return {"matrix": c.flatten().tolist(), "average": ((c.sum(axis=1) - 1) / (n - 1)).tolist(),
            "merges": z.flatten().tolist(), "order": leaves_list(z).tolist()}


def on_calendar(level_dates, levels, calendar):
    """The level on or before each calendar day (carried forward)."""
    k = np.searchsorted(level_dates, calendar, side="right") - 1
    assert (k >= 0).all()
    return levels[k]


def factor_changes(names, calendar):
    cols = []
    for f in names:
        v = on_calendar(LEVEL_DATES[f], LEVELS[f], calendar)
        cols.append(v[1:] / v[:-1] - 1 if KIND[f] == "return" else v[1:] - v[:-1])
    return np.column_stack(cols)


def regression(y_daily, fac, names, period=5):
    t = len(y_daily)
    p = t // period
    skip = t - p * period
    blocks = [slice(skip + q * period, skip + (q + 1) * period) for q in range(p)]
    y = np.array([np.prod(1 + y_daily[b]) - 1 for b in blocks])
    x = np.column_stack([
        np.array([np.prod(1 + fac[b, j]) - 1 if KIND[names[j]] == "return" else fac[b, j].sum() for b in blocks])
        for j in range(len(names))
    ])
    keep = [j for j in range(len(names)) if np.var(x[:, j]) > 0]
    x = x[:, keep]
    k = len(keep)
    design = np.column_stack([np.ones(p), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ coef
    ssr = float(resid @ resid)
    sst = float(((y - y.mean()) ** 2).sum())
    dof = p - k - 1
    s2 = ssr / dof
    se = np.sqrt(np.diag(s2 * np.linalg.inv(design.T @ design)))
    return {
        "factors": [names[j] for j in keep],
        "alpha": float(coef[0]), "alphaStandardError": float(se[0]),
        "betas": coef[1:].tolist(), "standardErrors": se[1:].tolist(),
        "rSquared": 1 - ssr / sst, "adjustedRSquared": 1 - ssr / sst * (p - 1) / dof,
        "residualStandardError": math.sqrt(s2), "periods": p, "degreesOfFreedom": dof,
    }


def main():
    """Computes the figures on the fixture and writes OUT."""
    RP = R @ W
    V = growth(RP, TOTAL)
    B = growth(BENCH, V[BENCH_START])
    W0 = T - WINDOW
    VW = growth(RP[W0:], TOTAL)
    BW = growth(BENCH[W0 - BENCH_START:], VW[0])  # the benchmark covers the window

    years = calendar_years(DAYNUM, RP)
    byears = {row["first"] + BENCH_START: row for row in calendar_years(DAYNUM[BENCH_START:], BENCH)}
    for row in years:
        b = byears.get(row["first"])
        row["benchmark"] = b["return"] if b and b["year"] == row["year"] else None
        row["difference"] = None if row["benchmark"] is None else row["return"] - row["benchmark"]


    def shifted(eps, s):
        return [{**e, "peak": e["peak"] + s, "trough": e["trough"] + s,
                 "recovery": None if e["recovery"] is None else e["recovery"] + s} for e in eps]


    REG_FROM = T - REGRESSION
    window_dates = DAYNUM[REG_FROM:]
    usable = [f for f in FACTORS if LEVEL_DATES[f][0] <= window_dates[0]]
    REG = regression(RP[REG_FROM:], factor_changes(usable, window_dates), usable)
    REG["excluded"] = [f for f in usable if f not in REG["factors"]] + [f for f in FACTORS if f not in usable]
    # Every factor over the whole history (crypto from its first level on), for factorRegression alone.
    ALL_FROM = CRYPTO_START
    REG_ALL = regression(RP[ALL_FROM:], factor_changes(FACTORS, DAYNUM[ALL_FROM:]), FACTORS)

    ref = {
        "inputs": {
            "assets": N,
            "observations": T,
            "dates": DAYNUM.tolist(),
            "returns": R.flatten().tolist(),
            "amounts": AMOUNTS.tolist(),
            "windowDays": WINDOW,
            "benchmark": {"start": BENCH_START, "returns": BENCH.tolist()},
            "factors": [{"factor": f, "dates": LEVEL_DATES[f].tolist(), "values": LEVELS[f].tolist()} for f in FACTORS],
            "regressionDays": REGRESSION,
            "allFactorsFrom": ALL_FROM,
        },
        "portfolioReturns": RP.tolist(),
        "growth": {"portfolio": V.tolist(), "benchmark": B.tolist(), "windowPortfolio": VW.tolist(),
                   "windowBenchmark": BW.tolist()},
        "calendarYears": years,
        "rolling": {"portfolio": rolling(RP), "benchmark": rolling(BENCH)},
        "drawdowns": {
            "portfolio": {"underwater": underwater(V).tolist(), "worst": worst(V), "all": drawdowns(V)},
            "benchmark": {"underwater": underwater(B).tolist(), "worst": shifted(worst(B), BENCH_START)},
        },
        "correlation": correlation(R[W0:]),
        "regression": REG,
        "regressionAllFactors": REG_ALL,
    }
    with open(OUT, "w") as fh:
        json.dump(ref, fh)
        fh.write("\n")
    mdd = ref["drawdowns"]["portfolio"]["worst"]
    print(f"wrote {os.path.relpath(OUT)}: {len(years)} years ({sum(r['partial'] for r in years)} partial), "
          f"worst falls {[round(e['depth'], 4) for e in mdd]} (last recovered: {mdd[0]['recovery']}), "
          f"order {ref['correlation']['order']}, R2 {REG['rSquared']:.4f}, factors {REG['factors']} "
          f"excluded {REG['excluded']}")


if __name__ == "__main__":
    main()
