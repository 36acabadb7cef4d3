"""Reference figures on the real dataset (tests/engine/market-data.test.ts).

Reads price files from $MARKET_DATA_DIR (default ../shared/market-data from the project root),
aligns them with the documented holiday rule (implemented here independently of the TypeScript),
computes risk figures and scenario replays with numpy, and writes only the figures to
tests/engine/reference/market-data.json (never the data). Run: python3 scripts/reference/market_data.py
Imported (market_proxy.py), it only offers its readers of the files: day, read, on_or_before, align.
"""
import bisect
import csv
import datetime as dt
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from refmath import (  # noqa: E402
    components, currency, diversification, expected, historical, ledoit_wolf_cc, parametric, sensitivities,
)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DATA = os.environ.get("MARKET_DATA_DIR", os.path.join(ROOT, "..", "shared", "market-data"))
OUT = os.path.join(ROOT, "tests", "engine", "reference", "market-data.json")
EPOCH = dt.date(1970, 1, 1)


def day(iso):
    return (dt.date.fromisoformat(iso) - EPOCH).days


def weekday(d):  # Monday = 0 ... Sunday = 6
    return (EPOCH + dt.timedelta(days=d)).weekday()


def read(rel):
    with open(os.path.join(DATA, rel)) as fh:
        rows = list(csv.reader(fh))[1:]
    return [day(r[0]) for r in rows], [float(r[1]) for r in rows]


def on_or_before(dates, values, d):
    k = bisect.bisect_right(dates, d) - 1
    if k < 0:
        raise ValueError("no value on or before")
    return values[k]


def fx_merged():
    """Daily EUR/USD, with the monthly series before the first daily row."""
    dd, dv = read("fx/EURUSD.csv")
    md, mv = read("fx/EURUSD_MONTHLY.csv")
    keep = [k for k, d in enumerate(md) if d < dd[0]]
    return [md[k] for k in keep] + dd, [mv[k] for k in keep] + dv


def align(assets, ccy, fx):
    """assets: list of (symbol, currency). Union of weekday trading days from the first common date
    to the last common date; prices carried forward; converted with EUR/USD on or before the day."""
    series = [read(f"prices/{s}.csv") for s, _ in assets]
    foreign = [c != ccy for _, c in assets]
    start = max(s[0][0] for s in series)
    if any(foreign):
        start = max(start, fx[0][0])
    end = min(s[0][-1] for s in series)
    days = sorted({d for s in series for d in s[0] if start <= d <= end and weekday(d) < 5})
    prices = np.empty((len(days), len(assets)))
    fx_day = np.array([on_or_before(fx[0], fx[1], d) for d in days])
    for i, (s, f) in enumerate(zip(series, foreign)):
        p = np.array([on_or_before(s[0], s[1], d) for d in days])
        if f:
            p = p / fx_day if ccy == "EUR" else p * fx_day
        prices[:, i] = p
    r = prices[1:] / prices[:-1] - 1
    unit = 1 / fx_day if ccy == "EUR" else fx_day
    return days, r, unit[1:] / unit[:-1] - 1, np.array(foreign, dtype=np.uint8)


def main():
    """Computes the reference figures, writes them to OUT and prints a summary."""
    # ---------------------------------------------------------------- a mixed EUR portfolio
    FX = fx_merged()
    PORTFOLIO = [("SAN.MC", "EUR"), ("AAPL", "USD"), ("SPY", "USD"), ("BTC-USD", "USD"), ("MC.PA", "EUR"), ("TLT", "USD")]
    AMOUNTS = np.array([3000.0, 2000, 1500, 1000, 1500, 1000])
    W = AMOUNTS / AMOUNTS.sum()
    days, R, FXR, FOREIGN = align(PORTFOLIO, "EUR", FX)

    windows = {}
    for bench, n in [(4, 252), (5, 756)]:
        r = R[-n:]
        f = FXR[-n:]
        lw, delta = ledoit_wolf_cc(r)
        windows[str(bench)] = {
            "observations": n,
            "shrinkage": delta,
            "volatilityDaily": math.sqrt(W @ lw @ W),
            "parametric": parametric(lw, W),
            "historical": historical(r, W),
            "percentage": components(lw, W)["percentage"],
            "diversificationReduction": diversification(lw, W)["reduction"],
            "currency": currency(r, W, f, FOREIGN),
            "expected": expected(r, lw)["expected"],
        }

    alignment = {
        "symbols": [s for s, _ in PORTFOLIO],
        "currencies": [c for _, c in PORTFOLIO],
        "amounts": AMOUNTS.tolist(),
        "firstDate": str(EPOCH + dt.timedelta(days=days[0])),
        "lastDate": str(EPOCH + dt.timedelta(days=days[-1])),
        "observations": R.shape[0],
        "sumReturns": R.sum(axis=0).tolist(),
        "sumSquares": (R**2).sum(axis=0).tolist(),
        "zeroReturns": (R == 0).sum(axis=0).tolist(),
        "fxSum": float(FXR.sum()),
    }


    # ---------------------------------------------------------------- scenarios
    SCEN = {0: ("2007-10-09", "2009-03-09"), 1: ("2020-02-19", "2020-03-23"), 2: ("2022-01-03", "2022-10-12"),
            3: ("2000-03-24", "2002-10-09")}


    def move_in(symbol, ccy_asset, ccy, a, b):
        d, v = read(f"prices/{symbol}.csv")
        pa, pb = on_or_before(d, v, day(a)), on_or_before(d, v, day(b))
        if ccy_asset != ccy:
            fa, fb = on_or_before(FX[0], FX[1], day(a)), on_or_before(FX[0], FX[1], day(b))
            pa, pb = (pa / fa, pb / fb) if ccy == "EUR" else (pa * fa, pb * fb)
        return pb / pa - 1


    gspc_in_eur = {str(t): move_in("GSPC_INDEX", "USD", "EUR", *SCEN[t]) for t in SCEN}

    # Factor series (levels): market, rates, commodities, inflation (y/y of the HICP, percent).
    hd, hv = read("macro/EA_HICP.csv")
    hmap = {(EPOCH + dt.timedelta(days=d)).strftime("%Y-%m"): v for d, v in zip(hd, hv)}
    inf_d, inf_v = [], []
    for d, v in zip(hd, hv):
        x = EPOCH + dt.timedelta(days=d)
        prev = f"{x.year - 1}-{x.month:02d}"
        if prev in hmap:
            inf_d.append(d)
            inf_v.append(100 * (v / hmap[prev] - 1))
    FACTORS = [("market", "return", read("prices/STOXX50E_INDEX.csv")), ("rates", "level", read("macro/DE10Y.csv")),
               ("commodities", "return", read("prices/BRENT_USD.csv")), ("inflation", "level", (inf_d, inf_v))]


    def factor_changes(cal):
        out = np.empty((len(cal) - 1, len(FACTORS)))
        for j, (_, kind, (d, v)) in enumerate(FACTORS):
            lv = np.array([on_or_before(d, v, x) for x in cal])
            out[:, j] = lv[1:] / lv[:-1] - 1 if kind == "return" else np.diff(lv)
        return out


    def proxy_replay(symbol, t):
        """Betas on the asset's whole (aligned) history, then the day-by-day factor reconstruction over
        the scenario until the asset's first close, its own prices after."""
        a, b = day(SCEN[t][0]), day(SCEN[t][1])
        cal, r, _, _ = align([(symbol, "EUR")], "EUR", FX)
        fac = factor_changes(cal)
        sens = sensitivities(r, fac, [k for _, k, _ in FACTORS])
        beta = np.array(sens["betas"])
        sc = {a, b}
        for _, _, (d, v) in FACTORS:
            sc.update(x for x in d if a < x <= b and weekday(x) < 5)
        sc = sorted(sc)
        f = factor_changes(sc)
        pd_, pv = read(f"prices/{symbol}.csv")
        first = pd_[0]
        g = 1.0
        for k in range(len(sc) - 1):
            if sc[k + 1] <= min(first, b):
                g *= max(0.0, 1 + f[k] @ beta)
        if first <= b:
            g *= on_or_before(pd_, pv, b) / on_or_before(pd_, pv, first)
            method = "spliced"
        else:
            method = "proxy"
        moves = {}
        for j, (name, kind, _) in enumerate(FACTORS):
            moves[name] = float(np.prod(1 + f[:, j]) - 1) if kind == "return" else float(f[:, j].sum())
        return {"symbol": symbol, "type": t, "method": method, "betas": beta.tolist(), "return": g - 1, "factorMoves": moves,
                "periods": sens["periods"]}


    ref = {
        "alignment": alignment,
        "windows": windows,
        "scenarios": {
            "gspcInEur": gspc_in_eur,
            "proxy": [proxy_replay("ANE.MC", 1), proxy_replay("MSE.PA", 0)],
        },
    }
    with open(OUT, "w") as fh:
        json.dump(ref, fh, indent=1)
        fh.write("\n")
    print(json.dumps({"alignment": {k: alignment[k] for k in ("firstDate", "lastDate", "observations")},
                      "var5": windows["5"]["parametric"], "hist5": windows["5"]["historical"],
                      "gspcInEur": gspc_in_eur, "proxy": [(p["symbol"], p["method"], p["return"]) for p in ref["scenarios"]["proxy"]]},
                     indent=1))


if __name__ == "__main__":
    main()
