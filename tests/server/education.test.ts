// The education calls (docs/education.md): languages and Cache-Control, the plans' gates on video
// tutorials and courses, quizzes graded and kept on the server, and case-study figures checked
// against an independent computation from the raw closes (buy and hold: the value of each holding
// is its weight times its price relative to the first day).
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import {
  CaseStudyList,
  DictionaryList,
  SectionResult,
  SectionsResponse,
  type CaseStudy,
} from "../../src/contract/education.ts";
import type { Database } from "../../src/server/db/database.ts";
import { readDataset, type Dataset } from "../../src/server/market/dataset.ts";
import { configureMarket, marketView } from "../../src/server/market/market-view.ts";
import { caseStudyOf } from "../../src/server/education/case-studies.ts";
import { loadContent } from "../../src/server/education/content.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { createSession } from "../../src/server/accounts/sessions.ts";
import { clients } from "../../src/server/db/schema.ts";
import { eq } from "drizzle-orm";
import type { ApiAgent } from "../support/accounts.ts";
import { databaseTargets, signedInClient } from "../support/databases.ts";
import { hasMarketData, openMarketApp, sampleOfMarketData } from "../support/market-app.ts";

/** The figures of a buy-and-hold portfolio, computed from the dataset's closes without the engine. */
export function independentFigures(
  dataset: Dataset,
  holdings: readonly { symbol: string; weight: number }[],
  from: string,
  to: string,
) {
  const series = holdings.map((h) => {
    const s = dataset.prices.get(h.symbol)!;
    return new Map(s.dates.map((d, k) => [d, s.values[k]!]));
  });
  const days = [
    ...new Set(
      holdings.flatMap((h) =>
        dataset.prices.get(h.symbol)!.dates.filter((d) => d > from && d <= to),
      ),
    ),
  ].sort();
  const startPrice = holdings.map((h) => {
    const s = dataset.prices.get(h.symbol)!;
    let p = NaN;
    s.dates.forEach((d, k) => {
      if (d <= from) p = s.values[k]!;
    });
    return p;
  });
  const last = [...startPrice];
  const values = [1];
  for (const d of days) {
    let v = 0;
    holdings.forEach((h, j) => {
      const p = series[j]!.get(d);
      if (p !== undefined) last[j] = p;
      v += (h.weight * last[j]!) / startPrice[j]!;
    });
    values.push(v);
  }
  const daily = values.slice(1).map((v, k) => v / values[k]! - 1);
  const mean = daily.reduce((s, r) => s + r, 0) / daily.length;
  const sd = Math.sqrt(daily.reduce((s, r) => s + (r - mean) ** 2, 0) / (daily.length - 1));
  let peak = 1;
  let mdd = 0;
  for (const v of values) {
    peak = Math.max(peak, v);
    mdd = Math.max(mdd, 1 - v / peak);
  }
  return {
    totalReturn: values.at(-1)! - 1,
    volatility: sd * Math.sqrt(252),
    maxDrawdown: mdd,
  };
}

describe.each(databaseTargets)("the education calls on $name", (target) => {
  let database: Database;
  let api: ApiAgent;
  let close: () => Promise<void>;
  const dataset = simulatedDataset({ end: "2026-11-20" });
  beforeAll(async () => {
    ({ database, api, close } = await openMarketApp(target, { datasets: [dataset], workers: 1 }));
  }, 180_000);
  afterAll(() => close());

  const withToken = (token: string | null) => (token ? { token } : {});
  const get = (path: string, token: string | null = null, headers: Record<string, string> = {}) =>
    api.request("GET", path, { headers, ...withToken(token) });
  const post = (path: string, body: unknown, token: string | null) =>
    api.request("POST", path, { body, ...withToken(token) });

  it("answers the dictionary to everybody in the request's language, with Cache-Control", async () => {
    const es = await get("/dictionary-terms/list?lang=es");
    expect(es.status).toBe(200);
    expect(es.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const list = decode(DictionaryList, await es.json());
    if (!list.ok) throw new Error("the dictionary broke the contract");
    expect(list.value.language).toBe("es");
    expect(list.value.entries.length).toBeGreaterThanOrEqual(150);
    const varEs = list.value.entries.find((e) => e.id === "value-at-risk")!;
    expect(varEs.slug).toBe("valor-en-riesgo");
    const en = await get("/dictionary-terms/list", null, { "Accept-Language": "en-GB,en;q=0.9" });
    const enBody = (await en.json()) as DictionaryList;
    expect(enBody.language).toBe("en");
    expect(enBody.entries.find((e) => e.id === "value-at-risk")!.term).toMatch(/Value at risk/);
  });

  it("gates the video tutorials: 401 without a session, 403 on a free plan, 200 on standard", async () => {
    expect((await get("/videotutorials/list")).status).toBe(401);
    const free = await signedInClient(database, {});
    const refused = await get("/videotutorials/list?stc=simAssets", free.token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ msgCode: "PLAN_FEATURE_LOCKED" });
    const standard = await signedInClient(database, { simAssets: "standard" });
    const ok = await get("/videotutorials/list?stc=simAssets&lang=es", standard.token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toMatch(/^private/);
    expect(
      (await get("/videotutorials/files/nothing.webm?stc=simAssets", standard.token)).status,
    ).toBe(404);
  });

  it("gates the courses: 403 on the free and standard plans, 200 on advanced", async () => {
    expect((await get("/sections")).status).toBe(401);
    for (const tier of ["free", "standard"] as const) {
      const c = await signedInClient(database, { simAssets: tier });
      expect((await get("/sections?stc=simAssets", c.token)).status).toBe(403);
      expect(
        (
          await post(
            "/sections?stc=simAssets",
            { course: "risk-basics", section: "volatility", answers: [1, 1] },
            c.token,
          )
        ).status,
      ).toBe(403);
    }
  });

  it("opens videos and courses to TT accounts, whose programme includes them", async () => {
    const student = await signedInClient(database, { simAssets: "standard" });
    await database.db.update(clients).set({ kind: "TT" }).where(eq(clients.id, student.id));
    expect((await get("/sections?stc=simAssets", student.token)).status).toBe(200);
    expect((await get("/videotutorials/list?stc=simIndices", student.token)).status).toBe(200);
  });

  it("grades a quiz on the server and keeps the best score across sessions", async () => {
    const c = await signedInClient(database, { simAssets: "advanced" });
    const first = await get("/sections?stc=simAssets&lang=es", c.token);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const sections = decode(SectionsResponse, await first.json());
    if (!sections.ok) throw new Error("GET /sections broke the contract");
    const course = sections.value.courses.find((x) => x.id === "risk-basics")!;
    expect(course.title).toBe("Fundamentos del riesgo");
    expect(course.sections.every((s) => s.progress === null)).toBe(true);
    // The right answers never reach the client before it answers.
    expect(JSON.stringify(sections.value)).not.toContain('"answer"');

    const wrong = await post(
      "/sections?stc=simAssets&lang=en",
      { course: "risk-basics", section: "volatility", answers: [0, 0] },
      c.token,
    );
    expect(wrong.status).toBe(200);
    const graded = decode(SectionResult, await wrong.json());
    if (!graded.ok) throw new Error("POST /sections broke the contract");
    expect(graded.value.score).toBe(0);
    expect(graded.value.results.map((r) => r.answer)).toEqual([1, 1]);
    expect(graded.value.progress).toMatchObject({ bestScore: 0, attempts: 1, passed: false });

    const right = (await (
      await post(
        "/sections?stc=simAssets",
        { course: "risk-basics", section: "volatility", answers: [1, 1] },
        c.token,
      )
    ).json()) as SectionResult;
    expect(right.progress).toMatchObject({ bestScore: 2, lastScore: 2, attempts: 2, passed: true });
    const worse = (await (
      await post(
        "/sections?stc=simAssets",
        { course: "risk-basics", section: "volatility", answers: [1, 0] },
        c.token,
      )
    ).json()) as SectionResult;
    expect(worse.progress).toMatchObject({ bestScore: 2, lastScore: 1, attempts: 3, passed: true });

    // Another session of the same client (another device) sees the same progress.
    const other = (await createSession(database.db, c.id, 1)).token;
    const again = (await (await get("/sections?stc=simAssets", other)).json()) as SectionsResponse;
    const section = again.courses
      .find((x) => x.id === "risk-basics")!
      .sections.find((s) => s.id === "volatility")!;
    expect(section.progress).toMatchObject({
      bestScore: 2,
      lastScore: 1,
      attempts: 3,
      passed: true,
    });
  });

  it("refuses answers to an unknown section or in the wrong number", async () => {
    const c = await signedInClient(database, { simAssets: "advanced" });
    const unknown = await post(
      "/sections?stc=simAssets",
      { course: "risk-basics", section: "no-such-section", answers: [0] },
      c.token,
    );
    expect(unknown.status).toBe(404);
    const short = await post(
      "/sections?stc=simAssets",
      { course: "risk-basics", section: "volatility", answers: [1] },
      c.token,
    );
    expect(short.status).toBe(400);
    const bad = await post("/sections?stc=simAssets", { course: "Risk Basics" }, c.token);
    expect(bad.status).toBe(400);
  });

  it("computes each case study on the data it has and says which", async () => {
    const res = await get("/case-studies/list?lang=en");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const list = decode(CaseStudyList, await res.json());
    if (!list.ok) throw new Error("the case studies broke the contract");
    expect(list.value.asOf).toBe("2026-11-20");
    expect(list.value.caseStudies.length).toBeGreaterThanOrEqual(6);
    const byId = new Map(list.value.caseStudies.map((c) => [c.id, c]));
    // The simulated market has 8 years up to 2026: 2022 is inside it, 2008 is not.
    expect(byId.get("bonds-in-2022")!.data).toMatchObject({
      source: "simulated",
      episode: true,
      from: "2021-12-31",
      to: "2022-12-30",
    });
    const gfc = byId.get("sixty-forty-2008")!;
    expect(gfc.data.source).toBe("simulated");
    expect(gfc.data.episode).toBe(false);
    expect(gfc.data.to).toBe("2026-11-20");
    for (const c of list.value.caseStudies) expect(c.portfolios.length, c.id).toBeGreaterThan(0);
  });

  it("gives figures equal to an independent computation from the closes", async () => {
    const list = (await (await get("/case-studies/list?lang=es")).json()) as CaseStudyList;
    const check = (c: CaseStudy) => {
      for (const p of c.portfolios) {
        const expected = independentFigures(dataset, p.holdings, c.data.from!, c.data.to!);
        expect(p.performance.totalReturn, `${c.id}/${p.key}`).toBeCloseTo(expected.totalReturn, 9);
        expect(p.performance.volatility, `${c.id}/${p.key}`).toBeCloseTo(expected.volatility, 9);
        expect(p.performance.maxDrawdown, `${c.id}/${p.key}`).toBeCloseTo(expected.maxDrawdown, 9);
        expect(p.path[0]!.value).toBe(100);
        expect(p.path.at(-1)!.value).toBeCloseTo(100 * (1 + expected.totalReturn), 6);
      }
    };
    for (const c of list.caseStudies) if (c.rebalancing === "none") check(c);
    expect(list.caseStudies[0]!.title).toBe("Una cartera 60/40 en 2008");
  });
});

describe.skipIf(!hasMarketData)("a case study on the real dataset", () => {
  it("values the 60/40 portfolio over the episode's own dates", async () => {
    const dir = await sampleOfMarketData(
      ["SPY", "GSPC_INDEX", "IEF", "AGG", "TLT"],
      "education-real-",
    );
    const dataset = await readDataset(dir, { asOf: "2024-12-31" });
    const { database, drop } = await databaseTargets[0]!.open();
    try {
      await importDataset(database.db, dataset, "imported");
      configureMarket(database.db, { asOf: "2024-12-31" });
      const view = await marketView(database.db);
      const file = loadContent().caseStudies.find((c) => c.id === "sixty-forty-2008")!;
      const study = caseStudyOf(view, file, "en");
      expect(study.data).toEqual({
        source: "imported",
        from: "2007-10-09",
        to: "2009-03-09",
        episode: true,
      });
      const stocks = study.portfolios.find((p) => p.key === "all-stocks")!;
      const spy = dataset.prices.get("SPY")!;
      const at = (d: string) => spy.values[spy.dates.indexOf(d)]!;
      // SPY's close ratio over the episode (the dataset's closes), and the S&P 500's known fall.
      expect(stocks.performance.totalReturn).toBeCloseTo(
        at("2009-03-09") / at("2007-10-09") - 1,
        12,
      );
      expect(stocks.performance.totalReturn).toBeGreaterThan(-0.6);
      expect(stocks.performance.totalReturn).toBeLessThan(-0.45);
      const mix = study.portfolios.find((p) => p.key === "sixty-forty")!;
      expect(mix.holdings.map((h) => h.symbol)).toEqual(["SPY", "IEF"]);
      const expected = independentFigures(dataset, mix.holdings, study.data.from!, study.data.to!);
      expect(mix.performance.totalReturn).toBeCloseTo(expected.totalReturn, 9);
      expect(mix.performance.maxDrawdown).toBeCloseTo(expected.maxDrawdown, 9);
      expect(mix.performance.maxDrawdown).toBeLessThan(stocks.performance.maxDrawdown);
    } finally {
      await drop();
      await rm(dir, { recursive: true });
    }
  }, 180_000);
});
