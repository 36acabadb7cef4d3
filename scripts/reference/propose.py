"""Reference weights of src/engine/optimize/proposal.ts (tests/engine/optimize-proposal.test.ts).

numpy + scipy (SLSQP) on a fixed 6-asset problem: minimum variance within bounds, and the highest
expected return over volatility within bounds. Run: python3 scripts/reference/propose.py
"""
import json

import numpy as np
from scipy.optimize import minimize

vols = np.array([0.05, 0.06, 0.045, 0.08, 0.07, 0.03])
corr = np.array(
    [
        [1.0, 0.6, 0.3, 0.5, 0.2, 0.1],
        [0.6, 1.0, 0.4, 0.5, 0.3, 0.0],
        [0.3, 0.4, 1.0, 0.2, 0.1, 0.2],
        [0.5, 0.5, 0.2, 1.0, 0.6, -0.1],
        [0.2, 0.3, 0.1, 0.6, 1.0, 0.0],
        [0.1, 0.0, 0.2, -0.1, 0.0, 1.0],
    ]
)
cov = np.outer(vols, vols) * corr
mu = np.array([0.06, 0.09, 0.05, 0.12, 0.10, 0.02])
lo, hi = 0.05, 0.3
n = len(mu)
bounds = [(lo, hi)] * n
budget = {"type": "eq", "fun": lambda w: w.sum() - 1}
x0 = np.full(n, 1 / n)
opts = {"ftol": 1e-15, "maxiter": 1000}

minvar = minimize(lambda w: w @ cov @ w, x0, bounds=bounds, constraints=[budget], method="SLSQP", options=opts)
sharpe = minimize(
    lambda w: -(mu @ w) / np.sqrt(w @ cov @ w), x0, bounds=bounds, constraints=[budget], method="SLSQP", options=opts
)
w = sharpe.x
print(
    json.dumps(
        {
            "covariance": cov.tolist(),
            "mu": mu.tolist(),
            "minimumVariance": {"weights": minvar.x.tolist(), "variance": float(minvar.x @ cov @ minvar.x)},
            "bestRatio": {"weights": w.tolist(), "ratio": float(mu @ w / np.sqrt(w @ cov @ w))},
        },
        indent=1,
    )
)
