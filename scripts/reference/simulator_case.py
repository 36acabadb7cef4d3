"""The issue-24 simulator case on the real dataset, in numpy (tests/server/simulate.test.ts).

Ten US stocks (2,500 USD each), market today 2024-05-31: the longest common history (the days any
of them traded from the latest first day, prices carried forward), the CAPM beta of the portfolio
against the S&P 500 (GSPC_INDEX carried forward on the same days) over the last 756 returns, the
expected return 2% + beta 5%, and the volatility sqrt(252 w' S w), S the Ledoit-Wolf covariance of
the whole common history. Run: python3 scripts/reference/simulator_case.py
"""
import csv
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from refmath import ledoit_wolf_cc  # noqa: E402

DIR = os.environ.get("MARKET_DATA_DIR", os.path.join(os.path.dirname(__file__), "../../../shared/market-data"))
TODAY = "2024-05-31"
STOCKS = ["NVDA", "AVGO", "VRTX", "XOM", "KLAC", "COST", "AMD", "REGN", "ORLY", "BKNG"]


def closes(symbol):
    with open(os.path.join(DIR, "prices", f"{symbol}.csv")) as f:
        return {r["date"]: float(r["close"]) for r in csv.DictReader(f) if r["date"] <= TODAY}


series = [closes(s) for s in STOCKS]
first = max(min(s) for s in series)
last = min(max(s) for s in series)
days = sorted({d for s in series for d in s if first <= d <= last})


def on_days(s, days):
    out, prev = [], None
    known = sorted(s)
    j = 0
    for d in days:
        while j < len(known) and known[j] <= d:
            prev = s[known[j]]
            j += 1
        out.append(prev)
    return np.array(out)


prices = np.column_stack([on_days(s, days) for s in series])
r = prices[1:] / prices[:-1] - 1
w = np.full(len(STOCKS), 0.1)
cov, _ = ledoit_wolf_cc(r)
gspc = on_days(closes("GSPC_INDEX"), days[-757:])
m = gspc[1:] / gspc[:-1] - 1
win = r[-756:]
beta = float(w @ np.array([np.cov(win[:, i], m)[0, 1] / np.var(m, ddof=1) for i in range(len(STOCKS))]))
print(json.dumps({
    "from": days[0],
    "observations": int(r.shape[0]),
    "beta": beta,
    "annualReturn": 0.02 + beta * 0.05,
    "annualVolatility": math.sqrt(252 * w @ cov @ w),
}, indent=2))
