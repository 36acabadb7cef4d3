"""The past of a saved portfolio on the real dataset (issue 27; tests/server/past-performance.test.ts),
computed with numpy independently of the TypeScript.

A USD portfolio of SPY 6,000 and TLT 4,000 on the market date 2024-05-31: the holiday rule of
docs/analytics.md (union of the weekdays either traded, prices carried forward) over the two
funds' longest common history; today's weights every day; the default benchmark, the S&P 500
(GSPC_INDEX carried forward on the same calendar); and the EURO STOXX 50 converted into USD
(its level times EUR/USD on or before each day) as a chosen benchmark. Prints the figures the
test stores: calendar years, the five worst falls of both, the last rolling 252-day window, and
the correlation over the last 756 returns.

    python3 scripts/reference/history_real.py
"""
import datetime as dt
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from history import calendar_years, growth, rolling, worst  # noqa: E402
from market_data import EPOCH, day, on_or_before, read, weekday  # noqa: E402

TODAY = day("2024-05-31")
HOLDINGS = ["SPY", "TLT"]
AMOUNTS = np.array([6000.0, 4000.0])
W = AMOUNTS / AMOUNTS.sum()


def upto(series):
    d, v = series
    k = sum(1 for x in d if x <= TODAY)
    return d[:k], v[:k]


def iso(d):
    return str(EPOCH + dt.timedelta(days=int(d)))


series = [upto(read(f"prices/{s}.csv")) for s in HOLDINGS]
start = max(s[0][0] for s in series)
end = min(s[0][-1] for s in series)
days = sorted({d for s in series for d in s[0] if start <= d <= end and weekday(d) < 5})
prices = np.array([[on_or_before(s[0], s[1], d) for s in series] for d in days])
R = prices[1:] / prices[:-1] - 1
RP = R @ W
gspc = upto(read("prices/GSPC_INDEX.csv"))
level = np.array([on_or_before(gspc[0], gspc[1], d) for d in days])
BENCH = level[1:] / level[:-1] - 1
V = growth(RP, 10000.0)
B = growth(BENCH, 10000.0)

stoxx = upto(read("prices/STOXX50E_INDEX.csv"))
fx = upto(read("fx/EURUSD.csv"))
s0 = next(k for k, d in enumerate(days) if d >= max(stoxx[0][0], fx[0][0]))
usd = np.array([on_or_before(stoxx[0], stoxx[1], d) * on_or_before(fx[0], fx[1], d) for d in days[s0:]])
STOXX = usd[1:] / usd[:-1] - 1
stoxx_years = {row["year"]: row for row in calendar_years(np.array(days[s0:]), STOXX)}

years = []
for row in calendar_years(np.array(days), RP):
    b = next(x for x in calendar_years(np.array(days), BENCH) if x["year"] == row["year"])
    s = stoxx_years.get(row["year"])
    years.append({"year": row["year"], "partial": row["partial"], "portfolio": row["return"],
                  "benchmark": b["return"],
                  "stoxx": s["return"] if s and s["first"] + s0 == row["first"] else None})


def falls(v):
    return [{"depth": e["depth"], "start": iso(days[e["peak"]]), "trough": iso(days[e["trough"]]),
             "recovery": None if e["recovery"] is None else iso(days[e["recovery"]]), "length": e["length"]}
            for e in worst(v)]


roll = rolling(RP)
print(json.dumps({
    "from": iso(days[0]),
    "to": iso(days[-1]),
    "observations": len(RP),
    "stoxxFrom": iso(days[s0]),
    "years": years,
    "portfolioFalls": falls(V),
    "benchmarkFalls": falls(B),
    "rolling": {"count": len(roll["returns"]), "lastReturn": roll["returns"][-1],
                "lastVolatility": roll["volatility"][-1]},
    "correlation": float(np.corrcoef(R[-756:], rowvar=False)[0, 1]),
    "volatilityCheck": float(np.std(RP, ddof=1) * math.sqrt(252)),
}, indent=1))
