"""Reference figures of the investment simulator (tests/engine/simulate-reference.test.ts).

The same random numbers as the engine (jsrandom.py, a bit-exact port of src/engine/random.ts), and
the model of docs/analytics.md "Investment simulator" written independently with numpy: monthly
log mean and volatility of the daily returns, paths V_k = V_{k-1} exp(m + s z) + C, numpy's default
(type 7) percentiles, deflated by (1 + inflation)^(k / 12); the goal's share of paths; the
replay of the last whole 21-day months. Run: python3 scripts/reference/simulate.py
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from jsrandom import JsRandom  # noqa: E402

DAYS = 756
rnd = JsRandom(77)
daily = np.array([0.0003 + 0.011 * rnd.normal() for _ in range(DAYS)])

A, C, YEARS, PATHS, SEED, INFL, GOAL = 10_000.0, 250.0, 3, 300, 11, 0.02, 25_000.0
logs = np.log1p(daily)
m = 21 * logs.mean()
s = math.sqrt(21) * logs.std(ddof=1)
M = 12 * YEARS
defl = (1 + INFL) ** (np.arange(M + 1) / 12)
rng = JsRandom(SEED)
values = np.full(PATHS, A)
pct = {p: [A] for p in (5, 25, 50, 75, 95)}
for k in range(1, M + 1):
    z = np.array([rng.normal() for _ in range(PATHS)])
    values = values * np.exp(m + s * z) + C
    for p in pct:
        pct[p].append(float(np.percentile(values, p)) / defl[k])
goal_probability = float(np.mean(values / defl[M] >= GOAL))
hist = [A]
for k in range(M):
    block = daily[DAYS - M * 21 + k * 21 : DAYS - M * 21 + (k + 1) * 21]
    hist.append(hist[-1] * float(np.prod(1 + block)) + C)
hist = [h / defl[k] for k, h in enumerate(hist)]
out = {
    "monthlyLogMean": m,
    "monthlyLogVolatility": s,
    "percentiles": {str(p): {str(k): pct[p][k] for k in (1, 12, 24, 36)} for p in pct},
    "invested36": (A + 36 * C) / defl[M],
    "goalProbability": goal_probability,
    "historical": {str(k): hist[k] for k in (1, 12, 36)},
}
print(json.dumps(out, indent=2))
