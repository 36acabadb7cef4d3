/**
 * Seeded pseudo-random numbers: every Monte Carlo figure can be reproduced from its seed.
 * xoshiro128** (Blackman and Vigna) seeded through splitmix32; normals by Marsaglia's polar method.
 */
export interface Random {
  /** Uniform on [0, 1). */
  next(): number;
  /** Standard normal. */
  normal(): number;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const splitmix = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const nextUint = () => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  let spare: number | null = null;
  const next = () => nextUint() / 4294967296;
  return {
    next,
    normal() {
      if (spare !== null) {
        const value = spare;
        spare = null;
        return value;
      }
      let u: number;
      let v: number;
      let s: number;
      do {
        u = 2 * next() - 1;
        v = 2 * next() - 1;
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const factor = Math.sqrt((-2 * Math.log(s)) / s);
      spare = v * factor;
      return u * factor;
    },
  };
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;
