"""Figures of the risk engine computed with numpy/scipy, written independently of the TypeScript
(shared by risk.py, market_data.py). Conventions: docs/analytics.md."""
import math

import numpy as np
from scipy.stats import norm

from jsrandom import JsRandom

H = 21
C = 0.95
YEAR = 252


# ---------------------------------------------------------------- covariance
def sample_cov(r):
    return np.cov(r, rowvar=False, ddof=1)


def ewma_cov(r, lam=0.94):
    t = r.shape[0]
    k = np.arange(t)[::-1]  # 0 for the last observation
    w = (1 - lam) * lam**k / (1 - lam**t)
    return (r * w[:, None]).T @ r


def ledoit_wolf_cc(r):
    """Ledoit & Wolf (2004), 'Honey, I shrunk the sample covariance matrix', as in covCor.m."""
    t, n = r.shape
    x = r - r.mean(axis=0)
    s = x.T @ x / t
    var = np.diag(s).copy()
    sd = np.sqrt(var)
    corr = s / np.outer(sd, sd)
    rbar = (corr.sum() - n) / (n * (n - 1))
    f = rbar * np.outer(sd, sd)
    np.fill_diagonal(f, var)
    pi_mat = (x**2).T @ (x**2) / t - s**2
    pi_hat = pi_mat.sum()
    theta = (x**3).T @ x / t - var[:, None] * s  # theta[i, j] = theta_ii,ij
    ratio = np.outer(1 / sd, sd)  # [i, j] = sqrt(s_jj / s_ii)
    term = ratio * theta + ratio.T * theta.T
    np.fill_diagonal(term, 0)
    rho = np.trace(pi_mat) + rbar / 2 * term.sum()
    gamma = ((f - s) ** 2).sum()
    delta = max(0.0, min(1.0, (pi_hat - rho) / gamma / t))
    return delta * f + (1 - delta) * s, delta


# ---------------------------------------------------------------- risk
def parametric(cov, w, means=None):
    sigma = math.sqrt(w @ cov @ w) * math.sqrt(H)
    drift = 0.0 if means is None else float(w @ means) * H
    z = norm.ppf(C)
    return {"var": z * sigma - drift, "cvar": sigma * norm.pdf(z) / (1 - C) - drift}


def tail(x):
    q = np.quantile(x, 1 - C)  # method="linear"
    return {"var": float(-q), "cvar": float(-x[x <= q].mean())}


def overlapping(r, w, h):
    idx = np.vstack([np.ones(r.shape[1]), np.cumprod(1 + r, axis=0)])
    return (idx[h:] / idx[:-h]) @ w - 1


def historical(r, w):
    if r.shape[0] >= YEAR:
        x = overlapping(r, w, H)
        return {**tail(x), "scaling": "overlapping", "scenarios": len(x)}
    d = tail(r @ w)
    return {"var": d["var"] * math.sqrt(H), "cvar": d["cvar"] * math.sqrt(H), "scaling": "sqrt-time", "scenarios": r.shape[0]}


def components(cov, w):
    sw = cov @ w
    sigma = math.sqrt(w @ sw)
    marginal = sw / sigma * math.sqrt(H)
    contribution = w * marginal
    return {
        "volatility": sigma * math.sqrt(H),
        "marginal": marginal.tolist(),
        "contribution": contribution.tolist(),
        "percentage": (100 * contribution / (sigma * math.sqrt(H))).tolist(),
        "varContribution": (norm.ppf(C) * contribution).tolist(),
    }


def diversification(cov, w):
    stand = np.abs(w) * np.sqrt(np.diag(cov)) * math.sqrt(H)
    port = math.sqrt(w @ cov @ w) * math.sqrt(H)
    return {
        "standAlone": stand.tolist(),
        "standAloneSum": float(stand.sum()),
        "portfolio": port,
        "benefit": float(stand.sum() - port),
        "reduction": float(1 - port / stand.sum()),
        "ratio": float(stand.sum() / port),
    }


def currency(r, w, f, foreign):
    rp = r @ w
    e = float(w[foreign == 1].sum())
    c = np.cov(np.vstack([rp, f]), ddof=1)
    hedged = rp - e * f
    return {
        "exposure": e,
        "fxVolatility": math.sqrt(c[1, 1] * H),
        "standAlone": abs(e) * math.sqrt(c[1, 1] * H),
        "contribution": e * c[0, 1] / math.sqrt(c[0, 0]) * math.sqrt(H),
        "percentage": 100 * e * c[0, 1] / c[0, 0],
        "volatility": math.sqrt(c[0, 0] * H),
        "volatilityWithoutCurrency": float(np.std(hedged, ddof=1) * math.sqrt(H)),
    }


def monte_carlo(cov, w, paths, seed):
    n = len(w)
    low = np.linalg.cholesky(cov)
    rnd = JsRandom(seed)
    drift = H * (-np.diag(cov) / 2)
    out = []
    for p0 in range(0, paths, 64):
        b = min(64, paths - p0)
        z = np.array([rnd.normal() for _ in range(b * n)]).reshape(b, n)
        y = z @ low.T
        out.extend(((np.exp(drift + math.sqrt(H) * y) - 1) @ w).tolist())
    return tail(np.array(out))


# ---------------------------------------------------------------- expected and required returns
def expected(r, cov, rf=0.02, erp=0.05, mkt=None):
    """mkt: daily returns of the market proxy (default: the equally weighted assets)."""
    t, n = r.shape
    mkt = r.mean(axis=1) if mkt is None else np.asarray(mkt)
    mu = r.mean(axis=0)
    beta = np.array([np.cov(r[:, i], mkt, ddof=1)[0, 1] / np.var(mkt, ddof=1) for i in range(n)])
    eq = rf + beta * erp
    d = mu - eq / YEAR
    s = (n + 2) / (n + 2 + t * d @ np.linalg.solve(cov, d))
    return {
        "historical": (mu * YEAR).tolist(),
        "betas": beta.tolist(),
        "equilibrium": eq.tolist(),
        "expected": ((1 - s) * mu * YEAR + s * eq).tolist(),
        "shrinkage": float(s),
    }


def required(cov, w, rf=0.02, sr=0.3):
    sw = cov @ w
    sigma = math.sqrt(w @ sw)
    return {"assets": (rf + sr * sw / sigma * math.sqrt(YEAR)).tolist(), "portfolio": rf + sr * sigma * math.sqrt(YEAR)}


# ---------------------------------------------------------------- backtest
def perf(d, rf=0.02):
    g = np.cumprod(1 + d)
    peak = np.maximum.accumulate(np.concatenate([[1.0], g]))[1:]
    return {
        "totalReturn": float(g[-1] - 1),
        "annualizedReturn": float(g[-1] ** (YEAR / len(d)) - 1),
        "volatility": float(np.std(d, ddof=1) * math.sqrt(YEAR)),
        "maxDrawdown": float(np.max(1 - g / peak)),
        "sharpe": float((d.mean() - rf / YEAR) / np.std(d, ddof=1) * math.sqrt(YEAR)),
    }


def run_backtest(r, w, months_of_dates=None, every=None):
    hold = w.copy()
    v = [1.0]
    for s in range(r.shape[0]):
        if s > 0 and ((months_of_dates is not None and months_of_dates[s] != months_of_dates[s - 1]) or (every and s % every == 0)):
            hold = v[-1] * w
        hold = hold * (1 + r[s])
        v.append(float(hold.sum()))
    v = np.array(v)
    return v, v[1:] / v[:-1] - 1


# ---------------------------------------------------------------- what-if sensitivities
def sensitivities(r, fac, kinds, period=5):
    t = r.shape[0]
    p = t // period
    skip = t - p * period
    y = np.array([np.prod(1 + r[skip + q * period: skip + (q + 1) * period], axis=0) - 1 for q in range(p)])
    x = np.column_stack([
        np.array([np.prod(1 + fac[skip + q * period: skip + (q + 1) * period, j]) - 1 if kinds[j] == "return"
                  else fac[skip + q * period: skip + (q + 1) * period, j].sum() for q in range(p)])
        for j in range(fac.shape[1])
    ])
    design = np.column_stack([np.ones(p), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    fitted = design @ coef
    r2 = 1 - ((y - fitted) ** 2).sum(0) / ((y - y.mean(0)) ** 2).sum(0)
    return {"alphas": coef[0].tolist(), "betas": coef[1:].T.flatten().tolist(), "rSquared": r2.tolist(), "periods": p}
