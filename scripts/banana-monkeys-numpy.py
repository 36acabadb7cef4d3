"""
Independent computation of the banana challenge's random portfolios (docs/banana.md) with numpy,
on the same draws: the seeded xoshiro128** generator (seeded through splitmix32, as
src/engine/random.ts), the partial Fisher-Yates draw and the whole-share purchase of
src/server/banana/monkey.ts re-implemented here, and the returns, mean, standard deviation,
quantiles (numpy's linear method) and percentile computed with numpy. Prints the figures that
tests/server/banana-monkeys.test.ts stores.

    python3 scripts/banana-monkeys-numpy.py
"""
import json
import math

import numpy as np

M32 = 0xFFFFFFFF


def rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


def imul(a, b):
    return (a * b) & M32


class Random:
    def __init__(self, seed):
        self.state = seed & M32
        self.a, self.b, self.c, self.d = (self.splitmix() for _ in range(4))

    def splitmix(self):
        self.state = (self.state + 0x9E3779B9) & M32
        z = self.state
        z = imul(z ^ (z >> 16), 0x85EBCA6B)
        z = imul(z ^ (z >> 13), 0xC2B2AE35)
        return (z ^ (z >> 16)) & M32

    def next_uint(self):
        result = imul(rotl(imul(self.b, 5), 7), 9)
        t = (self.b << 9) & M32
        self.c ^= self.a
        self.d ^= self.b
        self.b ^= self.c
        self.a ^= self.d
        self.c ^= t
        self.d = rotl(self.d, 11)
        return result

    def next(self):
        return self.next_uint() / 4294967296


def js_round(x):
    return math.floor(x + 0.5)


def draw(random, n, k):
    a = list(range(n))
    out = []
    for j in range(k):
        r = j + math.floor(random.next() * (n - j))
        a[j], a[r] = a[r], a[j]
        out.append(a[j])
    return out


def buy(prices, chosen, budget):
    max_cents = js_round(budget * 100)
    each = budget / len(chosen)
    shares = [math.floor(each / prices[i]) for i in chosen]
    total = sum(js_round(s * prices[i] * 100) for s, i in zip(shares, chosen))
    bought = True
    while bought:
        bought = False
        for j, i in enumerate(chosen):
            add = js_round(prices[i] * 100)
            if total + add <= max_cents:
                shares[j] += 1
                total += add
                bought = True
    return shares


def universe(n):
    """The test's universe: closes from about 5 to 2,900, and returns from -10% to +10%."""
    p0 = np.array([round(5 + 7.3 * i + (i % 7) * 40.25 + (2500 if i % 13 == 12 else 0), 2) for i in range(n)])
    p1 = p0 * (1 + 0.01 * ((np.arange(n) * 37) % 21 - 10))
    return p0, p1


def figures(seed, n, k, count, budget, user_return):
    p0, p1 = universe(n)
    random = Random(seed)
    shares = np.zeros((count, n))
    first = None
    for m in range(count):
        chosen = draw(random, n, k)
        s = buy(list(p0), chosen, budget)
        shares[m, chosen] = s
        if m == 0:
            first = [[c, x] for c, x in zip(chosen, s) if x > 0]
    # The valuation rule (docs/banana.md): each holding's amount rounded to the cent, then summed.
    invested = np.floor(shares * p0 * 100 + 0.5).sum(axis=1)
    value = np.floor(shares * p1 * 100 + 0.5).sum(axis=1)
    returns = value / invested - 1
    below = np.sum(returns < user_return)
    equal = np.sum(returns == user_return)
    return {
        "seed": seed,
        "n": n,
        "k": k,
        "monkey0": first,
        "mean": float(returns.mean()),
        "std": float(returns.std()),
        "q05": float(np.quantile(returns, 0.05)),
        "q50": float(np.quantile(returns, 0.5)),
        "q95": float(np.quantile(returns, 0.95)),
        "percentile": float(100 * (below + equal / 2) / count),
        "minInvested": float(invested.min() / 100),
        "maxInvested": float(invested.max() / 100),
    }


if __name__ == "__main__":
    for k in (1, 8, 40):
        print(json.dumps(figures(20261124, 40, k, 10_000, 10_000, 0.02)))
