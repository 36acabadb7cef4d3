"""Reference figures of the simulator's assumptions (tests/engine/simulate-assumptions.test.ts).

Written independently of the TypeScript with numpy, on the same random numbers (jsrandom.py):
- equilibrium: CAPM betas of the assets against the market over the last 756 days, the portfolio's
  expected return rf + sum_i w_i beta_i ERP, and its volatility sqrt(252 w' S w), S the
  Ledoit-Wolf (constant correlation) covariance of the whole history (refmath.ledoit_wolf_cc);
- historical: months of 21 days counted back from the last day, blocks of 12 consecutive months,
  the expected growth of a block and the spread of its log growth, and the block bootstrap of a
  plan (one uniform per path at the first month of each year picks the block), numpy's default
  (type 7) percentiles and the goal's share of paths.
Run: python3 scripts/reference/simulate_assumptions.py
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from jsrandom import JsRandom  # noqa: E402
from refmath import ledoit_wolf_cc  # noqa: E402

DAYS, N, BETA_DAYS = 1500, 4, 756
LOADINGS = [0.6, 0.9, 1.2, 1.5]
W = np.array([0.4, 0.3, 0.2, 0.1])
rnd = JsRandom(101)
market = np.zeros(DAYS)
r = np.zeros((DAYS, N))
for t in range(DAYS):
    market[t] = 0.0004 + 0.011 * rnd.normal()
    for i in range(N):
        r[t, i] = 0.0001 + LOADINGS[i] * (market[t] - 0.0004) + 0.01 * rnd.normal()

# Equilibrium.
win, mkt = r[-BETA_DAYS:], market[-BETA_DAYS:]
beta = np.array([np.cov(win[:, i], mkt)[0, 1] / np.var(mkt, ddof=1) for i in range(N)])
beta_p = float(W @ beta)
cov, _ = ledoit_wolf_cc(r)
equilibrium = {
    "beta": beta_p,
    "annualReturn": 0.02 + beta_p * 0.05,
    "annualVolatility": math.sqrt(252 * W @ cov @ W),
}

# Historical: the block bootstrap.
daily = r @ W
months = DAYS // 21
start = DAYS - months * 21
monthly = np.array([np.prod(1 + daily[start + 21 * k : start + 21 * (k + 1)]) - 1 for k in range(months)])
blocks = months - 11
logs = np.array([np.log1p(monthly[b : b + 12]).sum() for b in range(blocks)])
year = {
    "months": months,
    "blocks": blocks,
    "annualReturn": float(np.exp(logs).mean() - 1),
    "annualVolatility": float(logs.std(ddof=0)),
}
A, C, YEARS, PATHS, SEED, GOAL = 10_000.0, 100.0, 3, 200, 9, 15_000.0
rng = JsRandom(SEED)
values = np.full(PATHS, A)
starts = np.zeros(PATHS, dtype=int)
pct = {p: {} for p in (5, 25, 50, 75, 95)}
for k in range(1, 12 * YEARS + 1):
    offset = (k - 1) % 12
    if offset == 0:
        starts = np.array([math.floor(rng.next() * blocks) for _ in range(PATHS)])
    values = values * (1 + monthly[starts + offset]) + C
    if k in (1, 12, 36):
        for p in pct:
            pct[p][str(k)] = float(np.percentile(values, p))
bootstrap = {
    "percentiles": {str(p): v for p, v in pct.items()},
    "goalProbability": float(np.mean(values >= GOAL)),
}
print(json.dumps({"equilibrium": equilibrium, "year": year, "bootstrap": bootstrap}, indent=2))
