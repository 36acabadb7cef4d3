// A full analysis and a portfolio's past of the size the advanced plan can ask (30 holdings, ten
// years of trading days), made up from a seeded random walk: the inputs of the PDF report's unit
// tests and of its benchmark (scripts/bench/report.ts). The figures are plausible, not computed.
import type { FullAnalysis } from "../../src/contract/analytics.ts";
import type { Portfolio } from "../../src/contract/portfolios.ts";
import type { PastPerformanceAnswer } from "../../src/server/analytics/past-performance.ts";

/** Mulberry32: a small seeded generator. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weekdays(from: string, count: number): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  while (out.length < count) {
    const w = d.getUTCDay();
    if (w !== 0 && w !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const cents = (x: number) => Math.round(x * 100) / 100;

/** Underwater series and the five deepest falls of a value path. */
function drawdownsOf(values: readonly number[], dates: readonly string[]) {
  const underwater: number[] = [];
  let high = values[0]!;
  let highAt = 0;
  const falls: { depth: number; peak: number; trough: number; recovery: number | null }[] = [];
  let current: (typeof falls)[number] | null = null;
  values.forEach((v, k) => {
    if (v >= high) {
      if (current) {
        current.recovery = k;
        falls.push(current);
        current = null;
      }
      high = v;
      highAt = k;
    } else {
      const depth = 1 - v / high;
      if (!current) current = { depth, peak: highAt, trough: k, recovery: null };
      else if (depth > current.depth) Object.assign(current, { depth, trough: k });
    }
    underwater.push(round6(v / high - 1));
  });
  if (current) falls.push(current);
  const worst = falls
    .sort((a, b) => b.depth - a.depth)
    .slice(0, 5)
    .map((f) => ({
      depth: f.depth,
      start: dates[f.peak]!,
      trough: dates[f.trough]!,
      recovery: f.recovery === null ? null : dates[f.recovery]!,
      length: (f.recovery ?? values.length - 1) - f.peak,
      toTrough: f.trough - f.peak,
      toRecovery: f.recovery === null ? null : f.recovery - f.trough,
    }));
  return { underwater, maxDrawdown: worst[0]?.depth ?? 0, worst };
}

export interface ReportFixture {
  readonly portfolio: Portfolio;
  readonly analysis: FullAnalysis;
  readonly past: PastPerformanceAnswer;
}

export function reportFixture(options: { assets?: number; years?: number; seed?: number } = {}) {
  const n = options.assets ?? 30;
  const days = 252 * (options.years ?? 10);
  const next = random(options.seed ?? 7);
  const normal = () => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  const dates = weekdays("2016-01-04", days + 1);
  const total = 100_000;
  const symbols = Array.from({ length: n }, (_, i) => `S${String(i + 1).padStart(2, "0")}.MC`);
  const amounts = symbols.map((_, i) => 1000 + 100 * (i % 7));
  const sum = amounts.reduce((s, a) => s + a, 0);
  const weights = amounts.map((a) => a / sum);

  const portfolioPath = [total];
  const benchPath: (number | null)[] = [total];
  const pReturns: number[] = [];
  const bReturns: number[] = [];
  for (let t = 0; t < days; t++) {
    const market = 0.0003 + 0.011 * normal();
    const p = 0.7 * market + 0.0001 + 0.005 * normal();
    pReturns.push(p);
    bReturns.push(market);
    portfolioPath.push(cents(portfolioPath.at(-1)! * (1 + p)));
    benchPath.push(cents(benchPath.at(-1)! * (1 + market)));
  }
  const windowDays = 756;
  const windowStart = days - windowDays;
  const rebase = (path: readonly (number | null)[]) =>
    path.slice(windowStart).map((v) => cents((v! / path[windowStart]!) * total));

  const rolling = (returns: readonly number[]) => {
    const ret: number[] = [];
    const vol: number[] = [];
    for (let k = 252; k <= days; k++) {
      const w = returns.slice(k - 252, k);
      ret.push(round6(w.reduce((g, r) => g * (1 + r), 1) - 1));
      const mean = w.reduce((s, r) => s + r, 0) / w.length;
      const variance = w.reduce((s, r) => s + (r - mean) ** 2, 0) / (w.length - 1);
      vol.push(round6(Math.sqrt(variance * 252)));
    }
    return { ret, vol };
  };
  const pr = rolling(pReturns);
  const br = rolling(bReturns);

  const years = [...new Set(dates.map((d) => Number(d.slice(0, 4))))].map((year) => {
    const idx = dates.flatMap((d, k) => (Number(d.slice(0, 4)) === year ? [k] : []));
    const first = Math.max(1, idx[0]!);
    const last = idx.at(-1)!;
    const growth = (path: readonly (number | null)[]) => path[last]! / path[first - 1]! - 1;
    const portfolio = growth(portfolioPath);
    const benchmark = growth(benchPath);
    return {
      year,
      from: dates[first - 1]!,
      to: dates[last]!,
      observations: last - first + 1,
      partial: year === 2016 || last === days ? idx.length < 250 : false,
      portfolio,
      benchmark,
      difference: portfolio - benchmark,
    };
  });

  const matrix = symbols.map((_, i) =>
    symbols.map((_, j) =>
      i === j ? 1 : round6(0.2 + 0.6 * Math.cos(i - j) * (next() * 0.5 + 0.5)),
    ),
  );
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) matrix[i]![j] = matrix[j]![i]!;
  const whole = { from: dates[0]!, to: dates[days]!, observations: days, dataDate: dates[days]! };
  const coefficient = (estimate: number, standardError: number) => ({
    estimate,
    standardError,
    tStatistic: estimate / standardError,
  });

  const past: PastPerformanceAnswer = {
    currency: "EUR",
    totalInvested: total,
    today: dates[days]!,
    simulated: true,
    holdings: symbols.map((symbol, i) => ({
      symbol,
      name: `Holding ${i + 1}`,
      investedAmount: amounts[i]!,
      weight: weights[i]!,
      firstDate: dates[0]!,
    })),
    history: { from: dates[0]!, to: dates[days]!, observations: days, limitedBy: [symbols[0]!] },
    dates,
    window: { benchmark: 5, from: dates[windowStart]!, to: dates[days]!, observations: windowDays },
    benchmark: {
      series: "STOXX50E_INDEX",
      name: "EURO STOXX 50 (price index)",
      kind: "index",
      assetClass: null,
      currency: "EUR",
      chosen: false,
      from: dates[0]!,
    },
    growth: {
      method: "current-weights-daily",
      ...whole,
      full: {
        from: dates[0]!,
        to: dates[days]!,
        observations: days,
        start: 0,
        portfolio: portfolioPath,
        benchmark: benchPath,
      },
      window: {
        from: dates[windowStart]!,
        to: dates[days]!,
        observations: windowDays,
        start: windowStart,
        portfolio: rebase(portfolioPath),
        benchmark: rebase(benchPath),
      },
    },
    calendarYears: { method: "calendar-year-compounded", ...whole, years },
    rolling: {
      method: "rolling-window",
      ...whole,
      windowDays: 252,
      start: 252,
      portfolioReturn: pr.ret,
      portfolioVolatility: pr.vol,
      benchmarkReturn: br.ret,
      benchmarkVolatility: br.vol,
    },
    drawdowns: {
      method: "peak-to-recovery",
      ...whole,
      portfolio: drawdownsOf(portfolioPath, dates),
      benchmark: drawdownsOf(benchPath as number[], dates),
    },
    correlation: {
      method: "pearson-average-linkage",
      from: dates[windowStart]!,
      to: dates[days]!,
      observations: windowDays,
      dataDate: dates[days]!,
      assets: symbols.map((symbol, i) => ({
        symbol,
        name: `Holding ${i + 1}`,
        averageCorrelation: (matrix[i]!.reduce((s, v) => s + v, 0) - 1) / (n - 1),
        constant: false,
      })),
      matrix,
      order: symbols.map((_, i) => i),
      merges: [],
    },
    regression: {
      method: "ols-weekly",
      from: dates[windowStart]!,
      to: dates[days]!,
      observations: windowDays,
      dataDate: dates[days]!,
      periodDays: 5,
      periods: 151,
      degreesOfFreedom: 145,
      alpha: coefficient(0.0004, 0.0009),
      alphaAnnualised: coefficient(0.0202, 0.0454),
      factors: [
        { factor: "market", series: "STOXX50E_INDEX", beta: coefficient(0.71, 0.04) },
        { factor: "rates", series: "DE10Y", beta: coefficient(-0.12, 0.08) },
        { factor: "commodities", series: "GSCI", beta: coefficient(0.05, 0.03) },
        { factor: "inflation", series: "HICP", beta: coefficient(0.01, 0.02) },
      ],
      rSquared: 0.81,
      adjustedRSquared: 0.8,
      residualStandardError: 0.006,
      excluded: ["crypto"],
    },
    unavailable: [],
  };

  const figure = (method: "parametric" | "historical" | "monte-carlo", v: number) => ({
    method,
    confidence: 0.95,
    horizonDays: 21,
    var: v,
    cvar: v * 1.25,
    varAmount: cents(v * total),
    cvarAmount: cents(v * 1.25 * total),
    ...(method === "historical" ? { scaling: "overlapping" as const } : {}),
    ...(method === "monte-carlo" ? { scenarios: 10_000, seed: 1 } : {}),
  });
  const distribution = Array.from({ length: windowDays - 20 }, () =>
    round6(0.005 + 0.045 * normal()),
  );
  const analysis = {
    currency: "EUR",
    window: {
      benchmark: 5,
      observations: windowDays,
      from: dates[windowStart]!,
      to: dates[days]!,
      horizonDays: 21,
      confidence: 0.95,
      covariance: "ledoit-wolf",
      shrinkage: 0.2,
      ridge: 0,
      limitedBy: [],
      simulated: true,
    },
    totalInvested: total,
    assets: symbols.map((symbol, i) => ({
      symbol,
      name: `Holding ${i + 1}`,
      investedAmount: cents(weights[i]! * total),
      weight: weights[i]!,
      standAlone: 0.06,
      marginal: 0.05,
      contribution: 0.05 * weights[i]!,
      percentage: 100 * weights[i]!,
      varContributionAmount: 10,
      expectedReturn: 0.06,
      historicalReturn: 0.07,
      beta: 0.9,
      requiredReturn: 0.05,
    })),
    volatility: { daily: 0.009, horizon: 0.041, annual: 0.143 },
    var: {
      parametric: figure("parametric", 0.064),
      historical: figure("historical", 0.071),
      monteCarlo: figure("monte-carlo", 0.066),
    },
    diversification: {
      standAloneSum: 0.09,
      portfolio: 0.064,
      benefit: 0.026,
      reduction: 0.29,
      ratio: 0.71,
      standAloneVarSumAmount: 9000,
      portfolioVarAmount: 6400,
    },
    currencyRisk: null,
    expectedReturn: { portfolio: 0.062, shrinkage: 0.5, market: "STOXX50E_INDEX" },
    requiredReturn: { portfolio: 0.055, riskFreeRate: 0.02, targetSharpe: 0.3 },
    scores: { marketRisk: 6, riskReturn: 7, diversification: 8, global: 7, communityGlobal: null },
    breakdown: {},
    distribution,
  } as FullAnalysis;

  const portfolio = {
    id: 1,
    name: "Ten years, thirty holdings",
    product: "simAssets",
    currency: "EUR",
    benchmark: 5,
    assets: [
      {
        stockExchange: "BME",
        stockExchangeId: "BME",
        assetClass: null,
        assetClassId: null,
        position: 1,
        assets: symbols.map((id, i) => ({
          id,
          name: `Holding ${i + 1}`,
          investedAmount: amounts[i]!,
          percentage: 100 * weights[i]!,
          volatilities: { 1: null, 2: null, 3: null, 4: null, 5: 0.2, 6: null },
          currency: "EUR",
          stale: false,
        })),
      },
    ],
    totalInvested: sum,
  } as unknown as Portfolio;

  return { portfolio, analysis, past } satisfies ReportFixture;
}
