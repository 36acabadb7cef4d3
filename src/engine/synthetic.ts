/**
 * A seeded factor-model generator of realistic daily returns: for benchmarks, tests and the
 * offline simulated market. The same options and seed always give the same numbers.
 *
 * r_it = mu_i + b_i m_t + g_i s_k(i),t + c_i dy_t + o_i c_t + x_i x_t + e_i u_it
 * with m the stock market, s the sector factors, dy the daily change of a 10-year yield (points),
 * c commodities, x crypto, u idiosyncratic; optional Student-t innovations (unit variance) for
 * fat tails. Returns are floored at -95%. Assets flagged foreign also carry the currency's move:
 * (1 + r)(1 + f) - 1.
 */
import { EngineError } from "./errors.ts";
import type { ReturnsPanel } from "./panel.ts";
import { createRandom, type Random } from "./random.ts";
import { TRADING_DAYS_PER_YEAR } from "./stats.ts";
import type { FactorPanel } from "./whatif/factors.ts";

export interface SyntheticOptions {
  readonly assets: number;
  readonly days: number;
  readonly seed?: number;
  /** Number of sectors, default 11 (GICS). */
  readonly sectors?: number;
  /** Student-t degrees of freedom of the innovations (> 2); normal when omitted. */
  readonly degreesOfFreedom?: number;
  /** Share of the assets quoted in the other currency, default 0. */
  readonly foreignShare?: number;
}

export interface SyntheticMarket {
  /** Asset returns in the portfolio currency. */
  readonly panel: ReturnsPanel;
  /** Daily stock-market returns (the market factor). */
  readonly market: Float64Array;
  /** Daily changes of market, rates, crypto, commodities, inflation on the same days. */
  readonly factors: FactorPanel;
  readonly sectorOf: Int32Array;
  /** True market betas of the generator. */
  readonly betas: Float64Array;
  /** Daily return of the other currency in the portfolio currency. */
  readonly fxReturns: Float64Array;
  readonly foreign: Uint8Array;
}

const DAY = 1 / Math.sqrt(TRADING_DAYS_PER_YEAR);

function innovation(random: Random, nu: number | undefined): number {
  const z = random.normal();
  if (nu === undefined) return z;
  let chi = 0;
  const whole = Math.floor(nu);
  for (let k = 0; k < whole; k++) chi += random.normal() ** 2;
  return (z * Math.sqrt((nu - 2) / nu)) / Math.sqrt(chi / whole);
}

export function syntheticMarket(options: SyntheticOptions): SyntheticMarket {
  const n = options.assets;
  const t = options.days;
  if (!(Number.isInteger(n) && n >= 1))
    throw new EngineError("INVALID_PARAMETER", `assets must be >= 1, got ${n}`);
  if (!(Number.isInteger(t) && t >= 2))
    throw new EngineError("INVALID_PARAMETER", `days must be >= 2, got ${t}`);
  const sectors = options.sectors ?? 11;
  const nu = options.degreesOfFreedom;
  if (nu !== undefined && !(nu > 2))
    throw new EngineError("INVALID_PARAMETER", "degreesOfFreedom must be > 2");
  const foreignShare = options.foreignShare ?? 0;
  const random = createRandom(options.seed ?? 1);
  const u = (a: number, b: number) => a + (b - a) * random.next();

  const sectorOf = new Int32Array(n);
  const betas = new Float64Array(n);
  const sectorLoad = new Float64Array(n);
  const rateLoad = new Float64Array(n);
  const commodityLoad = new Float64Array(n);
  const cryptoLoad = new Float64Array(n);
  const idio = new Float64Array(n);
  const drift = new Float64Array(n);
  const foreign = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    sectorOf[i] = i % sectors;
    betas[i] = u(0.6, 1.4);
    sectorLoad[i] = u(0.5, 1.0);
    rateLoad[i] = u(-0.04, 0.02);
    commodityLoad[i] = u(-0.05, 0.15);
    cryptoLoad[i] = u(0, 0.03);
    idio[i] = u(0.15, 0.35) * DAY;
    drift[i] = (0.02 + betas[i]! * 0.05 + u(-0.03, 0.03)) / TRADING_DAYS_PER_YEAR;
    foreign[i] = random.next() < foreignShare ? 1 : 0;
  }
  const data = new Float64Array(t * n);
  const market = new Float64Array(t);
  const factorData = new Float64Array(t * 5);
  const fxReturns = new Float64Array(t);
  const sector = new Float64Array(sectors);
  for (let s = 0; s < t; s++) {
    const m = 0.07 / TRADING_DAYS_PER_YEAR + 0.16 * DAY * innovation(random, nu);
    const dy = 0.06 * random.normal();
    const commodities = 0.25 * DAY * innovation(random, nu);
    const crypto = 0.6 * DAY * innovation(random, nu);
    // Inflation moves once a month (every 21 days), by a small step.
    const dInflation = s % 21 === 20 ? 0.15 * random.normal() : 0;
    const f = 0.08 * DAY * random.normal();
    for (let k = 0; k < sectors; k++) sector[k] = 0.1 * DAY * random.normal();
    market[s] = m;
    fxReturns[s] = f;
    const fb = s * 5;
    factorData[fb] = m;
    factorData[fb + 1] = dy;
    factorData[fb + 2] = crypto;
    factorData[fb + 3] = commodities;
    factorData[fb + 4] = dInflation;
    const base = s * n;
    for (let i = 0; i < n; i++) {
      let r =
        drift[i]! +
        betas[i]! * m +
        sectorLoad[i]! * sector[sectorOf[i]!]! +
        rateLoad[i]! * dy +
        commodityLoad[i]! * commodities +
        cryptoLoad[i]! * crypto +
        idio[i]! * innovation(random, nu);
      if (foreign[i]) r = (1 + r) * (1 + f) - 1;
      data[base + i] = Math.max(-0.95, r);
    }
  }
  return {
    panel: { assets: n, observations: t, data },
    market,
    factors: {
      factors: ["market", "rates", "crypto", "commodities", "inflation"],
      observations: t,
      data: factorData,
    },
    sectorOf,
    betas,
    fxReturns,
    foreign,
  };
}

/** Price levels (row-major (T + 1) x assets) from a returns panel, starting at `start`. */
export function pricesFromReturns(panel: ReturnsPanel, start = 100): Float64Array {
  const { assets: n, observations: t, data } = panel;
  const out = new Float64Array((t + 1) * n).fill(start, 0, n);
  for (let s = 0; s < t; s++)
    for (let i = 0; i < n; i++) out[(s + 1) * n + i] = out[s * n + i]! * (1 + data[s * n + i]!);
  return out;
}
