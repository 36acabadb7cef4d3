// Saved portfolios over time and out of the app: the daily valuation (value by hand from the
// prices, return since saving chained across an edition, risk and score of the analysis, the
// community percentile), the analysis and history endpoints, and the CSV and PDF exports.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../src/contract/common.ts";
import { decode } from "../../src/contract/decode.ts";
import type { Tier } from "../../src/contract/permissions.ts";
import { AnalysisResponse, type FullAnalysis } from "../../src/contract/analytics.ts";
import { PortfolioHistory, type Portfolio } from "../../src/contract/portfolios.ts";
import { communityPercentile } from "../../src/engine/scores.ts";
import { createSession } from "../../src/server/accounts/sessions.ts";
import type { AnalyticsPool } from "../../src/server/analytics/pool.ts";
import type { Database } from "../../src/server/db/database.ts";
import {
  clients,
  portfolios,
  portfolioValuations,
  subscriptions,
} from "../../src/server/db/schema.ts";
import type { Dataset, Series } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { allocateCents } from "../../src/server/portfolios/amounts.ts";
import { portfolioPdf } from "../../src/server/portfolios/exports.ts";
import { pdfString, winAnsi } from "../../src/server/portfolios/pdf.ts";
import { updatePercentiles, valuePortfolios } from "../../src/server/portfolios/valuation.ts";
import type { ApiAgent, ApiMethod } from "../support/accounts.ts";
import { databaseTargets } from "../support/databases.ts";
import { openMarketApp, type TestApp } from "../support/market-app.ts";
import { checkPdf } from "../support/pdf-file.ts";

const TODAY = "2026-11-20";
const full = simulatedDataset({ end: TODAY, days: 1100 });
/** The save day: five business days before the market's last day. */
const SAVE_DAY = full.prices.get("AAPL")!.dates.at(-6)!;

/** The same market as it was on `day`. */
function marketOn(day: string): Dataset {
  return {
    assets: full.assets,
    prices: new Map(
      [...full.prices].map(([symbol, s]) => {
        const keep = s.dates.filter((d) => d <= day).length;
        return [symbol, { dates: s.dates.slice(0, keep), values: s.values.slice(0, keep) }];
      }),
    ),
    macro: new Map(),
  };
}

/** The close of a series on or before a day, as the valuation reads it. */
function closeOn(series: Series, day: string): number {
  let k = -1;
  series.dates.forEach((d, i) => {
    if (d <= day) k = i;
  });
  return series.values[k]!;
}

/** EUR value of an amount invested in `symbol` on the save day, by hand from the dataset. */
function handValue(symbol: string, amount: number, day: string): number {
  const asset = full.assets.find((a) => a.symbol === symbol)!;
  const prices = full.prices.get(symbol)!;
  const fx = full.prices.get("EURUSD")!;
  const inEur = (d: string) =>
    asset.currency === "USD" ? closeOn(prices, d) / closeOn(fx, d) : closeOn(prices, d);
  return (amount * inEur(day)) / inEur(SAVE_DAY);
}

describe.each(databaseTargets)("portfolio valuation and exports on $name", (target) => {
  let database: Database;
  let pool: AnalyticsPool;
  let api: ApiAgent;
  let app: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, pool, api, app, close } = await openMarketApp(target, {
      datasets: [marketOn(SAVE_DAY)],
      workers: 2,
    }));
  });
  afterAll(async () => {
    await close();
  });

  const request = (method: ApiMethod, url: string, token?: string, body?: unknown) =>
    api.request(method, url, { body, ...(token ? { token } : {}) });
  const json = <T = any>(method: ApiMethod, url: string, token?: string, body?: unknown) =>
    api.call<T>(method, url, { body, ...(token ? { token } : {}) });

  async function client(tiers: Partial<Record<Product, Tier>>) {
    const [row] = await database.db
      .insert(clients)
      .values({
        email: `v-${randomBytes(5).toString("hex")}@example.test`,
        policiesVersion: "2026-01", // the policy in force (POLICY_VERSION's default)
        passwordHash: "unused",
        name: "Test",
        surname: "Client",
        emailConfirmed: true,
      })
      .returning({ id: clients.id });
    for (const [product, tier] of Object.entries(tiers))
      await database.db.insert(subscriptions).values({
        clientId: row!.id,
        product,
        tier,
        planId: 5,
        active: true,
        expiryDate: new Date(Date.now() + 86_400_000),
      });
    return (await createSession(database.db, row!.id, 1)).token;
  }

  const P1 = { AAPL: 6000, "SAN.MC": 3000, TLT: 1000 };
  const save = async (
    token: string,
    amounts: Record<string, number>,
    query = "",
    extra: Record<string, unknown> = {},
  ) => {
    const res = await json<Portfolio>("POST", `/portfolios${query}`, token, {
      name: "Valued",
      currency: "EUR",
      maxAssetsLevel: 2,
      assets: Object.entries(amounts).map(([id, investedAmount]) => ({ id, investedAmount })),
      ...extra,
    });
    if (res.status !== 201) throw new Error(`save answered ${res.status}`);
    // The save is answered once committed; its first valuation follows the answer.
    await app.settled();
    const read = await json<Portfolio>("GET", `/portfolios/${res.body.id}${query}`, token);
    if (read.status !== 200) throw new Error(`read answered ${read.status}`);
    return read.body;
  };

  let advanced: string;
  let standard: string;
  /** The simAssets portfolios saved, with their owner's token. */
  const saved: { p: Portfolio; token: string }[] = [];

  it("values a portfolio on its save day at what was invested, with the analysis' risk and score", async () => {
    advanced = await client({ simAssets: "advanced" });
    const p = await save(advanced, P1);
    saved.push({ p, token: advanced });
    expect(p.valuation).toMatchObject({
      date: SAVE_DAY,
      value: 10_000,
      return: 0,
      communityPercentile: 100,
    });
    const analysis = await json("GET", `/portfolios/${p.id}/analysis`, advanced);
    expect(analysis.status).toBe(200);
    expect(p.valuation!.risk).toBeCloseTo(analysis.body.var.parametric.var, 12);
    expect(p.valuation!.score).toBeCloseTo(analysis.body.scores.global, 12);
  });

  it("answers the analysis of POST /analytics/analyse, with the community percentile when permitted", async () => {
    const { p } = saved[0]!;
    const mine = await json("GET", `/portfolios/${p.id}/analysis`, advanced);
    expect(decode(AnalysisResponse, mine.body).ok).toBe(true);
    const direct = await json("POST", "/analytics/analyse", advanced, {
      currency: "EUR",
      benchmark: 5,
      assets: Object.entries(P1).map(([symbol, amount]) => ({ symbol, investedAmount: amount })),
    });
    expect(mine.body).toEqual({
      ...direct.body,
      scores: { ...direct.body.scores, communityGlobal: 100 },
    });
    standard = await client({ simAssets: "standard" });
    const other = await save(standard, { KO: 5000, PG: 5000 });
    saved.push({ p: other, token: standard });
    const theirs = await json("GET", `/portfolios/${other.id}/analysis`, standard);
    expect(theirs.body.scores.communityGlobal).toBeNull();
  });

  it("ranks the product's portfolios of the day by global score (community percentile)", async () => {
    const token = await client({ simAssets: "advanced" });
    saved.push({ p: await save(token, { NVDA: 9000, "BTC-USD": 1 }), token });
    const rows = await Promise.all(
      saved.map(({ p, token }) => json<Portfolio>("GET", `/portfolios/${p.id}`, token)),
    );
    const scores = rows.map((r) => r.body.valuation!.score);
    expect(new Set(scores).size).toBe(3);
    rows.forEach((r, i) => {
      const others = scores.filter((_, j) => j !== i);
      expect(r.body.valuation!.communityPercentile).toBeCloseTo(
        communityPercentile(scores[i]!, others),
        9,
      );
    });
    expect(rows.map((r) => r.body.valuation!.communityPercentile).sort((a, b) => a! - b!)).toEqual([
      0, 50, 100,
    ]);
    // Another product is another community.
    const indices = await client({ simIndices: "advanced" });
    const alone = await save(indices, { SPY: 100 }, "?stc=simIndices");
    expect(alone.valuation!.communityPercentile).toBe(100);
  });

  it("computes the percentile in the database as the engine does, ties counting half", async () => {
    const [owner] = await database.db
      .insert(clients)
      .values({ email: "ties@example.test", passwordHash: "x", name: "T", surname: "T" })
      .returning({ id: clients.id });
    const scores = [30, 10, 20, 20, 45.5, 10];
    const rows = await database.db
      .insert(portfolios)
      .values(
        scores.map((_, i) => ({
          clientId: owner!.id,
          product: "simMonk",
          name: `t${i}`,
          saved: true,
        })),
      )
      .returning({ id: portfolios.id });
    const day = "2020-01-02";
    await database.db.insert(portfolioValuations).values(
      rows.map((r, i) => ({
        portfolioId: r.id,
        date: day,
        value: 1,
        return: 0,
        risk: 0.05,
        score: scores[i]!,
      })),
    );
    // A valuation of another day is another community.
    await database.db.insert(portfolioValuations).values({
      portfolioId: rows[0]!.id,
      date: "2020-01-03",
      value: 1,
      return: 0,
      risk: 0,
      score: 1,
    });
    await updatePercentiles(database.db, "simMonk", day);
    const stored = await database.db.select().from(portfolioValuations);
    rows.forEach((r, i) => {
      const v = stored.find((s) => s.portfolioId === r.id && s.date === day)!;
      expect(v.communityPercentile).toBeCloseTo(
        communityPercentile(
          scores[i]!,
          scores.filter((_, j) => j !== i),
        ),
        12,
      );
    });
    expect(
      stored.find((s) => s.portfolioId === rows[0]!.id && s.date === "2020-01-03")!
        .communityPercentile,
    ).toBeNull();
    await database.db.delete(portfolios).where(eq(portfolios.clientId, owner!.id));
  });

  it("values every saved portfolio on the market's new day, by hand from the prices", async () => {
    await importDataset(database.db, full, "simulated");
    const run = await valuePortfolios(database.db, pool);
    expect(run).toMatchObject({ date: TODAY, skipped: 0 });
    expect(run.valued).toBeGreaterThanOrEqual(3);
    const p = await json<Portfolio>("GET", `/portfolios/${saved[0]!.p.id}`, advanced);
    const value = Object.entries(P1).reduce((s, [symbol, a]) => s + handValue(symbol, a, TODAY), 0);
    expect(p.body.valuation!.date).toBe(TODAY);
    expect(p.body.valuation!.value).toBeCloseTo(value, 8);
    expect(p.body.valuation!.return).toBeCloseTo(value / 10_000 - 1, 12);
    expect(Math.abs(value - 10_000)).toBeGreaterThan(1);
    const history = await json("GET", `/portfolios/${saved[0]!.p.id}/history`, advanced);
    expect(decode(PortfolioHistory, history.body).ok).toBe(true);
    expect(history.body.dates).toEqual([SAVE_DAY, TODAY]);
    expect(history.body.values[0]).toBe(10_000);
    expect(history.body.values[1]).toBeCloseTo(value, 8);
    expect(history.body.returns[0]).toBe(0);
    // The risk of the day is the analysis of the holdings at their new worth.
    const worth = await json("POST", "/analytics/analyse", advanced, {
      currency: "EUR",
      benchmark: 5,
      assets: Object.entries(P1).map(([symbol, a]) => ({
        symbol,
        investedAmount: handValue(symbol, a, TODAY),
      })),
    });
    expect(history.body.risks[1]).toBeCloseTo(worth.body.var.parametric.var, 9);
    expect(history.body.scores[1]).toBeCloseTo(worth.body.scores.global, 9);
    // Several instances may value the same day at once (each after an import, or at start): the
    // day's row of each portfolio is written once, with the same figures.
    const before = await database.db.select().from(portfolioValuations);
    const runs = await Promise.all([
      valuePortfolios(database.db, pool),
      valuePortfolios(database.db, pool),
    ]);
    expect(runs.map((r) => r.date)).toEqual([TODAY, TODAY]);
    const after = await database.db.select().from(portfolioValuations);
    expect(after).toHaveLength(before.length);
    const key = (v: { portfolioId: number; date: string }) => `${v.portfolioId}:${v.date}`;
    expect(new Set(after.map(key)).size).toBe(after.length);
    for (const v of after.filter((x) => x.date === TODAY)) {
      const was = before.find((b) => key(b) === key(v))!;
      expect(v.value).toBeCloseTo(was.value, 9);
      expect(v.risk).toBeCloseTo(was.risk!, 9);
    }
    // The check at start values only portfolios without today's row.
    expect(
      (await valuePortfolios(database.db, pool, undefined, { onlyMissing: true })).valued,
    ).toBe(0);
  });

  it("chains the return across an edition: new holdings priced from the edition's day", async () => {
    const before = await json<Portfolio>("GET", `/portfolios/${saved[0]!.p.id}`, advanced);
    const edited = await json<Portfolio>("PUT", `/portfolios/${saved[0]!.p.id}`, advanced, {
      version: before.body.version,
      assets: [
        { id: "AAPL", investedAmount: 2000 },
        { id: "KO", investedAmount: 2000 },
      ],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.valuation!.date).toBe(TODAY);
    expect(edited.body.valuation!.value).toBeCloseTo(4000, 9);
    expect(edited.body.valuation!.return).toBeCloseTo(before.body.valuation!.return, 12);
    expect(edited.body.initialInvested).toBe(10_000);
  });

  it("exports the holdings as CSV: BOM, header, one row per asset, total, dot decimals", async () => {
    const p = await save(advanced, { "SAN.MC": 1234.5, AAPL: 765.5, "TEF.MC": 1000 });
    for (const lang of ["en", "es"]) {
      const res = await request("GET", `/portfolios/${p.id}/export.csv?lang=${lang}`, advanced);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="portfolio-${p.id}.csv"`,
      );
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
      expect(lines.at(-1)).toBe("");
      const header =
        lang === "es"
          ? "Símbolo,Nombre,Grupo,Divisa,Importe invertido (EUR),Porcentaje (%),Volatilidad 3 años (%)"
          : "Symbol,Name,Group,Currency,Invested amount (EUR),Percentage (%),Volatility 3y (%)";
      expect(lines[0]).toBe(header);
      const rows = lines.slice(1, -2).map((l) => l.split(","));
      expect(rows.map((r) => r.slice(0, 6))).toEqual([
        ["SAN.MC", "Banco Santander", "BME", "EUR", "1234.50", "41.1500"],
        ["TEF.MC", "Telefónica", "BME", "EUR", "1000.00", "33.3333"],
        ["AAPL", "Apple Inc.", "NASDAQ", "USD", "765.50", "25.5167"],
      ]);
      for (const r of rows) expect(Number(r[6])).toBeGreaterThan(5);
      expect(lines.at(-2)).toBe(`${lang === "es" ? "Total" : "Total"},,,EUR,3000.00,100.0000,`);
    }
  });

  it("exports a PDF report: PDF 1.4 with a valid xref, the holdings and the risk, in en or es", async () => {
    const p = await json<Portfolio>("GET", `/portfolios/${saved[0]!.p.id}`, advanced);
    for (const lang of ["en", "es"]) {
      const res = await request(
        "GET",
        `/portfolios/${p.body.id}/export.pdf?lang=${lang}`,
        advanced,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-disposition")).toContain("attachment;");
      const file = Buffer.from(await res.arrayBuffer()).toString("latin1");
      checkPdf(file);
      for (const symbol of ["AAPL", "KO"]) expect(file).toContain(`(${symbol}) Tj`);
      expect(file).toContain(lang === "es" ? "(Informe de cartera) Tj" : "(Portfolio report) Tj");
      // Parentheses inside a PDF string are escaped.
      expect(file).toContain(
        lang === "es" ? "(VaR 95 \\(param\\351trico\\)) Tj" : "(VaR 95 \\(parametric\\)) Tj",
      );
      expect(file).toContain(" re f");
    }
  });

  it("refuses exports without the export permission (403 EXPORT_FORBIDDEN)", async () => {
    const banana = await client({ simMonk: "standard" });
    // A banana portfolio, made through the banana challenge (the only way to make one).
    const universe = await json<{ stocks: { symbol: string; close: number }[] }>(
      "GET",
      "/banana/universe?region=eu",
      banana,
    );
    const stock = [...universe.body.stocks].sort((a, b) => a.close - b.close)[0]!;
    const created = await json<{ id: number }>("POST", "/banana/portfolios", banana, {
      name: "Bananas",
      region: "eu",
      assets: [{ id: stock.symbol, shares: Math.floor(10_000 / stock.close) }],
    });
    expect(created.status).toBe(201);
    const p = created.body;
    for (const ext of ["csv", "pdf"]) {
      const res = await json("GET", `/portfolios/${p.id}/export.${ext}`, banana);
      expect(res.status).toBe(403);
      expect(res.body.msgCode).toBe("EXPORT_FORBIDDEN");
    }
  });
});

describe("amounts in cents and PDF strings", () => {
  it("splits an amount into cents that sum exactly to it, remainders to the largest fractions", () => {
    expect(allocateCents([1, 1, 1], 100)).toEqual([33.34, 33.33, 33.33]);
    expect(allocateCents([0.5, 0.25, 0.25], 0.03)).toEqual([0.01, 0.01, 0.01]);
    expect(allocateCents([0.6, 0.3, 0.1], 0.02)).toEqual([0.01, 0.01, 0]);
    expect(allocateCents([2, 0, -1, 1], 10)).toEqual([6.67, 0, 0, 3.33]);
    const odd = allocateCents([0.1, 0.2, 0.3, 0.4], 1234.57);
    expect(Math.round(odd.reduce((s, a) => s + a, 0) * 100)).toBe(123_457);
    expect(() => allocateCents([0, 0], 10)).toThrow();
  });

  it("continues a long holdings table on further pages, each with its header", () => {
    const assets = Array.from({ length: 60 }, (_, i) => ({
      id: `S${i}`,
      name: `Stock number ${i} with a rather long name that does not fit`,
      investedAmount: 1000 + i,
      percentage: 100 / 60,
      volatilities: { 1: null, 2: null, 3: null, 4: null, 5: 0.2, 6: null },
      currency: "EUR",
      stale: false,
    }));
    const portfolio = {
      id: 1,
      name: "Sixty",
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
          assets,
        },
      ],
      totalInvested: assets.reduce((s, a) => s + a.investedAmount, 0),
    } as unknown as Portfolio;
    const figure = { var: 0.05, cvar: 0.06, varAmount: 3000, cvarAmount: 3600 };
    const analysis = {
      var: { parametric: figure, historical: figure, monteCarlo: null },
      volatility: { annual: 0.15 },
      window: { from: "2023-11-20", to: "2026-11-20", observations: 756 },
    } as unknown as FullAnalysis;
    const file = Buffer.from(
      portfolioPdf(portfolio, analysis, {
        lang: "en",
        edition: "ht",
        today: TODAY,
        simulated: false,
      }),
    ).toString("latin1");
    expect(checkPdf(file).pages).toBe(2);
    expect(file.match(/\(Holdings\) Tj/g)).toHaveLength(2);
    expect(file).toContain("(S59) Tj");
    expect(file).toContain("(Page 2 / 2) Tj");
    expect(file).toContain("\\205) Tj");
  });

  it("writes WinAnsi strings with escapes", () => {
    expect(pdfString("a(b)c\\d")).toBe("(a\\(b\\)c\\\\d)");
    expect(pdfString("Telefónica 5 €")).toBe("(Telef\\363nica 5 \\200)");
    expect(winAnsi("σ")).toEqual([0x3f]);
  });
});
