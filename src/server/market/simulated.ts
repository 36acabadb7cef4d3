import { createRandom } from "../../engine/random.ts";
import type { AssetRecord, Dataset, Series } from "./dataset.ts";

/**
 * The offline market of a fresh install without data: the same universes as the real dataset, with
 * realistic volatilities and correlations from a seeded factor model (stock market, rates,
 * commodities, crypto, EUR/USD). Same seed, same prices. Every screen says "simulated prices".
 */

type Factor = "equity" | "rates" | "commodities" | "crypto" | "cash";

interface Spec {
  readonly symbol: string;
  readonly name: string;
  readonly kind: string;
  readonly universe: "simAssets" | "simIndices" | "market";
  readonly exchange?: string;
  readonly assetClass?: string;
  readonly region: string;
  readonly country?: string;
  readonly currency: "EUR" | "USD";
  readonly sector: string;
  /** Annual volatility and the loading on its factor. */
  readonly vol: number;
  readonly beta: number;
  readonly factor: Factor;
  readonly start: number;
}

const stock = (
  symbol: string,
  name: string,
  exchange: string,
  region: "eu" | "usa",
  country: string,
  sector: string,
  vol: number,
  beta: number,
): Spec => ({
  symbol,
  name,
  kind: "stock",
  universe: "simAssets",
  exchange,
  assetClass: "equity",
  region,
  country,
  currency: region === "usa" ? "USD" : "EUR",
  sector,
  vol,
  beta,
  factor: "equity",
  start: 50 + (symbol.charCodeAt(0) % 7) * 25,
});

const fund = (
  symbol: string,
  name: string,
  assetClass: string,
  currency: "EUR" | "USD",
  sector: string,
  vol: number,
  beta: number,
  factor: Factor,
  region = "global",
): Spec => ({
  symbol,
  name,
  kind: factor === "crypto" ? "crypto" : "etf",
  universe: "simIndices",
  assetClass,
  region,
  currency,
  sector,
  vol,
  beta,
  factor,
  start: factor === "crypto" ? 20_000 : 100,
});

export const simulatedCatalogue: readonly Spec[] = [
  stock("AAPL", "Apple Inc.", "NASDAQ", "usa", "US", "Information Technology", 0.28, 1.2),
  stock("MSFT", "Microsoft", "NASDAQ", "usa", "US", "Information Technology", 0.25, 1.1),
  stock("AMZN", "Amazon", "NASDAQ", "usa", "US", "Consumer Discretionary", 0.32, 1.25),
  stock("NVDA", "NVIDIA", "NASDAQ", "usa", "US", "Information Technology", 0.45, 1.6),
  stock("GOOGL", "Alphabet", "NASDAQ", "usa", "US", "Communication Services", 0.28, 1.1),
  stock("JPM", "JPMorgan Chase", "NYSE", "usa", "US", "Financials", 0.26, 1.1),
  stock("JNJ", "Johnson & Johnson", "NYSE", "usa", "US", "Health Care", 0.17, 0.6),
  stock("KO", "Coca-Cola", "NYSE", "usa", "US", "Consumer Staples", 0.16, 0.6),
  stock("XOM", "Exxon Mobil", "NYSE", "usa", "US", "Energy", 0.3, 0.9),
  stock("PG", "Procter & Gamble", "NYSE", "usa", "US", "Consumer Staples", 0.16, 0.55),
  stock("V", "Visa", "NYSE", "usa", "US", "Financials", 0.22, 1.0),
  stock("DIS", "Walt Disney", "NYSE", "usa", "US", "Communication Services", 0.28, 1.1),
  stock("SAN.MC", "Banco Santander", "BME", "eu", "ES", "Financials", 0.32, 1.3),
  stock("ITX.MC", "Inditex", "BME", "eu", "ES", "Consumer Discretionary", 0.25, 1.0),
  stock("IBE.MC", "Iberdrola", "BME", "eu", "ES", "Utilities", 0.18, 0.6),
  stock("TEF.MC", "Telefónica", "BME", "eu", "ES", "Communication Services", 0.24, 0.8),
  stock("BBVA.MC", "BBVA", "BME", "eu", "ES", "Financials", 0.31, 1.3),
  stock("REP.MC", "Repsol", "BME", "eu", "ES", "Energy", 0.3, 1.0),
  stock("MC.PA", "LVMH", "Euronext Paris", "eu", "FR", "Consumer Discretionary", 0.27, 1.15),
  stock("TTE.PA", "TotalEnergies", "Euronext Paris", "eu", "FR", "Energy", 0.26, 0.9),
  stock("SAN.PA", "Sanofi", "Euronext Paris", "eu", "FR", "Health Care", 0.2, 0.6),
  stock("AIR.PA", "Airbus", "Euronext Paris", "eu", "FR", "Industrials", 0.3, 1.2),
  stock("SAP.DE", "SAP", "XETRA", "eu", "DE", "Information Technology", 0.24, 1.05),
  stock("SIE.DE", "Siemens", "XETRA", "eu", "DE", "Industrials", 0.25, 1.1),
  stock("ALV.DE", "Allianz", "XETRA", "eu", "DE", "Financials", 0.23, 1.0),
  stock("BAS.DE", "BASF", "XETRA", "eu", "DE", "Materials", 0.26, 1.1),
  stock("ENEL.MI", "Enel", "Borsa Italiana", "eu", "IT", "Utilities", 0.2, 0.7),
  stock(
    "ASML.AS",
    "ASML Holding",
    "Euronext Amsterdam",
    "eu",
    "NL",
    "Information Technology",
    0.35,
    1.4,
  ),
  fund("SPY", "SPDR S&P 500 ETF", "equity", "USD", "US large caps", 0.17, 1.0, "equity", "usa"),
  fund(
    "QQQ",
    "Invesco QQQ (Nasdaq-100)",
    "equity",
    "USD",
    "US technology",
    0.22,
    1.2,
    "equity",
    "usa",
  ),
  fund(
    "MSE.PA",
    "EURO STOXX 50 UCITS ETF",
    "equity",
    "EUR",
    "Euro area large caps",
    0.19,
    1.0,
    "equity",
    "eu",
  ),
  fund(
    "EEM",
    "iShares MSCI Emerging Markets",
    "equity",
    "USD",
    "Emerging markets",
    0.21,
    0.9,
    "equity",
    "em",
  ),
  fund("VT", "Vanguard Total World Stock", "equity", "USD", "World equities", 0.16, 0.95, "equity"),
  fund(
    "TLT",
    "iShares 20+ Year Treasury Bond",
    "fixed_income",
    "USD",
    "US Treasuries 20y+",
    0.15,
    1.6,
    "rates",
    "usa",
  ),
  fund(
    "IEF",
    "iShares 7-10 Year Treasury Bond",
    "fixed_income",
    "USD",
    "US Treasuries 7-10y",
    0.07,
    0.8,
    "rates",
    "usa",
  ),
  fund(
    "EURGOV10Y_TR",
    "Euro government bond 10y",
    "fixed_income",
    "EUR",
    "Euro government 10y",
    0.06,
    0.8,
    "rates",
    "eu",
  ),
  fund(
    "LQD",
    "iShares iBoxx $ Investment Grade Corporate",
    "fixed_income",
    "USD",
    "US corporate IG",
    0.08,
    0.7,
    "rates",
    "usa",
  ),
  fund("GLD", "SPDR Gold Shares", "commodities", "USD", "Gold", 0.15, 0.6, "commodities"),
  fund(
    "DBC",
    "Invesco DB Commodity Index",
    "commodities",
    "USD",
    "Broad commodities",
    0.2,
    1.0,
    "commodities",
  ),
  fund("BTC-USD", "Bitcoin (USD)", "crypto", "USD", "Bitcoin", 0.65, 1.0, "crypto"),
  fund(
    "CASH_EUR",
    "Euro money market",
    "money_market",
    "EUR",
    "3-month Euribor",
    0.005,
    0,
    "cash",
    "eu",
  ),
  fund(
    "CASH_USD",
    "US dollar money market",
    "money_market",
    "USD",
    "3-month T-bill",
    0.005,
    0,
    "cash",
    "usa",
  ),
  fund("VNQ", "Vanguard Real Estate", "real_estate", "USD", "US REITs", 0.22, 0.9, "equity", "usa"),
  {
    symbol: "GSPC_INDEX",
    name: "S&P 500",
    kind: "index",
    universe: "market",
    region: "usa",
    currency: "USD",
    sector: "US large caps",
    vol: 0.17,
    beta: 1.0,
    factor: "equity",
    start: 4500,
  },
  {
    symbol: "STOXX50E_INDEX",
    name: "EURO STOXX 50",
    kind: "index",
    universe: "market",
    region: "eu",
    currency: "EUR",
    sector: "Euro area large caps",
    vol: 0.19,
    beta: 1.0,
    factor: "equity",
    start: 4200,
  },
  {
    symbol: "IBEX_INDEX",
    name: "IBEX 35",
    kind: "index",
    universe: "market",
    region: "eu",
    country: "ES",
    currency: "EUR",
    sector: "Spanish large caps",
    vol: 0.2,
    beta: 1.05,
    factor: "equity",
    start: 10_000,
  },
  {
    symbol: "EURUSD",
    name: "EUR/USD",
    kind: "fx",
    universe: "market",
    region: "global",
    currency: "USD",
    sector: "USD per 1 EUR",
    vol: 0.07,
    beta: 0,
    factor: "cash",
    start: 1.1,
  }, // More stocks for a real choice in the banana challenge (at least 30 per region). Appended after
  // the rest so every other series keeps its draws.
  stock("BAC", "Bank of America", "NYSE", "usa", "US", "Financials", 0.3, 1.3),
  stock("CSCO", "Cisco", "NASDAQ", "usa", "US", "Information Technology", 0.26, 1.0),
  stock("HD", "Home Depot", "NYSE", "usa", "US", "Consumer Discretionary", 0.24, 1.0),
  stock("INTC", "Intel", "NASDAQ", "usa", "US", "Information Technology", 0.34, 1.2),
  stock("MA", "Mastercard", "NYSE", "usa", "US", "Financials", 0.24, 1.05),
  stock("META", "Meta Platforms", "NASDAQ", "usa", "US", "Communication Services", 0.38, 1.3),
  stock("NFLX", "Netflix", "NASDAQ", "usa", "US", "Communication Services", 0.42, 1.3),
  stock("PFE", "Pfizer", "NYSE", "usa", "US", "Health Care", 0.22, 0.65),
  stock("UNH", "UnitedHealth Group", "NYSE", "usa", "US", "Health Care", 0.24, 0.75),
  stock("COST", "Costco", "NASDAQ", "usa", "US", "Consumer Staples", 0.2, 0.8),
  stock("PEP", "PepsiCo", "NASDAQ", "usa", "US", "Consumer Staples", 0.17, 0.6),
  stock("AMD", "Advanced Micro Devices", "NASDAQ", "usa", "US", "Information Technology", 0.5, 1.7),
  stock("CVX", "Chevron Corporation", "NYSE", "usa", "US", "Energy", 0.29, 0.95),
  stock("LLY", "Eli Lilly", "NYSE", "usa", "US", "Health Care", 0.27, 0.6),
  stock("MRK", "Merck & Co.", "NYSE", "usa", "US", "Health Care", 0.2, 0.55),
  stock("WMT", "Walmart", "NYSE", "usa", "US", "Consumer Staples", 0.18, 0.55),
  stock("GE", "GE Aerospace", "NYSE", "usa", "US", "Industrials", 0.32, 1.2),
  stock("SBUX", "Starbucks", "NASDAQ", "usa", "US", "Consumer Discretionary", 0.28, 1.0),
  stock("ACS.MC", "ACS", "BME", "eu", "ES", "Industrials", 0.24, 1.0),
  stock("AENA.MC", "Aena", "BME", "eu", "ES", "Industrials", 0.26, 1.0),
  stock("AMS.MC", "Amadeus IT Group", "BME", "eu", "ES", "Information Technology", 0.28, 1.1),
  stock("CABK.MC", "CaixaBank", "BME", "eu", "ES", "Financials", 0.32, 1.3),
  stock("ELE.MC", "Endesa", "BME", "eu", "ES", "Utilities", 0.2, 0.6),
  stock("FER.MC", "Ferrovial", "BME", "eu", "ES", "Industrials", 0.24, 0.95),
  stock("MAP.MC", "Mapfre", "BME", "eu", "ES", "Financials", 0.24, 0.95),
  stock("BNP.PA", "BNP Paribas", "Euronext Paris", "eu", "FR", "Financials", 0.3, 1.3),
  stock("OR.PA", "L’Oréal", "Euronext Paris", "eu", "FR", "Consumer Staples", 0.2, 0.8),
  stock("SU.PA", "Schneider Electric", "Euronext Paris", "eu", "FR", "Industrials", 0.26, 1.15),
  stock("DG.PA", "Vinci", "Euronext Paris", "eu", "FR", "Industrials", 0.23, 1.0),
  stock("BMW.DE", "BMW", "XETRA", "eu", "DE", "Consumer Discretionary", 0.28, 1.2),
  stock("DTE.DE", "Deutsche Telekom", "XETRA", "eu", "DE", "Communication Services", 0.19, 0.65),
  stock("MUV2.DE", "Munich Re", "XETRA", "eu", "DE", "Financials", 0.21, 0.85),
  stock("ISP.MI", "Intesa Sanpaolo", "Borsa Italiana", "eu", "IT", "Financials", 0.3, 1.3),
  stock("INGA.AS", "ING Groep", "Euronext Amsterdam", "eu", "NL", "Financials", 0.3, 1.3),
];

/** Business days (Monday to Friday) ending on `end`, oldest first. */
function businessDays(end: string, count: number): string[] {
  const days: string[] = [];
  const d = new Date(`${end}T00:00:00Z`);
  while (days.length < count) {
    const dow = d.getUTCDay();
    if (dow !== 0 && dow !== 6) days.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() - 1);
  }
  return days.reverse();
}

export interface SimulatedOptions {
  /** The simulated market's "today". */
  readonly end: string;
  /** Trading days of history (default 8 years). */
  readonly days?: number;
  readonly seed?: number;
}

/** Builds the simulated dataset; the server imports it like any other. */
export function simulatedDataset(options: SimulatedOptions): Dataset {
  const days = businessDays(options.end, options.days ?? 2016);
  const random = createRandom(options.seed ?? 20_260_101);
  const daily = 1 / Math.sqrt(252);
  const factorVol: Record<Factor, number> = {
    equity: 0.16,
    rates: 0.08,
    commodities: 0.18,
    crypto: 0.6,
    cash: 0,
  };
  const t = days.length;
  const factors: Record<Factor, Float64Array> = {
    equity: new Float64Array(t),
    rates: new Float64Array(t),
    commodities: new Float64Array(t),
    crypto: new Float64Array(t),
    cash: new Float64Array(t),
  };
  for (let k = 1; k < t; k++) {
    const eq = random.normal();
    factors.equity[k] = factorVol.equity * daily * eq;
    // Bonds gain a little when stocks fall (flight to quality): correlation about -0.3.
    factors.rates[k] =
      factorVol.rates * daily * (-0.3 * eq + Math.sqrt(1 - 0.09) * random.normal());
    factors.commodities[k] =
      factorVol.commodities * daily * (0.3 * eq + Math.sqrt(1 - 0.09) * random.normal());
    factors.crypto[k] =
      factorVol.crypto * daily * (0.2 * eq + Math.sqrt(1 - 0.04) * random.normal());
  }
  const assets: AssetRecord[] = [];
  const prices = new Map<string, Series>();
  for (const spec of simulatedCatalogue) {
    const f = factors[spec.factor];
    const systematic = Math.min(spec.beta * factorVol[spec.factor], spec.vol * 0.95);
    const idio = Math.sqrt(Math.max(spec.vol ** 2 - systematic ** 2, 0)) * daily;
    const drift = (spec.factor === "cash" ? 0.02 : 0.03 + 0.04 * spec.beta) / 252;
    const values: number[] = [];
    let level = spec.start;
    for (let k = 0; k < t; k++) {
      if (k > 0) {
        const move =
          spec.kind === "fx"
            ? spec.vol * daily * random.normal()
            : drift + spec.beta * f[k]! + idio * random.normal();
        level *= Math.max(1 + move, 0.05);
      }
      values.push(Number(level.toPrecision(6)));
    }
    prices.set(spec.symbol, { dates: days, values });
    assets.push({
      symbol: spec.symbol,
      name: spec.name,
      kind: spec.kind,
      universe: spec.universe,
      exchange: spec.exchange ?? null,
      assetClass: spec.assetClass ?? null,
      region: spec.region,
      country: spec.country ?? null,
      currency: spec.currency,
      sector: spec.sector,
      firstDate: days[0]!,
      lastDate: days.at(-1)!,
      sourceId: "simulated",
    });
  }
  return { assets, prices, macro: simulatedMacro(days, factors.rates, options.seed ?? 20_260_101) };
}

/**
 * The macro series the what-if factors read (docs/analytics.md, "What-if"): the US and German
 * 10-year yields in percent, daily, moving against the bond factor (a bond return of r is a yield
 * change of about -r / 7.5 for a 10-year duration), and monthly US CPI and euro-area HICP index
 * levels whose year-on-year inflation wanders around 2%. A separate random stream, so that the
 * prices do not depend on them.
 */
function simulatedMacro(
  days: readonly string[],
  bondFactor: Float64Array,
  seed: number,
): Map<string, Series> {
  const random = createRandom(seed + 1);
  const daily = 1 / Math.sqrt(252);
  const yields = (start: number, idio: number) => {
    const values: number[] = [];
    let y = start;
    for (let k = 0; k < days.length; k++) {
      if (k > 0) y += (-bondFactor[k]! / 7.5) * 100 + idio * daily * random.normal();
      values.push(Number(y.toFixed(3)));
    }
    return { dates: [...days], values };
  };
  const months: string[] = [];
  for (let m = new Date(`${days[0]!.slice(0, 7)}-01T00:00:00Z`); ;) {
    const iso = m.toISOString().slice(0, 10);
    if (iso > days.at(-1)!) break;
    months.push(iso);
    m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
  }
  const priceIndex = (start: number) => {
    // Monthly inflation: mean-reverting around 2% a year (AR(1), 0.9 a month).
    const values: number[] = [];
    let level = start;
    let monthly = 0.02 / 12;
    for (let k = 0; k < months.length; k++) {
      if (k > 0) {
        monthly = 0.02 / 12 + 0.9 * (monthly - 0.02 / 12) + 0.0012 * random.normal();
        level *= 1 + monthly;
      }
      values.push(Number(level.toFixed(3)));
    }
    return { dates: months, values };
  };
  return new Map([
    ["US10Y", yields(2.8, 0.3)],
    ["DE10Y", yields(0.9, 0.3)],
    ["US_CPI", priceIndex(250)],
    ["EA_HICP", priceIndex(105)],
  ]);
}
