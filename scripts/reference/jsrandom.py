"""A bit-exact port of src/engine/random.ts (xoshiro128** seeded by splitmix32, Marsaglia's polar
normals), so that the reference scripts reproduce the engine's Monte Carlo draws exactly."""
import math

M32 = 0xFFFFFFFF


def _imul(a: int, b: int) -> int:
    return (a * b) & M32


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & M32


class JsRandom:
    def __init__(self, seed: int):
        self._state = seed & M32
        self.a = self._splitmix()
        self.b = self._splitmix()
        self.c = self._splitmix()
        self.d = self._splitmix()
        self._spare = None

    def _splitmix(self) -> int:
        self._state = (self._state + 0x9E3779B9) & M32
        z = self._state
        z = _imul(z ^ (z >> 16), 0x85EBCA6B)
        z = _imul(z ^ (z >> 13), 0xC2B2AE35)
        return (z ^ (z >> 16)) & M32

    def next_uint(self) -> int:
        result = _imul(_rotl(_imul(self.b, 5), 7), 9)
        t = (self.b << 9) & M32
        self.c ^= self.a
        self.d ^= self.b
        self.b ^= self.c
        self.a ^= self.d
        self.c ^= t
        self.d = _rotl(self.d, 11)
        return result

    def next(self) -> float:
        return self.next_uint() / 4294967296.0

    def normal(self) -> float:
        if self._spare is not None:
            v = self._spare
            self._spare = None
            return v
        while True:
            u = 2 * self.next() - 1
            v = 2 * self.next() - 1
            s = u * u + v * v
            if s < 1 and s != 0:
                break
        factor = math.sqrt(-2 * math.log(s) / s)
        self._spare = v * factor
        return u * factor
