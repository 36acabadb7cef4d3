"""Reference figures for the risk engine (tests/engine/risk-reference.test.ts).

Generates seeded inputs with numpy, computes every figure independently with numpy/scipy, and
writes tests/engine/reference/risk.json (inputs and outputs). Run: python3 scripts/reference/risk.py

Conventions shared with docs/analytics.md: simple daily returns, 21-day horizon, 95% confidence,
quantiles with numpy's default method ("linear", Hyndman-Fan type 7), sample covariance with
divisor T - 1, Ledoit-Wolf as in the paper (divisor T).
"""
import json
import math
import os
import sys

import numpy as np
from scipy.stats import norm

sys.path.insert(0, os.path.dirname(__file__))
from jsrandom import JsRandom  # noqa: E402
from refmath import (  # noqa: E402
    YEAR, components, currency, diversification, ewma_cov, expected, historical, ledoit_wolf_cc,
    monte_carlo, parametric, perf, required, run_backtest, sample_cov, sensitivities,
)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "engine", "reference", "risk.json")
rng = np.random.default_rng(20261121)


def factor_panel(n, t, fat=True):
    """Returns with a market factor, two sectors and Student-t idiosyncratic noise."""
    m = 0.0003 + 0.01 * rng.standard_normal(t)
    sec = 0.006 * rng.standard_normal((t, 2))
    beta = rng.uniform(0.5, 1.5, n)
    load = rng.uniform(0.3, 1.0, n)
    idio = rng.uniform(0.008, 0.02, n)
    noise = rng.standard_t(5, (t, n)) * math.sqrt(3 / 5) if fat else rng.standard_normal((t, n))
    r = 0.0002 + m[:, None] * beta + sec[:, np.arange(n) % 2] * load + noise * idio
    # Rounded so that the JSON holds the exact inputs every figure was computed from.
    return np.round(r, 10), np.round(m, 10)


# ---------------------------------------------------------------- inputs
N, T = 8, 600
R, MKT = factor_panel(N, T)
FX = np.round(0.005 * rng.standard_normal(T), 10)
FOREIGN = np.array([1, 0, 1, 0, 0, 1, 0, 0], dtype=np.uint8)
R = np.round(np.where(FOREIGN[None, :] == 1, (1 + R) * (1 + FX[:, None]) - 1, R), 10)
W = np.round(rng.dirichlet(np.ones(N)), 12)
W[-1] = 1 - W[:-1].sum()
SMALL, _ = factor_panel(30, 40)  # 30 assets, 40 observations: heavy shrinkage
SHORT = R[-200:]  # a window too short for overlapping 21-day windows


LW, DELTA = ledoit_wolf_cc(R)
LW_SMALL, DELTA_SMALL = ledoit_wolf_cc(SMALL)


# ---------------------------------------------------------------- backtest
DATES = np.arange(np.datetime64("2019-01-02"), np.datetime64("2022-06-01"), dtype="datetime64[D]")
DATES = DATES[np.is_busday(DATES)][: T + 1]
MONTHS = DATES.astype("datetime64[M]").astype(int)
v_none, d_none = run_backtest(R, W)
v_month, d_month = run_backtest(R, W, months_of_dates=MONTHS)
v_count, d_count = run_backtest(R, W, every=63)
bench = MKT
bench_v = np.concatenate([[1.0], np.cumprod(1 + bench)])


# ---------------------------------------------------------------- what-if sensitivities
FN = ["market", "rates", "crypto", "commodities", "inflation"]
FAC = np.round(np.column_stack([
    MKT,
    0.06 * rng.standard_normal(T),
    0.035 * rng.standard_normal(T),
    0.015 * rng.standard_normal(T),
    np.where(np.arange(T) % 21 == 20, 0.15 * rng.standard_normal(T), 0.0),
]), 10)


SENS = sensitivities(R, FAC, ["return", "level", "return", "return", "level"])
AMOUNTS = (W * 10000).tolist()
SHOCK = {"dRV": -0.2, "dRF": 1.0, "dMMPP": 0.1}
beta_mat = np.array(SENS["betas"]).reshape(N, 5)
shock_vec = np.array([-0.2, 1.0, 0.0, 0.1, 0.0])
shock_ret = np.maximum(-1, beta_mat @ shock_vec)


# ---------------------------------------------------------------- simulator (engine's random numbers)
def simulate(daily, initial, contribution, months, paths, seed):
    lg = np.log1p(daily)
    m = 21 * lg.mean()
    s = math.sqrt(21) * lg.std(ddof=1)
    rnd = JsRandom(seed)
    v = np.full(paths, float(initial))
    out = [[initial] * 5]
    for _ in range(months):
        z = np.array([rnd.normal() for _ in range(paths)])
        v = v * np.exp(m + s * z) + contribution
        out.append(np.percentile(v, [5, 25, 50, 75, 95]).tolist())
    return {"monthlyLogMean": m, "monthlyLogVolatility": s, "percentiles": np.array(out).T.tolist()}


RP = R @ W
SIM = simulate(RP, 10000, 200, 24, 500, 11)


def replay(daily, initial, contribution, months):
    h = min(months, len(daily) // 21)
    start = len(daily) - h * 21
    v = [initial]
    for k in range(h):
        g = np.prod(1 + daily[start + k * 21: start + (k + 1) * 21])
        v.append(v[-1] * g + contribution)
    return v


# ---------------------------------------------------------------- quantiles and normal
PS = [1e-10, 0.001, 0.01, 0.025, 0.05, 0.3, 0.5, 0.8, 0.95, 0.975, 0.99, 0.999999]
QX = np.round(rng.standard_normal(37), 10)
QP = [0, 0.05, 0.1, 0.25, 0.5, 0.9, 0.95, 1]

# ---------------------------------------------------------------- monitoring (buy-and-hold path)
def monitor(v, window=63):
    d = np.concatenate([[0.0], v[1:] / v[:-1] - 1])
    g = v / v[0]
    t = np.arange(len(v))
    ann = np.where(t >= 21, g ** (YEAR / np.maximum(t, 1)) - 1, g - 1)
    vol = np.array([np.std(d[k - min(k, window) + 1: k + 1], ddof=1) * math.sqrt(YEAR) if min(k, window) >= 2 else 0.0
                    for k in t])
    return {"return": (g - 1).tolist(), "annualizedReturn": ann.tolist(), "volatility": vol.tolist(),
            "riskReturn": np.where(vol > 0, ann / np.where(vol > 0, vol, 1), 0).tolist()}


MON = monitor(v_none[:300])

means = R.mean(axis=0)
ref = {
    "inputs": {
        "assets": N,
        "observations": T,
        "returns": R.flatten().tolist(),
        "weights": W.tolist(),
        "fxReturns": FX.tolist(),
        "foreign": FOREIGN.tolist(),
        "market": MKT.tolist(),
        "small": {"assets": 30, "observations": 40, "returns": SMALL.flatten().tolist()},
        "dates": (DATES.astype("datetime64[D]").astype(int)).tolist(),
        "factors": FN,
        "factorChanges": FAC.flatten().tolist(),
        "amounts": AMOUNTS,
        "shocks": SHOCK,
        "quantileValues": QX.tolist(),
        "quantileProbabilities": QP,
        "normalProbabilities": PS,
    },
    "normal": {"quantiles": norm.ppf(PS).tolist(), "pdf": norm.pdf([0, 1, -1.6448536269514722, 2.5]).tolist()},
    "quantiles": np.quantile(QX, QP).tolist(),
    "covariance": {
        "sample": sample_cov(R).flatten().tolist(),
        "ewma": ewma_cov(R).flatten().tolist(),
        "ledoitWolf": LW.flatten().tolist(),
        "shrinkage": DELTA,
        "ledoitWolfSmall": LW_SMALL.flatten().tolist(),
        "shrinkageSmall": DELTA_SMALL,
    },
    "volatility": {"sample": math.sqrt(W @ sample_cov(R) @ W), "ledoitWolf": math.sqrt(W @ LW @ W)},
    "parametric": {"zero": parametric(LW, W), "sample": parametric(LW, W, means)},
    "historical": {"overlapping": historical(R, W), "short": historical(SHORT, W)},
    "monteCarlo": {"paths": 2000, "seed": 5, **monte_carlo(LW, W, 2000, 5)},
    "components": components(LW, W),
    "diversification": diversification(LW, W),
    "currency": currency(R, W, FX, FOREIGN),
    "expected": expected(R, LW),
    "required": required(LW, W),
    "backtest": {
        "every": 50,
        "none": {"values": v_none[::50].tolist(), "performance": perf(d_none)},
        "monthly": {"values": v_month[::50].tolist(), "performance": perf(d_month)},
        "every63": {"values": v_count[::50].tolist(), "performance": perf(d_count)},
        "benchmark": {"values": bench_v[::50].tolist(), "performance": perf(bench),
                      "trackingError": float(np.std(d_none - bench, ddof=1) * math.sqrt(YEAR))},
    },
    "sensitivities": SENS,
    "shock": {"assetReturns": shock_ret.tolist(), "totalChange": float(np.array(AMOUNTS) @ shock_ret)},
    "monitoring": MON,
    "simulation": {"initialAmount": 10000, "monthlyContribution": 200, "months": 24, "paths": 500, "seed": 11, **SIM,
                   "historical": replay(RP, 10000, 200, 24)},
}
with open(OUT, "w") as fh:
    json.dump(ref, fh)
    fh.write("\n")
print(f"wrote {os.path.relpath(OUT)}: shrinkage {DELTA:.4f} (small {DELTA_SMALL:.4f}), "
      f"parametric VaR {ref['parametric']['zero']['var']:.5f}, MC VaR {ref['monteCarlo']['var']:.5f}, "
      f"historical VaR {ref['historical']['overlapping']['var']:.5f}")
