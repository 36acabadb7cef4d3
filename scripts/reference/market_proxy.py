"""The market proxy of expected returns on the real dataset (issue 24; docs/analytics.md,
"Expected and required returns"), computed with numpy independently of the TypeScript.

A EUR portfolio of five euro funds, 2,000 each, analysed on the market date 2024-05-31 over the
default window (benchmark 5: the last 756 daily returns): the holiday rule of docs/analytics.md
(union of the weekdays any asset traded, prices carried forward), the Ledoit-Wolf covariance, and
the Bayes-Stein expected returns towards the CAPM prior with betas against
  - the documented proxy, the index of the portfolio's market (EURO STOXX 50, its closes carried
    forward on the same calendar), and
  - the former one, the equally weighted assets,
so that the test can tell the two apart. Prints the figures tests/server/analytics.test.ts stores.

    python3 scripts/reference/market_proxy.py
"""
import datetime as dt
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from market_data import EPOCH, day, on_or_before, read, weekday  # noqa: E402
from refmath import expected, ledoit_wolf_cc  # noqa: E402


TODAY = day("2024-05-31")
FUNDS = ["MSE.PA", "IEAC", "IHYG", "EURGOV10Y_TR", "CASH_EUR"]
AMOUNTS = np.array([2000.0] * 5)
W = AMOUNTS / AMOUNTS.sum()
N = 756


def upto(series):
    d, v = series
    k = sum(1 for x in d if x <= TODAY)
    return d[:k], v[:k]


series = [upto(read(f"prices/{s}.csv")) for s in FUNDS]
start = max(s[0][0] for s in series)
end = min(s[0][-1] for s in series)
days = sorted({d for s in series for d in s[0] if start <= d <= end and weekday(d) < 5})[-(N + 1):]
prices = np.array([[on_or_before(s[0], s[1], d) for s in series] for d in days])
r = prices[1:] / prices[:-1] - 1
index = upto(read("prices/STOXX50E_INDEX.csv"))
level = np.array([on_or_before(index[0], index[1], d) for d in days])
market = level[1:] / level[:-1] - 1
cov, _ = ledoit_wolf_cc(r)
documented = expected(r, cov, mkt=market)
former = expected(r, cov)
print(json.dumps({
    "symbols": FUNDS,
    "from": str(EPOCH + dt.timedelta(days=days[0])),
    "to": str(EPOCH + dt.timedelta(days=days[-1])),
    "observations": r.shape[0],
    "betas": documented["betas"],
    "expected": documented["expected"],
    "shrinkage": documented["shrinkage"],
    "portfolio": float(W @ np.array(documented["expected"])),
    "formerBetas": former["betas"],
    "formerPortfolio": float(W @ np.array(former["expected"])),
}, indent=2))
